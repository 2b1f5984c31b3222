import type { Context } from "hono";
import type { ClientInfo } from "../auth/sessions/service";
import { clientIp } from "./client-ip";
import type { ApiEnv } from "./env";
import { requestHeader } from "./request-header";

/** Where a sign-in comes from (its User-Agent and address), for the session it starts. */
export function clientInfo(c: Context<ApiEnv>): ClientInfo {
  const address = clientIp(c);
  return { userAgent: requestHeader(c, "user-agent"), ipAddress: address === "unknown" ? undefined : address };
}
