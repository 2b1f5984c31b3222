import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { CalendarFeeds } from "@/components/settings/calendar-feeds";
import { SettingsHeader } from "@/components/settings/settings-header";
import { listCalendarFeeds } from "@/lib/calendar-feeds/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";
import "@/components/settings/settings.css";
import "@/components/settings/webhooks.css";

/**
 * /{locale}/settings/calendar: the user's calendar feeds (`/calendar-feeds`): make one and copy its address (shown
 * once), see when each was last fetched, revoke it. Signed-in only: anyone else goes to the sign-in page, which
 * brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "CalendarSettings" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function CalendarSettingsPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/settings/calendar`));

  const { items } = await listCalendarFeeds(actor);
  const t = await getTranslations({ locale: tag, namespace: "CalendarSettings" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="auth security">
      <SettingsHeader locale={locale} tag={tag} title={t("title")} lead={t("lead", { timeZone: actor.timeZone })} />
      <NextIntlClientProvider locale={tag} messages={{ CalendarSettings: messages.CalendarSettings }} timeZone={actor.timeZone}>
        <CalendarFeeds initial={items} />
      </NextIntlClientProvider>
    </div>
  );
}
