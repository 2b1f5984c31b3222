import { and, asc, count, eq, isNull, max, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { lockUserRow } from "../auth/repo";
import { db, type Executor } from "../db/client";
import { taskAssignees, taskGroups, tasks, type GroupNames, type GroupSettings, type TaskGroupRow } from "../db/schema/tasks";
import type { Locale } from "../i18n/locales";
import { DEFAULT_GROUPS } from "./defaults";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const ownGroup = (ownerId: string, groupId: string) => and(eq(taskGroups.id, groupId), eq(taskGroups.ownerId, ownerId));
const byPosition = [asc(taskGroups.position), asc(taskGroups.createdAt), asc(taskGroups.id)];

/** Gives a new user the default groups, positions 0 to 7. */
export async function insertDefaultGroups(ownerId: string, executor: Executor = db()): Promise<void> {
  await executor
    .insert(taskGroups)
    .values(DEFAULT_GROUPS.map(({ key, names }, position) => ({ ownerId, key, names, position })));
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

/** The owner's first group that is not archived (lowest position), where new tasks go by default. */
export async function firstActiveGroupId(ownerId: string): Promise<string | null> {
  const [row] = await db()
    .select({ id: taskGroups.id })
    .from(taskGroups)
    .where(and(eq(taskGroups.ownerId, ownerId), isNull(taskGroups.archivedAt)))
    .orderBy(...byPosition)
    .limit(1);
  return row?.id ?? null;
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
export async function updateOwnGroup(ownerId: string, groupId: string, change: GroupChange): Promise<TaskGroupRow | null> {
  const removed = change.removeNames?.length
    ? sql`array[${sql.join(change.removeNames.map((lang) => sql`${lang}`), sql`, `)}]::text[]`
    : sql`'{}'::text[]`;
  const names = sql`(${taskGroups.names} || ${JSON.stringify(change.setNames ?? {})}::jsonb) - ${removed}`;
  const archivedSince = sql`coalesce(${taskGroups.archivedAt}, ${nowDate().toISOString()}::timestamptz)`;
  const archivedAt = change.archived === undefined ? undefined : change.archived ? archivedSince : null;
  const [row] = await db()
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
    const order = sql`array[${sql.join(ids.map((id) => sql`${id}`), sql`, `)}]::uuid[]`;
    await tx
      .update(taskGroups)
      .set({ position: sql`array_position(${order}, ${taskGroups.id}) - 1`, updatedAt: nowDate() })
      .where(eq(taskGroups.ownerId, ownerId));
    return tx.select().from(taskGroups).where(eq(taskGroups.ownerId, ownerId)).orderBy(...byPosition);
  });
}

export type DeleteGroupOutcome =
  | { outcome: "not_found" }
  | { outcome: "target_not_found" }
  | { outcome: "has_tasks"; taskCount: number }
  /** `affectedUserIds`: the owners and assignees of the tasks that moved or went (empty when none did). */
  | { outcome: "deleted"; taskCount: number; affectedUserIds: string[] };

/**
 * Deletes the owner's group in one transaction. Its tasks move to the owner's group `moveTo`, or are deleted
 * with `deleteTasks`; with neither, a group that holds tasks stays (`has_tasks`). A task created in the group
 * meanwhile waits for the group's row lock, then fails its foreign key: nothing is lost unnoticed.
 */
export async function deleteOwnGroup(
  ownerId: string,
  groupId: string,
  tasksGo: { moveTo?: string; deleteTasks?: boolean },
): Promise<DeleteGroupOutcome> {
  return db().transaction(async (tx): Promise<DeleteGroupOutcome> => {
    await lockUserRow(tx, ownerId);
    const [group] = await tx.select({ id: taskGroups.id }).from(taskGroups).where(ownGroup(ownerId, groupId)).for("update");
    if (!group) return { outcome: "not_found" };
    if (tasksGo.moveTo) {
      const [target] = await tx.select({ id: taskGroups.id }).from(taskGroups).where(ownGroup(ownerId, tasksGo.moveTo));
      if (!target) return { outcome: "target_not_found" };
    }
    const inGroup = eq(tasks.groupId, groupId);
    const [held] = await tx.select({ count: count() }).from(tasks).where(inGroup);
    const taskCount = held?.count ?? 0;
    let affectedUserIds: string[] = [];
    if (taskCount > 0) {
      if (!tasksGo.moveTo && !tasksGo.deleteTasks) return { outcome: "has_tasks", taskCount };
      const owners = await tx.selectDistinct({ userId: tasks.ownerId }).from(tasks).where(inGroup);
      const assignees = await tx
        .selectDistinct({ userId: taskAssignees.userId })
        .from(taskAssignees)
        .innerJoin(tasks, eq(tasks.id, taskAssignees.taskId))
        .where(inGroup);
      affectedUserIds = [...new Set([ownerId, ...[...owners, ...assignees].map((row) => row.userId)])];
      if (tasksGo.moveTo) await tx.update(tasks).set({ groupId: tasksGo.moveTo, updatedAt: nowDate() }).where(inGroup);
      else await tx.delete(tasks).where(inGroup);
    }
    await tx.delete(taskGroups).where(eq(taskGroups.id, groupId));
    return { outcome: "deleted", taskCount, affectedUserIds };
  });
}
