import { headers } from "next/headers";
import { isLocale, localeFromAcceptLanguage, type Locale } from "@/lib/i18n/locales";

/** The invitation pages' language: `?lang=` when it names one of ours, else the browser's (Accept-Language), else English. */
export async function inviteLocale(lang?: string | string[]): Promise<Locale> {
  const requested = Array.isArray(lang) ? lang[0] : lang;
  if (isLocale(requested)) return requested;
  return localeFromAcceptLanguage((await headers()).get("accept-language"));
}
