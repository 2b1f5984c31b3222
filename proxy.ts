import createMiddleware from "next-intl/middleware";
import { NextRequest, NextResponse } from "next/server";
import { routing } from "./i18n/routing";
import { languageTag, localeFromAcceptLanguage } from "./lib/i18n/locales";
import { isLocalizedPath, localeOfPath } from "./lib/i18n/localized-paths";

const negotiateLocale = createMiddleware(routing);

/** The request header next-intl reads the locale from where a page does not call setRequestLocale. */
const NEXT_INTL_LOCALE_HEADER = "X-NEXT-INTL-LOCALE";

/**
 * Locale negotiation for the pages (Next 16's proxy, formerly middleware). API paths, /docs,
 * /invite/…, framework paths and files pass through untouched.
 *
 * A path that starts with a locale (`/ua/…`) is served as it is: the `[locale]` segment takes Spolu's
 * codes, so no rewrite is needed, only the language tag (`uk`) for next-intl. next-intl's own handling
 * would rewrite `/ua` to its tag `/uk`, and behind a custom server Next treats such rewrites as
 * external when the server's host name is not `localhost`. Any other path redirects to the user's
 * locale (`/` → `/en`), negotiated like the API does it.
 */
export function proxy(request: NextRequest) {
  const { pathname } = request.nextUrl;
  if (!isLocalizedPath(pathname)) return NextResponse.next();

  const locale = localeOfPath(pathname);
  if (locale) {
    const headers = new Headers(request.headers);
    headers.set(NEXT_INTL_LOCALE_HEADER, languageTag(locale));
    return NextResponse.next({ request: { headers } });
  }

  const acceptLanguage = request.headers.get("accept-language");
  if (!acceptLanguage) return negotiateLocale(request);
  const headers = new Headers(request.headers);
  headers.set("accept-language", languageTag(localeFromAcceptLanguage(acceptLanguage)));
  return negotiateLocale(new NextRequest(request, { headers }));
}

export const config = {
  // Skip what can never be a page cheaply here; isLocalizedPath decides the rest.
  matcher: ["/((?!_next/|_vercel/|api/|.*\\..*).*)"],
};
