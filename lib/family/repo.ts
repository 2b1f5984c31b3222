import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { families, familyMembers, type FamilyRole, type FamilyRow } from "../db/schema/family";
import { taskGroups, tasks, type TaskGroupRow } from "../db/schema/tasks";
import { users } from "../db/schema/users";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A task group shared with the user's family workspace (whoever owns it), or null. */
export async function findFamilyGroup(userId: string, groupId: string, database: Executor = db()): Promise<TaskGroupRow | null> {
  if (!UUID.test(groupId)) return null;
  const [row] = await database
    .select({ group: taskGroups })
    .from(taskGroups)
    .innerJoin(familyMembers, eq(familyMembers.familyId, taskGroups.familyId))
    .where(and(eq(taskGroups.id, groupId), eq(familyMembers.userId, userId)))
    .limit(1);
  return row?.group ?? null;
}

/** A family workspace as one of its members sees it: with their role. */
export interface Membership {
  family: FamilyRow;
  role: FamilyRole;
}

export interface FamilyMemberRecord {
  userId: string;
  name: string;
  email: string;
  avatarUrl: string | null;
  role: FamilyRole;
  joinedAt: Date;
}

const membership = (familyId: string, userId: string) =>
  and(eq(familyMembers.familyId, familyId), eq(familyMembers.userId, userId));

