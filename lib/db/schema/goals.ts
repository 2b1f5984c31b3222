import { sql } from "drizzle-orm";
import { check, date, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

export const GOAL_STATUSES = ["active", "achieved", "paused", "abandoned"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/**
 * A goal of one user. `progress` (0-100) is set by hand while no task is linked; with linked tasks the API derives
 * it from them instead (`progressMode`), and this column keeps the last hand-set value.
 */
export const goals = pgTable(
  "goals",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    status: text("status", { enum: GOAL_STATUSES }).notNull().default("active"),
    progress: integer("progress").notNull().default(0),
    targetDate: date("target_date", { mode: "string" }),
    achievedAt: timestamp("achieved_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("goals_owner_idx").on(table.ownerId, table.createdAt),
    check("goals_progress_range", sql`${table.progress} between 0 and 100`),
  ],
);

export type GoalRow = typeof goals.$inferSelect;

/** Tasks counted towards a goal's progress. */
export const goalTasks = pgTable(
  "goal_tasks",
  {
    goalId: uuid("goal_id")
      .notNull()
      .references(() => goals.id, { onDelete: "cascade" }),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.goalId, table.taskId] }), index("goal_tasks_task_idx").on(table.taskId)],
);

/** A dated progress entry of a goal: the value then and a note (the goal page charts them over time). */
export const goalProgressReports = pgTable(
  "goal_progress_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    goalId: uuid("goal_id")
      .notNull()
      .references(() => goals.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    reportedOn: date("reported_on", { mode: "string" }).notNull(),
    value: integer("value").notNull(),
    note: text("note").notNull().default(""),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("goal_progress_reports_goal_idx").on(table.goalId, table.reportedOn),
    check("goal_progress_reports_value_range", sql`${table.value} between 0 and 100`),
  ],
);

/**
 * The study plan of a goal (at most one; regenerating replaces it): `plan` holds its sessions and their steps with
 * dates, `answeredBy` which assistant wrote it, `appliedAt` when its steps became tasks.
 */
export const studyPlans = pgTable("study_plans", {
  goalId: uuid("goal_id")
    .primaryKey()
    .references(() => goals.id, { onDelete: "cascade" }),
  userId: uuid("user_id")
    .notNull()
    .references(() => users.id, { onDelete: "cascade" }),
  plan: jsonb("plan").$type<Record<string, unknown>>().notNull(),
  answeredBy: jsonb("answered_by").$type<Record<string, unknown>>().notNull(),
  version: integer("version").notNull().default(1),
  appliedAt: timestamp("applied_at", { withTimezone: true }),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});
