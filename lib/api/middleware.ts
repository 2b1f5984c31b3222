import type { MiddlewareHandler } from "hono";
import { createMiddleware } from "hono/factory";
import { actorFromToken, tokenFromRequest, type Actor } from "../auth/actor";
import { verifySessionToken } from "../auth/tokens";
import { limiter, type LimitState } from "../rate-limit/limiter";
import { AppError } from "./app-error";
import { clientIp } from "./client-ip";
import type { ApiEnv } from "./env";

const REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Gives every request an id (the caller's X-Request-Id when it is sane) and echoes it back. */
export const requestId = createMiddleware<ApiEnv>(async (c, next) => {
  const given = c.req.header("x-request-id");
  const id = given && REQUEST_ID.test(given) ? given : crypto.randomUUID();
  c.set("requestId", id);
  c.header("X-Request-Id", id);
  await next();
});

/** JSON answers say their charset (Hono's `c.json` leaves it out). */
export const jsonCharset = createMiddleware<ApiEnv>(async (c, next) => {
  await next();
  if (c.res.headers.get("content-type") === "application/json") {
    c.res.headers.set("content-type", "application/json; charset=utf-8");
  }
});

const JSON_TYPE = /^application\/([\w.-]+\+)?json\s*(;|$)/i;

/** A request that carries a body must say it is JSON: anything else is 415, before any handler runs. */
export const requireJsonBody = createMiddleware<ApiEnv>(async (c, next) => {
  const length = c.req.header("content-length");
  const hasBody = (length !== undefined && length !== "0") || c.req.header("transfer-encoding") !== undefined;
  if (hasBody && !JSON_TYPE.test(c.req.header("content-type") ?? "")) {
    throw new AppError("unsupported_media_type", "Send the request body as application/json");
  }
  await next();
});

function token(c: Parameters<MiddlewareHandler<ApiEnv>>[0]): string | null {
  return tokenFromRequest(c.req.header("authorization"), c.req.header("cookie"));
}

function setLimitHeaders(c: Parameters<MiddlewareHandler<ApiEnv>>[0], state: LimitState) {
  c.header("RateLimit-Limit", String(state.limit));
  c.header("RateLimit-Remaining", String(state.remaining));
  c.header("RateLimit-Reset", String(state.resetSeconds));
}

/**
 * Counts the request against the named limiter, keyed by the signed-in user (the verified token's
 * subject) or else by the client's address; the strict limiter also by endpoint. The signature is checked here; revocation is not needed
 * to pick a key.
 */
export function rateLimit(name: "general" | "strict"): MiddlewareHandler<ApiEnv> {
  return createMiddleware<ApiEnv>(async (c, next) => {
    const raw = token(c);
    const claims = raw ? await verifySessionToken(raw) : null;
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
  return actorFromToken(token(c));
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
