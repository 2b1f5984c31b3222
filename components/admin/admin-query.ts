/*
 * What /{locale}/admin shows is in its query string, so that a search, a page or a period can be linked to and
 * the browser's back button works: `q` and `page` for the users, `days` for the error statistics, `source` for the
 * recent errors. Anything out of range falls back to the default rather than failing the page.
 */

export const ERROR_PERIODS = [1, 7, 30, 90] as const;
export const ERROR_SOURCES = ["server", "client"] as const;
export const USER_PAGE_SIZE = 25;
export const RECENT_ERRORS = 25;

export interface AdminQuery {
  q: string;
  page: number;
  days: (typeof ERROR_PERIODS)[number];
  source: (typeof ERROR_SOURCES)[number] | null;
}

type SearchParams = Record<string, string | string[] | undefined>;

const first = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? "";

export function parseAdminQuery(params: SearchParams): AdminQuery {
  const page = Number(first(params.page));
  const days = Number(first(params.days));
  const source = first(params.source);
  return {
    q: first(params.q).trim().slice(0, 100),
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    days: ERROR_PERIODS.find((period) => period === days) ?? 7,
    source: ERROR_SOURCES.find((known) => known === source) ?? null,
  };
}

/** The admin page's address with some of the query changed; defaults are left out. */
export function adminHref(locale: string, query: AdminQuery, changes: Partial<AdminQuery> = {}): string {
  const next = { ...query, ...changes };
  const search = new URLSearchParams();
  if (next.q) search.set("q", next.q);
  if (next.page !== 1) search.set("page", String(next.page));
  if (next.days !== 7) search.set("days", String(next.days));
  if (next.source) search.set("source", next.source);
  const text = search.toString();
  return `/${locale}/admin${text ? `?${text}` : ""}`;
}
