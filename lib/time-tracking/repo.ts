import { and, asc, eq, isNull, lt, sql, type SQL } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { tasks } from "../db/schema/tasks";
import { timeEntries, type TimeEntryRow } from "../db/schema/time-tracking";
import { users } from "../db/schema/users";
import { visibleTaskCondition } from "../permissions/repo";

/** An entry with the title of its task and the name of its person, as reports and answers show them. */
export type EntryRecord = TimeEntryRow & { taskTitle: string; userName: string };

const recordColumns = {
  id: timeEntries.id,
  userId: timeEntries.userId,
  taskId: timeEntries.taskId,
  startedAt: timeEntries.startedAt,
  endedAt: timeEntries.endedAt,
  note: timeEntries.note,
  createdAt: timeEntries.createdAt,
  updatedAt: timeEntries.updatedAt,
  taskTitle: tasks.title,
  userName: users.name,
};

function records(database: Executor, where: SQL | undefined) {
  return database
    .select(recordColumns)
    .from(timeEntries)
    .innerJoin(tasks, eq(tasks.id, timeEntries.taskId))
    .innerJoin(users, eq(users.id, timeEntries.userId))
    .where(where)
    .orderBy(asc(timeEntries.startedAt), asc(timeEntries.id));
}

/** An instant as an SQL parameter (text cast: both drivers read it the same). */
const at = (instant: Date) => sql`${instant.toISOString()}::timestamptz`;

/** Entries that overlap [from, to): those still running count up to `now`. */
const overlaps = (from: Date, to: Date, now: Date) =>
  and(lt(timeEntries.startedAt, to), sql`coalesce(${timeEntries.endedAt}, ${at(now)}) > ${at(from)}`);

/**
 * Locks the user's row until the transaction ends: timer starts and stops of one user run one after another, so
 * two starts at the same moment leave exactly one timer running.
 */
export async function lockUser(userId: string, tx: Executor): Promise<void> {
  await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
}

/** The user's running timer (on a task they may no longer see, too: it is theirs to stop). */
export async function findRunning(userId: string, database: Executor = db()): Promise<EntryRecord | null> {
  const [row] = await records(database, and(eq(timeEntries.userId, userId), isNull(timeEntries.endedAt)));
  return row ?? null;
}

export async function findOwnEntry(userId: string, entryId: string, database: Executor = db()): Promise<EntryRecord | null> {
  const [row] = await records(database, and(eq(timeEntries.userId, userId), eq(timeEntries.id, entryId)));
  return row ?? null;
}

export async function insertEntry(
  row: Pick<TimeEntryRow, "userId" | "taskId" | "startedAt" | "endedAt" | "note" | "createdAt" | "updatedAt">,
  tx: Executor,
): Promise<string> {
  const [inserted] = await tx.insert(timeEntries).values(row).returning({ id: timeEntries.id });
  return inserted!.id;
}

export async function updateEntryRow(
  entryId: string,
  patch: Partial<Pick<TimeEntryRow, "startedAt" | "endedAt" | "note" | "updatedAt">>,
  database: Executor = db(),
): Promise<void> {
  await database.update(timeEntries).set(patch).where(eq(timeEntries.id, entryId));
}

export async function deleteOwnEntry(userId: string, entryId: string): Promise<boolean> {
  const deleted = await db()
    .delete(timeEntries)
    .where(and(eq(timeEntries.userId, userId), eq(timeEntries.id, entryId)))
    .returning({ id: timeEntries.id });
  return deleted.length > 0;
}

/** The user's own entries overlapping [from, to), on tasks they can still see; oldest first. */
export async function listOwnEntries(userId: string, range: { from: Date; to: Date; now: Date; taskId?: string }, limit: number) {
  return records(
    db(),
    and(
      eq(timeEntries.userId, userId),
      overlaps(range.from, range.to, range.now),
      range.taskId ? eq(timeEntries.taskId, range.taskId) : undefined,
      visibleTaskCondition(userId),
    ),
  ).limit(limit);
}

/** Everyone's entries overlapping [from, to) on the tasks the user can see; oldest first. */
export async function listVisibleEntries(userId: string, range: { from: Date; to: Date; now: Date }, limit: number) {
  return records(db(), and(overlaps(range.from, range.to, range.now), visibleTaskCondition(userId))).limit(limit);
}

/** A task's entries (everyone's), for its totals. */
export async function listTaskEntries(taskId: string, limit: number): Promise<EntryRecord[]> {
  return records(db(), eq(timeEntries.taskId, taskId)).limit(limit);
}

/** Seconds the user tracked within [from, to) on any task, each entry clipped to the period; running ones up to `now`. */
export async function trackedSeconds(
  userId: string,
  from: Date,
  to: Date,
  now: Date,
  database: Executor = db(),
): Promise<number> {
  const [row] = await database
    .select({
      seconds: sql<number>`coalesce(sum(extract(epoch from (least(coalesce(${timeEntries.endedAt}, ${at(now)}), ${at(to)}) - greatest(${timeEntries.startedAt}, ${at(from)})))), 0)::float8`,
    })
    .from(timeEntries)
    .where(and(eq(timeEntries.userId, userId), overlaps(from, to, now)));
  return Math.floor(Number(row?.seconds ?? 0));
}
