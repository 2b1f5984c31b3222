import { hostname } from "node:os";
import { AppError } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import { nowDate } from "../clock";
import type { Executor } from "../db/client";
import { log } from "../log";
import {
  cancelByKeys,
  cancelItem,
  claimItems,
  countItems,
  finishAttempt,
  findItem,
  insertItem,
  listItems,
  pruneFinished,
  reapAbandoned,
  type QueueItemRow,
} from "./repo";
import { QUEUE_CATALOG } from "./catalog";
import type { ListQueueItemsQuery, QueueItemListOutput, QueueItemOutput, QueueSummaryOutput } from "./schema";

/*
 * The one work queue. A domain defines a kind of work (`defineQueue`: how many attempts, how long one may take, what
 * to do), adds items to it (`enqueue`, in the domain's own transaction when it has one) and lets them be worked:
 * `work` (the background jobs, server/jobs.ts) takes what is due, `runNow` one item at once (a test message sent
 * while the user waits). The domain keeps its own records (deliveries, runs) and what users see of them; the queue
 * keeps when each piece of work is due, who holds it and how it went, for the administrators (GET /admin/queue).
 *
 * - Claim with a lease: an item is taken with `for update skip locked` (two processes never take the same one) and
 *   held until its lease ends; a process that dies leaves it to be taken again once the lease has run out. That
 *   counts as an attempt: an item whose last attempt was cut off is dead, and its domain is told (`onAbandoned`).
 * - Retry with one back-off table (BACKOFF_MS): the n-th failed attempt is retried BACKOFF_MS[n-1] later (the last
 *   delay repeats), up to the kind's `maxAttempts`; then the item is dead.
 * - A handler answers `done()`, `retry(error)`, `fail(error)` (dead at once: trying again would fail the same way) or
 *   `later(at)` (not now, say another run holds the connection: the attempt is given back). A handler that throws
 *   is a `retry` with the error's message.
 * - Cancellable: by the domain (`cancelQueued`, its records were deleted or disabled) or by an administrator.
 */

/** The one back-off table: how long after the n-th failed attempt the next one comes. */
export const BACKOFF_MS = [60_000, 5 * 60_000, 30 * 60_000, 3600_000, 2 * 3600_000, 4 * 3600_000, 8 * 3600_000] as const;

/** The delay after `attempt` failed attempts (the last delay of the table repeats). */
export function backoffAfter(attempt: number): number {
  return BACKOFF_MS[Math.min(Math.max(attempt, 1), BACKOFF_MS.length) - 1]!;
}

/** Finished items are forgotten after these ages (dead ones are kept longer, to be looked at). */
const KEEP_DONE_MS = 7 * 86_400_000;
const KEEP_DEAD_MS = 30 * 86_400_000;

export type JobOutcome =
  | { type: "done" }
  | { type: "retry"; error: string; at?: Date }
  | { type: "fail"; error: string }
  | { type: "later"; at: Date; note?: string };

export const done = (): JobOutcome => ({ type: "done" });
/** Try again after the back-off (or at `at`, which the domain computed with `job.retryAt`); dead after the last. */
export const retry = (error: string, at?: Date): JobOutcome => ({ type: "retry", error, at });
/** Give up now. */
export const fail = (error: string): JobOutcome => ({ type: "fail", error });
/** Not now: due again at `at`, the attempt not counted. */
export const later = (at: Date, note?: string): JobOutcome => ({ type: "later", at, note });

export interface QueueJob<P> {
  id: string;
  key: string;
  payload: P;
  /** This attempt, from 1. */
  attempt: number;
  maxAttempts: number;
  /** When a failure of this attempt is tried again, counted from `from`; null when this is the last attempt. */
  retryAt(from: Date): Date | null;
}

export interface QueueDefinition<P = Record<string, unknown>> {
  kind: string;
  maxAttempts: number;
  /** How long one attempt may hold an item: longer than any attempt can take. */
  leaseMs(): number;
  run(job: QueueJob<P>): Promise<JobOutcome>;
  /** The item's last attempt was cut off (its process stopped): the domain records the failure. */
  onAbandoned?(job: QueueJob<P>, error: string): Promise<void>;
}

/** What the queue itself needs of a definition, whatever its payload. */
type QueueKind = Pick<QueueDefinition<never>, "kind" | "maxAttempts" | "leaseMs">;

