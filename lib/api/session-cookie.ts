import type { Context } from "hono";
import { deleteCookie, setCookie } from "hono/cookie";
import { SESSION_COOKIE } from "../auth/actor";
import { config } from "../config";

function secure(c: Context): boolean {
  return (config().APP_URL ?? c.req.url).startsWith("https:");
}

/**
 * The same token the JSON answer carries, as an httpOnly cookie for the web pages. SameSite=Lax plus
 * the API's JSON-only bodies keep other sites from using it (a cross-site form cannot send JSON).
 */
export function setSessionCookie(c: Context, token: string): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "Lax",
    secure: secure(c),
    path: "/",
    maxAge: config().JWT_TTL_SECONDS,
  });
}

export function clearSessionCookie(c: Context): void {
  deleteCookie(c, SESSION_COOKIE, { path: "/", secure: secure(c) });
}
