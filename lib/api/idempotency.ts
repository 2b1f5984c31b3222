import { createHash } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { now } from "../clock";
import {
  claimIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  findIdempotencyKey,
  releaseIdempotencyKey,
  storeIdempotentResponse,
  type StoredResponse,
} from "../idempotency/repo";
import { AppError, invalidField } from "./app-error";
import type { ApiEnv } from "./env";
import { requestHeader } from "./request-header";

/*
 * `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header) on every signed-in POST (apiRoute adds this
 * middleware; a route opts out with `idempotent: false`). A client that retries after a timeout sends the same key
 * again and gets the first answer, not a second task:
 * - the first request with a key claims it (a row per user and key: the hash of method, path and body) and runs;
 *   a successful (2xx) JSON or empty answer is kept for 24 hours; any other answer frees the key, so that the client
 *   may retry with it;
 * - a repeat with the same method, path and body gets the kept answer again, status, body, Location and ETag, with
 *   `Idempotent-Replayed: true`; the work is not done again;
 * - a repeat with another body (or to another path) is a 422 `idempotency_key_reused`;
 * - a repeat while the first is still running waits for its answer (up to WAIT_MS) and replays it; if the first is
 *   still running then, 409 `idempotency_in_progress` with Retry-After. A request that stopped answering (its process
 *   was killed) frees its key after STALE_MS: the next repeat runs it again.
 * Keys are per user (another user's same key is another key). Expired rows are deleted by a job (`purgeIdempotencyKeys`)
 * and, lazily, when their key is used again.
 */

export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;
const WAIT_MS = 10_000;
const POLL_MS = 50;
const STALE_MS = 120_000;
/** Answers larger than this are not kept (the key is freed). */
const MAX_STORED_BYTES = 1024 * 1024;
const KEY = /^[\x21-\x7e]{1,255}$/;
const REPLAYED_HEADERS = ["content-type", "location", "etag"];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function replay(stored: StoredResponse): Response {
  const headers = new Headers(stored.headers);
  headers.set("Idempotent-Replayed", "true");
  return new Response(stored.status === 204 ? null : stored.body, { status: stored.status, headers });
}

/** The answer a repeat of an already claimed key gets: the kept one (waiting for it), or a problem. */
async function answerRepeat(userId: string, key: string, requestHash: string): Promise<Response | "claim-again"> {
  const deadline = Date.now() + WAIT_MS;
  for (;;) {
    const row = await findIdempotencyKey(userId, key);
    if (!row || row.expiresAt.getTime() <= now()) return "claim-again";
    if (row.requestHash !== requestHash) {
      throw new AppError(
        "idempotency_key_reused",
        "This Idempotency-Key was sent with another request (another body, method or path): use a new key for a new request",
      );
    }
    if (row.responseStatus !== null) {
      return replay({ status: row.responseStatus, headers: row.responseHeaders ?? {}, body: row.responseBody ?? "" });
    }
    if (row.lockedAt.getTime() < now() - STALE_MS) return "claim-again";
    if (Date.now() >= deadline) {
      throw new AppError("idempotency_in_progress", "A request with this Idempotency-Key is still running: try again shortly", {
        retryAfterSeconds: 1,
      });
    }
    await sleep(POLL_MS);
  }
}

/** The middleware: runs after authentication (keys are per user), before the body is validated. */
export const idempotency = createMiddleware<ApiEnv>(async (c, next) => {
  const key = requestHeader(c, "idempotency-key");
  const userId = c.var.actor?.userId;
  if (key === undefined || !userId) return next();
  if (!KEY.test(key)) {
    throw invalidField("header", "/Idempotency-Key", "must be 1 to 255 visible ASCII characters (a UUID is a good key)");
  }
  const body = new Uint8Array(await c.req.arrayBuffer());
  const requestHash = createHash("sha256").update(`${c.req.method} ${c.req.path}\n`).update(body).digest("hex");

  for (let attempt = 0; ; attempt++) {
    const at = now();
    const claimed = await claimIdempotencyKey(
      { userId, key, requestHash, now: new Date(at), expiresAt: new Date(at + IDEMPOTENCY_TTL_MS) },
      new Date(at - STALE_MS),
    );
    if (claimed) break;
    const answer = await answerRepeat(userId, key, requestHash);
    if (answer !== "claim-again") {
      c.res = answer;
      return;
    }
    if (attempt >= 3) throw new AppError("idempotency_in_progress", "This Idempotency-Key is busy: try again shortly");
  }

  let stored: StoredResponse | null = null;
  try {
    await next();
    const response = c.res;
    const type = response.headers.get("content-type") ?? "";
    if (!c.error && response.status >= 200 && response.status < 300 && (response.body === null || /json/i.test(type))) {
      const text = response.body === null ? "" : await response.clone().text();
      if (Buffer.byteLength(text) <= MAX_STORED_BYTES) {
        const headers: Record<string, string> = {};
        for (const name of REPLAYED_HEADERS) {
          const value = response.headers.get(name);
          if (value !== null) headers[name] = value;
        }
        stored = { status: response.status, headers, body: text };
      }
    }
  } finally {
    if (stored) await storeIdempotentResponse(userId, key, requestHash, stored);
    else await releaseIdempotencyKey(userId, key, requestHash);
  }
});

/** Deletes the keys older than 24 hours (a job); answers how many. */
export function purgeIdempotencyKeys(): Promise<number> {
  return deleteExpiredIdempotencyKeys(new Date(now()));
}
