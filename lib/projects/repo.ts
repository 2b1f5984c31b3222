import { and, asc, count, eq, isNull, sql, type SQL } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, statementRows, type Executor } from "../db/client";
import { isoText } from "../db/iso-text";
import { projectMembers, projects, type ProjectRole, type ProjectRow } from "../db/schema/projects";
import { taskAssignees, tasks } from "../db/schema/tasks";
import { users } from "../db/schema/users";
import { workloadCountColumns } from "../tasks/repo";

/** A project as one of its members sees it: with their role, its member count and its task counts. */
export interface MemberProject extends ProjectRow {
  role: ProjectRole;
  memberCount: number;
  taskTotal: number;
  taskOpen: number;
}

/** The same with its instants as ISO text, as its answer shows them. */
export interface MemberProjectAnswerRow extends Omit<MemberProject, "archivedAt" | "createdAt" | "updatedAt"> {
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface MemberRecord {
  userId: string;
  name: string;
  email: string;
  avatarUrl: string | null;
  role: ProjectRole;
  joinedAt: Date;
}

export type ProjectPatch = Partial<Pick<ProjectRow, "name" | "description" | "color" | "archivedAt">>;

const membership = (projectId: string, userId: string) =>
  and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId));

const memberProjectColumns = {
  id: projects.id,
  name: projects.name,
  description: projects.description,
  color: projects.color,
  createdBy: projects.createdBy,
  archivedAt: projects.archivedAt,
  createdAt: projects.createdAt,
  updatedAt: projects.updatedAt,
  role: projectMembers.role,
  memberCount: sql<number>`(select count(*)::int from ${projectMembers} m where m.project_id = ${projects.id})`,
  taskTotal: sql<number>`(select count(*)::int from ${tasks} t where t.project_id = ${projects.id})`,
  taskOpen: sql<number>`(select count(*)::int from ${tasks} t where t.project_id = ${projects.id} and t.status in ('todo', 'in_progress'))`,
};

function memberProjects(userId: string, executor: Executor, where?: SQL) {
  return executor
    .select(memberProjectColumns)
    .from(projects)
    .innerJoin(projectMembers, and(eq(projectMembers.projectId, projects.id), eq(projectMembers.userId, userId)))
    .where(where);
}

/** The projects a user is a member of, oldest first; archived ones only when asked. */
export async function listMemberProjects(userId: string, includeArchived: boolean): Promise<MemberProject[]> {
  return memberProjects(userId, db(), includeArchived ? undefined : isNull(projects.archivedAt)).orderBy(
    asc(projects.createdAt),
    asc(projects.id),
  );
}

/** The project, if the user is one of its members; else null. */
export async function findMemberProject(
  userId: string,
  projectId: string,
  executor: Executor = db(),
): Promise<MemberProject | null> {
  const [row] = await memberProjects(userId, executor, eq(projects.id, projectId)).limit(1);
  return row ?? null;
}

/**
 * The project as `findMemberProject` reads it, instants as ISO text, in a statement built once (see `statementRows`):
 * built by Drizzle and parsed and planned by PostgreSQL on every read, it cost 1.3 times the CPU of a page of 50 tasks
 * (docs/performance.md, "Board and single reads").
 */
export async function findMemberProjectAnswer(userId: string, projectId: string): Promise<MemberProjectAnswerRow | null> {
  const [row] = await statementRows<MemberProjectAnswerRow>(
    "project-answer",
    () => {
      const { archivedAt, createdAt, updatedAt, ...columns } = memberProjectColumns;
      const selected = Object.entries({
        ...columns,
        archivedAt: isoText(archivedAt),
        createdAt: isoText(createdAt),
        updatedAt: isoText(updatedAt),
      }).map(([name, column]) => sql`${column} as ${sql.identifier(name)}`);
      return sql`select ${sql.join(selected, sql`, `)} from ${projects}
        inner join ${projectMembers} on ${projectMembers.projectId} = ${projects.id} and ${projectMembers.userId} = ${sql.placeholder("userId")}
        where ${projects.id} = ${sql.placeholder("projectId")}`;
    },
    { userId, projectId },
  );
  return row ?? null;
}

/** The user's role in a project, or null when they are not a member (also for a project that does not exist). */
export async function findProjectRole(projectId: string, userId: string, database: Executor = db()): Promise<ProjectRole | null> {
  const [row] = await database
    .select({ role: projectMembers.role })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.userId, userId)))
    .limit(1);
  return row?.role ?? null;
}

