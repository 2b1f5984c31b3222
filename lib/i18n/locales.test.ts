import { describe, expect, test } from "vitest";
import { isLocale, isRtl, LANGUAGE_TAGS, languageTag, localeFromAcceptLanguage, localeOfTag, tagOfSegment } from "./locales";

describe("localeFromAcceptLanguage", () => {
  test.each([
    [null, "en"],
    ["", "en"],
    ["en-US,en;q=0.9", "en"],
    ["cs-CZ,cs;q=0.9,en;q=0.8", "cs"],
    ["uk-UA,uk;q=0.9", "ua"],
    ["uk", "ua"],
    ["iw", "he"],
    ["he-IL", "he"],
    ["de-DE,de;q=0.9,ru;q=0.8,en;q=0.7", "ru"],
    ["en;q=0.5,cs;q=0.8", "cs"],
    ["fr, ru;q=0.9, cs;q=0.9", "ru"],
    ["cs;q=0, ru;q=0.1", "ru"],
    ["*", "en"],
    ["de, *;q=0.5", "en"],
    ["FR-ca, UK;Q=0.7", "ua"],
    ["garbage;;;,,", "en"],
  ] as const)("%s → %s", (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });
});

test("isLocale knows our codes, not the browsers' ones", () => {
  expect(isLocale("ua")).toBe(true);
  expect(isLocale("uk")).toBe(false);
  expect(isLocale(undefined)).toBe(false);
});

test("only Hebrew is right-to-left", () => {
  expect(isRtl("he")).toBe(true);
  expect(isRtl("en")).toBe(false);
  expect(isRtl("ru")).toBe(false);
});

test("languageTag gives the BCP 47 tag for Ukrainian", () => {
  expect(languageTag("ua")).toBe("uk");
  expect(languageTag("cs")).toBe("cs");
});

test("localeOfTag maps tags back to Spolu's codes", () => {
  expect(localeOfTag("uk")).toBe("ua");
  expect(localeOfTag("he")).toBe("he");
  expect(localeOfTag("ua")).toBeNull();
  expect(LANGUAGE_TAGS).toEqual(["en", "cs", "he", "ru", "uk"]);
});

test("every tag is one Intl knows, so plurals and dates come out right", () => {
  for (const tag of LANGUAGE_TAGS) {
    expect(new Intl.PluralRules(tag).resolvedOptions().locale).toBe(tag);
  }
  expect(new Intl.PluralRules("uk").select(5)).toBe("many");
});

test("tagOfSegment reads a page's [locale] segment", () => {
  expect(tagOfSegment("ua")).toBe("uk");
  expect(tagOfSegment("cs")).toBe("cs");
  expect(tagOfSegment("uk")).toBeNull();
  expect(tagOfSegment("favicon.ico")).toBeNull();
});
