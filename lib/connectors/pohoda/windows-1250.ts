/*
 * POHODA reads and writes XML in Windows-1250 (Stormware: "XML data jsou uložena v kódování Windows-1250"). The
 * table comes from the WHATWG decoder built into Node (TextDecoder("windows-1250")), reversed for encoding.
 *
 * Characters Windows-1250 lacks are not sent as `&#…;` references (POHODA's handling of those is not reliable),
 * but changed, in this order:
 *  1. Cyrillic and Hebrew letters are transliterated to Latin (Cyrillic after the Czech convention, one table for Russian and Ukrainian: Ж→Ž, Ч→Č,
 *     Ш→Š, Щ→Šč, Я→Ja, Ю→Ju, Ь dropped; Hebrew consonants only: שלום → šlwm), so names stay readable;
 *  2. other letters with diacritics lose them (ő→ö stays, ŭ→u, ñ→n) when the base letter exists;
 *  3. a few signs get their plain twin (− → -, ≤ → <=), everything else becomes "?".
 */

const decoder = new TextDecoder("windows-1250");
const ENCODE = new Map<string, number>();
for (let byte = 0; byte < 256; byte += 1) {
  const char = decoder.decode(Uint8Array.of(byte));
  if (char !== "\uFFFD" && !ENCODE.has(char)) ENCODE.set(char, byte);
}

const CYRILLIC: Record<string, string> = {
  а: "a",
  б: "b",
  в: "v",
  г: "g",
  ґ: "g",
  д: "d",
  е: "e",
  ё: "jo",
  є: "je",
  ж: "ž",
  з: "z",
  и: "i",
  і: "i",
  ї: "ji",
  й: "j",
  к: "k",
  л: "l",
  м: "m",
  н: "n",
  о: "o",
  п: "p",
  р: "r",
  с: "s",
  т: "t",
  у: "u",
  ф: "f",
  х: "ch",
  ц: "c",
  ч: "č",
  ш: "š",
  щ: "šč",
  ъ: "",
  ы: "y",
  ь: "",
  э: "e",
  ю: "ju",
  я: "ja",
};

const HEBREW: Record<string, string> = {
  א: "",
  ב: "b",
  ג: "g",
  ד: "d",
  ה: "h",
  ו: "w",
  ז: "z",
  ח: "ch",
  ט: "t",
  י: "j",
  ך: "ch",
  כ: "k",
  ל: "l",
  ם: "m",
  מ: "m",
  ן: "n",
  נ: "n",
  ס: "s",
  ע: "",
  ף: "f",
  פ: "p",
  ץ: "c",
  צ: "c",
  ק: "k",
  ר: "r",
  ש: "š",
  ת: "t",
};

const PLAIN: Record<string, string> = { "−": "-", "‐": "-", "⁄": "/", "≤": "<=", "≥": ">=" };

/** One character's stand-in from the rules above ("?" when there is none); never a character outside the table. */
function standIn(char: string): string {
  const lower = char.toLowerCase();
  const upper = lower !== char;
  const latin = CYRILLIC[lower] ?? HEBREW[char];
  if (latin !== undefined) return upper && latin ? latin[0]!.toUpperCase() + latin.slice(1) : latin;
  if (/\p{M}/u.test(char)) return ""; // A combining mark (Hebrew points, a lone accent): dropped.
  const plain = PLAIN[char];
  if (plain !== undefined) return plain;
  const composed = char.normalize("NFC");
  if (ENCODE.has(composed)) return composed;
  const base = char.normalize("NFD").replace(/\p{M}/gu, "");
  if (base && [...base].every((each) => ENCODE.has(each))) return base;
  return "?";
}

/** The text as Windows-1250 would keep it: what POHODA will store (see the rules above). */
export function toWindows1250Text(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) out += ENCODE.has(char) ? char : standIn(char);
  return out;
}

/** Encodes text as Windows-1250 bytes, changing what the encoding lacks as `toWindows1250Text` does. */
export function encodeWindows1250(text: string): Buffer {
  const kept = toWindows1250Text(text);
  const bytes = Buffer.alloc(kept.length);
  let length = 0;
  for (const char of kept) bytes[length++] = ENCODE.get(char) ?? 0x3f;
  return bytes.subarray(0, length);
}

export function decodeWindows1250(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}
