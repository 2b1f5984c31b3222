import { and, desc, eq, gt, isNull } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type Executor } from "../db/client";
import { invitations, type InvitationRow } from "../db/schema/invitations";
import { projects } from "../db/schema/projects";
import { taskAssignees, tasks } from "../db/schema/tasks";
import { users } from "../db/schema/users";

export type NewInvitation = Pick<
  InvitationRow,
  | "tokenHash"
  | "taskId"
  | "projectId"
  | "projectRole"
  | "inviterId"
  | "inviteeName"
  | "inviteeEmail"
  | "inviteePhone"
  | "expiresAt"
  | "createdAt"
>;

/** An invitation with what its landing page shows: the inviter's name and the task's title or project's name. */
export interface InvitationWithTarget extends InvitationRow {
  inviterName: string;
  taskTitle: string | null;
  projectName: string | null;
}

const inviter = alias(users, "inviter");

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
  const [row] = await executor
    .select({ invitation: invitations, inviterName: inviter.name, taskTitle: tasks.title, projectName: projects.name })
    .from(invitations)
    .innerJoin(inviter, eq(inviter.id, invitations.inviterId))
    .leftJoin(tasks, eq(tasks.id, invitations.taskId))
    .leftJoin(projects, eq(projects.id, invitations.projectId))
    .where(eq(invitations.tokenHash, tokenHash))
    .limit(1);
  return row ? { ...row.invitation, inviterName: row.inviterName, taskTitle: row.taskTitle, projectName: row.projectName } : null;
}

/**
 * Uses the token up, atomically: marks the invitation accepted if it is still pending (not accepted, not revoked,
 * not expired at `now`) and answers it; null when it is not (or there is none). Of two transactions that try at
 * once, the second waits for the first's row lock and then finds it accepted: a token works once.
 */
export async function consumeInvitation(tokenHash: string, now: Date, executor: Executor): Promise<InvitationRow | null> {
  const [row] = await executor
    .update(invitations)
    .set({ acceptedAt: now })
    .where(
      and(
        eq(invitations.tokenHash, tokenHash),
        isNull(invitations.acceptedAt),
        isNull(invitations.revokedAt),
        gt(invitations.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
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
