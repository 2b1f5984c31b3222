import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, or } from "drizzle-orm";
import { db } from "../db/client";
import { calendarFeeds, type CalendarFeedRow } from "../db/schema/calendar-feeds";
import { tasks, type TaskRow } from "../db/schema/tasks";
import { users } from "../db/schema/users";
import { visibleTaskCondition } from "../permissions/repo";

export type { CalendarFeedRow };

export async function insertFeed(userId: string, name: string, secretHash: string): Promise<CalendarFeedRow> {
  const [row] = await db().insert(calendarFeeds).values({ userId, name, secretHash }).returning();
  return row!;
}

export function listFeeds(userId: string): Promise<CalendarFeedRow[]> {
  return db().select().from(calendarFeeds).where(eq(calendarFeeds.userId, userId)).orderBy(desc(calendarFeeds.createdAt));
}

/** Deletes the user's feed; false when the user has none with this id. */
export async function deleteFeed(userId: string, id: string): Promise<boolean> {
  const deleted = await db()
    .delete(calendarFeeds)
    .where(and(eq(calendarFeeds.id, id), eq(calendarFeeds.userId, userId)))
    .returning({ id: calendarFeeds.id });
  return deleted.length > 0;
}

/** The feed with this secret's hash, with its user's time zone. */
export async function findFeedBySecretHash(
  secretHash: string,
): Promise<{ feed: CalendarFeedRow; timeZone: string; locale: string; disabled: boolean } | null> {
  const [row] = await db()
    .select({ feed: calendarFeeds, timeZone: users.timeZone, locale: users.locale, disabledAt: users.disabledAt })
    .from(calendarFeeds)
    .innerJoin(users, eq(users.id, calendarFeeds.userId))
    .where(eq(calendarFeeds.secretHash, secretHash));
  return row ? { feed: row.feed, timeZone: row.timeZone, locale: row.locale, disabled: row.disabledAt !== null } : null;
}

/** Records a fetch, at most once per `staleBefore` (a calendar app may poll every few minutes). */
export async function touchFeed(id: string, now: Date, staleBefore: Date): Promise<void> {
  await db()
    .update(calendarFeeds)
    .set({ lastUsedAt: now })
    .where(and(eq(calendarFeeds.id, id), or(isNull(calendarFeeds.lastUsedAt), lt(calendarFeeds.lastUsedAt, staleBefore))));
}

/** The open tasks (to do, in progress) with a due date that the user can see, the soonest due first. */
export function listOpenDueTasks(userId: string, limit: number): Promise<TaskRow[]> {
  return db()
    .select()
    .from(tasks)
    .where(and(visibleTaskCondition(userId), inArray(tasks.status, ["todo", "in_progress"]), isNotNull(tasks.dueAt)))
    .orderBy(asc(tasks.dueAt), asc(tasks.id))
    .limit(limit);
}