const OWNER = `${hostname()}:${process.pid}`;
const ABANDONED = "The process working on it stopped (its lease ran out) on the last attempt";
const KINDS = new Map<string, QueueDefinition<never>>();

/** A kind of work of lib/queue/catalog.ts (with the catalogue's number of attempts); its name is what the administrators see. */
export function defineQueue<P = Record<string, unknown>>(definition: QueueDefinition<P>): QueueDefinition<P> {
  const listed = QUEUE_CATALOG.find((entry) => entry.kind === definition.kind);
  if (listed && listed.maxAttempts !== definition.maxAttempts)
    throw new Error(
      `Queue ${definition.kind}: ${definition.maxAttempts} attempts, lib/queue/catalog.ts says ${listed?.maxAttempts}`,
    );
  KINDS.set(definition.kind, definition as QueueDefinition<never>);
  return definition;
}

/**
 * Adds work for the domain record `key`, due at `runAt` (now unless given); nothing when that record already has
 * active work of this kind. `attempts` counts attempts already made elsewhere. Answers whether it was added.
 */
export async function enqueue<P extends object>(
  queue: QueueDefinition<P>,
  key: string,
  payload: P,
  options: { runAt?: Date; attempts?: number; executor?: Executor } = {},
): Promise<boolean> {
  const at = nowDate();
  return insertItem(
    {
      kind: queue.kind,
      key,
      payload: payload as Record<string, unknown>,
      maxAttempts: Math.max(queue.maxAttempts, (options.attempts ?? 0) + 1),
      attempts: options.attempts ?? 0,
      runAt: options.runAt ?? at,
      at,
    },
    options.executor,
  );
}

/** Cancels the active work of these domain records (deleted, disabled). */
export async function cancelQueued(
  queue: QueueKind,
  keys: readonly string[],
  reason: string,
  executor?: Executor,
): Promise<number> {
  return cancelByKeys(queue.kind, keys, reason, nowDate(), executor);
}

