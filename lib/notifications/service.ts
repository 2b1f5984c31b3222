import { AppError } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { NotificationChannel } from "./channel";
import type { NotificationPrefsRow, NotificationRow, NotificationSettingsRow, WeeklyReportRow } from "../db/schema/notifications";
import { publish } from "../events/publish";
import { languageTag, localeOrDefault } from "../i18n/locales";
import { serverTranslator, type ServerMessages } from "../i18n/server-messages";
import { getVisibleTask } from "../tasks/service";
import {
  countUnread,
  findEventNotificationId,
  findPrefs,
  findSettings,
  findWeeklyReport,
  insertNotification,
  listNotificationRows,
  listWeeklyReportRows,
  markAllNotificationsRead,
  markNotificationRead,
  upsertPrefs,
  upsertSettings,
} from "./repo";
import {
  DEFAULT_PREFS,
  DEFAULT_SETTINGS,
  type ListNotificationsQuery,
  type ListReportsQuery,
  type NotificationListOutput,
  type NotificationOutput,
  type PrefsOutput,
  type ReadAllOutput,
  type SettingsOutput,
  type UnreadCountOutput,
  type UpdatePrefsInput,
  type UpdateSettingsInput,
  type WeeklyReportListOutput,
  type WeeklyReportOutput,
} from "./schema";

/*
 * The rules (the routes' descriptions say the same).
 * - In-app notifications belong to one user: only they list, count and read them; anyone else's id is a 404.
 *   Each new one is announced on the socket as `notification.created` to its user alone, with the notification
 *   as the API shows it, once it is committed.
 * - Reminder preferences are per user and task, for anyone who can see the task (404 otherwise). Without stored
 *   ones the defaults of schema.ts apply (30 minutes before, at the due time, in the daily summary, in the app and
 *   by push). They only produce reminders while the user is responsible for the task: its assignees, or its owner
 *   while nobody is assigned.
 * - Summary settings are per user: the daily summary at 07:00 local time, the weekly report on, both in the app
 *   and by email, until they store others.
 */

export interface NewNotification {
  /** `reminder`, `due`, `daily_summary`, `weekly_report`, `collaboration.requested`, `webhook.disabled`... */
  kind: string;
  title: string;
  body: string;
  taskId?: string | null;
  data?: Record<string, unknown>;
  /** The domain event it is made from: the user gets one notification per event, however often it is handled. */
  eventId?: number;
}

export function toNotificationOutput(row: NotificationRow): NotificationOutput {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    body: row.body,
    taskId: row.taskId,
    data: row.data,
    read: row.readAt !== null,
    readAt: row.readAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Stores an in-app notification for a user and announces it on the socket (`notification.created`, to that user
 * alone, carrying the notification as the API shows it). In `database`'s transaction when given (the event then
 * goes out when it commits), else in a transaction of its own.
 */
export async function notifyUser(userId: string, notification: NewNotification, database?: Executor): Promise<{ id: string }> {
  const write = async (tx: Executor) => {
    const row = await insertNotification(
      {
        userId,
        kind: notification.kind,
        title: notification.title,
        body: notification.body,
        taskId: notification.taskId ?? null,
        data: notification.data ?? {},
        eventId: notification.eventId ?? null,
        createdAt: nowDate(),
      },
      tx,
    );
    // The event was handled before (the log is read at least once): the user has its notification already.
    if (!row) return { id: (await findEventNotificationId(userId, notification.eventId!, tx))! };
    await publish(tx, {
      type: "notification.created",
      actorId: null,
      taskId: row.taskId,
      audience: [userId],
      data: toNotificationOutput(row),
    });
    return { id: row.id };
  };
  return database ? write(database) : db().transaction(write);
}

// Listing and reading

export async function listNotifications(actor: Actor, query: ListNotificationsQuery): Promise<NotificationListOutput> {
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : null;
  const after = cursor && { createdAt: cursor.at, id: cursor.id };
  const rows = await listNotificationRows(actor.userId, query.unread === "true", query.limit + 1, after);
  const items = rows.slice(0, query.limit).map(toNotificationOutput);
  return { items, nextCursor: rows.length > query.limit ? encodeTimeCursor(items.at(-1)!.createdAt, items.at(-1)!.id) : null };
}

