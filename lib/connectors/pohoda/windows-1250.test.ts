import { describe, expect, test } from "vitest";
import { decodeWindows1250, encodeWindows1250, toWindows1250Text } from "./windows-1250";

describe("Windows-1250", () => {
  test("Czech and Slovak text round-trips byte for byte as the code page defines it", () => {
    const text = "Příliš žluťoučký kůň úpěl ďábelské ódy – ĽŠČŤŽÝÁÍÉ ôä „uvozovky“ 1 000 Kč";
    const bytes = encodeWindows1250(text);
    expect(bytes.length).toBe([...text].length);
    // ř, š, ž, ť, ů, ě, ď: Windows-1250's own bytes, not UTF-8's two.
    expect([...encodeWindows1250("řšžťůěď")]).toEqual([0xf8, 0x9a, 0x9e, 0x9d, 0xf9, 0xec, 0xef]);
    expect(decodeWindows1250(bytes)).toBe(text);
  });

  test("Cyrillic and Hebrew are transliterated, keeping capitals", () => {
    expect(toWindows1250Text("Юлия Щербакова, Київ")).toBe("Julija Ščerbakova, Kijiv");
    expect(toWindows1250Text("Жук Чайка")).toBe("Žuk Čajka");
    expect(toWindows1250Text("שָׁלוֹם דוד")).toBe("šlwm dwd");
    expect(decodeWindows1250(encodeWindows1250("Шалом"))).toBe("Šalom");
  });

  test("other letters lose their diacritics; what has no stand-in becomes ?", () => {
    expect(toWindows1250Text("Ŭ ñ ø ő")).toBe("U n ? ő");
    expect(toWindows1250Text("a…b−c 😀 中")).toBe("a…b-c ? ?");
    expect(encodeWindows1250("😀")).toEqual(Buffer.from("?"));
  });
});
