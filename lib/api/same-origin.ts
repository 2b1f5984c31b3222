import type { Context, MiddlewareHandler } from "hono";
import { SESSION_COOKIE } from "../auth/actor";
import { config } from "../config";
import { AppError } from "./app-error";
import type { ApiEnv } from "./env";
import { requestHeader } from "./request-header";

/*
 * Cross-site request forgery, refused in one place for every route (OWASP CSRF Prevention Cheat Sheet: "Verifying
 * Origin with standard headers" and "Fetch Metadata headers"). A request that changes something (any method but
 * GET, HEAD and OPTIONS) and would be authenticated by the session cookie (it carries the cookie and no
 * `Authorization: Bearer`) must come from one of this app's own origins:
 * - with `Origin` (every current browser sends it on such requests): it must be one of them;
 * - without it, `Sec-Fetch-Site` must say `same-origin` (or `none`: the user typed it);
 * - with neither, the caller is not a browser (curl, a server), which no other site can drive: it passes.
 * The app's origins are APP_URL's, TRUSTED_ORIGINS, the web origins in WEBAUTHN_ORIGINS, and the origin the
 * request was sent to (its Host), which no other site can claim. Requests with a bearer token are not affected:
 * a browser never adds that header by itself. SameSite=Lax on the cookie is the second layer (lib/api/session-cookie.ts).
 */

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
const BEARER = /^Bearer\s+\S+$/i;

/** Whether the Cookie header carries the session cookie. */
function hasSessionCookie(cookieHeader: string | undefined): boolean {
  return (cookieHeader ?? "").split(";").some((part) => part.trim().startsWith(`${SESSION_COOKIE}=`));
}

const originOf = (value: string): string | null => {
  try {
    const url = new URL(value);
    return /^https?:$/.test(url.protocol) ? url.origin : null;
  } catch {
    return null;
  }
};

let configured: { key: object; origins: Set<string> } | undefined;

/** The origins the configuration names: APP_URL, TRUSTED_ORIGINS, the web ones of WEBAUTHN_ORIGINS. */
export function configuredOrigins(): Set<string> {
  const settings = config();
  if (configured?.key !== settings) {
    const listed = [settings.APP_URL, ...settings.TRUSTED_ORIGINS, ...settings.WEBAUTHN_ORIGINS].flatMap((value) => {
      const origin = value ? originOf(value) : null;
      return origin ? [origin] : [];
    });
    configured = { key: settings, origins: new Set(listed) };
  }
  return configured.origins;
}

/** Whether an `Origin` header names this app: a configured origin, or the host the request was sent to. */
export function isOwnOrigin(origin: string, host: string | undefined): boolean {
  const parsed = originOf(origin);
  if (!parsed) return false; // `null` (a sandboxed frame, a redirect from elsewhere) or garbage
  if (configuredOrigins().has(parsed)) return true;
  return host !== undefined && new URL(parsed).host === host.toLowerCase();
}

const crossOrigin = (from: string) =>
  new AppError(
    "cross_origin_request",
    `A request that changes something with the session cookie must come from this app's own pages (it came from ${from}). ` +
      "Other clients send Authorization: Bearer <token>.",
  );

/** Why the request is a cross-site use of the session cookie, or null when it is not. */
export function crossSiteSource(c: Context<ApiEnv>): string | null {
  if (SAFE_METHODS.has(c.req.method)) return null;
  if (BEARER.test(requestHeader(c, "authorization") ?? "")) return null;
  if (!hasSessionCookie(requestHeader(c, "cookie"))) return null;
  const origin = requestHeader(c, "origin");
  if (origin !== undefined) return isOwnOrigin(origin, requestHeader(c, "host")) ? null : `the origin ${origin}`;
  const site = requestHeader(c, "sec-fetch-site");
  if (site === undefined || site === "same-origin" || site === "none") return null;
  return `a ${site} page`;
}

/** The middleware (server/api.ts runs it before anything reads the body). */
export const sameOriginOnly: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const source = crossSiteSource(c);
  if (source) throw crossOrigin(source);
  await next();
};
