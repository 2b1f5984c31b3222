import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { CONNECTOR_KIND_FIELDS } from "@/components/connectors/kinds";
import { tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";

/**
 * /{locale}/settings: the settings home, linking to the profile, the security settings, the account data, the
 * notification settings, the webhooks, the calendar feed and the connections to external systems.
 * Signed-in only: anyone else goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Settings" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

const SECTIONS = [
  { path: "profile", title: "profileLink", hint: "profileLinkHint" },
  { path: "security", title: "securityLink", hint: "securityLinkHint" },
  { path: "account", title: "accountLink", hint: "accountLinkHint" },
] as const;

export default async function SettingsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings`));

  const t = await getTranslations({ locale: tag, namespace: "Settings" });
  const notifications = await getTranslations({ locale: tag, namespace: "NotificationSettings" });
  const webhooks = await getTranslations({ locale: tag, namespace: "WebhookSettings" });
  const connections = await getTranslations({ locale: tag, namespace: "ConnectionSettings" });
  const calendar = await getTranslations({ locale: tag, namespace: "CalendarSettings" });
  return (
    <div className="auth security">
      <header className="security-header">
        <h1>{t("title")}</h1>
        <p className="auth-lead">
          {t.rich("signedInAs", { email: actor.email, strong: (chunks) => <strong dir="ltr">{chunks}</strong> })}
        </p>
      </header>
      <nav className="auth-card settings-nav" aria-label={t("navLabel")}>
        <ul>
          {SECTIONS.map((section) => (
            <li key={section.path}>
              <a href={`/${locale}/settings/${section.path}`}>
                <strong>{t(section.title)}</strong>
                <span>{t(section.hint)}</span>
              </a>
            </li>
          ))}
          <li>
            <a href={`/${locale}/settings/notifications`}>
              <strong>{notifications("settingsLink")}</strong>
              <span>{notifications("settingsLinkHint")}</span>
            </a>
          </li>
          <li>
            <a href={`/${locale}/settings/webhooks`}>
              <strong>{webhooks("settingsLink")}</strong>
              <span>{webhooks("settingsLinkHint")}</span>
            </a>
          </li>
          <li>
            <a href={`/${locale}/settings/calendar`}>
              <strong>{calendar("settingsLink")}</strong>
              <span>{calendar("settingsLinkHint")}</span>
            </a>
          </li>
          {CONNECTOR_KIND_FIELDS.some((definition) => isModuleEnabled(definition.module)) && (
            <li>
              <a href={`/${locale}/settings/connections`}>
                <strong>{connections("settingsLink")}</strong>
                <span>{connections("settingsLinkHint")}</span>
              </a>
            </li>
          )}
        </ul>
      </nav>
    </div>
  );
}
