import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { SettingsHeader } from "@/components/settings/settings-header";
import { WebhookSettings } from "@/components/settings/webhook-settings";
import { tagOfSegment } from "@/lib/i18n/locales";
import { DISABLE_AFTER_FAILED_DELIVERIES } from "@/lib/webhooks/deliver";
import { WEBHOOK_EVENT_TYPES } from "@/lib/webhooks/schema";
import { listWebhookEndpoints, MAX_ENDPOINTS } from "@/lib/webhooks/service";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";
import "@/components/settings/webhooks.css";

/**
 * /{locale}/settings/webhooks: the user's outgoing webhooks (`/webhooks`): add one, see its secret once, change,
 * pause, test and delete it, and follow its deliveries. Signed-in only: anyone else goes to the sign-in page, which
 * brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "WebhookSettings" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function WebhookSettingsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings/webhooks`));

  const { items } = await listWebhookEndpoints(actor);
  const t = await getTranslations({ locale: tag, namespace: "WebhookSettings" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="auth security">
      <SettingsHeader locale={locale} tag={tag} title={t("title")} lead={t("lead")}>
        <p className="auth-hint">{t.rich("docsHint", { docs: (chunks) => <a href="/docs">{chunks}</a> })}</p>
      </SettingsHeader>
      <NextIntlClientProvider locale={tag} messages={{ WebhookSettings: messages.WebhookSettings }} timeZone={actor.timeZone}>
        <WebhookSettings
          initial={items}
          eventTypes={Object.keys(WEBHOOK_EVENT_TYPES)}
          failureLimit={DISABLE_AFTER_FAILED_DELIVERIES}
          maxEndpoints={MAX_ENDPOINTS}
        />
      </NextIntlClientProvider>
    </div>
  );
}
