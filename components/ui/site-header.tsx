import { useTranslations } from "next-intl";
import { Link } from "@/i18n/navigation";
import { LanguageSwitcher } from "./language-switcher";
import { Logo } from "./logo";

export function SiteHeader() {
  const t = useTranslations();
  return (
    <header className="site-header">
      <Link href="/" className="brand" aria-label={`${t("Common.appName")} – ${t("Nav.home")}`}>
        <Logo />
        <span>{t("Common.appName")}</span>
      </Link>
      <nav className="site-nav" aria-label={t("Nav.mainNavigation")}>
        <a href="/docs">{t("Nav.apiDocs")}</a>
      </nav>
      <LanguageSwitcher />
    </header>
  );
}
