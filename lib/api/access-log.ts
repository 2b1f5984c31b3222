import type { IncomingMessage, ServerResponse } from "node:http";
import type { MiddlewareHandler } from "hono";
import { log } from "../log";
import type { ApiEnv } from "./env";

/** Where the API leaves the matched route's pattern on the Node response, for the access log. */
const ROUTE_PATTERN = Symbol.for("spolu.routePattern");
type Marked = ServerResponse & { [ROUTE_PATTERN]?: string };

/** Notes the pattern of the route that answered (`/api/v1/tasks/:id`), never the path with its values. */
export const noteRoutePattern: MiddlewareHandler<ApiEnv> = async (c, next) => {
  await next();
  const outgoing = c.env?.outgoing as Marked | undefined;
  // A request no route matched ends on a middleware's wildcard pattern: the log says "(no route)" instead.
  if (outgoing && !c.req.routePath.endsWith("*")) outgoing[ROUTE_PATTERN] = c.req.routePath;
};

/** Marks a response answered before routing (the task list's fast path) with its route's pattern. */
export function markRoutePattern(res: ServerResponse, pattern: string): void {
  (res as Marked)[ROUTE_PATTERN] = pattern;
}

/** The pattern of the API route that answered `res`, if one did. */
export function routePatternOf(res: ServerResponse): string | undefined {
  return (res as Marked)[ROUTE_PATTERN];
}

/** A segment that carries a value rather than naming a place: an id, a number, a token. */
const VALUE_SEGMENT = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|\d+|[\w-]{20,})$/i;

/**
 * A page path with its values replaced (`/en/tasks/:value`, `/invite/:value`): pages are routed by Next.js, whose
 * patterns this process does not see, and a path may hold an invitation token.
 */
export function pagePattern(path: string): string {
  return path
    .split("/")
    .map((segment) => (VALUE_SEGMENT.test(segment) ? ":value" : segment))
    .join("/");
}

/**
 * One `info` line when a request has been answered (ACCESS_LOG): method, route pattern, status, duration and
 * request id. No query string, no header values, no tokens.
 */
export function logWhenAnswered(req: IncomingMessage, res: ServerResponse, path: string, api: boolean): void {
  const started = process.hrtime.bigint();
  res.once("close", () => {
    log.info("request", {
      method: req.method,
      route: (res as Marked)[ROUTE_PATTERN] ?? (api ? "(no route)" : pagePattern(path)),
      status: res.statusCode,
      ms: Math.round(Number(process.hrtime.bigint() - started) / 10_000) / 100,
      requestId: res.getHeader("x-request-id"),
      ...(!res.writableFinished && { aborted: true }),
    });
  });
}
