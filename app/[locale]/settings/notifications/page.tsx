import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { NotificationSettingsForm } from "@/components/settings/notification-settings";
import { PushDevices } from "@/components/settings/push-devices";
import { SettingsHeader } from "@/components/settings/settings-header";
import { getSettings } from "@/lib/notifications/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";

/**
 * /{locale}/settings/notifications: when the daily summary and the weekly report come and where they go
 * (`/notification-settings`), and push notifications for this browser and the user's other devices (`/push/...`).
 * Signed-in only: anyone else goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "NotificationSettings" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function NotificationSettingsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings/notifications`));

  const settings = await getSettings(actor);
  const t = await getTranslations({ locale: tag, namespace: "NotificationSettings" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="auth security">
      <SettingsHeader locale={locale} tag={tag} title={t("title")} lead={t("lead")} />
      <NextIntlClientProvider
        locale={tag}
        messages={{ NotificationSettings: messages.NotificationSettings }}
        timeZone={actor.timeZone}
      >
        <NotificationSettingsForm
          initial={{
            dailySummaryTime: settings.dailySummaryTime,
            weeklyReport: settings.weeklyReport,
            weeklyReportWhenQuiet: settings.weeklyReportWhenQuiet,
            summaryChannels: settings.summaryChannels,
            timeZone: settings.timeZone,
          }}
        />
        <PushDevices />
      </NextIntlClientProvider>
    </div>
  );
}
