/**
 * A webhook receiver for tests: a local HTTP server that checks every message the way a Standard Webhooks
 * consumer would (its own implementation of the spec, not the sender's code), and can be told to fail, to be
 * slow or to redirect.
 */
import { createHmac, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { now as clockNow } from "../../lib/clock";

/** The spec's tolerance, as in the reference libraries: a message more than 5 minutes off is refused. */
export const TOLERANCE_SECONDS = 5 * 60;

export interface Verification {
  ok: boolean;
  /** Why not (missing header, stale timestamp, no matching signature). */
  reason: string | null;
  /** The secrets (of those given) that one of the listed `v1` signatures was made with. */
  matched: string[];
}

/**
 * Standard Webhooks verification: the signed content is `{id}.{timestamp}.{raw body}`, the key the base64 after
 * `whsec_`, the header a space-separated list of `v1,<base64>`; each signature is compared in constant time.
 */
export function verifyStandardWebhook(
  headers: { id?: string; timestamp?: string; signature?: string },
  rawBody: Buffer,
  secrets: readonly string[],
  nowSeconds: number,
): Verification {
  const fail = (reason: string): Verification => ({ ok: false, reason, matched: [] });
  if (!headers.id || !headers.timestamp || !headers.signature)
    return fail("missing webhook-id, webhook-timestamp or webhook-signature");
  if (!/^\d+$/.test(headers.timestamp)) return fail("webhook-timestamp is not an integer");
  const timestamp = Number(headers.timestamp);
  if (Math.abs(nowSeconds - timestamp) > TOLERANCE_SECONDS) return fail(`timestamp ${timestamp} is outside the tolerance`);
  const signed = Buffer.concat([Buffer.from(`${headers.id}.${headers.timestamp}.`), rawBody]);
  const given = headers.signature
    .split(" ")
    .filter((entry) => entry.startsWith("v1,"))
    .map((entry) => Buffer.from(entry.slice(3), "base64"));
  const matched = secrets.filter((secret) => {
    const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
    const expected = createHmac("sha256", key).update(signed).digest();
    return given.some((signature) => signature.length === expected.length && timingSafeEqual(signature, expected));
  });
  return matched.length ? { ok: true, reason: null, matched } : fail("no signature matches");
}

export interface ReceivedMessage {
  path: string;
  headers: IncomingHttpHeaders;
  id: string;
  timestamp: number;
  /** The `v1,...` entries of webhook-signature, in order. */
  signatures: string[];
  rawBody: string;
  body: { type: string; timestamp: string; data: Record<string, unknown> };
  verification: Verification;
  /** What the receiver answered. */
  answeredStatus: number;
}

export interface Receiver {
  url: string;
  port: number;
  /** Every request received, in order. */
  messages: ReceivedMessage[];
  /** The secrets signatures are checked against (set after registering the endpoint or rotating). */
  secrets: string[];
  /** The next `count` requests are answered with `status` and `body`. */
  failNext(count: number, status?: number, body?: string): void;
  /** The next request is answered after `ms`. */
  delayNext(ms: number): void;
  /** The next `count` requests are redirected to `location`. */
  redirectNext(location: string, count?: number, status?: number): void;
  /** Resolves once `count` requests have arrived (fails after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMessage[]>;
  close(): Promise<void>;
}

/**
 * Starts a receiver on 127.0.0.1. Time is the test clock (lib/clock), which the server under test signs with too,
 * so that tests that move the clock forward still check the tolerance meaningfully.
 */
export async function startReceiver(options: { answer?: string } = {}): Promise<Receiver> {
  const messages: ReceivedMessage[] = [];
  let failures: { count: number; status: number; body: string } = { count: 0, status: 500, body: "" };
  let delayMs = 0;
  let redirect: { location: string; count: number; status: number } = { location: "", count: 0, status: 307 };
  const waiters: (() => void)[] = [];
  const receiver: Partial<Receiver> = { secrets: [] };

  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const raw = Buffer.concat(chunks);
      const header = (name: string) => {
        const value = request.headers[name];
        return Array.isArray(value) ? value.join(",") : value;
      };
      const signature = header("webhook-signature") ?? "";
      const verification = verifyStandardWebhook(
        { id: header("webhook-id"), timestamp: header("webhook-timestamp"), signature },
        raw,
        receiver.secrets!,
        Math.floor(clockNow() / 1000),
      );
      let status = verification.ok ? 200 : 401;
      let answer = verification.ok ? (options.answer ?? "ok") : `refused: ${verification.reason}`;
      const headers: Record<string, string> = { "content-type": "text/plain" };
      if (redirect.count > 0) {
        redirect.count--;
        status = redirect.status;
        headers.location = redirect.location;
        answer = "";
      } else if (failures.count > 0) {
        failures.count--;
        status = failures.status;
        answer = failures.body;
      }
      let body: ReceivedMessage["body"];
      try {
        body = JSON.parse(raw.toString("utf8"));
      } catch {
        body = { type: "", timestamp: "", data: {} };
      }
      messages.push({
        path: request.url ?? "/",
        headers: request.headers,
        id: header("webhook-id") ?? "",
        timestamp: Number(header("webhook-timestamp")),
        signatures: signature.split(" ").filter(Boolean),
        rawBody: raw.toString("utf8"),
        body,
        verification,
        answeredStatus: status,
      });
      waiters.splice(0).forEach((wake) => wake());
      const delay = delayMs;
      delayMs = 0;
      setTimeout(() => {
        if (!response.destroyed) response.writeHead(status, headers).end(answer);
      }, delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;

  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    port,
    messages,
    failNext(count: number, status = 500, body = "failing on purpose") {
      failures = { count, status, body };
    },
    delayNext(ms: number) {
      delayMs = ms;
    },
    redirectNext(location: string, count = 1, status = 307) {
      redirect = { location, count, status };
    },
    async waitFor(count: number, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (messages.length < count) {
        const left = deadline - Date.now();
        if (left <= 0) throw new Error(`The receiver got ${messages.length} of ${count} messages`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiters.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
      return messages.slice(0, count);
    },
    close() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as Receiver;
}
