import createMiddleware from "next-intl/middleware";
import { NextRequest, NextResponse } from "next/server";
import { routing } from "./i18n/routing";
import { newNonce, pageSecurityHeaders } from "./lib/api/page-headers";
import { config as settings } from "./lib/config";
import { languageTag, localeFromAcceptLanguage } from "./lib/i18n/locales";
import { isLocalizedPath, localeOfPath } from "./lib/i18n/localized-paths";

const negotiateLocale = createMiddleware(routing);

/** The request header next-intl reads the locale from where a page does not call setRequestLocale. */
const NEXT_INTL_LOCALE_HEADER = "X-NEXT-INTL-LOCALE";

/**
 * Security headers and locale negotiation for the pages (Next 16's proxy, formerly middleware). API paths,
 * framework paths and files pass through untouched; /docs and /invite/… get the headers only.
 *
 * A path that starts with a locale (`/ua/…`) is served as it is: the `[locale]` segment takes Spolu's
 * codes, so no rewrite is needed, only the language tag (`uk`) for next-intl. next-intl's own handling
 * would rewrite `/ua` to its tag `/uk`, and behind a custom server Next treats such rewrites as
 * external when the server's host name is not `localhost`. Any other path redirects to the user's
 * locale (`/` → `/en`), negotiated like the API does it.
 */
export function proxy(request: NextRequest) {
  // Every page gets its security headers and a fresh nonce: Next reads it from the request's
  // Content-Security-Policy and puts it on its scripts (lib/api/page-headers.ts).
  const headers = pageSecurityHeaders({
    nonce: newNonce(),
    appUrl: settings().APP_URL,
    host: request.headers.get("host") ?? request.nextUrl.host,
    development: process.env.NODE_ENV === "development",
  });
  const response = route(request, headers.find(([name]) => name === "Content-Security-Policy")![1]);
  for (const [name, value] of headers) response.headers.set(name, value);
  return response;
}

/** The page's own handling: locale negotiation; `csp` goes to the renderer with the request. */
function route(request: NextRequest, csp: string): NextResponse {
  const { pathname } = request.nextUrl;
  const forwarded = new Headers(request.headers);
  forwarded.set("Content-Security-Policy", csp);
  if (!isLocalizedPath(pathname)) return NextResponse.next({ request: { headers: forwarded } });

  const locale = localeOfPath(pathname);
  if (locale) {
    forwarded.set(NEXT_INTL_LOCALE_HEADER, languageTag(locale));
    return NextResponse.next({ request: { headers: forwarded } });
  }

  const acceptLanguage = request.headers.get("accept-language");
  if (acceptLanguage) forwarded.set("accept-language", languageTag(localeFromAcceptLanguage(acceptLanguage)));
  return negotiateLocale(new NextRequest(request, { headers: forwarded }));
}

export const config = {
  // Skip what can never be a page cheaply here; isLocalizedPath decides the rest.
  matcher: ["/((?!_next/|_vercel/|api/|.*\\..*).*)"],
};
