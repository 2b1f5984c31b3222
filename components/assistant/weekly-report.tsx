import { useFormatter, useTranslations } from "next-intl";
import type { WeeklyReportOutput } from "@/lib/notifications/schema";
import { AnsweredByNote } from "./answered-by";
import { GoalProgress } from "./goal-progress";

/*
 * The parts of /{locale}/reports: a report's week as a date range, its line in the list, and the whole report
 * (numbers, goals, time tracked, narrative).
 */

type Formatter = ReturnType<typeof useFormatter>;
const noon = (date: string) => new Date(`${date}T12:00:00Z`);

/** A report's week, "March 2 – 8, 2026", as the language writes a range (also for the server's getFormatter). */
export function weekRange(
  format: Pick<Formatter, "dateTimeRange">,
  report: Pick<WeeklyReportOutput, "weekStart" | "weekEnd">,
): string {
  return format.dateTimeRange(noon(report.weekStart), noon(report.weekEnd), {
    timeZone: "UTC",
    day: "numeric",
    month: "long",
    year: "numeric",
  });
}

export function ReportListItem({ report, locale }: { report: WeeklyReportOutput; locale: string }) {
  const t = useTranslations("WeeklyReport");
  const format = useFormatter();
  return (
    <li>
      <a href={`/${locale}/reports/${report.weekStart}`}>{weekRange(format, report)}</a>
      <span className="report-summary">{t("summary", { completed: report.completed, overdue: report.overdue })}</span>
    </li>
  );
}

export function WeeklyReportView({ report }: { report: WeeklyReportOutput }) {
  const t = useTranslations("WeeklyReport");
  const format = useFormatter();
  const numbers = [
    ["completed", report.completed],
    ["created", report.created],
    ["overdue", report.overdue],
    ["open", report.open],
  ] as const;
  return (
    <>
      <section className="assistant-card" aria-labelledby="report-narrative">
        <h2 id="report-narrative">{t("narrativeTitle")}</h2>
        {report.narrative ? (
          <>
            <p className="assistant-narrative" dir="auto">
              {report.narrative.text}
            </p>
            <AnsweredByNote answeredBy={report.narrative.answeredBy} fallback={report.narrative.fallbackReason !== null} />
          </>
        ) : (
          <p className="assistant-empty">{t("noNarrative")}</p>
        )}
      </section>

      <section className="assistant-card" aria-labelledby="report-numbers">
        <h2 id="report-numbers">{t("numbers")}</h2>
        <dl className="report-numbers">
          {numbers.map(([key, value]) => (
            <div key={key}>
              <dt>{t(key)}</dt>
              <dd>{format.number(value)}</dd>
            </div>
          ))}
        </dl>
      </section>

      <div className="assistant-grid">
        <section className="assistant-card" aria-labelledby="report-goals">
          <h2 id="report-goals">{t("goalsTitle")}</h2>
          {report.goals.length === 0 ? (
            <p className="assistant-empty">{t("noGoals")}</p>
          ) : (
            <ul className="goals">
              {report.goals.map((goal) => (
                <GoalProgress key={goal.id} title={goal.title} progress={goal.progress}>
                  {goal.progressAtStart === null
                    ? t("goalNow", { to: goal.progress })
                    : t("goalMoved", { from: goal.progressAtStart, to: goal.progress })}
                </GoalProgress>
              ))}
            </ul>
          )}
        </section>
        <section className="assistant-card" aria-labelledby="report-time">
          <h2 id="report-time">{t("timeTitle")}</h2>
          <p className={report.timeTrackingAvailable ? "report-time" : "assistant-empty"}>
            {report.timeTrackingAvailable
              ? format.number(report.timeTrackedSeconds / 3600, { style: "unit", unit: "hour", maximumFractionDigits: 1 })
              : t("timeUnavailable")}
          </p>
        </section>
      </div>

      <p className="assistant-empty">
        {t("madeAt", {
          date: format.dateTime(new Date(report.createdAt), {
            timeZone: report.timeZone,
            dateStyle: "medium",
            timeStyle: "short",
          }),
        })}
      </p>
    </>
  );
}
