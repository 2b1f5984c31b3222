import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects";
import { tasks, type TaskStatus } from "./tasks";
import { userGroups } from "./teams";

/**
 * A board column of a project or a team (lib/board-columns): named, ordered, mapped to a task status. A project or
 * team with none shows the four status columns; once it has some, every status keeps at least one. Exactly one of
 * `projectId` and `userGroupId` is set (the column's owner scope); the columns go with it.
 */
export const boardColumns = pgTable(
  "board_columns",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    userGroupId: uuid("user_group_id").references(() => userGroups.id, { onDelete: "cascade" }),
    /** null: the column is called after its status (the columns made when the first custom one was added). */
    name: text("name"),
    /** 0, 1, 2…: the order of the scope's columns, rewritten whole on every reorder. */
    position: integer("position").notNull(),
    status: text("status").$type<TaskStatus>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("board_columns_project_idx").on(table.projectId, table.position),
    index("board_columns_user_group_idx").on(table.userGroupId, table.position),
    check("board_columns_one_scope", sql`(${table.projectId} is null) <> (${table.userGroupId} is null)`),
    check("board_columns_name_length", sql`${table.name} is null or char_length(${table.name}) between 1 and 60`),
    check("board_columns_status", sql`${table.status} in ('todo', 'in_progress', 'done', 'cancelled')`),
  ],
);

export type BoardColumnRow = typeof boardColumns.$inferSelect;

/**
 * Which column of a board a card is in, when its status has several there: at most one row per task and scope
 * (lib/board-columns keeps it so). A row whose column maps to another status than the task's now is ignored, and a
 * task without a row shows in the first column (by position) of its status.
 */
export const boardPlacements = pgTable(
  "board_placements",
  {
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    columnId: uuid("column_id")
      .notNull()
      .references(() => boardColumns.id, { onDelete: "cascade" }),
  },
  (table) => [primaryKey({ columns: [table.taskId, table.columnId] }), index("board_placements_column_idx").on(table.columnId)],
);
