import { performance } from "node:perf_hooks";
import { nowDate } from "../clock";
import { config } from "../config";
import { db } from "../db/client";
import { publish } from "../events/publish";
import { log } from "../log";
import { outboundRequest } from "../net/client";
import { notifyUser } from "../notifications/service";
import {
  claimDeliveries,
  countEndpointOutcome,
  failPendingDeliveries,
  insertAttempt,
  updateDeliveryResult,
  updateEndpointRow,
  type ClaimedDelivery,
} from "./repo";
import { signatureHeader } from "./sign";

/*
 * Sending a delivery. Each attempt POSTs the JSON body with the Standard Webhooks headers: `webhook-id` (the
 * delivery's message id, the same on every attempt), `webhook-timestamp` (this attempt's Unix seconds) and
 * `webhook-signature` (one `v1,` signature per secret in use). A 2xx answer is a success; any other status, a
 * network error, a refused address or a timeout (WEBHOOK_TIMEOUT_MS for the whole attempt, redirects included) is
 * a failure. Every attempt is logged (webhook_attempts).
 *
 * Redirects are not followed blindly: up to MAX_REDIRECTS, each target is checked like the first (http or https,
 * its host resolved and every address public unless private targets are allowed: lib/net/client.ts) and gets the
 * same POST, body and signature (a webhook is a POST: a 301/302/303 is not turned into a GET without the message).
 *
 * Retries: after the first attempt fails, the next ones come RETRY_DELAYS_MS later (30 s, 2 min, 10 min, 30 min,
 * 1 h, 2 h, 4 h, 8 h: 9 attempts over about 15 h 53 min); after the last, the delivery is `failed`. An endpoint
 * with DISABLE_AFTER_FAILED_DELIVERIES deliveries in a row `failed` is disabled, its pending deliveries end as
 * `failed`, and its owner is told (an in-app notification and a `webhook.disabled` event). A success resets the
 * count.
 */

export const RETRY_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000] as const;
export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
export const MAX_REDIRECTS = 3;
export const EXCERPT_BYTES = 1024;
const USER_AGENT = "Spolu-Webhooks/1.0 (+https://www.standardwebhooks.com)";
/** How long a claimed attempt keeps its delivery from being claimed again (longer than any attempt can take). */
const LEASE_MS = 5 * 60_000;
/** Deliveries one job run claims at a time, and how many of them it sends at once. */
const BATCH = 50;
const CONCURRENCY = 8;

// The HTTP side

export interface HttpOutcome {
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  durationMs: number;
}

/**
 * POSTs `body` to `url` through the outbound client (lib/net/client.ts), following at most MAX_REDIRECTS redirects
 * with every target checked; never throws. `timeoutMs` bounds the whole attempt.
 */
export async function postWebhook(
  url: string,
  body: string,
  headers: Record<string, string>,
  options: { timeoutMs: number },
): Promise<HttpOutcome> {
  const started = performance.now();
  const done = (statusCode: number | null, error: string | null, responseExcerpt: string | null = null): HttpOutcome => ({
    statusCode,
    error,
    responseExcerpt,
    durationMs: Math.round(performance.now() - started),
  });
  let answer;
  try {
    answer = await outboundRequest("webhooks", {
      method: "POST",
      url,
      headers,
      body,
      timeoutMs: options.timeoutMs,
      // Enough for the log: the rest of a large answer is never read.
      maxBytes: EXCERPT_BYTES,
      overflow: "truncate",
      redirects: MAX_REDIRECTS,
    });
  } catch (error) {
    return done(null, error instanceof Error ? error.message : String(error));
  }
  const excerpt = answer.body.toString("utf8");
  if ([301, 302, 303, 307, 308].includes(answer.status) && answer.headers.location) {
    return done(answer.status, `more than ${MAX_REDIRECTS} redirects`, excerpt);
  }
  const ok = answer.status >= 200 && answer.status < 300;
  return done(answer.status, ok ? null : `HTTP ${answer.status} (a 2xx status is a success)`, excerpt);
}

// Deliveries

/** The Standard Webhooks headers of one attempt. */
export function webhookHeaders(delivery: ClaimedDelivery, body: string, at: Date): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  const previousValid =
    delivery.previousSecret !== null && delivery.previousSecretExpiresAt !== null && delivery.previousSecretExpiresAt > at;
  const secrets = previousValid ? [delivery.secret, delivery.previousSecret!] : [delivery.secret];
  return {
    "content-type": "application/json",
    "user-agent": USER_AGENT,
    "webhook-id": delivery.messageId,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, delivery.messageId, timestamp, body),
  };
}

/** When the attempt after `attempts` failed ones is due, or null when there are no attempts left. */
export function nextAttemptAfter(attempts: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts - 1];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}

function disabledReason(lastError: string | null): string {
  return (
    `Disabled after ${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed (each tried ${MAX_ATTEMPTS} times over ` +
    `about 16 hours). Last error: ${lastError ?? "unknown"}. Fix the receiver, then enable the endpoint again.`
  );
}