function toJob<P>(queue: QueueDefinition<P>, row: QueueItemRow): QueueJob<P> {
  return {
    id: row.id,
    key: row.key,
    payload: row.payload as P,
    attempt: row.attempts,
    maxAttempts: row.maxAttempts,
    retryAt: (from) => (row.attempts >= row.maxAttempts ? null : new Date(from.getTime() + backoffAfter(row.attempts))),
  };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Runs one claimed item and records its outcome; answers the outcome's type. */
async function runClaimed<P>(queue: QueueDefinition<P>, row: QueueItemRow): Promise<JobOutcome["type"]> {
  const job = toJob(queue, row);
  let outcome: JobOutcome;
  try {
    outcome = await queue.run(job);
  } catch (error) {
    log.error("A queued job failed", { kind: queue.kind, key: row.key, attempt: job.attempt, error: message(error) });
    outcome = retry(message(error).slice(0, 2000) || "failed");
  }
  const at = nowDate();
  switch (outcome.type) {
    case "done":
      await finishAttempt(row.id, row.attempts, { state: "done", lastError: null, at });
      break;
    case "fail":
      await finishAttempt(row.id, row.attempts, { state: "dead", lastError: outcome.error, at });
      break;
    case "later":
      await finishAttempt(row.id, row.attempts, {
        state: "pending",
        runAt: outcome.at,
        lastError: outcome.note ?? row.lastError,
        giveBackAttempt: true,
        at,
      });
      break;
    case "retry": {
      const next = job.retryAt(at);
      await finishAttempt(row.id, row.attempts, {
        state: next ? "pending" : "dead",
        runAt: next ? (outcome.at ?? next) : undefined,
        lastError: outcome.error,
        at,
      });
      break;
    }
  }
  return outcome.type;
}

/** Marks the kind's items whose last attempt was cut off as dead, and tells their domain. */
async function reap<P>(queue: QueueDefinition<P>): Promise<void> {
  for (const row of await reapAbandoned(queue.kind, nowDate(), ABANDONED)) {
    log.warn("A queued job was abandoned on its last attempt", { kind: queue.kind, key: row.key });
    try {
      await queue.onAbandoned?.(toJob(queue, row), ABANDONED);
    } catch (error) {
      log.error("Recording an abandoned job failed", { kind: queue.kind, key: row.key, error: message(error) });
    }
  }
}

function leaseUntil(queue: QueueKind): Date {
  return new Date(nowDate().getTime() + queue.leaseMs());
}

/** Takes the active item of `key` if it is due (or its holder's lease ran out) and runs it now; answers whether it ran. */
export async function runNow<P>(queue: QueueDefinition<P>, key: string): Promise<boolean> {
  const [row] = await claimItems(queue.kind, nowDate(), leaseUntil(queue), OWNER, 1, key);
  if (!row) return false;
  await runClaimed(queue, row);
  return true;
}

async function inParallel<T>(items: readonly T[], limit: number, each: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await each(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * Works through what is due of a kind, `batch` items at a time, `concurrency` of them at once, for at most
 * `rounds` batches; stops early when a batch was not full or everything in it was postponed, or when `signal` aborts.
 * Answers how many items ran (postponed ones not counted).
 */
export async function work<P>(
  queue: QueueDefinition<P>,
  options: { batch?: number; concurrency?: number; rounds?: number; signal?: AbortSignal } = {},
): Promise<number> {
  const { batch = 10, concurrency = 1, rounds = 20, signal } = options;
  await reap(queue);
  let ran = 0;
  // A stopping process (the job's signal) claims no further batch: what it holds it finishes or leaves to its lease.
  for (let round = 0; round < rounds && !signal?.aborted; round++) {
    const claimed = await claimItems(queue.kind, nowDate(), leaseUntil(queue), OWNER, batch);
    let ranNow = 0;
    await inParallel(claimed, concurrency, async (row) => {
      if ((await runClaimed(queue, row)) !== "later") ranNow++;
    });
    ran += ranNow;
    if (claimed.length < batch || ranNow === 0) break;
  }
  return ran;
}

/** Forgets finished items: done and cancelled after a week, dead ones after 30 days. */
export async function pruneQueue(): Promise<number> {
  const now = nowDate().getTime();
  return pruneFinished(new Date(now - KEEP_DONE_MS), new Date(now - KEEP_DEAD_MS));
}

// For the administrators

function toItemOutput(row: QueueItemRow): QueueItemOutput {
  return {
    id: row.id,
    kind: row.kind,
    key: row.key,
    state: row.state,
    attempts: row.attempts,
    maxAttempts: row.maxAttempts,
    runAt: row.state === "pending" ? row.runAt.toISOString() : null,
    leaseUntil: row.state === "running" ? (row.leaseUntil?.toISOString() ?? null) : null,
    lockedBy: row.state === "running" ? row.lockedBy : null,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

export async function listQueue(query: ListQueueItemsQuery): Promise<QueueItemListOutput> {
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : null;
  const rows = await listItems(
    { kind: query.kind, state: query.state },
    query.limit + 1,
    cursor && { createdAt: cursor.at, id: cursor.id },
  );
  const items = rows.slice(0, query.limit).map(toItemOutput);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > query.limit && last ? encodeTimeCursor(last.createdAt, last.id) : null };
}

export async function queueSummary(): Promise<QueueSummaryOutput> {
  const counts = await countItems();
  // The catalogue's kinds, and those defined in this process (tests define their own) or found in the table.
  const listed = new Map<string, number>(QUEUE_CATALOG.map((entry) => [entry.kind, entry.maxAttempts]));
  for (const [kind, definition] of KINDS) listed.set(kind, definition.maxAttempts);
  const kinds = [...new Set([...listed.keys(), ...counts.map((row) => row.kind)])].sort();
  return {
    backoffMs: [...BACKOFF_MS],
    kinds: kinds.map((kind) => {
      const byState = { pending: 0, running: 0, done: 0, dead: 0, cancelled: 0 };
      for (const row of counts) if (row.kind === kind) byState[row.state] = row.count;
      return { kind, maxAttempts: listed.get(kind) ?? null, ...byState };
    }),
  };
}

/** An administrator cancels an item: 404 when there is none, 409 when it has finished already. */
export async function cancelQueueItem(id: string): Promise<QueueItemOutput> {
  const cancelled = await cancelItem(id, "Cancelled by an administrator", nowDate());
  if (cancelled) return toItemOutput(cancelled);
  const item = await findItem(id);
  if (!item) throw new AppError("not_found", "No queue item with this id");
  throw new AppError("conflict", `The item has finished already (${item.state}): there is nothing to cancel`);
}
