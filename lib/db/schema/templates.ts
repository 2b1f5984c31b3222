import { index, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** One task of a template: its texts, priority, when it is due relative to the apply date, and its subtasks. */
export interface TemplateTask {
  title: string;
  description: string;
  priority: "low" | "normal" | "high" | "urgent";
  /** Due `days` calendar days after the apply date at `hours`:`minutes` wall-clock time in the user's zone; null: no due date. */
  dueAfter: { days: number; hours: number; minutes: number } | null;
  subtasks: string[];
}

/**
 * A template a user made (the three built-in ones live in code: lib/templates/defaults.ts). `tasks` holds the task
 * set in order; it names no user, task or group (copies of texts only).
 */
export const taskTemplates = pgTable(
  "task_templates",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    tasks: jsonb("tasks").$type<TemplateTask[]>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("task_templates_owner_idx").on(table.ownerId, table.createdAt)],
);

export type TaskTemplateRow = typeof taskTemplates.$inferSelect;
