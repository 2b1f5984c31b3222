import { isIP } from "node:net";
import { Agent, fetch as undiciFetch, type BodyInit as UndiciBodyInit } from "undici";
import { config, type OutboundPurpose } from "../config";
import { bareHost, hostRefusal, targetPolicy, TargetRefused, type TargetPolicy } from "./addresses";
import { checkedLookup, dnsResolve, systemResolve } from "./lookup";

/*
 * The one outbound HTTP client: whatever leaves the machine for an address a user or the operator gave (webhook
 * endpoints, push services, connectors' systems, the AI endpoint) goes through here.
 *
 * - http and https only, no user name or password in the URL.
 * - Private, loopback, link-local and other special addresses are refused (lib/net/addresses.ts) unless
 *   ALLOW_PRIVATE_NETWORK_TARGETS allows them for the purpose (CONNECTOR_ALLOW_PRIVATE_NETWORK: for connectors).
 *   An IP literal is checked before anything is sent; a name is resolved once per connection (the system's
 *   resolver, or OUTBOUND_DNS_SERVERS), every address checked, and the socket connects to a checked address
 *   (lib/net/lookup.ts): no second resolution between the check and the connection.
 * - Time limits: OUTBOUND_CONNECT_TIMEOUT_MS to connect, and the caller's limit for the whole exchange (redirects
 *   and reading the answer included).
 * - Redirects are not followed unless the caller asks for some; each one followed is checked like the first URL
 *   and gets the same method, headers and body (a 301/302/303 is not turned into a GET without the body).
 * - The answer is read up to a size limit: beyond it the call fails, or (`overflow: "truncate"`) the rest is
 *   dropped unread.
 * - `outboundFetch` is the same client as a `fetch` for SDKs (the openai package): no redirects, its limits.
 */

export class OutboundError extends Error {
  override name = "OutboundError";

  constructor(
    message: string,
    /** refused: the target may not be called; timeout; too_large: the answer passed the size limit; redirect: a
     * redirect that was not followed; unreachable: no connection or a broken exchange. */
    readonly reason: "refused" | "timeout" | "too_large" | "redirect" | "unreachable",
    /** The address that was refused, when a resolved one was. */
    readonly address?: string,
  ) {
    super(message);
  }
}

export interface OutboundRequest {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The whole exchange, redirects and reading the answer included. */
  timeoutMs: number;
  /** The most of the answer's body read. */
  maxBytes: number;
  /** Past `maxBytes`: fail (the default) or keep what was read. */
  overflow?: "fail" | "truncate";
  /** How many redirects to follow (each checked like the first URL); 0, the default, answers the 3xx itself. */
  redirects?: number;
  signal?: AbortSignal;
}

export interface OutboundResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** The URL that answered (after the redirects followed). */
  url: string;
  /** The body was cut at `maxBytes`. */
  truncated: boolean;
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** What a purpose may reach under the current settings. */
export function policyFor(purpose: OutboundPurpose): TargetPolicy {
  const { ALLOW_PRIVATE_NETWORK_TARGETS: targets, CONNECTOR_ALLOW_PRIVATE_NETWORK } = config();
  return targetPolicy(targets, purpose, purpose === "connectors" && CONNECTOR_ALLOW_PRIVATE_NETWORK);
}

/**
 * Checks a URL as it is called: http(s), no credentials, an IP literal the purpose may reach; throws TargetRefused.
 * A host name (`localhost` included) is judged by what it resolves to, when connecting (lib/net/lookup.ts).
 */
function checkTargetUrl(url: URL, purpose: OutboundPurpose): void {
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("not an http(s) URL");
  if (url.username || url.password) throw new TargetRefused("the URL carries a user name or password");
  const host = bareHost(url);
  if (!isIP(host)) return;
  const refusal = hostRefusal(url, policyFor(purpose));
  if (refusal) throw new TargetRefused(refusal, host);
}

// One connection pool per purpose, rebuilt when the settings it was built from change.
const agents = new Map<OutboundPurpose, { key: string; agent: Agent }>();

function agentFor(purpose: OutboundPurpose): Agent {
  const { ALLOW_PRIVATE_NETWORK_TARGETS, CONNECTOR_ALLOW_PRIVATE_NETWORK, OUTBOUND_DNS_SERVERS, OUTBOUND_CONNECT_TIMEOUT_MS } =
    config();
  const key = JSON.stringify([
    ALLOW_PRIVATE_NETWORK_TARGETS,
    CONNECTOR_ALLOW_PRIVATE_NETWORK,
    OUTBOUND_DNS_SERVERS,
    OUTBOUND_CONNECT_TIMEOUT_MS,
  ]);
  const cached = agents.get(purpose);
  if (cached?.key === key) return cached.agent;
  void cached?.agent.close().catch(() => {});
  const resolve = OUTBOUND_DNS_SERVERS.length ? dnsResolve(OUTBOUND_DNS_SERVERS) : systemResolve;
  const agent = new Agent({
    connect: { timeout: OUTBOUND_CONNECT_TIMEOUT_MS, lookup: checkedLookup(policyFor(purpose), resolve) },
    // The caller's deadline bounds the exchange; these only keep a silent peer from holding a socket forever.
    headersTimeout: 300_000,
    bodyTimeout: 300_000,
  });
  agents.set(purpose, { key, agent });
  return agent;
}

