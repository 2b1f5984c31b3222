import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const QUEUE_STATES = ["pending", "running", "done", "dead", "cancelled"] as const;
export type QueueState = (typeof QUEUE_STATES)[number];

/**
 * The one work queue (lib/queue): work that must be retried until it succeeds or gives up (webhook deliveries,
 * connector runs, deploys, transcriptions, reminders). Each item names its domain's record (`kind`, `key`); the
 * domain keeps what users see, the queue keeps when the work is due, who holds it and how often it was tried.
 *
 * `pending` until due (`run_at`); `running` while a process holds it (`lease_until`: past that, another process
 * takes it again); then `done`, `dead` (its last attempt failed, or it failed for good) or `cancelled`. At most one
 * active (pending or running) item per kind and key.
 */
export const queueItems = pgTable(
  "queue_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").notNull(),
    key: text("key").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull().default({}),
    state: text("state").$type<QueueState>().notNull().default("pending"),
    /** Attempts started (a claim counts one; a postponement gives it back). */
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull(),
    /** When it is due (pending). */
    runAt: timestamp("run_at", { withTimezone: true }).notNull(),
    /** Until when the process that took it holds it (running). */
    leaseUntil: timestamp("lease_until", { withTimezone: true }),
    /** Which process holds it: host name and process id. */
    lockedBy: text("locked_by"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("queue_items_active_key")
      .on(table.kind, table.key)
      .where(sql`${table.state} in ('pending', 'running')`),
    index("queue_items_due_idx")
      .on(table.kind, table.runAt)
      .where(sql`${table.state} = 'pending'`),
    index("queue_items_lease_idx")
      .on(table.kind, table.leaseUntil)
      .where(sql`${table.state} = 'running'`),
    index("queue_items_listing_idx").on(table.createdAt, table.id),
    index("queue_items_finished_idx")
      .on(table.finishedAt)
      .where(sql`${table.finishedAt} is not null`),
    check("queue_items_state", sql`${table.state} in ('pending', 'running', 'done', 'dead', 'cancelled')`),
    check("queue_items_attempts", sql`${table.attempts} >= 0 and ${table.maxAttempts} >= 1`),
  ],
);

export type QueueItemRow = typeof queueItems.$inferSelect;
