import type { createFormatter } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { AdminUserListOutput } from "@/lib/admin/schema";
import { languageTag, LOCALE_NAMES } from "@/lib/i18n/locales";
import { adminHref, USER_PAGE_SIZE, type AdminQuery } from "./admin-query";
import { UserAccessButton } from "./user-access-button";

/*
 * The users of /{locale}/admin: a search (a GET form, so that the result has an address), a table that becomes
 * one card per user on narrow screens (each cell labelled), disable/enable per row, and pages.
 */
export async function UsersSection({
  locale,
  query,
  users,
  actorId,
  format,
}: {
  locale: string;
  query: AdminQuery;
  users: AdminUserListOutput;
  actorId: string;
  format: ReturnType<typeof createFormatter>;
}) {
  const t = await getTranslations("Admin");
  const pages = Math.max(1, Math.ceil(users.total / USER_PAGE_SIZE));
  const date = (iso: string) => format.dateTime(new Date(iso), { dateStyle: "medium" });
  const columns = {
    name: t("columnName"),
    email: t("columnEmail"),
    language: t("columnLanguage"),
    created: t("columnCreated"),
    lastSeen: t("columnLastSeen"),
    tasks: t("columnTasks"),
    status: t("columnStatus"),
    actions: t("columnActions"),
  };
  return (
    <section className="admin-card" aria-labelledby="users-title">
      <h2 id="users-title">{t("usersTitle")}</h2>
      <form className="admin-search" role="search" method="get" action={`/${locale}/admin`}>
        <label htmlFor="user-search">{t("searchLabel")}</label>
        <div className="admin-search-row">
          <input id="user-search" name="q" type="search" defaultValue={query.q} maxLength={100} autoComplete="off" dir="auto" />
          {query.days !== 7 && <input type="hidden" name="days" value={query.days} />}
          {query.source && <input type="hidden" name="source" value={query.source} />}
          <button className="button primary" type="submit">
            {t("searchSubmit")}
          </button>
        </div>
      </form>
      <p className="admin-summary">
        {query.q ? t("usersFound", { count: users.total, query: query.q }) : t("usersCount", { count: users.total })}{" "}
        {query.q && <a href={adminHref(locale, query, { q: "", page: 1 })}>{t("searchClear")}</a>}
      </p>
      {users.items.length > 0 && (
        <table className="admin-table admin-users">
          <caption className="admin-visually-hidden">{t("usersCaption")}</caption>
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
            {users.items.map((user) => (
              <tr key={user.id} data-user-id={user.id} data-disabled={user.disabledAt ? "true" : undefined}>
                <th scope="row" data-label={columns.name} dir="auto">
                  {user.name}
                  {user.id === actorId && ` ${t("you")}`}
                </th>
                <td data-label={columns.email} className="admin-email" dir="ltr">
                  {user.email}
                </td>
                <td data-label={columns.language} lang={languageTag(user.locale)}>
                  {LOCALE_NAMES[user.locale]}
                </td>
                <td data-label={columns.created}>
                  <time dateTime={user.createdAt}>{date(user.createdAt)}</time>
                </td>
                <td data-label={columns.lastSeen}>
                  {user.lastSeenAt ? (
                    <time dateTime={user.lastSeenAt}>{format.relativeTime(new Date(user.lastSeenAt))}</time>
                  ) : (
                    t("neverSeen")
                  )}
                </td>
                <td data-label={columns.tasks}>{format.number(user.taskCount)}</td>
                <td data-label={columns.status}>
                  <span className="admin-badges">
                    {user.isAdmin && <span className="admin-badge admin">{t("adminBadge")}</span>}
                    {user.disabledAt ? (
                      <span className="admin-badge disabled">{t("statusDisabled", { date: date(user.disabledAt) })}</span>
                    ) : (
                      <span className="admin-badge active">{t("statusActive")}</span>
                    )}
                  </span>
                </td>
                <td data-label={columns.actions}>
                  {!user.isAdmin && user.id !== actorId && (
                    <UserAccessButton userId={user.id} name={user.name} disabled={user.disabledAt !== null} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {pages > 1 && (
        <nav className="admin-pages" aria-label={t("pagesLabel")}>
          {query.page > 1 ? (
            <a
              className="button"
              href={`${adminHref(locale, query, { page: Math.min(query.page - 1, pages) })}#users-title`}
              rel="prev"
            >
              {t("previousPage")}
            </a>
          ) : (
            <span />
          )}
          <span>{t("pageOf", { page: query.page, pages })}</span>
          {query.page < pages ? (
            <a className="button" href={`${adminHref(locale, query, { page: query.page + 1 })}#users-title`} rel="next">
              {t("nextPage")}
            </a>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}