/** Creates a project with its creator as its one owner, in one transaction. */
export async function insertProject(
  creatorId: string,
  project: { name: string; description: string; color: string | null },
): Promise<string> {
  return db().transaction(async (tx) => {
    const now = nowDate();
    const [row] = await tx
      .insert(projects)
      .values({ ...project, createdBy: creatorId, createdAt: now, updatedAt: now })
      .returning({ id: projects.id });
    await tx.insert(projectMembers).values({ projectId: row!.id, userId: creatorId, role: "owner", joinedAt: now });
    return row!.id;
  });
}

export async function updateProjectRow(projectId: string, patch: ProjectPatch, executor: Executor): Promise<void> {
  await executor
    .update(projects)
    .set({ ...patch, updatedAt: nowDate() })
    .where(eq(projects.id, projectId));
}

/** Deletes the project; its memberships go with it (cascade) and its tasks stay, in no project (set null). */
export async function deleteProjectRow(projectId: string, executor: Executor): Promise<void> {
  await executor.delete(projects).where(eq(projects.id, projectId));
}

/**
 * Locks the project's row until the transaction ends, so that changes to one project's memberships happen one at
 * a time (two owners demoting each other at once cannot leave it without an owner). False when there is no such
 * project. Read memberships after this, in their own statements.
 */
export async function lockProject(tx: Executor, projectId: string): Promise<boolean> {
  const rows = await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for("update");
  return rows.length > 0;
}

export async function countOwners(projectId: string, executor: Executor): Promise<number> {
  const [row] = await executor
    .select({ owners: count() })
    .from(projectMembers)
    .where(and(eq(projectMembers.projectId, projectId), eq(projectMembers.role, "owner")));
  return row?.owners ?? 0;
}

/** The ids of the tasks in the project. */
export async function listProjectTaskIds(projectId: string, executor: Executor): Promise<string[]> {
  const rows = await executor.select({ id: tasks.id }).from(tasks).where(eq(tasks.projectId, projectId));
  return rows.map((row) => row.id);
}

/** Adds a member; false (changing nothing) when they already are one. */
export async function insertMember(projectId: string, userId: string, role: ProjectRole, executor: Executor): Promise<boolean> {
  const rows = await executor
    .insert(projectMembers)
    .values({ projectId, userId, role, joinedAt: nowDate() })
    .onConflictDoNothing({ target: [projectMembers.projectId, projectMembers.userId] })
    .returning({ userId: projectMembers.userId });
  return rows.length > 0;
}

export async function updateMemberRole(projectId: string, userId: string, role: ProjectRole, executor: Executor): Promise<void> {
  await executor.update(projectMembers).set({ role }).where(membership(projectId, userId));
}

export async function deleteMember(projectId: string, userId: string, executor: Executor): Promise<void> {
  await executor.delete(projectMembers).where(membership(projectId, userId));
}

const memberColumns = {
  userId: projectMembers.userId,
  name: users.name,
  email: users.email,
  avatarUrl: users.avatarUrl,
  role: projectMembers.role,
  joinedAt: projectMembers.joinedAt,
};
const joinOrder = [asc(projectMembers.joinedAt), asc(projectMembers.userId)];

/** The project's members with their names, in the order they joined. */
export async function listMembers(projectId: string, executor: Executor = db()): Promise<MemberRecord[]> {
  return executor
    .select(memberColumns)
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(eq(projectMembers.projectId, projectId))
    .orderBy(...joinOrder);
}

/** Per member, in the order they joined, the workload counts over the project's tasks assigned to them. */
export async function memberWorkloadCounts(projectId: string, now: Date) {
  return (
    db()
      .select({ userId: projectMembers.userId, name: users.name, role: projectMembers.role, ...workloadCountColumns(now) })
      .from(projectMembers)
      .innerJoin(users, eq(users.id, projectMembers.userId))
      .leftJoin(taskAssignees, eq(taskAssignees.userId, projectMembers.userId))
      // Only the project's tasks: a member's other tasks are none of the other members' business.
      .leftJoin(tasks, and(eq(tasks.id, taskAssignees.taskId), eq(tasks.projectId, projectId)))
      .where(eq(projectMembers.projectId, projectId))
      .groupBy(projectMembers.userId, users.name, projectMembers.role, projectMembers.joinedAt)
      .orderBy(...joinOrder)
  );
}

/** The user ids of the project's members (an event's audience). */
export async function listMemberIds(projectId: string, executor: Executor): Promise<string[]> {
  const rows = await executor
    .select({ userId: projectMembers.userId })
    .from(projectMembers)
    .where(eq(projectMembers.projectId, projectId));
  return rows.map((row) => row.userId);
}

export async function findMember(projectId: string, userId: string, executor: Executor = db()): Promise<MemberRecord | null> {
  const [row] = await executor
    .select(memberColumns)
    .from(projectMembers)
    .innerJoin(users, eq(users.id, projectMembers.userId))
    .where(membership(projectId, userId))
    .limit(1);
  return row ?? null;
}
