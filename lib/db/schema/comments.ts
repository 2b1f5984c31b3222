import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/**
 * Comments on tasks (lib/comments): Markdown text by their author, readable by everyone who sees the task. They go
 * with the task, and with their author's account.
 */
export const comments = pgTable(
  "comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    authorId: uuid("author_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Markdown (a subset, rendered without raw HTML). */
    body: text("body").notNull(),
    /** The people the comment mentions (each could see the task when it was written); no foreign key. */
    mentions: uuid("mentions").array().notNull().default([]),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    /** When its author last changed it; null: never. */
    editedAt: timestamp("edited_at", { withTimezone: true }),
  },
  (table) => [
    index("comments_task_idx").on(table.taskId, table.createdAt, table.id),
    index("comments_author_idx").on(table.authorId),
  ],
);

export type CommentRow = typeof comments.$inferSelect;
