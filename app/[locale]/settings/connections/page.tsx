import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { ConnectionSettings } from "@/components/connectors/connection-settings";
import { CONNECTOR_KIND_FIELDS } from "@/components/connectors/kinds";
import { SettingsHeader } from "@/components/settings/settings-header";
import { listConnections } from "@/lib/connectors/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import { isModuleEnabled } from "@/lib/modules/registry";
import { listUserGroups } from "@/lib/teams/service";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";
import "@/components/settings/webhooks.css";
import "@/components/connectors/connections.css";

/**
 * /{locale}/settings/connections: the user's connections to external systems (Odoo, Moodle, POHODA) and their
 * teams': add one, check it, import and export now, see the runs, renew the webhook secret, delete it. Only kinds
 * whose module is on are offered (and listed). Signed-in only: anyone else goes to the sign-in page.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "ConnectionSettings" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function ConnectionSettingsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings/connections`));

  const kinds = CONNECTOR_KIND_FIELDS.filter((definition) => isModuleEnabled(definition.module)).map(
    (definition) => definition.kind,
  );
  const { items } = await listConnections(actor);
  const teams = (await listUserGroups(actor)).items.map((team) => ({
    id: team.id,
    name: team.name,
    canAdd: team.role === "owner" || team.role === "admin",
  }));
  const t = await getTranslations({ locale: tag, namespace: "ConnectionSettings" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="auth security">
      <SettingsHeader locale={locale} tag={tag} title={t("title")} lead={t("lead")} />
      <NextIntlClientProvider
        locale={tag}
        messages={{ ConnectionSettings: messages.ConnectionSettings, WebhookSettings: messages.WebhookSettings }}
        timeZone={actor.timeZone}
      >
        <ConnectionSettings initial={items} kinds={kinds} teams={teams} />
      </NextIntlClientProvider>
    </div>
  );
}
