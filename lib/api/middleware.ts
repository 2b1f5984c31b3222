import { promisify } from "node:util";
import { gunzip } from "node:zlib";
import type { Context, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { actorFromClaims, claimsOfToken, tokenFromRequest, type Actor } from "../auth/actor";
import type { TokenClaims } from "../auth/tokens";
import { limiter, type LimitState } from "../rate-limit/limiter";
import { config } from "../config";
import { AppError } from "./app-error";
import { clientIp } from "./client-ip";
import type { ApiEnv } from "./env";
import { handoffOf } from "./handoff";
import { strictTransportSecurity } from "./page-headers";
import { requestHeader } from "./request-header";

export const JSON_UTF8 = "application/json; charset=utf-8";
const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** The request's id: the caller's X-Request-Id when it is sane, else a new one. */
export function requestIdFor(given: string | undefined): string {
  return given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
}

/** Headers every API answer carries (OWASP's secure headers for an API that serves only JSON). */
const API_HEADERS: readonly [string, string][] = [
  // Nothing in an answer may load or be framed (frame-ancestors supersedes X-Frame-Options).
  ["Content-Security-Policy", "default-src 'none'; frame-ancestors 'none'"],
  ["Cross-Origin-Resource-Policy", "same-origin"],
  ["Referrer-Policy", "no-referrer"],
  ["X-Content-Type-Options", "nosniff"],
];

let securityHeadersOf: { settings: object; headers: readonly [string, string][] } | undefined;

/** The API's security headers, with HSTS when APP_URL is https (the configuration's, computed once). */
export function securityHeaders(): readonly [string, string][] {
  const settings = config();
  if (securityHeadersOf?.settings !== settings) {
    securityHeadersOf = { settings, headers: [...API_HEADERS, ...strictTransportSecurity(settings.APP_URL)] };
  }
  return securityHeadersOf.headers;
}

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
    for (const [name, value] of securityHeaders()) outgoing.setHeader(name, value);
  } else {
    c.header("X-Request-Id", id);
    for (const [name, value] of securityHeaders()) c.header(name, value);
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

const tooLarge = (maxSize: number) => new AppError("payload_too_large", `The request body is larger than ${maxSize} bytes`);

function limiterOf(maxSize: number): MiddlewareHandler<ApiEnv> {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      // The rest of the body is never read: the connection cannot carry another request (RFC 9110 §15.5.14).
      c.header("Connection", "close");
      throw tooLarge(maxSize);
    },
  });
}

const gunzipAsync = promisify(gunzip);

