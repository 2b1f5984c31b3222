import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/** The user's conversation with the assistant, oldest first by id. */
export const chatMessages = pgTable(
  "chat_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ["user", "assistant"] }).notNull(),
    content: text("content").notNull(),
    /** Which assistant wrote an assistant message (`{ provider, model? }`). */
    answeredBy: jsonb("answered_by").$type<Record<string, unknown>>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("chat_messages_user_idx").on(table.userId, table.id)],
);

export const CHAT_ACTION_KINDS = ["create_task", "reschedule_task"] as const;
export const CHAT_ACTION_STATES = ["proposed", "confirmed", "dismissed"] as const;

/** Something the assistant proposed (create a task, move a due date); nothing happens until the user confirms it. */
export const chatActions = pgTable(
  "chat_actions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    messageId: bigint("message_id", { mode: "number" })
      .notNull()
      .references(() => chatMessages.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: CHAT_ACTION_KINDS }).notNull(),
    params: jsonb("params").$type<Record<string, unknown>>().notNull(),
    state: text("state", { enum: CHAT_ACTION_STATES }).notNull().default("proposed"),
    /** The task it created or changed, once confirmed. */
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
  },
  (table) => [index("chat_actions_user_idx").on(table.userId, table.createdAt)],
);
