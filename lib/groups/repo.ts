import { and, asc, count, eq, inArray, isNull, max, ne, or, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { lockUserRow } from "../auth/repo";
import { db, type Executor } from "../db/client";
import { familyMembers } from "../db/schema/family";
import { taskGroups, tasks, type GroupNames, type GroupSettings, type TaskGroupRow } from "../db/schema/tasks";
import type { Locale } from "../i18n/locales";
import { DEFAULT_GROUPS } from "./defaults";

const OPEN_STATUSES = ["todo", "in_progress"] as const;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ownGroup = (ownerId: string, groupId: string) => and(eq(taskGroups.id, groupId), eq(taskGroups.ownerId, ownerId));
const byPosition = [asc(taskGroups.position), asc(taskGroups.createdAt), asc(taskGroups.id)];

/** Gives a new user the default groups, positions 0 to 7. */
export async function insertDefaultGroups(ownerId: string, executor: Executor = db()): Promise<void> {
  await executor.insert(taskGroups).values(DEFAULT_GROUPS.map(({ key, names }, position) => ({ ownerId, key, names, position })));
}

export async function listOwnGroups(ownerId: string, includeArchived: boolean): Promise<TaskGroupRow[]> {
  return db()
    .select()
    .from(taskGroups)
    .where(and(eq(taskGroups.ownerId, ownerId), includeArchived ? undefined : isNull(taskGroups.archivedAt)))
    .orderBy(...byPosition);
}

/** The owner's group of that id (archived or not), or null: also for another user's group or a malformed id. */
export async function findOwnGroup(ownerId: string, groupId: string, database: Executor = db()): Promise<TaskGroupRow | null> {
  if (!UUID.test(groupId)) return null;
  const [row] = await database.select().from(taskGroups).where(ownGroup(ownerId, groupId)).limit(1);
  return row ?? null;
}

/**
 * Holds a group (any owner's) against changes until the transaction ends: a task being put into it cannot race
 * the group's deletion or the end of its sharing with a family. Lock the user's row first (see lockUserRow).
 */
export async function holdGroup(groupId: string, tx: Executor): Promise<void> {
  if (UUID.test(groupId)) await tx.select({ id: taskGroups.id }).from(taskGroups).where(eq(taskGroups.id, groupId)).for("share");
}

/** The owner's first group that is not archived (lowest position), where new tasks go by default. */
export async function firstActiveGroupId(ownerId: string, database: Executor = db()): Promise<string | null> {
  const [row] = await database
    .select({ id: taskGroups.id })
    .from(taskGroups)
    .where(and(eq(taskGroups.ownerId, ownerId), isNull(taskGroups.archivedAt)))
    .orderBy(...byPosition)
    .limit(1);
  return row?.id ?? null;
}

/** The family workspace a user belongs to, as a subquery (at most one row). */
const familyOf = (userId: string) =>
  sql`(select ${familyMembers.familyId} from ${familyMembers} where ${familyMembers.userId} = ${userId})`;

/** The user's own group, or one shared with their family workspace (whoever owns it). */
const visibleGroup = (userId: string) => or(eq(taskGroups.ownerId, userId), sql`${taskGroups.familyId} in ${familyOf(userId)}`);

/**
 * The groups a user sees: their own by position, then those shared with their family workspace by other members
 * (by owner, in the order the owners joined the family, then by the owner's positions).
 */
export async function listVisibleGroups(userId: string, includeArchived: boolean): Promise<TaskGroupRow[]> {
  const rows = await db()
    .select({ group: taskGroups })
    .from(taskGroups)
    .leftJoin(familyMembers, and(eq(familyMembers.userId, taskGroups.ownerId), ne(taskGroups.ownerId, userId)))
    .where(and(visibleGroup(userId), includeArchived ? undefined : isNull(taskGroups.archivedAt)))
    .orderBy(sql`${taskGroups.ownerId} <> ${userId}`, asc(familyMembers.joinedAt), asc(taskGroups.ownerId), ...byPosition);
  return rows.map((row) => row.group);
}

/** A group the user sees (their own or one shared with their family), or null: also for a malformed id. */
export async function findVisibleGroup(userId: string, groupId: string, database: Executor = db()): Promise<TaskGroupRow | null> {
  if (!UUID.test(groupId)) return null;
  const [row] = await database
    .select()
    .from(taskGroups)
    .where(and(eq(taskGroups.id, groupId), visibleGroup(userId)))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the owner's row (as every change to one user's set of groups does), then the group's row, until the
 * transaction ends; answers the group as it then is, or null when the owner holds no such group any more.
 */
export async function lockGroup(ownerId: string, groupId: string, tx: Executor): Promise<TaskGroupRow | null> {
  await lockUserRow(tx, ownerId);
  const [row] = await tx.select().from(taskGroups).where(ownGroup(ownerId, groupId)).for("update");
  return row ?? null;
}

/**
 * Where an owner's task goes when the group it is in is no longer theirs to use: their first active group, else
 * their first archived one, else (they hold no other group) a new group named Personal. Never `exclude`.
 */
export async function homeGroupId(ownerId: string, tx: Executor, exclude?: string): Promise<string> {
  const [row] = await tx
    .select({ id: taskGroups.id })
    .from(taskGroups)
    .where(and(eq(taskGroups.ownerId, ownerId), exclude ? ne(taskGroups.id, exclude) : undefined))
    .orderBy(sql`${taskGroups.archivedAt} is not null`, ...byPosition)
    .limit(1);
  if (row) return row.id;
  await lockUserRow(tx, ownerId);
  // Without a key: the one group they had may be the default Personal group, being deleted right now.
  const { names } = DEFAULT_GROUPS.find((group) => group.key === "personal")!;
  const [created] = await tx.insert(taskGroups).values({ ownerId, names, position: 0 }).returning({ id: taskGroups.id });
  return created!.id;
}

/** How many open tasks (todo or in_progress) each of these groups holds, in one query; a group without any is left out. */
export async function countOpenTasks(groupIds: readonly string[]): Promise<Map<string, number>> {
  if (groupIds.length === 0) return new Map();
  const rows = await db()
    .select({ groupId: tasks.groupId, open: count() })
    .from(tasks)
    .where(and(sql`${tasks.groupId} = any(${`{${groupIds.join(",")}}`}::uuid[])`, inArray(tasks.status, OPEN_STATUSES)))
    .groupBy(tasks.groupId);
  return new Map(rows.map((row) => [row.groupId, row.open]));
}

export interface GroupTask {
  id: string;
  ownerId: string;
}

/** The tasks in a group, with their owners. */
export async function tasksInGroup(groupId: string, tx: Executor): Promise<GroupTask[]> {
  return tx.select({ id: tasks.id, ownerId: tasks.ownerId }).from(tasks).where(eq(tasks.groupId, groupId)).orderBy(asc(tasks.id));
}

export async function moveTasksToGroup(taskIds: readonly string[], groupId: string, tx: Executor): Promise<void> {
  if (taskIds.length === 0) return;
  await tx
    .update(tasks)
    .set({ groupId, updatedAt: nowDate() })
    .where(sql`${tasks.id} = any(${`{${taskIds.join(",")}}`}::uuid[])`);
}

export async function deleteTasksById(taskIds: readonly string[], tx: Executor): Promise<void> {
  if (taskIds.length === 0) return;
  await tx.delete(tasks).where(sql`${tasks.id} = any(${`{${taskIds.join(",")}}`}::uuid[])`);
}

/** Deletes a group that holds no task any more (a task's foreign key would refuse otherwise). */
export async function deleteGroupRow(groupId: string, tx: Executor): Promise<void> {
  await tx.delete(taskGroups).where(eq(taskGroups.id, groupId));
}

/** Adds a group after the owner's last one; null when the owner already holds `limit` groups. */
export async function insertOwnGroup(
  ownerId: string,
  group: { names: GroupNames; settings?: GroupSettings },
  limit: number,
): Promise<TaskGroupRow | null> {
  return db().transaction(async (tx) => {
    await lockUserRow(tx, ownerId);
    const [held] = await tx
      .select({ count: count(), last: max(taskGroups.position) })
      .from(taskGroups)
      .where(eq(taskGroups.ownerId, ownerId));
    if ((held?.count ?? 0) >= limit) return null;
    const [row] = await tx
      .insert(taskGroups)
      .values({ ownerId, ...group, position: (held?.last ?? -1) + 1 })
      .returning();
    return row!;
  });
}

export interface GroupChange {
  setNames?: GroupNames;
  removeNames?: Locale[];
  archived?: boolean;
}

/**
 * Applies a change in one statement: names merge per language (set, then removed). Null when the owner has
 * no such group, or when the change would leave the group without any name.
 */
export async function updateOwnGroup(
  ownerId: string,
  groupId: string,
  change: GroupChange,
  database: Executor = db(),
): Promise<TaskGroupRow | null> {
  const removed = change.removeNames?.length
    ? sql`array[${sql.join(
        change.removeNames.map((lang) => sql`${lang}`),
        sql`, `,
      )}]::text[]`
    : sql`'{}'::text[]`;
  const names = sql`(${taskGroups.names} || ${JSON.stringify(change.setNames ?? {})}::jsonb) - ${removed}`;
  const archivedSince = sql`coalesce(${taskGroups.archivedAt}, ${nowDate().toISOString()}::timestamptz)`;
  const archivedAt = change.archived === undefined ? undefined : change.archived ? archivedSince : null;
  const [row] = await database
    .update(taskGroups)
    .set({ names, ...(archivedAt !== undefined && { archivedAt }), updatedAt: nowDate() })
    .where(and(ownGroup(ownerId, groupId), sql`${names} <> '{}'::jsonb`))
    .returning();
  return row ?? null;
}

export async function updateGroupSettings(
  ownerId: string,
  groupId: string,
  settings: GroupSettings,
): Promise<TaskGroupRow | null> {
  const [row] = await db()
    .update(taskGroups)
    .set({ settings, updatedAt: nowDate() })
    .where(ownGroup(ownerId, groupId))
    .returning();
  return row ?? null;
}

/**
 * Gives the owner's groups the positions of `ids` (0, 1, ...). Null, changing nothing, unless `ids` lists
 * every one of the owner's groups exactly once.
 */
export async function reorderOwnGroups(ownerId: string, ids: string[]): Promise<TaskGroupRow[] | null> {
  return db().transaction(async (tx) => {
    await lockUserRow(tx, ownerId);
    const held = await tx.select({ id: taskGroups.id }).from(taskGroups).where(eq(taskGroups.ownerId, ownerId));
    const wanted = new Set(ids);
    if (held.length !== wanted.size || held.some(({ id }) => !wanted.has(id))) return null;
    const order = sql`array[${sql.join(
      ids.map((id) => sql`${id}`),
      sql`, `,
    )}]::uuid[]`;
    await tx
      .update(taskGroups)
      .set({ position: sql`array_position(${order}, ${taskGroups.id}) - 1`, updatedAt: nowDate() })
      .where(eq(taskGroups.ownerId, ownerId));
    return tx
      .select()
      .from(taskGroups)
      .where(eq(taskGroups.ownerId, ownerId))
      .orderBy(...byPosition);
  });
}
