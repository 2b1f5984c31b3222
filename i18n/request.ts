import { hasLocale } from "next-intl";
import { getRequestConfig } from "next-intl/server";
import { DEFAULT_LOCALE, localeOfTag } from "@/lib/i18n/locales";
import { routing } from "./routing";

/** The locale and messages for one request (found by next.config.ts through createNextIntlPlugin). */
export default getRequestConfig(async ({ requestLocale }) => {
  const requested = await requestLocale;
  const locale = hasLocale(routing.locales, requested) ? requested : routing.defaultLocale;
  const file = localeOfTag(locale) ?? DEFAULT_LOCALE; // messages/ua.json holds Ukrainian (tag uk)
  return {
    locale,
    messages: (await import(`../messages/${file}.json`)).default,
  };
});
