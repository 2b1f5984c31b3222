import { createRoute, type RouteConfig, z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import { isModuleEnabled, type ModuleId } from "../modules/registry";
import { AppError } from "./app-error";
import { answerFromCache, registerCachedGet, type CachedGet } from "./cached-get";
import type { ApiEnv } from "./env";
import { idempotency } from "./idempotency";
import { inputGuard } from "./input-guard";
import { authenticate, identify, rateLimit, requireAdmin, requireSession, routeBodyLimit } from "./middleware";
import { operationIdFor } from "./operation-id";
import { problemSchema } from "./problem";

/** Who may call a route: anyone, anyone (with the user known when signed in), a signed-in user, an admin. */
export type Access = "public" | "optional" | "user" | "admin";

export interface ApiRouteConfig extends RouteConfig {
  access: Access;
  /**
   * `strict`: the tighter limit for registration and every verify/accept endpoint; `error-report`: anonymous
   * client error reports, per address; `none`: a route served before the rate limiter (liveness and readiness).
   */
  limit?: "strict" | "error-report" | "none";
  /**
   * The feature module the route belongs to (lib/modules/registry.ts): while it is switched off the route answers
   * 404 `module_disabled`, before authentication. The OpenAPI document shows it as `x-spolu-module`.
   */
  module?: ModuleId;
  /** The largest request body the route takes, in bytes, instead of BODY_LIMIT_BYTES (media uploads). */
  bodyLimit?: number | (() => number);
  /**
   * The route needs a sign-in, not a personal access token (403 `session_required`): making tokens, changing the
   * password, signing out.
   */
  sessionOnly?: boolean;
  /**
   * Whether the route honours `Idempotency-Key` (lib/api/idempotency.ts): every signed-in POST does unless it says
   * `false` (one whose answer must not be stored: a new secret, a new session token).
   */
  idempotent?: boolean;
  /**
   * A GET whose answers are cached per user and query string (lib/api/cached-get.ts): a hit is answered before the
   * query is validated, and server.ts answers plain requests before routing. Only a `user` route of a fixed path,
   * in no module.
   */
  cached?: CachedGet<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- each route its own query type
}

/** Answers 404 `module_disabled`, naming the module, while the module is off. */
export function requireModule(id: ModuleId): MiddlewareHandler<ApiEnv> {
  return async (_c, next) => {
    if (!isModuleEnabled(id)) throw new AppError("module_disabled", `The ${id} module is switched off on this server`);
    await next();
  };
}

function problem(description: string) {
  return { description, content: { "application/problem+json": { schema: problemSchema } } };
}

/** Problem answers a route can give whatever it does; a route lists its own (404, 409...) besides these. */
function standardProblems(config: ApiRouteConfig) {
  const request = config.request ?? {};
  const hasInput = Boolean(request.body || request.query || request.params || request.headers);
  return {
    ...(hasInput && { 400: problem("Invalid input: `errors` names each bad field") }),
    ...(config.access === "user" || config.access === "admin" ? { 401: problem("Missing, invalid or revoked token") } : {}),
    ...(config.access === "admin" && { 403: problem("Not an administrator") }),
    ...(!["get", "head", "options"].includes(config.method) && {
      403: problem(
        `${config.access === "admin" ? "Not an administrator; or " : ""}\`cross_origin_request\`: sent with the session ` +
          "cookie from another site's page (see lib/api/same-origin.ts); or `insufficient_scope`: a personal access " +
          `token without the \`write\` scope${config.sessionOnly ? "; or `session_required`: a personal access token, not a sign-in" : ""}`,
      ),
    }),
    ...(config.module && {
      404: problem(`No such resource, or the \`${config.module}\` module is switched off (\`module_disabled\`)`),
    }),
    ...(request.body && {
      413: problem("Request body too large"),
      415: problem("Request body is not application/json"),
    }),
    ...(isIdempotent(config) && {
      409: {
        ...problem("`idempotency_in_progress`: a request with this Idempotency-Key is still running (see Retry-After)"),
        headers: { "Retry-After": header("RetryAfter") },
      },
      422: problem("`idempotency_key_reused`: this Idempotency-Key was sent with another body, method or path"),
    }),
    ...(config.limit !== "none" && {
      429: {
        ...problem("Rate limit passed; see Retry-After"),
        headers: { "Retry-After": header("RetryAfter"), ...rateLimitHeaders },
      },
    }),
    500: problem("Unexpected error (logged with the request id)"),
  };
}

function header(name: string) {
  return { $ref: `#/components/headers/${name}` };
}

/** The window headers every rate-limited answer carries (lib/api/middleware.ts `rateLimitHeaders`). */
const rateLimitHeaders = {
  "RateLimit-Limit": header("RateLimitLimit"),
  "RateLimit-Remaining": header("RateLimitRemaining"),
  "RateLimit-Reset": header("RateLimitReset"),
};

/**
 * The headers of the answers, declared as components (app.ts): `X-Request-Id` and the rate-limit window on every
 * success, `ETag` on those of a conditional route, `Idempotent-Replayed` on those of an idempotent route,
 * `Retry-After` on a 503.
 */
function withHeaders(config: ApiRouteConfig, responses: RouteConfig["responses"]): RouteConfig["responses"] {
  const idempotent = isIdempotent(config);
  return Object.fromEntries(
    Object.entries(responses).map(([status, response]) => {
      if ("$ref" in response) return [status, response];
      if (response.headers && "shape" in response.headers) {
        throw new Error(
          `${config.method} ${config.path}: declare the ${status} answer's headers as OpenAPI header objects, not zod`,
        );
      }
      if (status === "503")
        return [status, { ...response, headers: { "Retry-After": header("RetryAfter"), ...response.headers } }];
      if (!status.startsWith("2")) return [status, response];
      const conditional = requestHeaderNames(config).some((name) => name === "if-match" || name === "if-none-match");
      const headers = {
        "X-Request-Id": header("XRequestId"),
        ...(conditional && response.content && { ETag: header("ETag") }),
        ...(config.limit !== "none" && rateLimitHeaders),
        ...(idempotent && { "Idempotent-Replayed": header("IdempotentReplayed") }),
        ...response.headers,
      };
      return [status, { ...response, headers }];
    }),
  ) as RouteConfig["responses"];
}

/** The request headers a route declares (`request.headers`: a zod object, or a list of header parameters). */
function requestHeaderNames(config: ApiRouteConfig): string[] {
  const headers = config.request?.headers;
  if (!headers) return [];
  if (Array.isArray(headers)) return headers.map((header) => ("name" in header ? String(header.name).toLowerCase() : ""));
  return "shape" in headers ? Object.keys(headers.shape as object).map((name) => name.toLowerCase()) : [];
}

/**
 * A route that reads `If-None-Match` answers 304, one that reads `If-Match` 412 (lib/api/conditional.ts); both send
 * the `ETag` with their successes, which `withHeaders` declares.
 */
function conditionalAnswers(config: ApiRouteConfig) {
  const names = requestHeaderNames(config);
  return {
    ...(names.includes("if-none-match") && { 304: notModified }),
    ...(names.includes("if-match") && { 412: stale }),
  };
}

function isIdempotent(config: ApiRouteConfig): boolean {
  return config.method === "post" && (config.access === "user" || config.access === "admin") && config.idempotent !== false;
}

const ACCESS_MIDDLEWARE: Record<Access, MiddlewareHandler<ApiEnv>[]> = {
  public: [],
  optional: [identify],
  user: [authenticate],
  admin: [authenticate, requireAdmin],
};

type ApiRoute<R extends ApiRouteConfig> = ReturnType<
  typeof createRoute<
    R["path"],
    Omit<R, "access" | "limit" | "module" | "sessionOnly" | "idempotent" | "middleware" | "cached"> & {
      middleware: MiddlewareHandler<ApiEnv>[];
    }
  >
>;

/**
 * A route definition: `createRoute` plus who may call it, its rate limit, the bearer security
 * requirement and the standard problem answers, so that the OpenAPI document shows all of them.
 */
export function apiRoute<const R extends ApiRouteConfig>(config: R) {
  const { access, limit, module, bodyLimit, sessionOnly, idempotent: _idempotent, cached, ...route } = config;
  if (cached) {
    if (route.method !== "get" || access !== "user" || module || limit || route.path !== cached.path) {
      throw new Error(`A cached route is a GET of a signed-in user at its CachedGet's path, in no module: ${route.path}`);
    }
    registerCachedGet(cached);
  }
  const idempotent = isIdempotent(config);
  const idempotencyDocs: Record<string, unknown> = idempotent
    ? {
        "x-spolu-idempotent": true,
        parameters: [...(route.parameters ?? []), { $ref: "#/components/parameters/IdempotencyKey" }],
      }
    : {};
  return createRoute({
    ...route,
    // Generated from the method and path (operation-id.ts) unless the route names its own.
    operationId: route.operationId ?? operationIdFor(route.method, route.path),
    ...idempotencyDocs,
    ...(module && {
      "x-spolu-module": module,
      description:
        `${route.description ?? ""}\n\nPart of the \`${module}\` module: 404 \`module_disabled\` while an administrator has it switched off.`.trim(),
    }),
    ...(access === "user" || access === "admin" ? { security: [{ bearerAuth: [] }] } : {}),
    middleware: [
      ...(bodyLimit ? [routeBodyLimit(bodyLimit)] : []),
      ...(module ? [requireModule(module)] : []),
      ...(limit && limit !== "none" ? [rateLimit(limit)] : []),
      ...ACCESS_MIDDLEWARE[access],
      ...(sessionOnly ? [requireSession] : []),
      ...(idempotent ? [idempotency] : []),
      ...[route.middleware ?? []].flat(),
      ...(cached ? [answerFromCache(cached)] : []),
      // Last before the validators: the rules every string and date of every request follows (input-guard.ts).
      inputGuard({ jsonBody: Boolean(route.request?.body) }),
    ] as MiddlewareHandler[],
    responses: withHeaders(config, { ...standardProblems(config), ...conditionalAnswers(config), ...route.responses }),
  }) as unknown as ApiRoute<R>;
}

/** A problem answer for a route's own error statuses (404, 409...). */
export const problemResponse = problem;

/** A JSON answer of the given schema. */
export function jsonContent<T extends z.ZodType>(schema: T, description: string) {
  return { description, content: { "application/json": { schema } } };
}

/** A required JSON request body of the given schema. */
export function jsonBody<T extends z.ZodType>(schema: T) {
  return { required: true, content: { "application/json": { schema } } };
}

/** `If-Match` (lib/api/conditional.ts), for a route that changes or deletes one resource. */
export const ifMatchHeader = z.object({
  "if-match": z
    .string()
    .optional()
    .openapi({
      description:
        "The ETag the client read (or `*`): the change is made only if the resource still has it; otherwise 412 " +
        "`precondition_failed` and nothing changes. Without it the change is made whatever happened since.",
      example: '"q1w2e3r4t5y6u7i8o9p0aZ"',
    }),
});

/** `If-None-Match` (lib/api/conditional.ts), for a route that reads one resource. */
export const ifNoneMatchHeader = z.object({
  "if-none-match": z.string().optional().openapi({
    description: "The ETag the client holds: while it is still the current one, the answer is 304 with no body",
    example: '"q1w2e3r4t5y6u7i8o9p0aZ"',
  }),
});

/** A success answer that carries the resource's `ETag`. */
export function withETag<T extends { description: string }>(response: T): T & { headers: { ETag: { $ref: string } } } {
  return { ...response, headers: { ETag: { $ref: "#/components/headers/ETag" } } };
}

/** The 304 of a GET whose `If-None-Match` names the current ETag. */
export const notModified = {
  description: "Not modified: `If-None-Match` names the current ETag (no body)",
  headers: { ETag: { $ref: "#/components/headers/ETag" } },
};

/** The 412 of a change whose `If-Match` names an ETag that is no longer the current one. */
export const stale = {
  ...problem("`precondition_failed`: the resource changed since the client read it (If-Match); nothing was changed"),
  headers: { ETag: { $ref: "#/components/headers/ETag" } },
};
