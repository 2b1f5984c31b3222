import type { Context } from "hono";
import type { ApiEnv } from "./env";

/**
 * A request header by its lower-case name. On the fast path it is read from Node's own parsed headers:
 * `c.req.header()` makes @hono/node-server build the whole Fetch Request first, about 25 µs a request.
 */
export function requestHeader(c: Context<ApiEnv>, name: Lowercase<string>): string | undefined {
  const incoming = c.env?.incoming;
  if (!incoming) return c.req.header(name);
  const value = incoming.headers[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/** The request's query string as sent (without the `?`), read without building a URL on the fast path. */
export function requestQueryString(c: Context<ApiEnv>): string {
  const url = c.env?.incoming?.url ?? c.req.url;
  const start = url.indexOf("?");
  return start === -1 ? "" : url.slice(start + 1);
}
