import { defineRouting } from "next-intl/routing";
import { LOCALE_COOKIE } from "@/lib/i18n/locale-cookie";
import { DEFAULT_LOCALE, LANGUAGE_TAGS, type LanguageTag, LOCALES, languageTag } from "@/lib/i18n/locales";

/**
 * next-intl runs on BCP 47 tags so that Intl formats correctly (Ukrainian is `uk`), while every page
 * URL starts with Spolu's code: `/en`, `/he`, `/ua`... `/` redirects to the negotiated locale: the NEXT_LOCALE
 * cookie (the profile's language since signing in, or the switcher's last choice), else Accept-Language.
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
  // The switcher's choice lasts as long as the one the API sets on sign-in (next-intl's default ends with the session).
  localeCookie: LOCALE_COOKIE,
});
