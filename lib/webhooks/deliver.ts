import { performance } from "node:perf_hooks";
import { nowDate } from "../clock";
import { config } from "../config";
import { db, type Executor } from "../db/client";
import { publish } from "../events/publish";
import { log } from "../log";
import { outboundRequest } from "../net/client";
import { notifyUser } from "../notifications/service";
import {
  BACKOFF_MS,
  cancelQueued,
  defineQueue,
  done,
  enqueue,
  fail,
  retry,
  runNow,
  work,
  type JobOutcome,
  type QueueJob,
} from "../queue/service";
import {
  countEndpointOutcome,
  failPendingDeliveries,
  findDeliveryToSend,
  insertAttempt,
  updateDeliveryResult,
  updateEndpointRow,
  type DeliveryToSend,
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
 * Retries: each delivery is an item of the work queue (lib/queue, kind `webhook.delivery`); after the first attempt
 * fails, the next ones follow the queue's back-off table (1 min, 5 min, 30 min, 1 h, 2 h, 4 h, 8 h: 8 attempts over
 * about 15 h 36 min); after the last, the delivery is `failed`. An endpoint
 * with DISABLE_AFTER_FAILED_DELIVERIES deliveries in a row `failed` is disabled, its pending deliveries end as
 * `failed`, and its owner is told (an in-app notification and a `webhook.disabled` event). A success resets the
 * count.
 */

/** Attempts of a delivery: the first, then one after each delay of the queue's back-off table. */
export const MAX_ATTEMPTS = BACKOFF_MS.length + 1;
export const RETRY_DELAYS_MS = BACKOFF_MS;
export const DISABLE_AFTER_FAILED_DELIVERIES = 5;
export const MAX_REDIRECTS = 3;
export const EXCERPT_BYTES = 1024;
const USER_AGENT = "Spolu-Webhooks/1.0 (+https://www.standardwebhooks.com)";
/** How long an attempt holds its delivery's queue item (longer than any attempt can take). */
const LEASE_MS = 5 * 60_000;
/** Deliveries one job run takes at a time, and how many of them it sends at once. */
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
export function webhookHeaders(delivery: DeliveryToSend, body: string, at: Date): Record<string, string> {
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

/**
 * Records how a delivery's attempt went: the attempt in the log, the delivery's state and, once it has finished,
 * the endpoint's count of deliveries failed in a row (disabling it at DISABLE_AFTER_FAILED_DELIVERIES).
 */
async function recordOutcome(
  delivery: Pick<DeliveryToSend, "id" | "endpointId">,
  attempt: { number: number; at: Date; outcome: HttpOutcome | null; error: string | null; nextAttemptAt: Date | null },
): Promise<void> {
  const succeeded = attempt.error === null;
  const finishedAt = nowDate();
  const status = succeeded ? "succeeded" : attempt.nextAttemptAt ? "pending" : "failed";
  const disabled = await db().transaction(async (tx) => {
    const stored = await updateDeliveryResult(
      delivery.id,
      {
        status,
        attempts: attempt.number,
        nextAttemptAt: attempt.nextAttemptAt,
        lastStatusCode: attempt.outcome?.statusCode ?? null,
        lastError: attempt.error,
        updatedAt: finishedAt,
      },
      tx,
    );
    if (!stored) return null; // the endpoint was deleted meanwhile
    if (attempt.outcome) await insertAttempt({ deliveryId: delivery.id, at: attempt.at, ...attempt.outcome }, tx);
    if (status === "pending") return null;
    const endpoint = await countEndpointOutcome(delivery.endpointId, succeeded, tx);
    if (!endpoint || !endpoint.enabled || endpoint.consecutiveFailures < DISABLE_AFTER_FAILED_DELIVERIES) return null;
    const reason = disabledReason(attempt.error);
    await updateEndpointRow(endpoint.id, { enabled: false, disabledReason: reason, updatedAt: finishedAt }, tx);
    const failed = await failPendingDeliveries(endpoint.id, "The endpoint was disabled", finishedAt, tx);
    await cancelQueued(webhookDeliveryQueue, failed, "The endpoint was disabled", tx);
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

/** One attempt of a queued delivery: sends it (unless it is no longer pending) and records how it went. */
async function attemptQueued(job: QueueJob<Record<string, never>>): Promise<JobOutcome> {
  const delivery = await findDeliveryToSend(job.key);
  // Deleted with its endpoint, finished, or its endpoint disabled: nothing to send.
  if (!delivery || delivery.status !== "pending" || !delivery.enabled) return done();
  const at = nowDate();
  const body = JSON.stringify(delivery.payload);
  const outcome = await postWebhook(delivery.url, body, webhookHeaders(delivery, body, at), {
    timeoutMs: config().WEBHOOK_TIMEOUT_MS,
  });
  const nextAttemptAt = outcome.error === null ? null : job.retryAt(nowDate());
  await recordOutcome(delivery, { number: job.attempt, at, outcome, error: outcome.error, nextAttemptAt });
  if (outcome.error === null) return done();
  return nextAttemptAt ? retry(outcome.error, nextAttemptAt) : fail(outcome.error);
}

/**
 * The deliveries' queue (lib/queue): one item per delivery, MAX_ATTEMPTS attempts on the queue's back-off. An
 * attempt cut off on the last try (its process stopped) fails the delivery.
 */
export const webhookDeliveryQueue = defineQueue<Record<string, never>>({
  kind: "webhook.delivery",
  maxAttempts: MAX_ATTEMPTS,
  leaseMs: () => LEASE_MS,
  run: attemptQueued,
  async onAbandoned(job, error) {
    const delivery = await findDeliveryToSend(job.key);
    if (delivery?.status === "pending") {
      await recordOutcome(delivery, { number: job.attempt, at: nowDate(), outcome: null, error, nextAttemptAt: null });
    }
  },
});

/** Queues the first attempt of new deliveries (in their transaction, so that none is left without one). */
export async function queueDeliveries(deliveryIds: readonly string[], executor: Executor): Promise<void> {
  for (const id of deliveryIds) await enqueue(webhookDeliveryQueue, id, {}, { executor });
}

/** Attempts one delivery now, if it is pending, due and not being attempted elsewhere. */
export async function attemptDelivery(deliveryId: string): Promise<boolean> {
  return runNow(webhookDeliveryQueue, deliveryId);
}

/** Attempts the given deliveries now (a few at a time), those still pending and due. */
export async function attemptDeliveries(deliveryIds: readonly string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < deliveryIds.length) {
      const id = deliveryIds[next++]!;
      await attemptDelivery(id).catch((error: unknown) =>
        log.error("A webhook attempt failed to run", { error: error instanceof Error ? error.message : String(error) }),
      );
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, deliveryIds.length) }, worker));
}

/** The job's sending part: attempts every due delivery (a batch at a time); answers how many it attempted. */
export async function attemptDueDeliveries(signal?: AbortSignal): Promise<number> {
  return work(webhookDeliveryQueue, { batch: BATCH, concurrency: CONCURRENCY, rounds: 20, signal });
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
