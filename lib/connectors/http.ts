import http from "node:http";
import https from "node:https";
import { config } from "../config";
import { bareHost, hostRefusal, pinnedLookup, resolveTarget, TargetRefused } from "../net/outbound";

/*
 * Every outgoing call of the connectors goes through `connectorRequest`: http or https only, the host checked by
 * lib/net/outbound.ts (public addresses only unless CONNECTOR_ALLOW_PRIVATE_NETWORK or
 * ALLOW_PRIVATE_NETWORK_TARGETS is on; the connection goes to the address that was checked), a time limit for the
 * whole exchange (CONNECTOR_TIMEOUT_MS unless the caller asks for longer, as Odoo's module install does), redirects
 * not followed (an ERP that answers 3xx is misconfigured; following could lead anywhere) and the answer's size
 * bounded.
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

export interface ConnectorResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

const MAX_BYTES = 20 * 1024 * 1024;
const USER_AGENT = "Spolu-Connectors/1.0";

export function connectorsMayReachPrivate(): boolean {
  return config().CONNECTOR_ALLOW_PRIVATE_NETWORK || config().ALLOW_PRIVATE_NETWORK_TARGETS;
}

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
  const refusal = hostRefusal(url, connectorsMayReachPrivate());
  if (refusal) throw new TargetRefused(refusal);
  url.hash = "";
  url.search = "";
  return url.href.replace(/\/+$/, "");
}

/** One HTTP exchange; throws ConnectorError, never answers a 3xx. The caller judges the status. */
export async function connectorRequest(request: ConnectorRequest): Promise<ConnectorResponse> {
  const url = new URL(request.url);
  if (url.protocol !== "https:" && url.protocol !== "http:")
    throw new ConnectorError(`${url.protocol} is not http or https`, false);
  const allowPrivate = connectorsMayReachPrivate();
  const refusal = hostRefusal(url, allowPrivate);
  if (refusal) throw new ConnectorError(refusal, false);
  const timeoutMs = request.timeoutMs ?? config().CONNECTOR_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let target;
  try {
    target = await resolveTarget(bareHost(url), allowPrivate);
  } catch (error) {
    throw new ConnectorError(
      error instanceof Error ? error.message : String(error),
      !(error instanceof TargetRefused) || !error.address,
    );
  }
  const body =
    request.body === undefined ? undefined : Buffer.isBuffer(request.body) ? request.body : Buffer.from(request.body, "utf8");
  const maxBytes = request.maxBytes ?? MAX_BYTES;
  try {
    return await new Promise<ConnectorResponse>((resolve, reject) => {
      const outgoing = (url.protocol === "https:" ? https : http).request(
        {
          protocol: url.protocol,
          hostname: bareHost(url),
          port: url.port || undefined,
          path: `${url.pathname}${url.search}`,
          method: request.method,
          headers: { "user-agent": USER_AGENT, ...request.headers, ...(body && { "content-length": String(body.length) }) },
          agent: false,
          lookup: pinnedLookup(target),
          signal,
        },
        (response) => {
          const status = response.statusCode ?? 0;
          if (status >= 300 && status < 400) {
            response.destroy();
            reject(
              new ConnectorError(
                `answered ${status} (a redirect to ${response.headers.location ?? "nowhere"}); use the final address`,
                false,
                status,
              ),
            );
            return;
          }
          const chunks: Buffer[] = [];
          let size = 0;
          response.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > maxBytes) {
              response.destroy();
              reject(new ConnectorError(`answered more than ${maxBytes} bytes`, false, status));
              return;
            }
            chunks.push(chunk);
          });
          response.on("end", () => resolve({ status, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on("error", reject);
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  } catch (error) {
    if (error instanceof ConnectorError) throw error;
    if (signal.aborted) throw new ConnectorError(`did not answer within ${timeoutMs} ms`, true);
    throw new ConnectorError(`could not be reached: ${error instanceof Error ? error.message : String(error)}`, true);
  }
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
