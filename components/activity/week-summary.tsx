import { useTranslations } from "next-intl";
import type { SummaryOutput } from "@/lib/activity/schema";
import { AppList, CategoryBars, ColumnChart } from "./charts";
import { useDuration, useLocalDate } from "./format";

/*
 * The last seven days on /{locale}/activity (`GET /activity/summary`, read by the page on the server): the total and
 * the daily average, time per category, per day and the top apps. Without any records it says how apps report.
 */

export function WeekSummary({ summary }: { summary: SummaryOutput }) {
  const t = useTranslations("Activity");
  const duration = useDuration();
  const localDate = useLocalDate();
  const empty = summary.totalSeconds === 0;
  return (
    <section className="activity-card" aria-labelledby="activity-week-title">
      <header className="activity-card-header">
        <h2 id="activity-week-title">{t("weekTitle")}</h2>
        <p className="activity-muted">
          {t("weekRange", { from: localDate(summary.from, "full"), to: localDate(summary.to, "full") })}
        </p>
      </header>
      <dl className="activity-stats">
        <div>
          <dt>{t("total")}</dt>
          <dd>{duration(summary.totalSeconds)}</dd>
        </div>
        <div>
          <dt>{t("dailyAverage")}</dt>
          <dd>{duration(summary.dailyAverageSeconds)}</dd>
        </div>
      </dl>
      {empty ? (
        <div className="activity-empty">
          <p>{t("weekEmpty")}</p>
          <p className="activity-muted">
            {t.rich("howToReport", {
              code: (chunks) => <code dir="ltr">{chunks}</code>,
              docs: (chunks) => <a href="/docs">{chunks}</a>,
            })}
          </p>
        </div>
      ) : (
        <div className="activity-grid">
          <div className="activity-grid-wide">
            <h3 id="activity-week-days">{t("byDay")}</h3>
            <ColumnChart
              labelledBy="activity-week-days"
              columns={summary.perDay.map(({ date, seconds }) => ({
                key: date,
                seconds,
                axisLabel: localDate(date, "weekday"),
                name: localDate(date, "full"),
              }))}
            />
          </div>
          <div>
            <h3 id="activity-week-categories">{t("byCategory")}</h3>
            <CategoryBars items={summary.categories} labelledBy="activity-week-categories" />
          </div>
          <div>
            <h3 id="activity-week-apps">{t("topApps")}</h3>
            <AppList apps={summary.topApps} labelledBy="activity-week-apps" />
          </div>
        </div>
      )}
      <p className="activity-muted activity-footnote">{t("timeZoneNote", { timeZone: summary.timeZone.replaceAll("_", " ") })}</p>
    </section>
  );
}