/** The error as the callers see it: refused, timed out, or unreachable with the system's words. */
function outboundError(error: unknown, deadline: AbortSignal, timeoutMs: number): OutboundError {
  if (error instanceof OutboundError) return error;
  const cause = error instanceof Error && error.cause instanceof Error && error.message === "fetch failed" ? error.cause : error;
  if (cause instanceof TargetRefused) return new OutboundError(cause.message, "refused", cause.address);
  if (deadline.aborted) return new OutboundError(`timed out after ${timeoutMs} ms`, "timeout");
  const code = (cause as NodeJS.ErrnoException)?.code;
  if (code === "UND_ERR_CONNECT_TIMEOUT") {
    return new OutboundError(`could not connect within ${config().OUTBOUND_CONNECT_TIMEOUT_MS} ms`, "timeout");
  }
  const message = cause instanceof Error ? cause.message : String(cause);
  return new OutboundError(`${code && !message.includes(code) ? `${code}: ` : ""}${message}`, "unreachable");
}

type Body = AsyncIterable<Uint8Array> & { destroy(): void; on(event: "error", listener: () => void): unknown };

/** Stops reading a body: the connection is closed, the rest never read (and its abort is nobody's error). */
function discard(body: Body): void {
  body.on("error", () => {});
  body.destroy();
}

/** Reads a body up to `maxBytes`: the rest is dropped unread, or the read fails. */
async function readBody(
  body: Body,
  maxBytes: number,
  overflow: "fail" | "truncate",
): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = Buffer.from(chunk);
    if (size + buffer.length > maxBytes) {
      discard(body);
      if (overflow === "fail") throw new OutboundError(`answered more than ${maxBytes} bytes`, "too_large");
      chunks.push(buffer.subarray(0, maxBytes - size));
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(buffer);
    size += buffer.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}

/**
 * One exchange with a target the purpose may reach (see the rules above). Answers any status, including a 3xx
 * beyond the redirects followed; throws OutboundError when there was no answer.
 */
export async function outboundRequest(purpose: OutboundPurpose, request: OutboundRequest): Promise<OutboundResponse> {
  const deadline = AbortSignal.timeout(request.timeoutMs);
  const signal = request.signal ? AbortSignal.any([request.signal, deadline]) : deadline;
  const body = request.body === undefined ? undefined : Buffer.from(request.body);
  const given = Object.entries(request.headers ?? {}).filter(([name]) => name.toLowerCase() !== "content-length");
  const headers = { ...Object.fromEntries(given), ...(body && { "content-length": String(body.length) }) };
  let url = new URL(request.url);
  for (let hop = 0; ; hop++) {
    const prefix = hop === 0 ? "" : `redirect to ${url.href} refused: `;
    try {
      checkTargetUrl(url, purpose);
    } catch (error) {
      const refused = error as TargetRefused;
      throw new OutboundError(`${prefix}${refused.message}`, "refused", refused.address);
    }
    let answer;
    try {
      answer = await agentFor(purpose).request({
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: request.method,
        headers,
        body,
        signal,
        // A new connection (and resolution) for every exchange: a name is checked again on every call.
        reset: true,
      });
    } catch (error) {
      const failed = outboundError(error, deadline, request.timeoutMs);
      throw failed.reason === "refused" ? new OutboundError(`${prefix}${failed.message}`, "refused", failed.address) : failed;
    }
    const location = answer.headers.location;
    if (REDIRECTS.has(answer.statusCode) && typeof location === "string" && hop < (request.redirects ?? 0)) {
      discard(answer.body);
      try {
        url = new URL(location, url);
      } catch {
        throw new OutboundError(`redirect to an invalid URL: ${location.slice(0, 200)}`, "redirect");
      }
      continue;
    }
    try {
      const read = await readBody(answer.body, request.maxBytes, request.overflow ?? "fail");
      return { status: answer.statusCode, headers: answer.headers, url: url.href, ...read };
    } catch (error) {
      throw outboundError(error, deadline, request.timeoutMs);
    }
  }
}

/** A body stream that errors once more than `maxBytes` went through it. */
function limited(body: ReadableStream<Uint8Array>, maxBytes: number): ReadableStream<Uint8Array> {
  let size = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        size += chunk.byteLength;
        if (size > maxBytes) controller.error(new OutboundError(`answered more than ${maxBytes} bytes`, "too_large"));
        else controller.enqueue(chunk);
      },
    }),
  );
}

/**
 * A `fetch` for an SDK, through this client: the target checked, no redirects (a 3xx is answered as it is), the
 * connection pinned to checked addresses, the answer limited to `maxBytes` and the whole exchange to `timeoutMs`.
 * Failures reject with OutboundError (the SDK reports them as connection errors).
 */
export function outboundFetch(
  purpose: OutboundPurpose,
  limits: { timeoutMs: () => number; maxBytes: number },
): (input: string | URL | Request, init?: RequestInit) => Promise<Response> {
  return async (input, init) => {
    // The global Request reads whatever body the SDK built (a FormData included) into a stream undici can send.
    const request = new Request(input, init);
    const url = new URL(request.url);
    try {
      checkTargetUrl(url, purpose);
    } catch (error) {
      throw new OutboundError((error as Error).message, "refused", (error as TargetRefused).address);
    }
    const timeoutMs = limits.timeoutMs();
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = AbortSignal.any([request.signal, deadline]);
    let answer;
    try {
      answer = await undiciFetch(url, {
        method: request.method,
        headers: [...request.headers],
        body: request.body as UndiciBodyInit,
        duplex: "half",
        redirect: "manual",
        signal,
        dispatcher: agentFor(purpose),
      });
    } catch (error) {
      if (request.signal.aborted) throw error; // the caller gave up: the SDK tells that apart
      throw outboundError(error, deadline, timeoutMs);
    }
    const nullBody = answer.status === 204 || answer.status === 304 || request.method === "HEAD" || !answer.body;
    return new Response(nullBody ? null : limited(answer.body as ReadableStream<Uint8Array>, limits.maxBytes), {
      status: answer.status,
      statusText: answer.statusText,
      headers: [...answer.headers],
    });
  };
}
