"use client";

import { useLocale, useTranslations } from "next-intl";
import { Link, usePathname } from "@/i18n/navigation";
import { DEFAULT_LOCALE, LOCALE_NAMES, LOCALES, languageTag, localeOfTag } from "@/lib/i18n/locales";
import { ChevronDownIcon, GlobeIcon } from "./shell-icons";
import { useDisclosure } from "./use-disclosure";

/**
 * Links to the current page in every other language; the current one is marked, not linked. A wide header shows
 * them in a menu under a button naming the current language; the phone menu lists them as they are (shell.css).
 * Following one also remembers the language for `/` (next-intl writes the NEXT_LOCALE cookie).
 */
export function LanguageSwitcher() {
  const t = useTranslations("Nav");
  const current = useLocale(); // a BCP 47 tag, see i18n/routing.ts
  const pathname = usePathname();
  const { open, rootProps, buttonProps, panelProps } = useDisclosure(`${current}${pathname}`);
  const currentName = LOCALE_NAMES[localeOfTag(current) ?? DEFAULT_LOCALE];
  return (
    <nav className="language-switcher language-menu" aria-label={t("chooseLanguage")}>
      <div className="menu-root" data-open={open || undefined} {...rootProps}>
        <button className="menu-toggle" {...buttonProps}>
          <GlobeIcon size={18} />
          <span lang={current}>{currentName}</span>
          <ChevronDownIcon size={16} />
        </button>
        <ul className="menu-panel" {...panelProps}>
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
      </div>
    </nav>
  );
}