export async function unreadCount(actor: Actor): Promise<UnreadCountOutput> {
  return { unread: await countUnread(actor.userId) };
}

/** Tells the user's other open pages (their bells) that notifications were read, and how many are left unread. */
async function announceRead(userId: string, notificationId: string | null, tx: Executor): Promise<void> {
  await publish(tx, {
    type: "notification.read",
    actorId: userId,
    audience: [userId],
    data: { notificationId, unread: await countUnread(userId, tx) },
  });
}

/**
 * Marks one of the actor's notifications read (again is a no-op that keeps the first time); 404 for anyone else's.
 * Newly read, it is announced on the user's sockets as `notification.read` with the unread count left.
 */
export async function readNotification(actor: Actor, id: string): Promise<NotificationOutput> {
  const now = nowDate();
  return db().transaction(async (tx) => {
    const row = await markNotificationRead(actor.userId, id, now, tx);
    if (!row) throw new AppError("not_found", "No such notification");
    if (row.readAt?.getTime() === now.getTime()) await announceRead(actor.userId, row.id, tx);
    return toNotificationOutput(row);
  });
}

/** Marks all the actor's notifications read; when there were any, `notification.read` (null id) says so on the socket. */
export async function readAllNotifications(actor: Actor): Promise<ReadAllOutput> {
  return db().transaction(async (tx) => {
    const marked = await markAllNotificationsRead(actor.userId, nowDate(), tx);
    if (marked > 0) await announceRead(actor.userId, null, tx);
    return { marked };
  });
}

// Per-task preferences

