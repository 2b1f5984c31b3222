import type { ReactNode } from "react";
import { getTranslations } from "next-intl/server";

/** The header of a settings page: the way back to /{locale}/settings, the page's title and lead, and any extra lines. */
export async function SettingsHeader(props: {
  locale: string;
  tag: string;
  title: string;
  lead: ReactNode;
  children?: ReactNode;
}) {
  const t = await getTranslations({ locale: props.tag, namespace: "Settings" });
  return (
    <header className="security-header">
      <a className="settings-back" href={`/${props.locale}/settings`}>
        {t("backToSettings")}
      </a>
      <h1>{props.title}</h1>
      <p className="auth-lead">{props.lead}</p>
      {props.children}
    </header>
  );
}
