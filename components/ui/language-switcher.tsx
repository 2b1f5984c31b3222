"use client";

import { useLocale, useTranslations } from "next-intl";
import { Link, usePathname } from "@/i18n/navigation";
import { LOCALE_NAMES, LOCALES, languageTag } from "@/lib/i18n/locales";

/** Links to the current page in every other language; the current one is marked, not linked. */
export function LanguageSwitcher() {
  const t = useTranslations("Nav");
  const current = useLocale(); // a BCP 47 tag, see i18n/routing.ts
  const pathname = usePathname();
  return (
    <nav className="language-switcher" aria-label={t("chooseLanguage")}>
      <ul>
        {LOCALES.map((locale) => {
          const tag = languageTag(locale);
          return (
            <li key={locale}>
              {tag === current ? (
                <span aria-current="true" title={t("currentLanguage", { language: LOCALE_NAMES[locale] })}>
                  {LOCALE_NAMES[locale]}
                </span>
              ) : (
                <Link href={pathname} locale={tag} hrefLang={tag} lang={tag}>
                  {LOCALE_NAMES[locale]}
                </Link>
              )}
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
