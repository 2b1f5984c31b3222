import { sql } from "drizzle-orm";
import {
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { families } from "./family";
import { projects } from "./projects";
import { userGroups } from "./teams";
import { users } from "./users";

/** A group name per language; default groups carry all five, a user's own at least one. */
export type GroupNames = Partial<Record<"en" | "cs" | "he" | "ru" | "ua", string>>;

export interface GroupLocation {
  name: string;
  latitude: number;
  longitude: number;
  radiusMeters: number;
}

export interface GroupSettings {
  /** IANA time zones, for example the places a family lives in. */
  timeZones: string[];
  locations: GroupLocation[];
}

export const taskGroups = pgTable(
  "task_groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The default group this row was made from (`personal`, `work`...); null for a user's own group. */
    key: text("key"),
    names: jsonb("names").$type<GroupNames>().notNull(),
    position: integer("position").notNull(),
    settings: jsonb("settings").$type<GroupSettings>().notNull().default({ timeZones: [], locations: [] }),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    /** The family workspace this group is shared with: every member sees it and its tasks. */
    familyId: uuid("family_id").references(() => families.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("task_groups_owner_idx").on(table.ownerId, table.position),
    index("task_groups_family_idx")
      .on(table.familyId)
      .where(sql`${table.familyId} is not null`),
    uniqueIndex("task_groups_owner_key_key").on(table.ownerId, table.key),
  ],
);

export type TaskGroupRow = typeof taskGroups.$inferSelect;

/**
 * Text compared byte by byte: board positions are fractional-index keys (digits and ASCII letters), whose
 * order must not depend on the database's locale.
 */
const bytewiseText = customType<{ data: string }>({ dataType: () => 'text COLLATE "C"' });

export type TaskStatus = "todo" | "in_progress" | "done" | "cancelled";

export interface Recurrence {
  frequency: "daily" | "weekly" | "monthly";
  /** Every N days, weeks or months. */
  interval: number;
  /** `scheduled`: N units after the series' schedule; `completion`: N units after the last was done. */
  anchor: "scheduled" | "completion";
  /** No occurrence is due after this local date (YYYY-MM-DD). */
  until: string | null;
  /** At most this many occurrences in the series, the first included. */
  count: number | null;
}

export const tasks = pgTable(
  "tasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    // No cascade: a group with tasks is deleted only after its tasks are moved or deleted on purpose.
    groupId: uuid("group_id")
      .notNull()
      .references(() => taskGroups.id),
    /** The project the task belongs to: its members see it. Deleting the project leaves its tasks with their owners. */
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "set null" }),
    /** The user group (team) the task is assigned to as a whole: every member sees it. */
    userGroupId: uuid("user_group_id").references(() => userGroups.id, { onDelete: "set null" }),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    status: text("status").$type<TaskStatus>().notNull().default("todo"),
    /** 0 low, 1 normal, 2 high, 3 urgent: a number so that it sorts. */
    priority: smallint("priority").notNull().default(1),
    dueAt: timestamp("due_at", { withTimezone: true }),
    startDate: date("start_date", { mode: "string" }),
    tags: text("tags")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    position: bytewiseText("position").notNull(),
    recurrence: jsonb("recurrence").$type<Recurrence>(),
    /** Every occurrence of a recurring task shares the series id; `occurrence` counts from 1. */
    seriesId: uuid("series_id"),
    occurrence: integer("occurrence"),
    /** The due time of occurrence 1 (anchor `scheduled`) or of the occurrence the chain restarted from. */
    seriesStartAt: timestamp("series_start_at", { withTimezone: true }),
    /** The next occurrence has been created (or the series ended): the runner leaves this task alone. */
    successorCreated: boolean("successor_created").notNull().default(false),
    /** Completed because its last open subtask was done: reopening a subtask reopens it. */
    autoCompleted: boolean("auto_completed").notNull().default(false),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
    // Kept by database triggers (migration 0003) from task_assignees and subtasks, which stay the truth: the
    // task list reads them with the task instead of looking up two tables for every task on the page.
    // Never written by the application.
    /** The assignees' user ids, in the order they were assigned. */
    assigneeIds: uuid("assignee_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** The collaborators' user ids (task_collaborators), in the order they joined (migration 0006). */
    collaboratorIds: uuid("collaborator_ids")
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    subtaskTotal: integer("subtask_total").notNull().default(0),
    subtaskDone: integer("subtask_done").notNull().default(0),
    /**
     * The task's answer in `GET /tasks` (the `Task` JSON of lib/tasks/schema.ts, as text), kept by a database
     * trigger (migration 0012) from the row itself on every insert and update: the task list returns it as it is
     * instead of formatting four timestamps and building the JSON for every task of every page it reads, which
     * was more than half of PostgreSQL's work per list query. Never written by the application.
     */
    answer: text("answer"),
  },
  (table) => [
    index("tasks_owner_position_idx").on(table.ownerId, table.position, table.id),
    // A board's column and its total (and a project's open count) read one status of one owner, project or team:
    // with the status second, the page is a range in position order and the count reads the index alone, where
    // reading by position and filtering the status read every task of the owner or project (bench:growth).
    index("tasks_owner_status_idx").on(table.ownerId, table.status, table.position, table.id),
    index("tasks_group_idx").on(table.groupId),
    index("tasks_owner_due_idx").on(table.ownerId, table.dueAt),
    index("tasks_user_group_idx")
      .on(table.userGroupId, table.position, table.id)
      .where(sql`${table.userGroupId} is not null`),
    index("tasks_project_idx")
      .on(table.projectId, table.position, table.id)
      .where(sql`${table.projectId} is not null`),
    index("tasks_user_group_status_idx")
      .on(table.userGroupId, table.status, table.position, table.id)
      .where(sql`${table.userGroupId} is not null`),
    index("tasks_project_status_idx")
      .on(table.projectId, table.status, table.position, table.id)
      .where(sql`${table.projectId} is not null`),
    // The reminder scheduler's scan: open tasks by due time, across all users.
    index("tasks_open_due_idx")
      .on(table.dueAt)
      .where(sql`${table.status} in ('todo', 'in_progress') and ${table.dueAt} is not null`),
    uniqueIndex("tasks_series_occurrence_key").on(table.seriesId, table.occurrence),
    index("tasks_recurrence_pending_idx")
      .on(table.dueAt)
      .where(sql`${table.recurrence} is not null and not ${table.successorCreated}`),
  ],
);

export type TaskRow = typeof tasks.$inferSelect;

export const taskAssignees = pgTable(
  "task_assignees",
  {
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.taskId, table.userId] }), index("task_assignees_user_idx").on(table.userId)],
);

export const subtasks = pgTable(
  "subtasks",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    done: boolean("done").notNull().default(false),
    position: integer("position").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("subtasks_task_idx").on(table.taskId, table.position)],
);

export type SubtaskRow = typeof subtasks.$inferSelect;
