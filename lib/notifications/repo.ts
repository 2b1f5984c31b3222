import { and, desc, eq, gt, inArray, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { isoText } from "../db/iso-text";
import {
  notificationPrefs,
  notifications,
  notificationSettings,
  reminderDeliveries,
  reminderFires,
  weeklyReports,
  type NotificationChannel,
  type NotificationPrefsRow,
  type NotificationRow,
  type NotificationSettingsRow,
  type ReminderDeliveryRow,
  type ReminderFireRow,
  type WeeklyReportRow,
} from "../db/schema/notifications";
import { taskAssignees, tasks } from "../db/schema/tasks";
import { users } from "../db/schema/users";
import { DEFAULT_PREFS, REMIND_BEFORE_MAX } from "./schema";

const OPEN = sql.raw(`('todo', 'in_progress')`);
/** PGlite takes no JavaScript arrays as parameters: a text[] literal of validated channel names instead. */
const channelArray = (channels: readonly NotificationChannel[]) => `{${channels.join(",")}}`;

/**
 * The tasks a user is responsible for (and so reminded of, and summarised): those they are assigned to, and
 * their own tasks while nobody is assigned.
 */
function responsibleFor(userId: string): SQL {
  return sql`(exists (select 1 from ${taskAssignees} a where a.task_id = ${tasks.id} and a.user_id = ${userId})
    or (${tasks.ownerId} = ${userId} and not exists (select 1 from ${taskAssignees} a where a.task_id = ${tasks.id})))`;
}

// In-app notifications

/** Answers null when the user already has the notification of the row's event (`eventId`). */
export async function insertNotification(
  row: typeof notifications.$inferInsert,
  database: Executor,
): Promise<NotificationRow | null> {
  const [inserted] = await database.insert(notifications).values(row).onConflictDoNothing().returning();
  return inserted ?? null;
}

/** The id of the notification a user got from an event, if any. */
export async function findEventNotificationId(userId: string, eventId: number, database: Executor): Promise<string | null> {
  const [row] = await database
    .select({ id: notifications.id })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), eq(notifications.eventId, eventId)))
    .limit(1);
  return row?.id ?? null;
}

/** Where a page of notifications ended: the last one's creation time and id. */
export interface NotificationKeyset {
  createdAt: Date;
  id: string;
}

/** A page of a user's notifications, newest first (then by id), after `after`. */
export async function listNotificationRows(
  userId: string,
  unreadOnly: boolean,
  limit: number,
  after: NotificationKeyset | null,
): Promise<NotificationRow[]> {
  const conditions: (SQL | undefined)[] = [eq(notifications.userId, userId)];
  if (unreadOnly) conditions.push(isNull(notifications.readAt));
  if (after) {
    conditions.push(
      or(
        lt(notifications.createdAt, after.createdAt),
        and(eq(notifications.createdAt, after.createdAt), lt(notifications.id, after.id)),
      ),
    );
  }
  return db()
    .select()
    .from(notifications)
    .where(and(...conditions))
    .orderBy(desc(notifications.createdAt), desc(notifications.id))
    .limit(limit);
}

export async function countUnread(userId: string, database: Executor = db()): Promise<number> {
  const [row] = await database
    .select({ unread: sql<number>`count(*)::int` })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.unread ?? 0;
}

/** Marks one of the user's notifications read (keeping the first read time); null when it is not theirs. */
export async function markNotificationRead(
  userId: string,
  id: string,
  now: Date,
  database: Executor = db(),
): Promise<NotificationRow | null> {
  const [row] = await database
    .update(notifications)
    .set({ readAt: sql`coalesce(${notifications.readAt}, ${now.toISOString()}::timestamptz)` })
    .where(and(eq(notifications.id, id), eq(notifications.userId, userId)))
    .returning();
  return row ?? null;
}

/** Marks every unread notification of the user read; answers how many. */
export async function markAllNotificationsRead(userId: string, now: Date, database: Executor = db()): Promise<number> {
  const rows = await database
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return rows.length;
}

// Users

export interface UserContact {
  id: string;
  name: string;
  locale: string;
  timeZone: string;
}

