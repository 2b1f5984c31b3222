import type { Metadata } from "next";
import { notFound, redirect } from "next/navigation";
import { getTranslations, setRequestLocale } from "next-intl/server";
import { ReportListItem } from "@/components/assistant/weekly-report";
import { signInPath } from "@/components/auth/next-path";
import { pageActor } from "@/components/auth/page-session";
import { tagOfSegment } from "@/lib/i18n/locales";
import { listReportsQuery } from "@/lib/notifications/schema";
import { listWeeklyReports } from "@/lib/notifications/service";
import "@/components/assistant/assistant.css";

/**
 * /{locale}/reports (?cursor=YYYY-MM-DD for older ones): the user's weekly reports, newest first
 * (`/reports/weekly`), each a link to /{locale}/reports/{weekStart}. Signed-in only.
 */
type Props = { params: Promise<{ locale: string }>; searchParams: Promise<{ cursor?: string | string[] }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const tag = tagOfSegment((await params).locale);
  if (!tag) return {};
  const t = await getTranslations({ locale: tag, namespace: "WeeklyReport" });
  return { title: t("metaTitle"), robots: { index: false, follow: false } };
}

export default async function ReportsPage({ params, searchParams }: Props) {
  const { locale } = await params;
  const tag = tagOfSegment(locale);
  if (!tag) notFound();
  setRequestLocale(tag);
  const actor = await pageActor();
  if (!actor) redirect(signInPath(locale, `/${locale}/reports`));

  // A cursor that is not one shows the newest reports, as without it.
  const asked = listReportsQuery.safeParse({ cursor: (await searchParams).cursor });
  const cursor = asked.success ? asked.data.cursor : undefined;
  const page = await listWeeklyReports(actor, { limit: 20, cursor });
  const t = await getTranslations({ locale: tag, namespace: "WeeklyReport" });
  return (
    <div className="assistant-page">
      <header className="assistant-header">
        <h1>{t("title")}</h1>
        <p className="assistant-lead">{t("lead")}</p>
      </header>
      <div className="assistant-card">
        {page.items.length === 0 ? (
          <p className="assistant-empty">{t("empty")}</p>
        ) : (
          <ul className="report-list">
            {page.items.map((report) => (
              <ReportListItem key={report.weekStart} report={report} locale={locale} />
            ))}
          </ul>
        )}
      </div>
      {(cursor || page.nextCursor) && (
        <nav className="assistant-pager" aria-label={t("title")}>
          {cursor && <a href={`/${locale}/reports`}>{t("newest")}</a>}
          {page.nextCursor && <a href={`/${locale}/reports?cursor=${page.nextCursor}`}>{t("older")}</a>}
        </nav>
      )}
    </div>
  );
}