/** The family workspace the user belongs to (at most one), with their role; null when none. */
export async function findMembership(userId: string, database: Executor = db()): Promise<Membership | null> {
  const [row] = await database
    .select({ family: families, role: familyMembers.role })
    .from(familyMembers)
    .innerJoin(families, eq(families.id, familyMembers.familyId))
    .where(eq(familyMembers.userId, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the family's row until the transaction ends, so that changes to one family (its members, its shared
 * groups) happen one at a time: two parents demoting each other at once cannot leave it without a parent.
 * False when there is no such family. Read memberships after this, in their own statements.
 */
export async function lockFamily(familyId: string, tx: Executor): Promise<boolean> {
  const rows = await tx.select({ id: families.id }).from(families).where(eq(families.id, familyId)).for("update");
  return rows.length > 0;
}

/**
 * Creates a family with its creator as its first parent. Null when they already belong to one: the caller then
 * throws, so that the transaction (and the family row) rolls back.
 */
export async function insertFamily(creatorId: string, name: string, tx: Executor): Promise<FamilyRow | null> {
  const now = nowDate();
  const [family] = await tx.insert(families).values({ name, createdBy: creatorId, createdAt: now, updatedAt: now }).returning();
  return (await insertFamilyMember(family!.id, creatorId, "parent", tx)) ? family! : null;
}

export async function updateFamilyName(familyId: string, name: string, tx: Executor): Promise<void> {
  await tx.update(families).set({ name, updatedAt: nowDate() }).where(eq(families.id, familyId));
}

/** Deletes the family and its memberships (foreign key cascade); share its groups no more first. */
export async function deleteFamilyRow(familyId: string, tx: Executor): Promise<void> {
  await tx.delete(families).where(eq(families.id, familyId));
}

/** A user's role in a family, or null when they are not one of its members. */
export async function findFamilyRole(familyId: string, userId: string, database: Executor = db()): Promise<FamilyRole | null> {
  const [row] = await database
    .select({ role: familyMembers.role })
    .from(familyMembers)
    .where(membership(familyId, userId))
    .limit(1);
  return row?.role ?? null;
}

export async function countFamilyMembers(familyId: string, tx: Executor): Promise<{ members: number; parents: number }> {
  const [row] = await tx
    .select({ members: count(), parents: sql<number>`count(*) filter (where ${familyMembers.role} = 'parent')::int` })
    .from(familyMembers)
    .where(eq(familyMembers.familyId, familyId));
  return { members: row?.members ?? 0, parents: row?.parents ?? 0 };
}

/** The id of the account with this user id or (normalised) email; null when there is none. */
export async function findUserId(who: { userId?: string; email?: string }, database: Executor = db()): Promise<string | null> {
  const where = who.userId !== undefined ? eq(users.id, who.userId) : eq(users.email, who.email ?? "");
  const [row] = await database.select({ id: users.id }).from(users).where(where).limit(1);
  return row?.id ?? null;
}

/** Adds a member; false (changing nothing) when they already belong to a family, this one or another. */
export async function insertFamilyMember(familyId: string, userId: string, role: FamilyRole, tx: Executor): Promise<boolean> {
  const rows = await tx
    .insert(familyMembers)
    .values({ familyId, userId, role, joinedAt: nowDate() })
    // Either the primary key (this family) or family_members_user_key (any family): both mean "already in one".
    .onConflictDoNothing()
    .returning({ userId: familyMembers.userId });
  return rows.length > 0;
}

export async function updateFamilyMemberRole(familyId: string, userId: string, role: FamilyRole, tx: Executor): Promise<void> {
  await tx.update(familyMembers).set({ role }).where(membership(familyId, userId));
}

export async function deleteFamilyMember(familyId: string, userId: string, tx: Executor): Promise<void> {
  await tx.delete(familyMembers).where(membership(familyId, userId));
}

const memberColumns = {
  userId: familyMembers.userId,
  name: users.name,
  email: users.email,
  avatarUrl: users.avatarUrl,
  role: familyMembers.role,
  joinedAt: familyMembers.joinedAt,
};

/** The family's members with their names, in the order they joined. */
export async function listFamilyMembers(familyId: string, database: Executor = db()): Promise<FamilyMemberRecord[]> {
  return database
    .select(memberColumns)
    .from(familyMembers)
    .innerJoin(users, eq(users.id, familyMembers.userId))
    .where(eq(familyMembers.familyId, familyId))
    .orderBy(asc(familyMembers.joinedAt), asc(familyMembers.userId));
}

export async function findFamilyMember(
  familyId: string,
  userId: string,
  database: Executor = db(),
): Promise<FamilyMemberRecord | null> {
  const [row] = await database
    .select(memberColumns)
    .from(familyMembers)
    .innerJoin(users, eq(users.id, familyMembers.userId))
    .where(membership(familyId, userId))
    .limit(1);
  return row ?? null;
}

// Shared groups

/**
 * The task groups shared with the family, archived ones too: by owner, in the order the owners joined, then by
 * each owner's positions. `ownerId` narrows them to one member's.
 */
export async function listSharedGroups(familyId: string, database: Executor = db(), ownerId?: string): Promise<TaskGroupRow[]> {
  const rows = await database
    .select({ group: taskGroups })
    .from(taskGroups)
    .leftJoin(familyMembers, and(eq(familyMembers.userId, taskGroups.ownerId), eq(familyMembers.familyId, familyId)))
    .where(and(eq(taskGroups.familyId, familyId), ownerId ? eq(taskGroups.ownerId, ownerId) : undefined))
    .orderBy(asc(familyMembers.joinedAt), asc(taskGroups.ownerId), asc(taskGroups.position), asc(taskGroups.id));
  return rows.map((row) => row.group);
}

/** Shares a group with a family (`familyId`), or stops sharing it (null). */
export async function setGroupFamily(groupId: string, familyId: string | null, tx: Executor): Promise<void> {
  await tx.update(taskGroups).set({ familyId, updatedAt: nowDate() }).where(eq(taskGroups.id, groupId));
}

/** Every task in a group shared with the family (whoever owns it). */
export async function sharedTaskIds(familyId: string, tx: Executor): Promise<string[]> {
  const rows = await tx
    .select({ id: tasks.id })
    .from(tasks)
    .innerJoin(taskGroups, eq(taskGroups.id, tasks.groupId))
    .where(eq(taskGroups.familyId, familyId));
  return rows.map((row) => row.id);
}

/** A member's tasks in the groups other members share with the family. */
export async function memberTasksInOthersGroups(familyId: string, userId: string, tx: Executor): Promise<string[]> {
  const rows = await tx
    .select({ id: tasks.id })
    .from(tasks)
    .innerJoin(taskGroups, eq(taskGroups.id, tasks.groupId))
    .where(and(eq(taskGroups.familyId, familyId), ne(taskGroups.ownerId, userId), eq(tasks.ownerId, userId)));
  return rows.map((row) => row.id);
}