export async function findUserContact(userId: string, database: Executor = db()): Promise<UserContact | null> {
  const [row] = await database
    .select({ id: users.id, name: users.name, locale: users.locale, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/** A task's title (for notifications about it), or null when it is gone. */
export async function findTaskTitle(taskId: string, database: Executor = db()): Promise<string | null> {
  const [row] = await database.select({ title: tasks.title }).from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return row?.title ?? null;
}

// Per-task preferences

export async function findPrefs(userId: string, taskId: string): Promise<NotificationPrefsRow | null> {
  const [row] = await db()
    .select()
    .from(notificationPrefs)
    .where(and(eq(notificationPrefs.userId, userId), eq(notificationPrefs.taskId, taskId)))
    .limit(1);
  return row ?? null;
}

export async function upsertPrefs(row: typeof notificationPrefs.$inferInsert): Promise<NotificationPrefsRow> {
  const { taskId: _taskId, userId: _userId, ...values } = row;
  const [stored] = await db()
    .insert(notificationPrefs)
    .values(row)
    .onConflictDoUpdate({ target: [notificationPrefs.taskId, notificationPrefs.userId], set: values })
    .returning();
  return stored!;
}

/**
 * Gives a new occurrence of a recurring task the preferences its users set on the occurrence before it (the one
 * of the same series with the highest number below it); answers how many it copied. Preferences already stored
 * on the new occurrence stay.
 */
export async function copyPrefsFromPreviousOccurrence(taskId: string, now: Date): Promise<number> {
  const result = (await db().execute(sql`
    insert into ${notificationPrefs} (task_id, user_id, remind_before, on_due, daily, channels, updated_at)
    select t.id, p.user_id, p.remind_before, p.on_due, p.daily, p.channels, ${now.toISOString()}::timestamptz
    from ${tasks} t
    join ${tasks} previous on previous.series_id = t.series_id
      and previous.occurrence = (select max(x.occurrence) from ${tasks} x where x.series_id = t.series_id and x.occurrence < t.occurrence)
    join ${notificationPrefs} p on p.task_id = previous.id
    where t.id = ${taskId} and t.series_id is not null
    on conflict do nothing
    returning user_id`)) as unknown as { rows: unknown[] };
  return result.rows.length;
}

// Per-user summary settings

export async function findSettings(userId: string): Promise<NotificationSettingsRow | null> {
  const [row] = await db().select().from(notificationSettings).where(eq(notificationSettings.userId, userId)).limit(1);
  return row ?? null;
}

export async function upsertSettings(row: typeof notificationSettings.$inferInsert): Promise<NotificationSettingsRow> {
  const { userId: _userId, ...values } = row;
  const [stored] = await db()
    .insert(notificationSettings)
    .values(row)
    .onConflictDoUpdate({ target: notificationSettings.userId, set: values })
    .returning();
  return stored!;
}

// Reminder fires and their deliveries

export type ReminderKind = "before" | "due";

/** A reminder whose time has come (and has not fired yet) for one responsible user of an open task. */
export interface ReminderCandidate {
  taskId: string;
  title: string;
  userId: string;
  locale: string;
  timeZone: string;
  kind: ReminderKind;
  /** The task's due time, ISO: the reminder's occurrence. */
  dueAt: string;
  /** When it was due to go out, ISO. */
  fireAt: string;
  remindBefore: number | null;
  channels: NotificationChannel[];
}

/**
 * The reminders due at `now` that have not fired: for each open task (todo or in progress) with a due time and
 * each user responsible for it, `remind_before` minutes before the due time and (with `on_due`) at it, by the
 * user's preferences or the defaults; only those due after `since`, soonest first.
 */
export async function dueReminderCandidates(now: Date, since: Date, limit: number): Promise<ReminderCandidate[]> {
  const until = new Date(now.getTime() + REMIND_BEFORE_MAX * 60_000).toISOString();
  const from = since.toISOString();
  const dueWindow = sql`t.status in ${OPEN} and t.due_at > ${from}::timestamptz and t.due_at <= ${until}::timestamptz`;
  const result = (await db().execute(sql`
    with responsible as (
      select t.id as task_id, t.title, t.due_at, a.user_id
      from ${tasks} t join ${taskAssignees} a on a.task_id = t.id
      where ${dueWindow}
      union all
      select t.id, t.title, t.due_at, t.owner_id
      from ${tasks} t
      where ${dueWindow} and not exists (select 1 from ${taskAssignees} a where a.task_id = t.id)
    ),
    chosen as (
      select r.task_id, r.title, r.due_at, r.user_id, u.locale, u.time_zone,
        case when p.task_id is null then ${DEFAULT_PREFS.remind_before}::int else p.remind_before end as remind_before,
        coalesce(p.on_due, ${DEFAULT_PREFS.on_due}) as on_due,
        coalesce(p.channels, ${channelArray(DEFAULT_PREFS.channels)}::text[]) as channels
      from responsible r
      join ${users} u on u.id = r.user_id
      left join ${notificationPrefs} p on p.task_id = r.task_id and p.user_id = r.user_id
    ),
    reminders as (
      select chosen.*, 'before'::text as kind, due_at - make_interval(mins => remind_before) as fire_at from chosen
        where remind_before is not null and not (remind_before = 0 and on_due)
      union all
      select chosen.*, 'due'::text, due_at from chosen where on_due
    )
    select task_id as "taskId", title, user_id as "userId", locale, time_zone as "timeZone", kind,
      ${isoText(sql`due_at`)} as "dueAt", ${isoText(sql`fire_at`)} as "fireAt", remind_before as "remindBefore", channels
    from reminders r
    where fire_at <= ${now.toISOString()}::timestamptz and fire_at > ${from}::timestamptz
      and not exists (
        select 1 from ${reminderFires} f
        where f.user_id = r.user_id and f.subject = r.task_id::text and f.kind = r.kind and f.occurrence = ${isoText(sql`r.due_at`)}
      )
    order by fire_at, task_id, user_id, kind
    limit ${limit}`)) as unknown as { rows: ReminderCandidate[] };
  return result.rows.map((row) => ({ ...row, channels: parseTextArray(row.channels) as NotificationChannel[] }));
}

/** A text[] as the driver gives it: an array, or (some drivers) the `{a,b}` literal. */
function parseTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value as string[];
  if (typeof value === "string")
    return value
      .replace(/^\{|\}$/g, "")
      .split(",")
      .filter(Boolean);
  return [];
}

/**
 * Claims a reminder for sending: inserts its fire unless one with the same (user, subject, kind, occurrence)
 * exists. The unique index decides between runners: the id comes back to exactly one of them, null to the rest.
 */
export async function claimFire(fire: typeof reminderFires.$inferInsert, executor: Executor = db()): Promise<number | null> {
  const [row] = await executor
    .insert(reminderFires)
    .values(fire)
    .onConflictDoNothing({ target: [reminderFires.userId, reminderFires.subject, reminderFires.kind, reminderFires.occurrence] })
    .returning({ id: reminderFires.id });
  return row?.id ?? null;
}

export async function insertDelivery(delivery: typeof reminderDeliveries.$inferInsert): Promise<void> {
  await db().insert(reminderDeliveries).values(delivery);
}

/** Whether a fired reminder is still recorded (it goes with its user and task). */
export async function fireExists(fireId: number): Promise<boolean> {
  const [row] = await db().select({ id: reminderFires.id }).from(reminderFires).where(eq(reminderFires.id, fireId));
  return Boolean(row);
}

/** The channels a fired reminder's deliveries were logged for already. */
export async function loggedChannels(fireId: number): Promise<Set<string>> {
  const rows = await db()
    .select({ channel: reminderDeliveries.channel })
    .from(reminderDeliveries)
    .where(eq(reminderDeliveries.fireId, fireId));
  return new Set(rows.map((row) => row.channel));
}

export interface FireWithDeliveries extends ReminderFireRow {
  deliveries: ReminderDeliveryRow[];
}

/** A user's fired reminders of a task (at most `limit`), newest first, each with its deliveries by channel. */
export async function listTaskFires(userId: string, taskId: string, limit: number): Promise<FireWithDeliveries[]> {
  const fires = await db()
    .select()
    .from(reminderFires)
    .where(and(eq(reminderFires.userId, userId), eq(reminderFires.subject, taskId)))
    .orderBy(desc(reminderFires.firedAt), desc(reminderFires.id))
    .limit(limit);
  if (fires.length === 0) return [];
  const deliveries = await db()
    .select()
    .from(reminderDeliveries)
    .where(
      inArray(
        reminderDeliveries.fireId,
        fires.map((fire) => fire.id),
      ),
    )
    .orderBy(reminderDeliveries.id);
  return fires.map((fire) => ({ ...fire, deliveries: deliveries.filter((delivery) => delivery.fireId === fire.id) }));
}

/** The occurrences (due times) for which the user's reminders of a task have fired, by kind. */
export async function firedOccurrences(userId: string, taskId: string, occurrence: string): Promise<ReminderKind[]> {
  const rows = await db()
    .select({ kind: reminderFires.kind })
    .from(reminderFires)
    .where(and(eq(reminderFires.userId, userId), eq(reminderFires.subject, taskId), eq(reminderFires.occurrence, occurrence)));
  return rows.map((row) => row.kind as ReminderKind);
}

// Summaries

export type SummaryKind = "daily" | "weekly";

/** A user the summaries may go to, with their settings (null when none are stored) and their last summary's occurrence. */
export interface SummaryRecipient {
  id: string;
  locale: string;
  timeZone: string;
  settings: NotificationSettingsRow | null;
  /** The occurrence (local date, or week start) of their latest summary of this kind; null for none yet. */
  last: string | null;
}

/**
 * A page of users (by id, after `afterId`) who receive summaries of this kind: the daily one unless their
 * `dailySummaryTime` is null, the weekly one unless `weeklyReport` is false (no stored settings: both).
 */
export async function summaryRecipients(kind: SummaryKind, afterId: string | null, limit: number): Promise<SummaryRecipient[]> {
  const wanted =
    kind === "daily"
      ? or(isNull(notificationSettings.userId), sql`${notificationSettings.dailySummaryTime} is not null`)
      : or(isNull(notificationSettings.userId), eq(notificationSettings.weeklyReport, true));
  const rows = await db()
    .select({
      id: users.id,
      locale: users.locale,
      timeZone: users.timeZone,
      settings: notificationSettings,
      last: sql<
        string | null
      >`(select max(f.occurrence) from ${reminderFires} f where f.user_id = ${users.id} and f.subject = ${kind} and f.kind = ${kind})`,
    })
    .from(users)
    .leftJoin(notificationSettings, eq(notificationSettings.userId, users.id))
    .where(and(afterId ? gt(users.id, afterId) : undefined, wanted))
    .orderBy(users.id)
    .limit(limit);
  return rows;
}

export interface SummaryTask {
  id: string;
  title: string;
  dueAt: string;
}

/**
 * The open tasks the user is responsible for that are due before `before`, soonest first (at most `limit`),
 * leaving out those whose preferences say `daily: false` (no preferences: included).
 */
export async function openTasksDueBefore(userId: string, before: Date, limit: number): Promise<SummaryTask[]> {
  return db()
    .select({ id: tasks.id, title: tasks.title, dueAt: isoText(sql`${tasks.dueAt}`) })
    .from(tasks)
    .leftJoin(notificationPrefs, and(eq(notificationPrefs.taskId, tasks.id), eq(notificationPrefs.userId, userId)))
    .where(
      and(
        sql`${tasks.status} in ${OPEN}`,
        lt(tasks.dueAt, before),
        responsibleFor(userId),
        sql`coalesce(${notificationPrefs.daily}, ${DEFAULT_PREFS.daily})`,
      ),
    )
    .orderBy(tasks.dueAt, tasks.id)
    .limit(limit);
}

export interface WeekCounts {
  completed: number;
  created: number;
  overdue: number;
  open: number;
}

/** The user's week in numbers: completed and created in [start, end), and overdue and open at `now`. */
export async function weekCounts(userId: string, start: Date, end: Date, now: Date): Promise<WeekCounts> {
  const [from, to, at] = [start.toISOString(), end.toISOString(), now.toISOString()];
  const [row] = await db()
    .select({
      completed: sql<number>`count(*) filter (where ${tasks.status} = 'done' and ${tasks.completedAt} >= ${from}::timestamptz and ${tasks.completedAt} < ${to}::timestamptz)::int`,
      created: sql<number>`count(*) filter (where ${tasks.createdAt} >= ${from}::timestamptz and ${tasks.createdAt} < ${to}::timestamptz)::int`,
      overdue: sql<number>`count(*) filter (where ${tasks.status} in ${OPEN} and ${tasks.dueAt} < ${at}::timestamptz)::int`,
      open: sql<number>`count(*) filter (where ${tasks.status} in ${OPEN})::int`,
    })
    .from(tasks)
    .where(responsibleFor(userId));
  return row ?? { completed: 0, created: 0, overdue: 0, open: 0 };
}

/** Stores a weekly report unless the user has one for that week already; answers whether it stored it. */
export async function insertWeeklyReport(row: typeof weeklyReports.$inferInsert): Promise<boolean> {
  const rows = await db()
    .insert(weeklyReports)
    .values(row)
    .onConflictDoNothing({ target: [weeklyReports.userId, weeklyReports.weekStart] })
    .returning({ id: weeklyReports.id });
  return rows.length > 0;
}

/** A page of the user's weekly reports, newest week first, before the week `before`. */
export async function listWeeklyReportRows(userId: string, limit: number, before: string | null): Promise<WeeklyReportRow[]> {
  return db()
    .select()
    .from(weeklyReports)
    .where(and(eq(weeklyReports.userId, userId), before ? lt(weeklyReports.weekStart, before) : undefined))
    .orderBy(desc(weeklyReports.weekStart))
    .limit(limit);
}

export async function findWeeklyReport(userId: string, weekStart: string): Promise<WeeklyReportRow | null> {
  const [row] = await db()
    .select()
    .from(weeklyReports)
    .where(and(eq(weeklyReports.userId, userId), eq(weeklyReports.weekStart, weekStart)))
    .limit(1);
  return row ?? null;
}
