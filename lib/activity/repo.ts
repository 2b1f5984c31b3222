import { and, asc, eq, gt, gte, inArray, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { activityRecords } from "../db/schema/activity";
import { taskAssignees, tasks } from "../db/schema/tasks";
import type { StoredRange } from "./rules";
import type { UsageRecord } from "./tally";
import { RECORD_RANGE_MAX_HOURS, type ActivityCategory } from "./vocabulary";

const RANGE_MAX_MS = RECORD_RANGE_MAX_HOURS * 3_600_000;

/**
 * Records of a user that may overlap [start, end): no record is longer than a day, so looking from a day before
 * `start` lets the (user_id, started_at) index do the work.
 */
function overlapping(userId: string, start: Date, end: Date): SQL {
  return and(
    eq(activityRecords.userId, userId),
    gte(activityRecords.startedAt, new Date(start.getTime() - RANGE_MAX_MS)),
    lt(activityRecords.startedAt, end),
    gt(activityRecords.endedAt, start),
  )!;
}

/** Serialises a user's batches (until the transaction ends), so that two at once cannot store overlapping records. */
export async function lockUserRecords(userId: string, tx: Executor): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${`activity:${userId}`}))`);
}

/** Which of these client ids the user has stored already. */
export async function storedClientIds(userId: string, clientIds: readonly string[], tx: Executor): Promise<Set<string>> {
  if (clientIds.length === 0) return new Set();
  const rows = await tx
    .select({ clientId: activityRecords.clientId })
    .from(activityRecords)
    .where(and(eq(activityRecords.userId, userId), inArray(activityRecords.clientId, [...clientIds])));
  return new Set(rows.map((row) => row.clientId));
}

/** The user's stored records of these apps that overlap [start, end). */
export async function storedRanges(
  userId: string,
  apps: readonly string[],
  start: Date,
  end: Date,
  tx: Executor,
): Promise<StoredRange[]> {
  if (apps.length === 0) return [];
  return tx
    .select({
      clientId: activityRecords.clientId,
      app: activityRecords.app,
      startedAt: activityRecords.startedAt,
      endedAt: activityRecords.endedAt,
    })
    .from(activityRecords)
    .where(and(overlapping(userId, start, end), inArray(activityRecords.app, [...apps])));
}

export async function insertRecords(rows: (typeof activityRecords.$inferInsert)[], tx: Executor): Promise<void> {
  if (rows.length > 0) await tx.insert(activityRecords).values(rows);
}

/** The user's records with any time in [start, end). */
export async function recordsBetween(userId: string, start: Date, end: Date): Promise<UsageRecord[]> {
  const rows = await db()
    .select({
      app: activityRecords.app,
      category: activityRecords.category,
      seconds: activityRecords.seconds,
      startedAt: activityRecords.startedAt,
      endedAt: activityRecords.endedAt,
    })
    .from(activityRecords)
    .where(overlapping(userId, start, end))
    .orderBy(asc(activityRecords.startedAt));
  // Only the categories of ACTIVITY_CATEGORIES are ever stored (the API refuses others).
  return rows.map((row) => ({ ...row, category: row.category as ActivityCategory }));
}

/** Deletes the user's records that started before `before` (all of them when null); answers how many. */
export async function deleteRecordRows(userId: string, before: Date | null): Promise<number> {
  const deleted = await db()
    .delete(activityRecords)
    .where(and(eq(activityRecords.userId, userId), before ? lt(activityRecords.startedAt, before) : undefined))
    .returning({ id: activityRecords.id });
  return deleted.length;
}

export interface TaskFactsRow {
  open: number;
  overdue: number;
  dueSoon: number;
  next: { id: string; title: string; dueAt: string }[];
}

/**
 * The open tasks (todo or in progress) the user is responsible for, as GET /tasks/workload counts them: assigned to
 * them, or theirs while nobody is assigned. How many, how many are overdue at `now`, how many fall due from `now`
 * until `soonUntil`, and the three due first.
 */
export async function openTaskFacts(userId: string, now: Date, soonUntil: Date): Promise<TaskFactsRow> {
  const responsible = sql`(exists (select 1 from ${taskAssignees} a where a.task_id = ${tasks.id} and a.user_id = ${userId})
    or (${tasks.ownerId} = ${userId} and not exists (select 1 from ${taskAssignees} a where a.task_id = ${tasks.id})))`;
  const open = and(sql`${tasks.status} in ('todo', 'in_progress')`, responsible);
  const [nowText, soonText] = [now.toISOString(), soonUntil.toISOString()];
  const [counts] = await db()
    .select({
      open: sql<number>`count(*)::int`,
      overdue: sql<number>`count(*) filter (where ${tasks.dueAt} < ${nowText}::timestamptz)::int`,
      dueSoon: sql<number>`count(*) filter (where ${tasks.dueAt} >= ${nowText}::timestamptz and ${tasks.dueAt} < ${soonText}::timestamptz)::int`,
    })
    .from(tasks)
    .where(open);
  const next = await db()
    .select({ id: tasks.id, title: tasks.title, dueAt: tasks.dueAt })
    .from(tasks)
    .where(and(open, isNotNull(tasks.dueAt)))
    .orderBy(asc(tasks.dueAt), asc(tasks.id))
    .limit(3);
  return {
    open: counts?.open ?? 0,
    overdue: counts?.overdue ?? 0,
    dueSoon: counts?.dueSoon ?? 0,
    next: next.map((task) => ({ id: task.id, title: task.title, dueAt: task.dueAt!.toISOString() })),
  };
}
