import type { MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { actorFromClaims, tokenFromRequest, type Actor } from "../auth/actor";
import { verifySessionToken, type SessionClaims } from "../auth/tokens";
import { limiter, type LimitState } from "../rate-limit/limiter";
import { AppError } from "./app-error";
import { clientIp } from "./client-ip";
import type { ApiEnv } from "./env";
import { requestHeader } from "./request-header";

export const JSON_UTF8 = "application/json; charset=utf-8";
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFor(given: string | undefined): string {
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** Headers every API answer carries (OWASP's secure headers for an API that serves only JSON). */
export const SECURITY_HEADERS: readonly [string, string][] = [
  // Nothing in an answer may load or be framed (frame-ancestors supersedes X-Frame-Options).
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["X-Content-Type-Options", "nosniff"],
];

/**
 * Gives every request an id (the caller's X-Request-Id when it is sane), and sets the id and the
 * security headers before the handler runs, so that they go out with the handler's own response
 * object instead of a rebuilt one (the cheap path of @hono/node-server). JSON answers also get their
 * charset, which Hono's `c.json` leaves out.
 */
export const responseHeaders: MiddlewareHandler<ApiEnv> = (c, next) => {
  const id = requestIdFor(requestHeader(c, "x-request-id"));
  c.set("requestId", id);
  const outgoing = c.env?.outgoing;
  if (outgoing) {
    // Node merges these into the response head: much cheaper than growing a Headers object.
    outgoing.setHeader("X-Request-Id", id);
    for (const [name, value] of SECURITY_HEADERS) outgoing.setHeader(name, value);
  } else {
    c.header("X-Request-Id", id);
    for (const [name, value] of SECURITY_HEADERS) c.header(name, value);
  }
  // Hono's `c.json` says `application/json` without the charset: answer JSON the same way, with it.
  c.json = ((object: unknown, arg?: ContentfulStatusCode, headers?: Record<string, string>) =>
    c.body(JSON.stringify(object), arg, { "Content-Type": JSON_UTF8, ...headers })) as unknown as typeof c.json;
  return next();
};

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;
const BODY_LIMIT = Symbol("spolu.bodyLimit");

type LimitMarker = MiddlewareHandler<ApiEnv> & { [BODY_LIMIT]?: () => number };

/**
 * A route's own body limit (`apiRoute({ bodyLimit })`): a middleware that does nothing itself but tells
 * `jsonBodyOnly`, which runs before any route middleware, to allow this route `maxSize` bytes instead of the
 * global limit. Only the route that carries it is affected. A function is asked on each request (the limit may
 * follow the configuration).
 */
export function routeBodyLimit(maxSize: number | (() => number)): MiddlewareHandler<ApiEnv> {
  const marker: LimitMarker = (_c, next) => next();
  marker[BODY_LIMIT] = typeof maxSize === "number" ? () => maxSize : maxSize;
  return marker;
}

/** The body limit the matched route declares, if any (its marker, possibly wrapped by Hono's sub-app mounting). */
function declaredBodyLimit(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): number | undefined {
  for (const { handler } of matchedRoutes(c)) {
    const inner = (handler as unknown as Record<string, unknown>).__COMPOSED_HANDLER ?? handler;
    const limit = (inner as LimitMarker)[BODY_LIMIT];
    if (limit !== undefined) return limit();
  }
  return undefined;
}

function limiterOf(maxSize: number): MiddlewareHandler<ApiEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      // The rest of the body is never read: the connection cannot carry another request (RFC 9110 §15.5.14).
      c.header("Connection", "close");
      throw new AppError("payload_too_large", `The request body is larger than ${maxSize} bytes`);
    },
  });
}

/**
 * A request that carries a body must say it is JSON (else 415) and stay within `maxSize` bytes (else 413), or the
 * limit its route declares with `routeBodyLimit`, before any handler runs. Requests without a body pass straight
 * on: Hono's bodyLimit would build a whole Fetch Request just to find that out.
 */
export function jsonBodyOnly(maxSize: number): MiddlewareHandler<ApiEnv> {
  const limit = limiterOf(maxSize);
  const routeLimits = new Map<number, MiddlewareHandler<ApiEnv>>();
  return (c, next) => {
    const length = requestHeader(c, "content-length");
    const hasBody = (length !== undefined && length !== "0") || requestHeader(c, "transfer-encoding") !== undefined;
    if (!hasBody) return next();
    if (!JSON_TYPE.test(requestHeader(c, "content-type") ?? "")) {
      throw new AppError("unsupported_media_type", "Send the request body as application/json");
    }
    const declared = declaredBodyLimit(c);
    if (declared === undefined) return limit(c, next);
    let own = routeLimits.get(declared);
    if (!own) routeLimits.set(declared, (own = limiterOf(declared)));
    return own(c, next);
  };
}

/** The verified claims of the request's session token (checked once per request), or null. */
function sessionClaims(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): Promise<SessionClaims | null> {
  let claims = c.get("sessionClaims");
  if (!claims) {
    const token = tokenFromRequest(requestHeader(c, "authorization"), requestHeader(c, "cookie"));
    claims = token ? verifySessionToken(token) : Promise.resolve(null);
    c.set("sessionClaims", claims);
  }
  return claims;
}

/** The rate-limit headers of an answer (IETF draft `RateLimit` fields, as separate headers). */
export function rateLimitHeaders(state: LimitState): [string, string][] {
  return [
    ["RateLimit-Limit", String(state.limit)],
    ["RateLimit-Remaining", String(state.remaining)],
    ["RateLimit-Reset", String(state.resetSeconds)],
  ];
}

function setLimitHeaders(c: Parameters<MiddlewareHandler<ApiEnv>>[0], state: LimitState) {
  for (const [name, value] of rateLimitHeaders(state)) c.header(name, value);
}

/**
 * Counts the request against the named limiter, keyed by the signed-in user (the verified token's
 * subject) or else by the client's address; the strict limiter also by endpoint. The signature is checked here; revocation is not needed
 * to pick a key.
 */
export function rateLimit(name: "general" | "strict"): MiddlewareHandler<ApiEnv> {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const claims = await sessionClaims(c);
    const caller = claims ? `user:${claims.sub}` : `ip:${clientIp(c)}`;
    // The strict limit is counted per endpoint: signing in does not use up registration's budget.
    const key = name === "strict" ? `${c.req.routePath}|${caller}` : caller;
    try {
      setLimitHeaders(c, await limiter(name).consume(key));
    } catch (error) {
      if (error instanceof AppError) c.header("RateLimit-Remaining", "0");
      throw error;
    }
    await next();
  });
}

async function resolveActor(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): Promise<Actor | null> {
  return actorFromClaims(await sessionClaims(c));
}

/** The route needs a signed-in user: 401 without a valid, unrevoked token. */
export const authenticate = createMiddleware<ApiEnv>(async (c, next) => {
  const actor = await resolveActor(c);
  if (!actor) throw new AppError("unauthenticated", "Sign in: send a valid token as Authorization: Bearer");
  c.set("actor", actor);
  await next();
});

/** The route works signed in or not; a valid token sets the actor, anything else is ignored. */
export const identify = createMiddleware<ApiEnv>(async (c, next) => {
  const actor = await resolveActor(c);
  if (actor) c.set("actor", actor);
  await next();
});

/** Runs after `authenticate`: only users listed in ADMIN_EMAILS pass. */
export const requireAdmin = createMiddleware<ApiEnv>(async (c, next) => {
  if (!c.var.actor?.isAdmin) throw new AppError("forbidden", "Only administrators may do this");
  await next();
});
