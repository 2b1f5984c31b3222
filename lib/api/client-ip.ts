import type { Context } from "hono";
import { config } from "../config";
import type { ApiEnv } from "./env";
import { requestHeader } from "./request-header";

/**
 * The caller's address. X-Forwarded-For is honoured only with TRUST_PROXY, and then only as far as the
 * configured number of proxies: the entries to the left of those were written by the client and can lie.
 */
export function clientIp(c: Context<ApiEnv>): string {
  const hops = config().TRUST_PROXY;
  const forwarded = requestHeader(c, "x-forwarded-for");
  if (hops > 0 && forwarded) {
    const chain = forwarded
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    const entry = chain[Math.max(0, chain.length - hops)];
    if (entry) return entry;
  }
  return c.env?.incoming?.socket.remoteAddress ?? "unknown";
}
