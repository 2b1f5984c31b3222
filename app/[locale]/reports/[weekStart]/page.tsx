import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getFormatter, getTranslations, setRequestLocale } from "next-intl/server";
import { weekRange, WeeklyReportView } from "@/components/assistant/weekly-report";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { AppError } from "@/lib/api/app-error";
import { tagOfSegment } from "@/lib/i18n/locales";
import { weekStartParams, type WeeklyReportOutput } from "@/lib/notifications/schema";
import { getWeeklyReport } from "@/lib/notifications/service";
import "@/components/assistant/assistant.css";

/**
 * /{locale}/reports/{weekStart}: one weekly report (`/reports/weekly/{weekStart}`): its narrative, numbers, goals
 * and time tracked. A week without a report of the user's is the not-found page. Signed-in only.
 */
type Props = { params: Promise<{ locale: string; weekStart: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "WeeklyReport" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function WeeklyReportPage({ params }: Props) {
  const { locale, weekStart } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/reports/${encodeURIComponent(weekStart)}`));

  const week = weekStartParams.safeParse({ weekStart });
  if (!week.success) notFound();
  let report: WeeklyReportOutput;
  try {
    report = await getWeeklyReport(actor, week.data.weekStart);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") notFound();
    throw error;
  }
  const t = await getTranslations({ locale: tag, namespace: "WeeklyReport" });
  const format = await getFormatter({ locale: tag });
  return (
    <div className="assistant-page">
      <header className="assistant-header">
        <a className="assistant-back" href={`/${locale}/reports`}>
          {t("backToList")}
        </a>
        <h1>{t("reportTitle", { range: weekRange(format, report) })}</h1>
      </header>
      <WeeklyReportView report={report} />
    </div>
  );
}
