import { defineRouting } from "next-intl/routing";
import { DEFAULT_LOCALE, LANGUAGE_TAGS, type LanguageTag, LOCALES, languageTag } from "@/lib/i18n/locales";

/**
 * next-intl runs on BCP 47 tags so that Intl formats correctly (Ukrainian is `uk`), while every page
 * URL starts with Spolu's code: `/en`, `/he`, `/ua`... `/` redirects to the negotiated locale.
 */
export const routing = defineRouting({
  locales: LANGUAGE_TAGS,
  defaultLocale: languageTag(DEFAULT_LOCALE),
  localePrefix: {
    mode: "always",
    prefixes: Object.fromEntries(
      LOCALES.filter((locale) => languageTag(locale) !== locale).map((locale) => [languageTag(locale), `/${locale}`]),
    ) as Partial<Record<LanguageTag, string>>,
  },
});
