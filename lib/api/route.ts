import { createRoute, type RouteConfig, type z } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { ApiEnv } from "./env";
import { authenticate, identify, rateLimit, requireAdmin } from "./middleware";
import { problemSchema } from "./problem";

/** Who may call a route: anyone, anyone (with the user known when signed in), a signed-in user, an admin. */
export type Access = "public" | "optional" | "user" | "admin";

export interface ApiRouteConfig extends RouteConfig {
  access: Access;
  /** `strict`: the tighter limit for sign-in, registration and every verify/accept endpoint. */
  limit?: "strict";
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
    ...(request.body && {
      413: problem("Request body too large"),
      415: problem("Request body is not application/json"),
    }),
    429: problem("Rate limit passed; see Retry-After"),
    500: problem("Unexpected error (logged with the request id)"),
  };
}

const ACCESS_MIDDLEWARE: Record<Access, MiddlewareHandler<ApiEnv>[]> = {
  public: [],
  optional: [identify],
  user: [authenticate],
  admin: [authenticate, requireAdmin],
};

type ApiRoute<R extends ApiRouteConfig> = ReturnType<
  typeof createRoute<R["path"], Omit<R, "access" | "limit" | "middleware"> & { middleware: MiddlewareHandler<ApiEnv>[] }>
>;

/**
 * A route definition: `createRoute` plus who may call it, its rate limit, the bearer security
 * requirement and the standard problem answers, so that the OpenAPI document shows all of them.
 */
export function apiRoute<const R extends ApiRouteConfig>(config: R) {
  const { access, limit, ...route } = config;
  return createRoute({
    ...route,
    ...(access === "user" || access === "admin" ? { security: [{ bearerAuth: [] }] } : {}),
    middleware: [
      ...(limit ? [rateLimit(limit)] : []),
      ...ACCESS_MIDDLEWARE[access],
      ...[route.middleware ?? []].flat(),
    ] as MiddlewareHandler[],
    responses: { ...standardProblems(config), ...route.responses },
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
