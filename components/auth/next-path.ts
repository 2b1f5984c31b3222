/** A base that no real request has: a `next` value that resolves to another origin is not ours. */
const PROBE_ORIGIN = "https://spolu.invalid";

/**
 * Where to go after signing in: the `?next=` value when it is a path on this site (`/en/settings/security?tab=1`),
 * else null. Absolute URLs, protocol-relative `//host` and `/\host` forms and anything with control characters are
 * refused, so that the sign-in page cannot be used to send people to another site.
 */
export function safeNextPath(next: string | string[] | undefined | null): string | null {
  const value = Array.isArray(next) ? next[0] : next;
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value) || value.length > 2048) return null;
  try {
    const url = new URL(value, PROBE_ORIGIN);
    if (url.origin !== PROBE_ORIGIN) return null;
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return null;
  }
}

/** The sign-in page of a locale, coming back to `next` afterwards. */
export function signInPath(locale: string, next?: string): string {
  return `/${locale}/sign-in${next ? `?next=${encodeURIComponent(next)}` : ""}`;
}
