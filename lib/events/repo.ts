import { and, asc, eq, gt, gte, inArray, isNull, lte, or, sql } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { domainEvents, eventCursors } from "../db/schema/events";
import type { DomainEvent, StoredDomainEvent } from "./types";

export async function insertEvents(events: readonly DomainEvent[], createdAt: Date, database: Executor): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await database
    .insert(domainEvents)
    .values(
      events.map((event) => ({
        type: event.type,
        actorId: event.actorId,
        taskId: event.taskId ?? null,
        audience: [...new Set(event.audience)],
        data: event.data,
        createdAt,
      })),
    )
    .returning({ id: domainEvents.id });
  return rows.map((row) => row.id);
}

/**
 * The events a user may receive after `afterId`, oldest first; with `lateSince`, also those at or below it written
 * since then (one may have committed after a later-numbered one the client saw).
 */
export async function eventsFor(
  userId: string,
  afterId: number,
  limit: number,
  lateSince?: Date,
  database: Executor = db(),
): Promise<StoredDomainEvent[]> {
  const window = lateSince
    ? or(gt(domainEvents.id, afterId), gte(domainEvents.createdAt, lateSince))
    : gt(domainEvents.id, afterId);
  const rows = await database
    .select()
    .from(domainEvents)
    .where(and(window, sql`${domainEvents.audience} @> array[${userId}]::uuid[]`))
    .orderBy(asc(domainEvents.id))
    .limit(limit);
  return rows.map(toStored);
}

// The durable consumers' cursors and leases (lib/events/consumers.ts)

/** A consumer's place in the log: the (transaction, id) of the last event it handled. */
export interface LogPosition {
  txId: string;
  eventId: number;
}

/** The oldest transaction still running anywhere: every event of an older one has committed (or never will). */
const SETTLED_BEFORE = sql`pg_snapshot_xmin(pg_current_snapshot())`;

const afterPosition = (position: LogPosition) =>
  sql`(${domainEvents.txId}, ${domainEvents.id}) > (${position.txId}::xid8, ${position.eventId}::bigint)`;

function toStored(row: typeof domainEvents.$inferSelect): StoredDomainEvent {
  const { txId: _txId, ...event } = row;
  return { ...event, type: row.type as StoredDomainEvent["type"] };
}

/** Gives each named consumer without a cursor one at the present: it handles what commits from now on. */
export async function createMissingCursors(consumers: readonly string[], database: Executor = db()): Promise<void> {
  if (consumers.length === 0) return;
  await database
    .insert(eventCursors)
    .values(consumers.map((consumer) => ({ consumer, lastTxId: sql`${SETTLED_BEFORE}`, lastEventId: 0 })))
    .onConflictDoNothing();
}

/**
 * Takes or extends the lease of each named consumer that nobody else holds (or whose holder let it expire) for
 * `owner`; answers the ones `owner` holds now, with their positions.
 */
export async function claimConsumers(
  consumers: readonly string[],
  owner: string,
  leaseMs: number,
  database: Executor = db(),
): Promise<Map<string, LogPosition>> {
  if (consumers.length === 0) return new Map();
  const rows = await database
    .update(eventCursors)
    .set({ leaseOwner: owner, leaseUntil: sql`now() + ${leaseMs}::double precision * interval '1 millisecond'` })
    .where(
      and(
        inArray(eventCursors.consumer, [...consumers]),
        or(isNull(eventCursors.leaseUntil), eq(eventCursors.leaseOwner, owner), lte(eventCursors.leaseUntil, sql`now()`)),
      ),
    )
    .returning({ consumer: eventCursors.consumer, txId: eventCursors.lastTxId, eventId: eventCursors.lastEventId });
  return new Map(rows.map((row) => [row.consumer, { txId: row.txId, eventId: row.eventId }]));
}

/** Lets go of `owner`'s leases (a stopping process), so that another process takes over at once. */
export async function releaseConsumers(owner: string, database: Executor = db()): Promise<void> {
  await database.update(eventCursors).set({ leaseOwner: null, leaseUntil: null }).where(eq(eventCursors.leaseOwner, owner));
}

/**
 * Moves each consumer's cursor to its new position, in one statement, where `owner` still holds the consumer's
 * lease; answers the consumers whose cursors it moved.
 */
export async function moveCursors(
  owner: string,
  moves: ReadonlyMap<string, LogPosition>,
  database: Executor = db(),
): Promise<Set<string>> {
  if (moves.size === 0) return new Set();
  const positions = sql.join(
    [...moves].map(([consumer, { txId, eventId }]) => sql`(${consumer}::text, ${txId}::xid8, ${eventId}::bigint)`),
    sql`, `,
  );
  const result = await database.execute(sql`
    update ${eventCursors} set last_tx_id = moved.tx_id, last_event_id = moved.event_id, updated_at = now()
    from (values ${positions}) as moved (consumer, tx_id, event_id)
    where ${eventCursors.consumer} = moved.consumer and ${eventCursors.leaseOwner} = ${owner}
    returning ${eventCursors.consumer}`);
  return new Set((result as unknown as { rows: { consumer: string }[] }).rows.map((row) => row.consumer));
}

/** The committed events after `position` that no transaction still running can precede, in log order. */
export async function settledEventsAfter(
  position: LogPosition,
  limit: number,
  database: Executor = db(),
): Promise<(StoredDomainEvent & { txId: string })[]> {
  const rows = await database
    .select()
    .from(domainEvents)
    .where(and(afterPosition(position), sql`${domainEvents.txId} < ${SETTLED_BEFORE}`))
    .orderBy(asc(domainEvents.txId), asc(domainEvents.id))
    .limit(limit);
  return rows.map((row) => ({ ...toStored(row), txId: row.txId }));
}

export interface ConsumerLag {
  consumer: string;
  leaseOwner: string | null;
  /** Events after its cursor (counted up to LAG_COUNT_LIMIT). */
  behind: number;
  /** When the oldest of them was written; null when it is up to date. */
  oldestAt: Date | null;
  updatedAt: Date;
}

/** Counting stops here: a consumer this far behind is "at least" this far. */
export const LAG_COUNT_LIMIT = 100_000;

/** How far behind the log each consumer with a cursor is. */
export async function consumerLags(database: Executor = db()): Promise<ConsumerLag[]> {
  const cursors = await database.select().from(eventCursors).orderBy(asc(eventCursors.consumer));
  return Promise.all(
    cursors.map(async (cursor) => {
      const position = { txId: cursor.lastTxId, eventId: cursor.lastEventId };
      const [row] = await database
        .select({
          behind: sql<number>`count(*)::int`,
          oldestMs: sql<number | null>`(extract(epoch from min(created_at)) * 1000)::float8`,
        })
        .from(
          database
            .select({ createdAt: domainEvents.createdAt })
            .from(domainEvents)
            .where(afterPosition(position))
            .limit(LAG_COUNT_LIMIT)
            .as("behind"),
        );
      return {
        consumer: cursor.consumer,
        leaseOwner: cursor.leaseUntil && cursor.leaseUntil > new Date() ? cursor.leaseOwner : null,
        behind: row?.behind ?? 0,
        oldestAt: row?.oldestMs == null ? null : new Date(row.oldestMs),
        updatedAt: cursor.updatedAt,
      };
    }),
  );
}
