import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/**
 * Time a user spent on a task: a timer (`endedAt` null while it runs) or an entry made by hand. At most one running
 * timer per user (the partial unique index); entries go with the task and with the user.
 */
export const timeEntries = pgTable(
  "time_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
    note: text("note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("time_entries_user_idx").on(table.userId, table.startedAt),
    index("time_entries_task_idx").on(table.taskId, table.startedAt),
    uniqueIndex("time_entries_one_running_idx")
      .on(table.userId)
      .where(sql`${table.endedAt} is null`),
    check("time_entries_order", sql`${table.endedAt} is null or ${table.endedAt} >= ${table.startedAt}`),
  ],
);

export type TimeEntryRow = typeof timeEntries.$inferSelect;
