import { toApiPath } from "../api/paths";
import { isLocale, type Locale } from "./locales";

/** Pages served outside the locale prefix: the API docs and the public invitation landing page. */
const UNLOCALIZED_PAGES = ["/docs", "/invite"];
/** Paths that belong to Next.js itself or to the socket, never to a page. */
const FRAMEWORK_PREFIXES = ["/_next", "/_vercel", "/ws"];

function isUnder(pathname: string, prefix: string): boolean {
  return pathname === prefix || pathname.startsWith(`${prefix}/`);
}

/**
 * Whether the locale negotiation of proxy.ts applies to a request path: everything but the JSON API
 * (lib/api/paths.ts), the unlocalized pages, framework paths and static files (a dot in the last segment).
 */
export function isLocalizedPath(pathname: string): boolean {
  if (toApiPath(pathname) !== null) return false;
  if ([...UNLOCALIZED_PAGES, ...FRAMEWORK_PREFIXES].some((prefix) => isUnder(pathname, prefix))) return false;
  const lastSegment = pathname.slice(pathname.lastIndexOf("/") + 1);
  return !lastSegment.includes(".");
}

/** The locale a page path starts with (`/ua/tasks` → `ua`), or null. */
export function localeOfPath(pathname: string): Locale | null {
  const first = pathname.split("/")[1];
  return isLocale(first) ? first : null;
}
