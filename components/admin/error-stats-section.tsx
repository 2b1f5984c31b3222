import type { createFormatter } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { ErrorStatsOutput } from "@/lib/errors/schema";
import { adminHref, ERROR_PERIODS, type AdminQuery } from "./admin-query";

/*
 * The error statistics of /{locale}/admin (`GET /errors/stats` for the chosen period): the total, a bar per UTC day
 * (plain CSS; every bar also says its day and count in words, for screen readers), and the counts by status and by
 * route.
 */

const DAY_MS = 24 * 3600 * 1000;
const TOP_ROUTES = 10;

/** Every UTC day from `since` to `until`, with its count (0 for days without errors). */
function everyDay(stats: ErrorStatsOutput, until: Date): { day: string; count: number }[] {
  const counts = new Map(stats.byDay.map(({ day, count }) => [day, count]));
  const days: { day: string; count: number }[] = [];
  for (let at = Date.parse(`${stats.since.slice(0, 10)}T00:00:00Z`); at <= until.getTime(); at += DAY_MS) {
    const day = new Date(at).toISOString().slice(0, 10);
    days.push({ day, count: counts.get(day) ?? 0 });
  }
  return days;
}

export async function ErrorStatsSection({
  locale,
  query,
  stats,
  now,
  format,
}: {
  locale: string;
  query: AdminQuery;
  stats: ErrorStatsOutput;
  now: Date;
  format: ReturnType<typeof createFormatter>;
}) {
  const t = await getTranslations("Admin");
  const days = everyDay(stats, now);
  const highest = Math.max(1, ...days.map((day) => day.count));
  // Visible day labels: all of a week, else about five, counted back from today so that today always has one
  // (the words for screen readers name every day).
  const labelEvery = days.length <= 8 ? 1 : Math.ceil(days.length / 5);
  const labelled = (index: number) => (days.length - 1 - index) % labelEvery === 0;
  const dayName = (day: string) =>
    format.dateTime(new Date(`${day}T00:00:00Z`), { timeZone: "UTC", month: "short", day: "numeric" });
  return (
    <section className="admin-card" aria-labelledby="errors-title">
      <h2 id="errors-title">{t("errorsTitle")}</h2>
      <nav className="admin-tabs" aria-label={t("periodLabel")}>
        <ul>
          {ERROR_PERIODS.map((period) => (
            <li key={period}>
              <a
                href={`${adminHref(locale, query, { days: period })}#errors-title`}
                aria-current={period === query.days ? "page" : undefined}
              >
                {t("periodDays", { days: period })}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      <p className="admin-summary">{t("errorsTotal", { count: stats.total })}</p>
      {stats.total > 0 && (
        <>
          <h3 id="by-day-title">{t("byDayTitle")}</h3>
          <ol className="admin-chart" aria-labelledby="by-day-title">
            {days.map(({ day, count }, index) => (
              <li key={day} style={{ "--share": `${(count / highest) * 100}%` } as React.CSSProperties} data-count={count}>
                <span className="admin-visually-hidden">{t("dayCount", { date: dayName(day), count })}</span>
                <span className="admin-bar-value" aria-hidden="true">
                  {count > 0 ? format.number(count) : ""}
                </span>
                <span className="admin-bar" aria-hidden="true" />
                <span className="admin-bar-day" aria-hidden="true">
                  {labelled(index) ? dayName(day) : ""}
                </span>
              </li>
            ))}
          </ol>
          <div className="admin-split">
            <table className="admin-table admin-compact">
              <caption>{t("byStatusTitle")}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("statusHeader")}</th>
                  <th scope="col">{t("countHeader")}</th>
                </tr>
              </thead>
              <tbody>
                {stats.byStatus.map(({ status, count }) => (
                  <tr key={status ?? "none"}>
                    <th scope="row">{status ?? t("statusNone")}</th>
                    <td>{format.number(count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <table className="admin-table admin-compact">
              <caption>{t("byRouteTitle", { count: Math.min(TOP_ROUTES, stats.byRoute.length) })}</caption>
              <thead>
                <tr>
                  <th scope="col">{t("routeHeader")}</th>
                  <th scope="col">{t("countHeader")}</th>
                </tr>
              </thead>
              <tbody>
                {stats.byRoute.slice(0, TOP_ROUTES).map(({ route, count }) => (
                  <tr key={route ?? "none"}>
                    <th scope="row" className="admin-code" dir={route ? "ltr" : undefined}>
                      {route ?? t("routeNone")}
                    </th>
                    <td>{format.number(count)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
