import { sql } from "drizzle-orm";
import { bigserial, check, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/** People who work on a task with its owner (an accepted `collaborate` request, or the owner before a transfer). */
export const taskCollaborators = pgTable(
  "task_collaborators",
  {
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.taskId, table.userId] }), index("task_collaborators_user_idx").on(table.userId)],
);

export type CollaborationKind = "assign" | "transfer" | "collaborate" | "claim";

/**
 * `pending` until the other party decides; `accepted` and `rejected` are their decisions; `withdrawn` by the
 * requester; `expired` when nobody decided in time. A claim is `accepted` at once.
 */
export type CollaborationState = "pending" | "accepted" | "rejected" | "withdrawn" | "expired";

/** A collaboration request: one user asks another to take part in a task (or claims it). */
export const taskCollaboration = pgTable(
  "task_collaboration",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    kind: text("kind").$type<CollaborationKind>().notNull(),
    /** Who asked (or claimed). */
    requesterId: uuid("requester_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The other party, who decides; for a claim, the claimer. */
    recipientId: uuid("recipient_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    message: text("message").notNull().default(""),
    state: text("state").$type<CollaborationState>().notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("task_collaboration_recipient_idx").on(table.recipientId, table.createdAt),
    index("task_collaboration_requester_idx").on(table.requesterId, table.createdAt),
    index("task_collaboration_task_idx").on(table.taskId),
    index("task_collaboration_pending_expiry_idx")
      .on(table.expiresAt)
      .where(sql`${table.state} = 'pending'`),
    // One open request of a kind per task and person: asking twice is a 409, not a second request.
    uniqueIndex("task_collaboration_pending_key")
      .on(table.taskId, table.kind, table.recipientId)
      .where(sql`${table.state} = 'pending'`),
    check("task_collaboration_kind", sql`${table.kind} in ('assign', 'transfer', 'collaborate', 'claim')`),
    check("task_collaboration_state", sql`${table.state} in ('pending', 'accepted', 'rejected', 'withdrawn', 'expired')`),
    check("task_collaboration_message_length", sql`char_length(${table.message}) <= 2000`),
  ],
);

export type TaskCollaborationRow = typeof taskCollaboration.$inferSelect;

/** What happened to a request, in order: `requested`, `accepted`, `rejected`, `withdrawn`, `expired`, `claimed`. */
export const taskCollaborationHistory = pgTable(
  "task_collaboration_history",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    requestId: uuid("request_id")
      .notNull()
      .references(() => taskCollaboration.id, { onDelete: "cascade" }),
    /** Who did it; null for the expiry job (and once that account is deleted). */
    actorId: uuid("actor_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("task_collaboration_history_request_idx").on(table.requestId, table.id)],
);

export type TaskCollaborationHistoryRow = typeof taskCollaborationHistory.$inferSelect;
