import { sql } from "drizzle-orm";
import { bigint, bigserial, customType, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** PostgreSQL's 64-bit transaction id (`xid8`), read and written as its decimal text. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The domain event log (lib/events): every change other parts of the service react to. Written in the
 * transaction of the change itself, so an event exists exactly when its change does; the socket replay reads it
 * by id (a client's cursor), the event consumers (lib/events/consumers.ts) by (txId, id).
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    /**
     * The transaction that wrote it (`pg_current_xact_id()`): once it is below the oldest transaction still running
     * (`pg_snapshot_xmin`), no event can commit before it any more (lib/events/consumers.ts).
     */
    txId: xid8("tx_id")
      .notNull()
      .default(sql`pg_current_xact_id()`),
    /** `task.created`, `collaboration.requested`... (lib/events/types.ts). */
    type: text("type").notNull(),
    /** Who caused it; null for jobs. No foreign key: the log outlives accounts and tasks. */
    actorId: uuid("actor_id"),
    taskId: uuid("task_id"),
    /** The users allowed to receive it, decided when it happened (lib/permissions). */
    audience: uuid("audience").array().notNull(),
    data: jsonb("data").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("domain_events_audience_idx").using("gin", table.audience),
    index("domain_events_created_idx").on(table.createdAt),
    /** A task's history (GET /tasks/{id}/activity), newest first. */
    index("domain_events_task_idx").on(table.taskId, table.id),
    /** The consumers' reading order. */
    index("domain_events_tx_idx").on(table.txId, table.id),
  ],
);

export type DomainEventRow = typeof domainEvents.$inferSelect;

/**
 * How far each durable consumer of the event log (lib/events/consumers.ts) has read: the (txId, id) of the last
 * event it handled, and the process that holds its lease (one process at a time reads for a consumer).
 */
export const eventCursors = pgTable("event_cursors", {
  consumer: text("consumer").primaryKey(),
  /** The last event handled by id alone (before transaction ids were recorded); kept for old rows. */
  lastEventId: bigint("last_event_id", { mode: "number" }).notNull().default(0),
  /** The transaction of the last event handled; with lastEventId, where the consumer goes on. */
  lastTxId: xid8("last_tx_id")
    .notNull()
    .default(sql`pg_current_xact_id()`),
  leaseOwner: text("lease_owner"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type EventCursorRow = typeof eventCursors.$inferSelect;
