/**
 * The interface languages, by Spolu's codes: the API's `locale` and `lang` values, messages/<code>.json
 * and the URL prefix of every page (`/en`, `/ua`...). `ua` is Spolu's code for Ukrainian, whose
 * BCP 47 tag is `uk`: Intl (plurals, dates, numbers), `<html lang>` and next-intl use the tags.
 */
export const LOCALES = ["en", "cs", "he", "ru", "ua"] as const;
export type Locale = (typeof LOCALES)[number];
export const DEFAULT_LOCALE: Locale = "en";

const TAG_BY_LOCALE = { en: "en", cs: "cs", he: "he", ru: "ru", ua: "uk" } as const satisfies Record<Locale, string>;
/** A language's BCP 47 tag. */
export type LanguageTag = (typeof TAG_BY_LOCALE)[Locale];
export const LANGUAGE_TAGS: readonly LanguageTag[] = LOCALES.map((locale) => TAG_BY_LOCALE[locale]);

/** Each language's name in that language, for the language switcher. */
export const LOCALE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  cs: "Čeština",
  he: "עברית",
  ru: "Русский",
  ua: "Українська",
};

/**
 * Each language's name in English, for the prompts sent to an AI endpoint ("Answer in Czech"). The prompts are
 * instructions to a model, never shown to the user, and are written in English whatever the user's language (models
 * follow English instructions most reliably); only the language of the answer they ask for changes.
 */
export const ENGLISH_LANGUAGE_NAMES: Readonly<Record<Locale, string>> = {
  en: "English",
  cs: "Czech",
  he: "Hebrew",
  ru: "Russian",
  ua: "Ukrainian",
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === "string" && (LOCALES as readonly string[]).includes(value);
}

/** Spolu's code for a user's locale, or the default locale for anything it does not speak (as the pages do). */
export function localeOrDefault(locale: string): Locale {
  return isLocale(locale) ? locale : DEFAULT_LOCALE;
}

/** The BCP 47 tag for Intl and `<html lang>`: `ua` → `uk`. */
export function languageTag(locale: Locale): LanguageTag {
  return TAG_BY_LOCALE[locale];
}

/** Spolu's code for a BCP 47 tag we speak (`uk` → `ua`), or null. */
export function localeOfTag(tag: string): Locale | null {
  return LOCALES.find((locale) => TAG_BY_LOCALE[locale] === tag) ?? null;
}

/** The language tag for a page's `[locale]` segment (`ua` → `uk`), or null when it is no locale. */
export function tagOfSegment(segment: string): LanguageTag | null {
  return isLocale(segment) ? languageTag(segment) : null;
}

/** Whether a language (by code or tag) is written right to left. */
export function isRtl(locale: Locale | LanguageTag): boolean {
  return locale === "he";
}

/** Language subtags browsers send that name one of our locales under another code. */
const LANGUAGE_ALIASES: Readonly<Record<string, Locale>> = { uk: "ua", iw: "he" };

/**
 * The best locale for an `Accept-Language` header (RFC 9110 §12.5.4): the highest-weighted language
 * whose primary subtag we speak (`cs-CZ` → `cs`, `uk` → `ua`), ties kept in header order; `q=0`
 * excludes a language; `*` and anything unknown fall back to the default.
 */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale {
  if (!header) return DEFAULT_LOCALE;
  const ranges = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...params] = part.trim().split(";");
      const qParam = params.map((param) => param.trim()).find((param) => /^q=/i.test(param));
      const q = qParam === undefined ? 1 : Number(qParam.slice(2));
      return { language: tag.trim().toLowerCase().split("-")[0] ?? "", q: Number.isFinite(q) ? q : 0, index };
    })
    .filter(({ language, q }) => language !== "" && q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  for (const { language } of ranges) {
    if (language === "*") return DEFAULT_LOCALE;
    const locale = LANGUAGE_ALIASES[language] ?? language;
    if (isLocale(locale)) return locale;
  }
  return DEFAULT_LOCALE;
}
