import { and, asc, count, eq, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { taskAssignees, tasks } from "../db/schema/tasks";
import { userGroupMembers, userGroups, type UserGroupRole, type UserGroupRow } from "../db/schema/teams";
import { users } from "../db/schema/users";
import { workloadCountColumns } from "../tasks/repo";

/** A group as one of its members sees it: with their role and how many members it has. */
export interface MemberGroup extends UserGroupRow {
  role: UserGroupRole;
  memberCount: number;
}

export interface MemberRecord {
  userId: string;
  name: string;
  email: string;
  avatarUrl: string | null;
  role: UserGroupRole;
  joinedAt: Date;
}

const membership = (groupId: string, userId: string) =>
  and(eq(userGroupMembers.groupId, groupId), eq(userGroupMembers.userId, userId));

const memberGroupColumns = {
  id: userGroups.id,
  name: userGroups.name,
  description: userGroups.description,
  createdBy: userGroups.createdBy,
  createdAt: userGroups.createdAt,
  updatedAt: userGroups.updatedAt,
  role: userGroupMembers.role,
  memberCount: sql<number>`(select count(*)::int from ${userGroupMembers} m where m.group_id = ${userGroups.id})`,
};

function memberGroups(userId: string, executor: Executor) {
  return executor
    .select(memberGroupColumns)
    .from(userGroups)
    .innerJoin(userGroupMembers, and(eq(userGroupMembers.groupId, userGroups.id), eq(userGroupMembers.userId, userId)));
}

/** The groups a user belongs to, oldest first. */
export async function listMemberGroups(userId: string): Promise<MemberGroup[]> {
  return memberGroups(userId, db()).orderBy(asc(userGroups.createdAt), asc(userGroups.id));
}

/** The group, if the user is one of its members; else null. */
export async function findMemberGroup(userId: string, groupId: string, executor: Executor = db()): Promise<MemberGroup | null> {
  const [row] = await memberGroups(userId, executor).where(eq(userGroups.id, groupId)).limit(1);
  return row ?? null;
}

/** Creates a group with its creator as its one owner, in one transaction. */
export async function insertUserGroup(creatorId: string, group: { name: string; description: string }): Promise<string> {
  return db().transaction(async (tx) => {
    const now = nowDate();
    const [row] = await tx
      .insert(userGroups)
      .values({ ...group, createdBy: creatorId, createdAt: now, updatedAt: now })
      .returning({ id: userGroups.id });
    await tx.insert(userGroupMembers).values({ groupId: row!.id, userId: creatorId, role: "owner", joinedAt: now });
    return row!.id;
  });
}

export async function updateUserGroupRow(
  groupId: string,
  patch: { name?: string; description?: string },
  database: Executor = db(),
): Promise<void> {
  await database
    .update(userGroups)
    .set({ ...patch, updatedAt: nowDate() })
    .where(eq(userGroups.id, groupId));
}

/** Deletes the group; its memberships go with it (foreign key cascade). */
export async function deleteUserGroupRow(groupId: string, database: Executor = db()): Promise<void> {
  await database.delete(userGroups).where(eq(userGroups.id, groupId));
}

/** A user's role in a group, or null when they are not a member (or there is no such group). */
export async function findMemberRole(groupId: string, userId: string, executor: Executor = db()): Promise<UserGroupRole | null> {
  const [row] = await executor
    .select({ role: userGroupMembers.role })
    .from(userGroupMembers)
    .where(membership(groupId, userId))
    .limit(1);
  return row?.role ?? null;
}

/**
 * Locks the group's row until the transaction ends, so that membership changes to one group happen one at a time
 * (two owners demoting each other at once cannot leave it without an owner). False when there is no such group.
 * Read memberships after this, in their own statements: on PostgreSQL those see what a transaction that held the
 * lock before committed.
 */
export async function lockUserGroup(tx: Executor, groupId: string): Promise<boolean> {
  const rows = await tx.select({ id: userGroups.id }).from(userGroups).where(eq(userGroups.id, groupId)).for("update");
  return rows.length > 0;
}

export async function countOwners(groupId: string, executor: Executor): Promise<number> {
  const [row] = await executor
    .select({ owners: count() })
    .from(userGroupMembers)
    .where(and(eq(userGroupMembers.groupId, groupId), eq(userGroupMembers.role, "owner")));
  return row?.owners ?? 0;
}

/** The id of the account with this user id or (normalised) email; null when there is none. */
export async function findUserId(who: { userId?: string; email?: string }, executor: Executor = db()): Promise<string | null> {
  const where = who.userId !== undefined ? eq(users.id, who.userId) : eq(users.email, who.email ?? "");
  const [row] = await executor.select({ id: users.id }).from(users).where(where).limit(1);
  return row?.id ?? null;
}

/** Adds a member; false (changing nothing) when they already are one. */
export async function insertMember(groupId: string, userId: string, role: UserGroupRole, executor: Executor): Promise<boolean> {
  const rows = await executor
    .insert(userGroupMembers)
    .values({ groupId, userId, role, joinedAt: nowDate() })
    .onConflictDoNothing({ target: [userGroupMembers.groupId, userGroupMembers.userId] })
    .returning({ userId: userGroupMembers.userId });
  return rows.length > 0;
}

export async function updateMemberRole(groupId: string, userId: string, role: UserGroupRole, executor: Executor): Promise<void> {
  await executor.update(userGroupMembers).set({ role }).where(membership(groupId, userId));
}

export async function deleteMember(groupId: string, userId: string, executor: Executor): Promise<void> {
  await executor.delete(userGroupMembers).where(membership(groupId, userId));
}

const memberColumns = {
  userId: userGroupMembers.userId,
  name: users.name,
  email: users.email,
  avatarUrl: users.avatarUrl,
  role: userGroupMembers.role,
  joinedAt: userGroupMembers.joinedAt,
};
const joinOrder = [asc(userGroupMembers.joinedAt), asc(userGroupMembers.userId)];

/** The group's members with their names, in the order they joined. */
export async function listMembers(groupId: string, executor: Executor = db()): Promise<MemberRecord[]> {
  return executor
    .select(memberColumns)
    .from(userGroupMembers)
    .innerJoin(users, eq(users.id, userGroupMembers.userId))
    .where(eq(userGroupMembers.groupId, groupId))
    .orderBy(...joinOrder);
}

export async function findMember(groupId: string, userId: string, executor: Executor = db()): Promise<MemberRecord | null> {
  const [row] = await executor
    .select(memberColumns)
    .from(userGroupMembers)
    .innerJoin(users, eq(users.id, userGroupMembers.userId))
    .where(membership(groupId, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Per member of the group, in one query: counts over the tasks assigned to them (task_assignees), by status.
 * Members without tasks come with zeros (left joins); cancelled tasks count nowhere.
 */
export async function memberWorkloadCounts(groupId: string, now: Date) {
  return (
    db()
      .select({
        userId: userGroupMembers.userId,
        name: users.name,
        role: userGroupMembers.role,
        ...workloadCountColumns(now),
      })
      .from(userGroupMembers)
      .innerJoin(users, eq(users.id, userGroupMembers.userId))
      .leftJoin(taskAssignees, eq(taskAssignees.userId, userGroupMembers.userId))
      // Only the team's tasks: a member's other tasks are none of their teammates' business.
      .leftJoin(tasks, and(eq(tasks.id, taskAssignees.taskId), eq(tasks.userGroupId, groupId)))
      .where(eq(userGroupMembers.groupId, groupId))
      .groupBy(userGroupMembers.userId, users.name, userGroupMembers.role, userGroupMembers.joinedAt)
      .orderBy(...joinOrder)
  );
}
