import { and, desc, eq, gt, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type Executor } from "../db/client";
import { taskCollaborators } from "../db/schema/collaboration";
import { families } from "../db/schema/family";
import { invitations, type InvitationRow } from "../db/schema/invitations";
import { projects } from "../db/schema/projects";
import { taskAssignees, tasks } from "../db/schema/tasks";
import { userGroups } from "../db/schema/teams";
import { users } from "../db/schema/users";

export type NewInvitation = Pick<
  InvitationRow,
  | "tokenHash"
  | "taskId"
  | "taskRole"
  | "projectId"
  | "projectRole"
  | "familyId"
  | "familyRole"
  | "teamId"
  | "teamRole"
  | "inviterId"
  | "inviteeUserId"
  | "inviteeName"
  | "inviteeEmail"
  | "inviteePhone"
  | "expiresAt"
  | "createdAt"
>;

/** An invitation with what its landing page shows: the inviter's name and its target's title or name. */
export interface InvitationWithTarget extends InvitationRow {
  inviterName: string;
  taskTitle: string | null;
  projectName: string | null;
  familyName: string | null;
  teamName: string | null;
}

const inviterAlias = alias(users, "inviter");

/** The columns of `InvitationWithTarget`, read with the joins of `withTargets`. */
const TARGET_COLUMNS = {
  invitation: invitations,
  inviterName: inviterAlias.name,
  taskTitle: tasks.title,
  projectName: projects.name,
  familyName: families.name,
  teamName: userGroups.name,
};

function withTargets(executor: Executor) {
  return executor
    .select(TARGET_COLUMNS)
    .from(invitations)
    .innerJoin(inviterAlias, eq(inviterAlias.id, invitations.inviterId))
    .leftJoin(tasks, eq(tasks.id, invitations.taskId))
    .leftJoin(projects, eq(projects.id, invitations.projectId))
    .leftJoin(families, eq(families.id, invitations.familyId))
    .leftJoin(userGroups, eq(userGroups.id, invitations.teamId));
}

type TargetRow = { invitation: InvitationRow } & Omit<InvitationWithTarget, keyof InvitationRow>;
const flatten = ({ invitation, ...target }: TargetRow): InvitationWithTarget => ({ ...invitation, ...target });

export async function insertInvitation(invitation: NewInvitation, executor: Executor): Promise<InvitationRow> {
  const [row] = await executor.insert(invitations).values(invitation).returning();
  return row!;
}

/** The inviter's invitations, newest first. */
export async function listInvitationsOf(inviterId: string): Promise<InvitationRow[]> {
  return db()
    .select()
    .from(invitations)
    .where(eq(invitations.inviterId, inviterId))
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
}

/** The invitation, if this user sent it; else null. */
export async function findInvitationOf(inviterId: string, id: string, executor: Executor = db()): Promise<InvitationRow | null> {
  const [row] = await executor
    .select()
    .from(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.inviterId, inviterId)))
    .limit(1);
  return row ?? null;
}

/** The invitation whose token has this SHA-256, with its inviter's name and its target's title; null when none. */
export async function findInvitationByTokenHash(
  tokenHash: string,
  executor: Executor = db(),
): Promise<InvitationWithTarget | null> {
  const [row] = await withTargets(executor).where(eq(invitations.tokenHash, tokenHash)).limit(1);
  return row ? flatten(row) : null;
}

/** Invitations addressed to this account or its email, from others. */
function addressedTo(user: { id: string; email: string }): SQL {
  return and(
    or(eq(invitations.inviteeUserId, user.id), eq(invitations.inviteeEmail, user.email)),
    ne(invitations.inviterId, user.id),
  )!;
}

/** One invitation addressed to the user (by account or email), with its target; null for any other. */
export async function findAddressedInvitation(
  user: { id: string; email: string },
  id: string,
  executor: Executor = db(),
): Promise<InvitationWithTarget | null> {
  const [row] = await withTargets(executor)
    .where(and(eq(invitations.id, id), addressedTo(user)))
    .limit(1);
  return row ? flatten(row) : null;
}

