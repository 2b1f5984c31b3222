import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/** A channel a notification can go out on. `in_app` is the stored notification plus the socket. */
export type NotificationChannel = "in_app" | "push" | "email";

/** An in-app notification: stored, listed, read. */
export const notifications = pgTable(
  "notifications",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `reminder`, `due`, `daily_summary`, `weekly_report`, `collaboration.requested`... */
    kind: text("kind").notNull(),
    title: text("title").notNull(),
    body: text("body").notNull().default(""),
    /** The task it is about, if any; the notification stays when the task is deleted. */
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "set null" }),
    data: jsonb("data").$type<Record<string, unknown>>().notNull().default({}),
    readAt: timestamp("read_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * The domain event it was made from (lib/notifications/events.ts), if any: an event handled twice (the log
     * is read at least once) notifies a user once.
     */
    eventId: bigint("event_id", { mode: "number" }),
  },
  (table) => [
    index("notifications_user_idx").on(table.userId, table.createdAt, table.id),
    uniqueIndex("notifications_event_idx").on(table.userId, table.eventId),
    index("notifications_unread_idx")
      .on(table.userId)
      .where(sql`${table.readAt} is null`),
  ],
);

export type NotificationRow = typeof notifications.$inferSelect;

/** A user's reminder preferences for one task. Without a row, the documented defaults apply. */
export const notificationPrefs = pgTable(
  "notification_prefs",
  {
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** Minutes before the due time to remind; null: no advance reminder. */
    remindBefore: integer("remind_before"),
    /** Remind at the due time itself. */
    onDue: boolean("on_due").notNull(),
    /** Include the task in the daily summary. */
    daily: boolean("daily").notNull(),
    channels: text("channels").array().$type<NotificationChannel[]>().notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.taskId, table.userId] }),
    index("notification_prefs_user_idx").on(table.userId),
    check("notification_prefs_remind_before", sql`${table.remindBefore} is null or ${table.remindBefore} between 0 and 40320`),
  ],
);

export type NotificationPrefsRow = typeof notificationPrefs.$inferSelect;

/** A user's settings for the summaries: when the daily one goes out (local time), and whether the weekly one does. */
export const notificationSettings = pgTable("notification_settings", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /** `HH:MM` in the user's time zone; null: no daily summary. */
  dailySummaryTime: text("daily_summary_time"),
  weeklyReport: boolean("weekly_report").notNull().default(true),
  /** Also send the weekly report for a week in which nothing happened (nothing done, created, overdue or tracked). */
  weeklyReportWhenQuiet: boolean("weekly_report_when_quiet").notNull().default(false),
  /** The channels summaries go out on. */
  summaryChannels: text("summary_channels").array().$type<NotificationChannel[]>().notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
});

export type NotificationSettingsRow = typeof notificationSettings.$inferSelect;

/**
 * One reminder fired: the unique key makes each (user, subject, kind, occurrence) fire once, whichever process
 * and however often the scheduler runs. `subject` is a task id, or `daily` / `weekly` for the summaries;
 * `occurrence` names the instance (the due time reminded of, or the local date or week).
 */
export const reminderFires = pgTable(
  "reminder_fires",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subject: text("subject").notNull(),
    /** `before`, `due`, `daily`, `weekly`. */
    kind: text("kind").notNull(),
    occurrence: text("occurrence").notNull(),
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "set null" }),
    firedAt: timestamp("fired_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("reminder_fires_once_key").on(table.userId, table.subject, table.kind, table.occurrence),
    index("reminder_fires_task_idx").on(table.taskId),
  ],
);

export type ReminderFireRow = typeof reminderFires.$inferSelect;

/** Every delivery attempt of a fired reminder, per channel: the answer to "why didn't I get it?". */
export const reminderDeliveries = pgTable(
  "reminder_deliveries",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    fireId: bigint("fire_id", { mode: "number" })
      .notNull()
      .references(() => reminderFires.id, { onDelete: "cascade" }),
    channel: text("channel").$type<NotificationChannel>().notNull(),
    /** `sent`, `failed` (with the reason) or `skipped` (with the reason: preference, no subscription...). */
    status: text("status").$type<"sent" | "failed" | "skipped">().notNull(),
    reason: text("reason"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("reminder_deliveries_fire_idx").on(table.fireId),
    check("reminder_deliveries_status", sql`${table.status} in ('sent', 'failed', 'skipped')`),
  ],
);

export type ReminderDeliveryRow = typeof reminderDeliveries.$inferSelect;

/** The weekly report of one user for one week (Monday, in their time zone): stored, readable later. */
export const weeklyReports = pgTable(
  "weekly_reports",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    weekStart: date("week_start", { mode: "string" }).notNull(),
    summary: jsonb("summary").$type<Record<string, unknown>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("weekly_reports_user_week_key").on(table.userId, table.weekStart)],
);

export type WeeklyReportRow = typeof weeklyReports.$inferSelect;
