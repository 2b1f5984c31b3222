import { and, asc, desc, eq, inArray, isNotNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { queueItems, type QueueItemRow, type QueueState } from "../db/schema/queue";

export type { QueueItemRow, QueueState };

const ACTIVE = sql`${queueItems.state} in ('pending', 'running')`;

export interface NewItem {
  kind: string;
  key: string;
  payload: Record<string, unknown>;
  maxAttempts: number;
  runAt: Date;
  attempts?: number;
  at: Date;
}

/** Adds an item unless one of its kind and key is active; answers whether it was added. */
export async function insertItem(item: NewItem, executor: Executor = db()): Promise<boolean> {
  const { at, ...values } = item;
  const rows = await executor
    .insert(queueItems)
    .values({ ...values, createdAt: at, updatedAt: at })
    .onConflictDoNothing({ target: [queueItems.kind, queueItems.key], where: ACTIVE })
    .returning({ id: queueItems.id });
  return rows.length > 0;
}

/**
 * Takes up to `limit` items of a kind that are due, or whose holder's lease ran out (with attempts left), oldest
 * due first; rows another process is taking are skipped (`for update skip locked`), so no two processes take one
 * item. Each taken item is `running` until `leaseUntil`, its attempts counted one up. `key` takes only that one.
 */
export async function claimItems(
  kind: string,
  now: Date,
  leaseUntil: Date,
  owner: string,
  limit: number,
  key?: string,
): Promise<QueueItemRow[]> {
  return db().transaction(async (tx) => {
    const conditions: (SQL | undefined)[] = [
      eq(queueItems.kind, kind),
      or(
        and(eq(queueItems.state, "pending"), lte(queueItems.runAt, now)),
        and(
          eq(queueItems.state, "running"),
          lte(queueItems.leaseUntil, now),
          sql`${queueItems.attempts} < ${queueItems.maxAttempts}`,
        ),
      ),
    ];
    if (key !== undefined) conditions.push(eq(queueItems.key, key));
    const due = await tx
      .select({ id: queueItems.id })
      .from(queueItems)
      .where(and(...conditions))
      .orderBy(asc(queueItems.runAt), asc(queueItems.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    const rows = await tx
      .update(queueItems)
      .set({
        state: "running",
        attempts: sql`${queueItems.attempts} + 1`,
        leaseUntil,
        lockedBy: owner,
        updatedAt: now,
      })
      .where(
        inArray(
          queueItems.id,
          due.map((row) => row.id),
        ),
      )
      .returning();
    return rows.sort((a, b) => a.runAt.getTime() - b.runAt.getTime() || a.id.localeCompare(b.id));
  });
}

/** Items of a kind whose lease ran out on their last attempt: `dead`, answered so their domain can be told. */
export async function reapAbandoned(kind: string, now: Date, error: string): Promise<QueueItemRow[]> {
  return db()
    .update(queueItems)
    .set({ state: "dead", lastError: error, leaseUntil: null, lockedBy: null, updatedAt: now, finishedAt: now })
    .where(
      and(
        eq(queueItems.kind, kind),
        eq(queueItems.state, "running"),
        lte(queueItems.leaseUntil, now),
        sql`${queueItems.attempts} >= ${queueItems.maxAttempts}`,
      ),
    )
    .returning();
}

export interface ItemOutcome {
  state: QueueState;
  runAt?: Date;
  lastError: string | null;
  /** A postponement gives the attempt back. */
  giveBackAttempt?: boolean;
  at: Date;
}

/**
 * Records how an attempt ended, if the item is still this attempt's (running, same attempt count): a holder whose
 * lease ran out and whose item another process took records nothing. Answers whether it was recorded.
 */
export async function finishAttempt(id: string, attempt: number, outcome: ItemOutcome): Promise<boolean> {
  const finished = outcome.state !== "pending";
  const rows = await db()
    .update(queueItems)
    .set({
      state: outcome.state,
      lastError: outcome.lastError,
      leaseUntil: null,
      lockedBy: null,
      updatedAt: outcome.at,
      ...(outcome.runAt && { runAt: outcome.runAt }),
      ...(outcome.giveBackAttempt && { attempts: sql`${queueItems.attempts} - 1` }),
      ...(finished && { finishedAt: outcome.at }),
    })
    .where(and(eq(queueItems.id, id), eq(queueItems.state, "running"), eq(queueItems.attempts, attempt)))
    .returning({ id: queueItems.id });
  return rows.length > 0;
}

/** Cancels the active items of a kind with these keys (their domain records are gone or finished). */
export async function cancelByKeys(
  kind: string,
  keys: readonly string[],
  reason: string,
  at: Date,
  executor: Executor = db(),
): Promise<number> {
  if (keys.length === 0) return 0;
  const rows = await executor
    .update(queueItems)
    .set({ state: "cancelled", lastError: reason, leaseUntil: null, lockedBy: null, updatedAt: at, finishedAt: at })
    .where(and(eq(queueItems.kind, kind), inArray(queueItems.key, [...keys]), ACTIVE))
    .returning({ id: queueItems.id });
  return rows.length;
}

export async function findItem(id: string): Promise<QueueItemRow | null> {
  const [row] = await db().select().from(queueItems).where(eq(queueItems.id, id));
  return row ?? null;
}

/** Cancels an active item; null when it is not active (finished, or no such item). */
export async function cancelItem(id: string, reason: string, at: Date): Promise<QueueItemRow | null> {
  const [row] = await db()
    .update(queueItems)
    .set({ state: "cancelled", lastError: reason, leaseUntil: null, lockedBy: null, updatedAt: at, finishedAt: at })
    .where(and(eq(queueItems.id, id), ACTIVE))
    .returning();
  return row ?? null;
}

export interface ItemFilter {
  kind?: string;
  state?: QueueState;
}

/** Items newest first, after the (createdAt, id) keyset. */
export async function listItems(
  filter: ItemFilter,
  limit: number,
  after: { createdAt: Date; id: string } | null,
): Promise<QueueItemRow[]> {
  const conditions: (SQL | undefined)[] = [];
  if (filter.kind) conditions.push(eq(queueItems.kind, filter.kind));
  if (filter.state) conditions.push(eq(queueItems.state, filter.state));
  if (after) {
    conditions.push(
      or(lt(queueItems.createdAt, after.createdAt), and(eq(queueItems.createdAt, after.createdAt), lt(queueItems.id, after.id))),
    );
  }
  return db()
    .select()
    .from(queueItems)
    .where(and(...conditions))
    .orderBy(desc(queueItems.createdAt), desc(queueItems.id))
    .limit(limit);
}

/** How many items each kind has in each state. */
export async function countItems(): Promise<{ kind: string; state: QueueState; count: number }[]> {
  return db()
    .select({ kind: queueItems.kind, state: queueItems.state, count: sql<number>`count(*)::int` })
    .from(queueItems)
    .groupBy(queueItems.kind, queueItems.state)
    .orderBy(asc(queueItems.kind), asc(queueItems.state));
}

/** Forgets items that finished before the given times (done and cancelled sooner than dead ones). */
export async function pruneFinished(doneBefore: Date, deadBefore: Date): Promise<number> {
  const rows = await db()
    .delete(queueItems)
    .where(
      and(
        isNotNull(queueItems.finishedAt),
        or(
          and(inArray(queueItems.state, ["done", "cancelled"]), lt(queueItems.finishedAt, doneBefore)),
          and(eq(queueItems.state, "dead"), lt(queueItems.finishedAt, deadBefore)),
        ),
      ),
    )
    .returning({ id: queueItems.id });
  return rows.length;
}