/** The pending invitations addressed to the user, newest first. */
export async function listAddressedInvitations(user: { id: string; email: string }, now: Date): Promise<InvitationWithTarget[]> {
  const rows = await withTargets(db())
    .where(
      and(
        addressedTo(user),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        isNull(invitations.declinedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .orderBy(desc(invitations.createdAt), desc(invitations.id));
  return rows.map(flatten);
}

/**
 * Uses the invitation up, atomically: marks it accepted if it is still pending (not accepted, declined or revoked,
 * not expired at `now`) and answers it; null when it is not (or there is none). Of two transactions that try at
 * once, the second waits for the first's row lock and then finds it accepted: an invitation works once. `which`
 * names it by its token's hash (a link) or by its id (in the app).
 */
export async function consumeInvitation(
  which: { tokenHash: string } | { id: string },
  now: Date,
  executor: Executor,
): Promise<InvitationRow | null> {
  const [row] = await executor
    .update(invitations)
    .set({ acceptedAt: now })
    .where(
      and(
        "tokenHash" in which ? eq(invitations.tokenHash, which.tokenHash) : eq(invitations.id, which.id),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        isNull(invitations.declinedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Declines a pending invitation addressed to the user; answers whether it did. */
export async function markInvitationDeclined(user: { id: string; email: string }, id: string, now: Date): Promise<boolean> {
  const rows = await db()
    .update(invitations)
    .set({ declinedAt: now })
    .where(
      and(
        eq(invitations.id, id),
        addressedTo(user),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        isNull(invitations.declinedAt),
      ),
    )
    .returning({ id: invitations.id });
  return rows.length > 0;
}

export async function setAcceptedBy(id: string, userId: string, executor: Executor): Promise<void> {
  await executor.update(invitations).set({ acceptedBy: userId }).where(eq(invitations.id, id));
}

/** Revokes the inviter's invitation if it is neither accepted nor revoked; answers whether it did. */
export async function markInvitationRevoked(inviterId: string, id: string, now: Date, executor: Executor): Promise<boolean> {
  const rows = await executor
    .update(invitations)
    .set({ revokedAt: now })
    .where(
      and(
        eq(invitations.id, id),
        eq(invitations.inviterId, inviterId),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        isNull(invitations.declinedAt),
      ),
    )
    .returning({ id: invitations.id });
  return rows.length > 0;
}

export async function findProjectName(projectId: string, executor: Executor = db()): Promise<string | null> {
  const [row] = await executor.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId)).limit(1);
  return row?.name ?? null;
}

export async function findUserName(userId: string, executor: Executor = db()): Promise<string | null> {
  const [row] = await executor.select({ name: users.name }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.name ?? null;
}

/** Assigns the user to the task; false (changing nothing) when they already are. */
export async function insertTaskAssignee(taskId: string, userId: string, executor: Executor): Promise<boolean> {
  const rows = await executor
    .insert(taskAssignees)
    .values({ taskId, userId })
    .onConflictDoNothing({ target: [taskAssignees.taskId, taskAssignees.userId] })
    .returning({ userId: taskAssignees.userId });
  return rows.length > 0;
}

/** Makes the user a collaborator on the task; false (changing nothing) when they already are one. */
export async function insertTaskCollaborator(taskId: string, userId: string, now: Date, executor: Executor): Promise<boolean> {
  const rows = await executor
    .insert(taskCollaborators)
    .values({ taskId, userId, createdAt: now })
    .onConflictDoNothing({ target: [taskCollaborators.taskId, taskCollaborators.userId] })
    .returning({ userId: taskCollaborators.userId });
  return rows.length > 0;
}

export async function findFamilyName(familyId: string, executor: Executor = db()): Promise<string | null> {
  const [row] = await executor.select({ name: families.name }).from(families).where(eq(families.id, familyId)).limit(1);
  return row?.name ?? null;
}

export async function findTeamName(teamId: string, executor: Executor = db()): Promise<string | null> {
  const [row] = await executor.select({ name: userGroups.name }).from(userGroups).where(eq(userGroups.id, teamId)).limit(1);
  return row?.name ?? null;
}

/**
 * Whether two people already work together: they share a team, a project or a family workspace. Someone added to a
 * team or a project by a person they are not connected to is invited instead (they accept first).
 */
export async function areConnected(a: string, b: string, executor: Executor = db()): Promise<boolean> {
  const [row] = await executor
    .select({
      connected: sql<boolean>`(
        exists (select 1 from user_group_members x join user_group_members y on y.group_id = x.group_id
                where x.user_id = ${a} and y.user_id = ${b})
        or exists (select 1 from project_members x join project_members y on y.project_id = x.project_id
                   where x.user_id = ${a} and y.user_id = ${b})
        or exists (select 1 from family_members x join family_members y on y.family_id = x.family_id
                   where x.user_id = ${a} and y.user_id = ${b})
      )`,
    })
    .from(users)
    .where(eq(users.id, a))
    .limit(1);
  return row?.connected === true;
}
