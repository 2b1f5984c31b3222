import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { SESSION_COOKIE } from "../auth/actor";
import { config } from "../config";
import { LOCALE_COOKIE } from "../i18n/locale-cookie";
import { languageTag, type Locale } from "../i18n/locales";

function secure(c: Context): boolean {
  return (config().APP_URL ?? c.req.url).startsWith("https:");
}

/** What every sign-in answers: the session token and its user. */
interface SignedIn {
  token: string;
  user: { locale: Locale };
}

/**
 * The same token the JSON answer carries, as an httpOnly cookie for the web pages. SameSite=Lax plus
 * the API's JSON-only bodies keep other sites from using it (a cross-site form cannot send JSON). The
 * browser's language cookie follows the user's profile, so that `/` opens the pages in their language.
 */
export function setSessionCookie(c: Context, { token, user }: SignedIn): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
    path: "/",
    maxAge: config().JWT_TTL_SECONDS,
  });
  setLocaleCookie(c, user.locale);
}

/** The browser's language for the pages (lib/i18n/locale-cookie.ts), as the tag next-intl expects. */
export function setLocaleCookie(c: Context, locale: Locale): void {
  setCookie(c, LOCALE_COOKIE.name, languageTag(locale), {
    sameSite: "Lax",
    secure: secure(c),
    path: "/",
    maxAge: LOCALE_COOKIE.maxAge,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secure(c) });
}

/** The cookie that binds an external sign-in to the browser that started it (lib/oauth/service.ts). */
const OAUTH_BINDING_COOKIE = "spolu_oauth";
/** As long as a sign-in attempt lives (lib/oauth/service.ts STATE_TTL_MS). */
const OAUTH_BINDING_MAX_AGE = 10 * 60;

/**
 * httpOnly (no script reads it) and SameSite=Lax: the provider sends the browser back with a top-level GET, which
 * carries it; nothing else another site can make the browser do does.
 */
export function setOAuthBindingCookie(c: Context, value: string): void {
  setCookie(c, OAUTH_BINDING_COOKIE, value, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
    path: "/",
    maxAge: OAUTH_BINDING_MAX_AGE,
  });
}

export function oauthBindingCookie(c: Context): string | undefined {
  return getCookie(c, OAUTH_BINDING_COOKIE);
}

export function clearOAuthBindingCookie(c: Context): void {
  deleteCookie(c, OAUTH_BINDING_COOKIE, { path: "/", secure: secure(c) });
}