/** The preferences in force: the stored ones, or the defaults. */
export function effectivePrefs(taskId: string, row: NotificationPrefsRow | null): PrefsOutput {
  if (!row) return { taskId, ...DEFAULT_PREFS, channels: [...DEFAULT_PREFS.channels], stored: false, updatedAt: null };
  return {
    taskId,
    remind_before: row.remindBefore,
    on_due: row.onDue,
    daily: row.daily,
    channels: row.channels,
    stored: true,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * The channels a user's preferences for a task choose (the defaults without stored ones): notifications about the
 * task's comments follow them too. Not in a transaction (PGlite has one connection): ask before it.
 */
export async function taskChannels(userId: string, taskId: string): Promise<NotificationChannel[]> {
  return effectivePrefs(taskId, await findPrefs(userId, taskId)).channels;
}

export async function getPrefs(actor: Actor, taskId: string): Promise<PrefsOutput> {
  await getVisibleTask(actor, taskId);
  return effectivePrefs(taskId, await findPrefs(actor.userId, taskId));
}

/** Stores the actor's preferences for a task they can see; fields left out keep their current value. */
export async function updatePrefs(actor: Actor, taskId: string, input: UpdatePrefsInput): Promise<PrefsOutput> {
  await getVisibleTask(actor, taskId);
  const current = effectivePrefs(taskId, await findPrefs(actor.userId, taskId));
  const row = await upsertPrefs({
    taskId,
    userId: actor.userId,
    remindBefore: input.remind_before !== undefined ? input.remind_before : current.remind_before,
    onDue: input.on_due ?? current.on_due,
    daily: input.daily ?? current.daily,
    channels: input.channels ?? current.channels,
    updatedAt: nowDate(),
  });
  return effectivePrefs(taskId, row);
}

// Per-user summary settings

export interface SummarySettings {
  dailySummaryTime: string | null;
  weeklyReport: boolean;
  weeklyReportWhenQuiet: boolean;
  summaryChannels: NotificationSettingsRow["summaryChannels"];
}

/** The summary settings in force: the stored ones, or the defaults. */
export function effectiveSettings(row: NotificationSettingsRow | null): SummarySettings {
  if (!row) return { ...DEFAULT_SETTINGS, summaryChannels: [...DEFAULT_SETTINGS.summaryChannels] };
  return {
    dailySummaryTime: row.dailySummaryTime,
    weeklyReport: row.weeklyReport,
    weeklyReportWhenQuiet: row.weeklyReportWhenQuiet,
    summaryChannels: row.summaryChannels,
  };
}

export async function getSettings(actor: Actor): Promise<SettingsOutput> {
  const row = await findSettings(actor.userId);
  return { ...effectiveSettings(row), timeZone: actor.timeZone, stored: row !== null };
}

export async function updateSettings(actor: Actor, input: UpdateSettingsInput): Promise<SettingsOutput> {
  const current = effectiveSettings(await findSettings(actor.userId));
  const row = await upsertSettings({
    userId: actor.userId,
    dailySummaryTime: input.dailySummaryTime !== undefined ? input.dailySummaryTime : current.dailySummaryTime,
    weeklyReport: input.weeklyReport ?? current.weeklyReport,
    weeklyReportWhenQuiet: input.weeklyReportWhenQuiet ?? current.weeklyReportWhenQuiet,
    summaryChannels: input.summaryChannels ?? current.summaryChannels,
    updatedAt: nowDate(),
  });
  return { ...effectiveSettings(row), timeZone: actor.timeZone, stored: true };
}

// Weekly reports

/** A stored report's summary; reports made before goals and narratives were added lack them. */
type StoredSummary = Partial<
  Record<"weekEnd" | "timeZone", string> &
    Record<"completed" | "created" | "overdue" | "open" | "timeTrackedSeconds", number> &
    Pick<WeeklyReportOutput, "goals" | "timeTrackingAvailable" | "narrative">
>;

function toWeeklyReportOutput(row: WeeklyReportRow): WeeklyReportOutput {
  const summary = row.summary as StoredSummary;
  return {
    weekStart: row.weekStart,
    weekEnd: summary.weekEnd ?? row.weekStart,
    timeZone: summary.timeZone ?? "UTC",
    completed: summary.completed ?? 0,
    created: summary.created ?? 0,
    overdue: summary.overdue ?? 0,
    open: summary.open ?? 0,
    goals: summary.goals ?? [],
    timeTrackedSeconds: summary.timeTrackedSeconds ?? 0,
    timeTrackingAvailable: summary.timeTrackingAvailable ?? false,
    narrative: summary.narrative ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export async function listWeeklyReports(actor: Actor, query: ListReportsQuery): Promise<WeeklyReportListOutput> {
  const rows = await listWeeklyReportRows(actor.userId, query.limit + 1, query.cursor ?? null);
  const items = rows.slice(0, query.limit).map(toWeeklyReportOutput);
  return { items, nextCursor: rows.length > query.limit ? items.at(-1)!.weekStart : null };
}

export async function getWeeklyReport(actor: Actor, weekStart: string): Promise<WeeklyReportOutput> {
  const row = await findWeeklyReport(actor.userId, weekStart);
  if (!row) throw new AppError("not_found", "You have no weekly report for that week");
  return toWeeklyReportOutput(row);
}

// Texts, in the user's language

export type MessageKey = keyof ServerMessages["Notifications"];

/** A text in the user's language: the Notifications namespace of messages/<locale>.json, its arguments filled in. */
export function message(locale: string, key: MessageKey, values: Record<string, string | number> = {}): string {
  return serverTranslator(locale, "Notifications")(key, values);
}

/** A formatter in the user's language and time zone (UTC should the stored zone be unknown to this runtime). */
function formatter(locale: string, timeZone: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const tag = languageTag(localeOrDefault(locale));
  try {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone });
  } catch {
    return new Intl.DateTimeFormat(tag, { ...options, timeZone: "UTC" });
  }
}

/** An instant as the user reads it: date and time in their language and time zone. */
export function formatInstant(instant: Date, timeZone: string, locale: string): string {
  return formatter(locale, timeZone, { dateStyle: "medium", timeStyle: "short" }).format(instant);
}

/** A time of day as the user reads it, in their language and time zone. */
export function formatTimeOfDay(instant: Date, timeZone: string, locale: string): string {
  return formatter(locale, timeZone, { timeStyle: "short" }).format(instant);
}

/** A local calendar date (YYYY-MM-DD) as the user reads it, in their language. */
export function formatLocalDate(date: string, locale: string): string {
  return new Intl.DateTimeFormat(languageTag(localeOrDefault(locale)), { timeZone: "UTC", dateStyle: "medium" }).format(
    new Date(`${date}T12:00:00Z`),
  );
}
