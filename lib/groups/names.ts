import type { GroupNames } from "../db/schema/tasks";
import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from "../i18n/locales";

/** The language to name groups in: the one asked for, else the user's profile locale, else English. */
export function groupLanguage(requested: Locale | undefined, profileLocale: string): Locale {
  return requested ?? (isLocale(profileLocale) ? profileLocale : DEFAULT_LOCALE);
}

/**
 * A group's name in a language; when it has none in that language, its English name, then the first it
 * has (in the order en, cs, he, ru, ua). Every group keeps at least one name.
 */
export function groupName(names: GroupNames, lang: Locale): string {
  return names[lang] ?? names[DEFAULT_LOCALE] ?? LOCALES.map((locale) => names[locale]).find(Boolean) ?? "";
}
