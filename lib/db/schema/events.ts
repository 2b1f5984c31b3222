import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";

/**
 * The domain event log (lib/events): every change other parts of the service react to, in commit order of its
 * id. Written in the transaction of the change itself, so an event exists exactly when its change does; the
 * socket, notifications and webhooks read it by id (a client's cursor).
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
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
  ],
);

export type DomainEventRow = typeof domainEvents.$inferSelect;