/** The request's bytes, refusing (413) once more than `maxSize` arrive. */
async function readAtMost(c: Context<ApiEnv>, maxSize: number): Promise<Buffer> {
  const reader = c.req.raw.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = (await reader?.read()) ?? { done: true, value: undefined };
    if (done) break;
    size += value.byteLength;
    if (size > maxSize) {
      await reader?.cancel();
      c.header("Connection", "close");
      throw tooLarge(maxSize);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * A body sent with `Content-Encoding: gzip` (RFC 9110 §8.4), decoded before any route reads it: at most `maxSize`
 * bytes in and out (a small bomb that inflates past the limit is a 413), and a body that is not gzip a 400, never
 * read as if it were plain. Any other coding is a 415 (§15.5.16).
 */
async function decodeBody(c: Context<ApiEnv>, encoding: string, maxSize: number): Promise<void> {
  if (encoding !== "gzip" && encoding !== "x-gzip") {
    throw new AppError(
      "unsupported_media_type",
      `Content-Encoding "${encoding}" is not supported: send the body as it is, or gzip it`,
    );
  }
  const length = Number(requestHeader(c, "content-length"));
  if (length > maxSize) {
    c.header("Connection", "close");
    throw tooLarge(maxSize);
  }
  const compressed = await readAtMost(c, maxSize);
  let decoded: Buffer;
  try {
    decoded = await gunzipAsync(compressed, { maxOutputLength: maxSize });
  } catch (error) {
    if ((error as { code?: string }).code === "ERR_BUFFER_TOO_LARGE") throw tooLarge(maxSize);
    throw new AppError("bad_request", "The request body says Content-Encoding: gzip but is not gzip data");
  }
  // Every reader of the body (c.req.json(), the validators) takes it from Hono's cache: the decoded bytes.
  (c.req.bodyCache as Record<string, unknown>).arrayBuffer = Promise.resolve(
    decoded.buffer.slice(decoded.byteOffset, decoded.byteOffset + decoded.byteLength) as ArrayBuffer,
  );
}

/**
 * A request that carries a body must say it is JSON (else 415) and stay within `maxSize` bytes (else 413), or the
 * limit its route declares with `routeBodyLimit`, before any handler runs; a gzip-encoded one is decoded within the
 * same limit (`decodeBody`). Requests without a body pass straight on: Hono's bodyLimit would build a whole Fetch
 * Request just to find that out.
 */
export function jsonBodyOnly(maxSize: number): MiddlewareHandler<ApiEnv> {
  const limit = limiterOf(maxSize);
  const routeLimits = new Map<number, MiddlewareHandler<ApiEnv>>();
  return async (c, next) => {
    const length = requestHeader(c, "content-length");
    const hasBody = (length !== undefined && length !== "0") || requestHeader(c, "transfer-encoding") !== undefined;
    if (!hasBody) return next();
    if (!JSON_TYPE.test(requestHeader(c, "content-type") ?? "")) {
      throw new AppError("unsupported_media_type", "Send the request body as application/json");
    }
    const declared = declaredBodyLimit(c);
    const encoding = requestHeader(c, "content-encoding")?.trim().toLowerCase();
    if (encoding && encoding !== "identity") {
      await decodeBody(c, encoding, declared ?? maxSize);
      return next();
    }
    if (declared === undefined) return limit(c, next);
    let own = routeLimits.get(declared);
    if (!own) routeLimits.set(declared, (own = limiterOf(declared)));
    return own(c, next);
  };
}

/** The verified claims of the request's token (session or personal access token; checked once per request), or null. */
function sessionClaims(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): Promise<TokenClaims | null> {
  let claims = c.get("sessionClaims");
  if (!claims) {
    const token = tokenFromRequest(requestHeader(c, "authorization"), requestHeader(c, "cookie"));
    claims = token ? claimsOfToken(token) : Promise.resolve(null);
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
 * Counts the request against the named limiter, keyed by the signed-in user (the verified token's subject) or else
 * by the client's address; the strict limiter also by endpoint; error reports always by address (anyone may send
 * them). The signature is checked here; revocation is not needed to pick a key.
 */
export function rateLimit(name: "general" | "strict" | "error-report"): MiddlewareHandler<ApiEnv> {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const claims = name === "error-report" ? null : await sessionClaims(c);
    const caller = claims ? `user:${claims.sub}` : `ip:${clientIp(c)}`;
    // The strict limit is counted per endpoint: signing in does not use up registration's budget.
    const key = name === "strict" ? `${c.req.routePath}|${caller}` : caller;
    // Over the limit, the 429 carries the window's headers itself (problem.ts). A request server.ts's fast path
    // already counted (and found over the general limit) is not counted again (lib/api/cached-get.ts).
    const counted = name === "general" ? handoffOf(c.env?.incoming) : undefined;
    if (counted && "limited" in counted) throw counted.limited;
    setLimitHeaders(c, await limiter(name).consume(key));
    await next();
  });
}

const READ_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The request's actor, or null. A personal access token without the `write` scope may only read: anything but GET,
 * HEAD and OPTIONS is a 403 `insufficient_scope`, on every route, whatever the route itself would allow.
 */
async function resolveActor(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): Promise<Actor | null> {
  const actor = await actorFromClaims(await sessionClaims(c));
  if (actor?.accessToken && !actor.accessToken.scopes.includes("write") && !READ_METHODS.has(c.req.method)) {
    throw new AppError("insufficient_scope", "This personal access token may only read (scope `read`): use one with `write`");
  }
  return actor;
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

/**
 * Runs after `authenticate`: the route needs a session (a sign-in), not a personal access token: making and
 * revoking tokens, changing the password, signing out, ending sessions.
 */
export const requireSession = createMiddleware<ApiEnv>(async (c, next) => {
  if (c.var.actor?.accessToken) {
    throw new AppError("session_required", "Sign in to do this: a personal access token may not (see /settings/security)");
  }
  await next();
});

/** Runs after `authenticate`: only users listed in ADMIN_EMAILS pass. */
export const requireAdmin = createMiddleware<ApiEnv>(async (c, next) => {
  if (!c.var.actor?.isAdmin) throw new AppError("forbidden", "Only administrators may do this");
  await next();
});
