import { describe, expect, test } from "vitest";
import { groupLanguage, groupName } from "./names";

describe("groupLanguage", () => {
  test("the language asked for, else the profile locale, else English", () => {
    expect(groupLanguage("he", "cs")).toBe("he");
    expect(groupLanguage(undefined, "ua")).toBe("ua");
    expect(groupLanguage(undefined, "de")).toBe("en");
    expect(groupLanguage(undefined, "")).toBe("en");
  });
});

describe("groupName", () => {
  const full = { en: "Work", cs: "Práce", he: "עבודה", ru: "Работа", ua: "Робота" };

  test("the name in the language when the group has one", () => {
    expect(groupName(full, "cs")).toBe("Práce");
    expect(groupName(full, "ua")).toBe("Робота");
  });

  test("falls back to English, then to the first name the group has (en, cs, he, ru, ua)", () => {
    expect(groupName({ en: "Garden", ru: "Сад" }, "cs")).toBe("Garden");
    expect(groupName({ ua: "Сад", he: "גן" }, "cs")).toBe("גן");
    expect(groupName({ ua: "Сад" }, "en")).toBe("Сад");
  });
});
