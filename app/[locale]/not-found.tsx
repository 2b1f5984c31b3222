import { useTranslations } from "next-intl";
import { Link } from "@/i18n/navigation";

export default function LocaleNotFound() {
  const t = useTranslations("Errors");
  return (
    <div className="not-found">
      <h1>{t("notFoundTitle")}</h1>
      <p>{t("notFoundBody")}</p>
      <Link className="button" href="/">
        {t("backHome")}
      </Link>
    </div>
  );
}
