import { useTranslations } from "next-intl";
import { LOCALES } from "@/lib/i18n/locales";

export function SiteFooter() {
  const t = useTranslations();
  return (
    <footer className="site-footer">
      <p>{t("Home.footerNote")}</p>
      <p>
        {t("Common.languageCount", { count: LOCALES.length })} · <a href="/docs">{t("Nav.apiDocs")}</a>
      </p>
    </footer>
  );
}
