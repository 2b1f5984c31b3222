import { config } from "../config";
import { hostRefusal, TargetRefused } from "../net/addresses";
import { OutboundError, outboundRequest, policyFor, type OutboundResponse } from "../net/client";

/*
 * Every outgoing call of the connectors goes through `connectorRequest`, on the outbound client (lib/net/client.ts):
 * http or https only, public addresses only unless ALLOW_PRIVATE_NETWORK_TARGETS allows them for `connectors` (or
 * CONNECTOR_ALLOW_PRIVATE_NETWORK is on), the connection going to the address that was checked, a time limit for
 * the whole exchange (CONNECTOR_TIMEOUT_MS unless the caller asks for longer, as Odoo's module install does),
 * redirects not followed (an ERP that answers 3xx is misconfigured; following could lead anywhere) and the answer's
 * size bounded.
 */

/** Why a call failed; `transient` failures (no answer, a timeout, a 5xx, 429) are worth retrying later. */
export class ConnectorError extends Error {
  override name = "ConnectorError";

  constructor(
    message: string,
    readonly transient: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

export interface ConnectorRequest {
  method: "GET" | "POST";
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Overrides CONNECTOR_TIMEOUT_MS for a call known to be slow. */
  timeoutMs?: number;
  /** The largest answer read, 20 MiB unless given. */
  maxBytes?: number;
}

export type ConnectorResponse = Pick<OutboundResponse, "status" | "headers" | "body">;

const MAX_BYTES = 20 * 1024 * 1024;
const USER_AGENT = "Spolu-Connectors/1.0";

/**
 * Checks a connection's base URL as it is saved: absolute http(s), no user name or password in it (credentials
 * are stored encrypted, not in the URL), a host allowed by the outbound rules. Answers it without a trailing slash.
 */
export function checkBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("must use https (or http)");
  if (url.username || url.password) throw new TargetRefused("must not contain a user name or password");
  const refusal = hostRefusal(url, policyFor("connectors"));
  if (refusal) throw new TargetRefused(refusal);
  url.hash = "";
  url.search = "";
  return url.href.replace(/\/+$/, "");
}

/** One HTTP exchange; throws ConnectorError, never answers a 3xx. The caller judges the status. */
export async function connectorRequest(request: ConnectorRequest): Promise<ConnectorResponse> {
  const timeoutMs = request.timeoutMs ?? config().CONNECTOR_TIMEOUT_MS;
  let response: OutboundResponse;
  try {
    response = await outboundRequest("connectors", {
      method: request.method,
      url: request.url,
      headers: { "user-agent": USER_AGENT, ...request.headers },
      body: request.body,
      timeoutMs,
      maxBytes: request.maxBytes ?? MAX_BYTES,
    });
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    switch (error.reason) {
      case "refused": // refused again next time
      case "too_large":
        throw new ConnectorError(error.message, false);
      case "timeout":
        throw new ConnectorError(`did not answer within ${timeoutMs} ms`, true);
      default:
        throw new ConnectorError(`could not be reached: ${error.message}`, true);
    }
  }
  const { status, headers } = response;
  if (status >= 300 && status < 400) {
    throw new ConnectorError(
      `answered ${status} (a redirect to ${headers.location ?? "nowhere"}); use the final address`,
      false,
      status,
    );
  }
  return response;
}

/** Throws a ConnectorError for a status that is not 2xx: 5xx and 429 are transient, the rest are not. */
export function expectSuccess(response: ConnectorResponse, what: string): ConnectorResponse {
  if (response.status >= 200 && response.status < 300) return response;
  const transient = response.status >= 500 || response.status === 429;
  const excerpt = response.body.subarray(0, 200).toString("utf8").replace(/\s+/g, " ").trim();
  throw new ConnectorError(
    `${what} answered HTTP ${response.status}${excerpt ? `: ${excerpt}` : ""}`,
    transient,
    response.status,
  );
}
