import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { NextIntlClientProvider } from "next-intl";
import { getMessages, getTranslations, setRequestLocale } from "next-intl/server";
import { ActivityData } from "@/components/activity/activity-data";
import { DayView } from "@/components/activity/day-view";
import { WeekAnalysis } from "@/components/activity/week-analysis";
import { WeekSummary } from "@/components/activity/week-summary";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { requirePageModule } from "@/components/modules/require-page-module";
import { getDaily, getSummary } from "@/lib/activity/service";
import { tagOfSegment } from "@/lib/i18n/locales";
import "@/components/auth/auth.css";
import "@/components/activity/activity.css";

/**
 * /{locale}/activity: the phone usage the user's apps reported. The last seven days and today are read on the
 * server (no empty first paint); other days and the analysis are asked for from the browser. Signed-in only:
 * anyone else goes to the sign-in page, which brings them back here.
 */
type Props = { params: Promise<{ locale: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "Activity" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function ActivityPage({ params }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  requirePageModule("activity");
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/activity`));

  const summary = await getSummary(actor, {});
  const today = await getDaily(actor, { date: summary.to });
  const t = await getTranslations({ locale: tag, namespace: "Activity" });
  const messages = await getMessages({ locale: tag });
  return (
    <div className="activity">
      <header className="activity-header">
        <h1>{t("title")}</h1>
        <p className="activity-lead">{t("lead")}</p>
      </header>
      <NextIntlClientProvider locale={tag} messages={{ Activity: messages.Activity }} timeZone={actor.timeZone}>
        <WeekSummary summary={summary} />
        <DayView initial={today} today={summary.to} />
        <WeekAnalysis locale={locale} />
        <ActivityData />
      </NextIntlClientProvider>
    </div>
  );
}
