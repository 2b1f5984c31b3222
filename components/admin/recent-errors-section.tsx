import type { createFormatter } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { ErrorLogOutput } from "@/lib/errors/schema";
import { adminHref, ERROR_SOURCES, RECENT_ERRORS, type AdminQuery } from "./admin-query";

/*
 * The most recent errors of /{locale}/admin (`GET /errors/recent`), newest first, of both kinds or one: when,
 * which kind (the server's own 5xx answers, or what browsers and apps reported), the status and route, the
 * message, and the request id to find the server log lines by. On narrow screens each error is a card.
 */
export async function RecentErrorsSection({
  locale,
  query,
  errors,
  format,
}: {
  locale: string;
  query: AdminQuery;
  errors: ErrorLogOutput[];
  format: ReturnType<typeof createFormatter>;
}) {
  const t = await getTranslations("Admin");
  const filters = [
    { source: null, label: t("sourceAll") },
    ...ERROR_SOURCES.map((source) => ({ source, label: source === "server" ? t("sourceServer") : t("sourceClient") })),
  ];
  const columns = {
    time: t("columnTime"),
    kind: t("columnKind"),
    where: t("columnWhere"),
    message: t("columnMessage"),
    request: t("columnRequest"),
  };
  return (
    <section className="admin-card" aria-labelledby="recent-title">
      <h2 id="recent-title">{t("recentTitle")}</h2>
      <nav className="admin-tabs" aria-label={t("sourceLabel")}>
        <ul>
          {filters.map(({ source, label }) => (
            <li key={label}>
              <a
                href={`${adminHref(locale, query, { source })}#recent-title`}
                aria-current={source === query.source ? "page" : undefined}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {errors.length === 0 ? (
        <p className="admin-summary">{t("recentEmpty")}</p>
      ) : (
        <table className="admin-table admin-errors">
          <caption className="admin-visually-hidden">{t("recentCaption", { count: RECENT_ERRORS })}</caption>
          <thead>
            <tr>
              {Object.entries(columns).map(([key, label]) => (
                <th key={key} scope="col">
                  {label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {errors.map((error) => (
              <tr key={error.id}>
                <td data-label={columns.time}>
                  <time dateTime={error.createdAt}>
                    {format.dateTime(new Date(error.createdAt), { dateStyle: "short", timeStyle: "medium" })}
                  </time>
                </td>
                <td data-label={columns.kind}>
                  <span className={`admin-badge ${error.source}`}>
                    {error.source === "server" ? t("kindServer") : t("kindClient")}
                  </span>
                  {error.status !== null && ` ${error.status}`}
                </td>
                <td data-label={columns.where} className="admin-code" dir="ltr">
                  {[error.method, error.route].filter(Boolean).join(" ") || "–"}
                </td>
                <td data-label={columns.message} className="admin-message" dir="auto">
                  {error.message}
                </td>
                <td data-label={columns.request} className="admin-code" dir="ltr">
                  {error.requestId ?? "–"}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