/** Tells the owner their endpoint was disabled; a failure to notify is logged, never thrown. */
async function notifyDisabled(userId: string, endpoint: { id: string; url: string }, reason: string): Promise<void> {
  try {
    await notifyUser(userId, {
      kind: "webhook.disabled",
      title: "A webhook endpoint was disabled",
      body: `${endpoint.url}: ${reason}`,
      data: { endpointId: endpoint.id, url: endpoint.url, reason },
    });
  } catch (error) {
    log.warn("Could not notify the owner of a disabled webhook endpoint", {
      endpointId: endpoint.id,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

/** Sends one claimed delivery and records the attempt, the delivery's new state and the endpoint's count. */
async function attemptClaimed(delivery: ClaimedDelivery): Promise<void> {
  const at = nowDate();
  const body = JSON.stringify(delivery.payload);
  const outcome = await postWebhook(delivery.url, body, webhookHeaders(delivery, body, at), {
    timeoutMs: config().WEBHOOK_TIMEOUT_MS,
  });
  const succeeded = outcome.error === null;
  const attempts = delivery.attempts + 1;
  const finishedAt = nowDate();
  const nextAttemptAt = succeeded ? null : nextAttemptAfter(attempts, finishedAt);
  const status = succeeded ? "succeeded" : nextAttemptAt ? "pending" : "failed";

  const disabled = await db().transaction(async (tx) => {
    const stored = await updateDeliveryResult(
      delivery.id,
      { status, attempts, nextAttemptAt, lastStatusCode: outcome.statusCode, lastError: outcome.error, updatedAt: finishedAt },
      tx,
    );
    if (!stored) return null; // the endpoint was deleted meanwhile
    await insertAttempt({ deliveryId: delivery.id, at, ...outcome }, tx);
    if (status === "pending") return null;
    const endpoint = await countEndpointOutcome(delivery.endpointId, succeeded, tx);
    if (!endpoint || !endpoint.enabled || endpoint.consecutiveFailures < DISABLE_AFTER_FAILED_DELIVERIES) return null;
    const reason = disabledReason(outcome.error);
    await updateEndpointRow(endpoint.id, { enabled: false, disabledReason: reason, updatedAt: finishedAt }, tx);
    await failPendingDeliveries(endpoint.id, "The endpoint was disabled", finishedAt, tx);
    await publish(tx, {
      type: "webhook.disabled",
      actorId: null,
      audience: [endpoint.userId],
      data: { endpointId: endpoint.id, url: endpoint.url, reason },
    });
    return { userId: endpoint.userId, endpoint: { id: endpoint.id, url: endpoint.url }, reason };
  });
  if (disabled) {
    log.warn("Disabled a failing webhook endpoint", { endpointId: disabled.endpoint.id });
    await notifyDisabled(disabled.userId, disabled.endpoint, disabled.reason);
  }
}

/** Claims and attempts one delivery now, if it is pending, due and not being attempted elsewhere. */
export async function attemptDelivery(deliveryId: string): Promise<boolean> {
  const now = nowDate();
  const [claimed] = await claimDeliveries(now, new Date(now.getTime() + LEASE_MS), 1, deliveryId);
  if (!claimed) return false;
  await attemptClaimed(claimed);
  return true;
}

/** Attempts the given deliveries now (a few at a time), those still pending and due. */
export async function attemptDeliveries(deliveryIds: readonly string[]): Promise<void> {
  await inParallel(deliveryIds, CONCURRENCY, async (id) => {
    await attemptDelivery(id);
  });
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++]!;
      await work(item).catch((error: unknown) =>
        log.error("A webhook attempt failed to run", { error: error instanceof Error ? error.message : String(error) }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** The job's sending part: attempts every due delivery (a batch at a time); answers how many it attempted. */
export async function attemptDueDeliveries(maxBatches = 20): Promise<number> {
  let attempted = 0;
  for (let batch = 0; batch < maxBatches; batch++) {
    const now = nowDate();
    const claimed = await claimDeliveries(now, new Date(now.getTime() + LEASE_MS), BATCH);
    await inParallel(claimed, CONCURRENCY, attemptClaimed);
    attempted += claimed.length;
    if (claimed.length < BATCH) break;
  }
  return attempted;
}

// First attempts run in the background of whatever queued them (an event's fan-out); tests await them.

const BACKGROUND = Symbol.for("spolu.webhooks.background");
type Holder = { [BACKGROUND]?: Set<Promise<unknown>> };
const background = ((globalThis as Holder)[BACKGROUND] ??= new Set());

/** Runs `work` in the background: errors are logged; `backgroundSettled` waits for it. */
export function inBackground(work: () => Promise<unknown>): void {
  const running: Promise<unknown> = work()
    .catch((error: unknown) =>
      log.error("Background webhook work failed", { error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => background.delete(running));
  background.add(running);
}

/** Resolves once no background webhook work (fan-outs, first attempts) is running in this process. */
export async function backgroundSettled(): Promise<void> {
  while (background.size > 0) await Promise.all([...background]);
}
