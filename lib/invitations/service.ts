import { createHash, randomBytes } from "node:crypto";
import { toUserOutput } from "../accounts/service";
import { findUserByEmail, findUserById, insertUser } from "../accounts/repo";
import type { RegisterInput } from "../accounts/schema";
import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { hashPassword } from "../auth/passwords";
import { issueSessionToken } from "../auth/tokens";
import { nowDate } from "../clock";
import { config } from "../config";
import { db, type Executor } from "../db/client";
import type { InvitationRow } from "../db/schema/invitations";
import { publish } from "../events/publish";
import { DEFAULT_LOCALE } from "../i18n/locales";
import { mayOnTask } from "../permissions/tasks";
import { isModuleEnabled } from "../modules/registry";
import { findProjectRole, insertMember, listMemberIds, lockProject } from "../projects/repo";
import { invalidateTaskLists } from "../tasks/list-cache";
import { findVisibleTask, lockTask, taskAudience } from "../tasks/repo";
import { announceTaskChange, getTaskFor } from "../tasks/service";
import { shareLinks, shareText } from "./links";
import {
  consumeInvitation,
  findInvitationByTokenHash,
  findInvitationOf,
  findProjectName,
  findUserName,
  insertInvitation,
  insertTaskAssignee,
  listInvitationsOf,
  markInvitationRevoked,
  setAcceptedBy,
  type InvitationWithTarget,
} from "./repo";
import {
  INVITATION_TTL_MS,
  type AcceptedInvitationOutput,
  type CreatedInvitationOutput,
  type CreateInvitationInput,
  type InvitationListOutput,
  type InvitationOutput,
  type InvitationPreviewOutput,
  type InvitationProjectRole,
  type InvitationStatus,
} from "./schema";

/*
 * The rules. A task invitation needs the `share` right on the task (owner, assignees, collaborators: 404 when the
 * inviter cannot see the task, 403 when they may not share it); a project invitation needs the owner or admin role
 * in the project (404 for non-members, 403 for members and viewers), and grants admin, member or viewer, never
 * owner. The token (32 random bytes) is shown once; only its SHA-256 is stored. It works once, for 7 days, and
 * only while the inviter could still grant what it grants: an inviter who lost the right has in effect withdrawn
 * it (410 invitation_revoked). The link is not bound to the invitee's email or phone: those only describe whom the
 * inviter meant. Only the inviter sees, lists and revokes an invitation; anyone else gets 404.
 */

/** Why a token no longer works: the `detail` of the 410 starts with this code, and `errors` names it at /token. */
export const GONE_CODES = {
  accepted: "invitation_used",
  revoked: "invitation_revoked",
  expired: "invitation_expired",
} as const satisfies Record<Exclude<InvitationStatus, "pending">, string>;

const GONE_DETAILS: Record<keyof typeof GONE_CODES, string> = {
  accepted: "this invitation has already been accepted; an invitation link works once",
  revoked: "this invitation was withdrawn by the person who sent it",
  expired: "this invitation has expired; ask for a new one",
};

const emailTaken = () =>
  new AppError("conflict", "An account with this email already exists: sign in, then accept the invitation signed in");

/** Registers the invitee in the acceptance's transaction; a taken email (also at the same moment) is `emailTaken`. */
async function registerInvitee(user: Parameters<typeof insertUser>[0], tx: Executor): Promise<string> {
  try {
    return (await insertUser(user, tx)).id;
  } catch (error) {
    throw error instanceof AppError && error.code === "conflict" ? emailTaken() : error;
  }
}

const invitationNotFound = () => new AppError("not_found", "No such invitation");
const projectNotFound = () => new AppError("not_found", "No such project");
/** Project invitations wait while the projects module is off: neither made nor accepted (they stay valid). */
const projectsOff = () => new AppError("module_disabled", "The projects module is switched off on this server");

function invitationGone(status: keyof typeof GONE_CODES): AppError {
  const code = GONE_CODES[status];
  return new AppError(code, GONE_DETAILS[status]);
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function invitationStatus(
  invitation: Pick<InvitationRow, "acceptedAt" | "revokedAt" | "expiresAt">,
  now: Date,
): InvitationStatus {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.revokedAt) return "revoked";
  return invitation.expiresAt.getTime() > now.getTime() ? "pending" : "expired";
}

const isProjectManager = (role: string | null) => role === "owner" || role === "admin";

/** Whether the inviter may still grant what the invitation grants (the share right, or a project manager's role). */
async function inviterStillMay(invitation: InvitationRow, executor?: Executor): Promise<boolean> {
  if (invitation.taskId) {
    const task = await findVisibleTask(invitation.inviterId, invitation.taskId, executor);
    return task !== null && mayOnTask(invitation.inviterId, task, "share");
  }
  return isProjectManager(await findProjectRole(invitation.projectId!, invitation.inviterId, executor));
}

function toInvitationOutput(row: InvitationRow, now = nowDate()): InvitationOutput {
  return {
    id: row.id,
    taskId: row.taskId,
    projectId: row.projectId,
    projectRole: row.projectRole as InvitationProjectRole | null,
    status: invitationStatus(row, now),
    invitee: { name: row.inviteeName, email: row.inviteeEmail, phone: row.inviteePhone },
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    acceptedBy: row.acceptedBy,
    revokedAt: row.revokedAt?.toISOString() ?? null,
  };
}

// The inviter's side

/**
 * Creates an invitation to a task or a project and answers its link (on APP_URL, else on `origin`, the server the
 * request came to) with ready-made share links whose text, in the inviter's language, says who invites to what.
 */
export async function createInvitation(
  actor: Actor,
  input: CreateInvitationInput,
  origin: string,
): Promise<CreatedInvitationOutput> {
  const token = randomBytes(32).toString("base64url");
  const now = nowDate();
  const { row, title } = await db().transaction(async (tx) => {
    let title: string;
    if (input.taskId !== undefined) {
      title = (await getTaskFor(actor, input.taskId, "share", tx)).title;
    } else {
      if (!isModuleEnabled("projects")) throw projectsOff();
      const role = await findProjectRole(input.projectId!, actor.userId, tx);
      if (!role) throw projectNotFound();
      if (!isProjectManager(role))
        throw new AppError("forbidden", "Only the project's owners and admins can invite people to it");
      title = (await findProjectName(input.projectId!, tx)) ?? "";
    }
    const row = await insertInvitation(
      {
        tokenHash: hashToken(token),
        taskId: input.taskId ?? null,
        projectId: input.projectId ?? null,
        projectRole: input.projectId !== undefined ? (input.projectRole ?? "member") : null,
        inviterId: actor.userId,
        inviteeName: input.name ?? null,
        inviteeEmail: input.email ?? null,
        inviteePhone: input.phone ?? null,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        createdAt: now,
      },
      tx,
    );
    await publish(tx, {
      type: "invitation.created",
      actorId: actor.userId,
      taskId: row.taskId,
      audience: [actor.userId],
      data: { invitationId: row.id, taskId: row.taskId, projectId: row.projectId },
    });
    return { row, title };
  });

  const url = `${(config().APP_URL ?? origin).replace(/\/+$/, "")}/invite/${token}`;
  const inviterName = (await findUserName(actor.userId)) ?? actor.email;
  const intro = shareText(actor.locale, { inviterName, kind: row.taskId ? "task" : "project", title });
  const text = input.message ? `${input.message}\n\n${intro}` : intro;
  return {
    invitation: toInvitationOutput(row, now),
    token,
    url,
    text: `${text}\n${url}`,
    links: shareLinks({ url, text, phone: input.phone }),
  };
}

export async function listInvitations(actor: Actor): Promise<InvitationListOutput> {
  const now = nowDate();
  return { items: (await listInvitationsOf(actor.userId)).map((row) => toInvitationOutput(row, now)) };
}

export async function getInvitation(actor: Actor, id: string): Promise<InvitationOutput> {
  const row = await findInvitationOf(actor.userId, id);
  if (!row) throw invitationNotFound();
  return toInvitationOutput(row);
}

/** Withdraws an invitation: its link stops working. Only its inviter; an accepted one is a 409; again is a no-op. */
export async function revokeInvitation(actor: Actor, id: string): Promise<void> {
  await db().transaction(async (tx) => {
    const revoked = await markInvitationRevoked(actor.userId, id, nowDate(), tx);
    const row = await findInvitationOf(actor.userId, id, tx);
    if (!row) throw invitationNotFound();
    if (row.acceptedAt) throw new AppError("conflict", "This invitation has been accepted already: it can no longer be revoked");
    if (!revoked) return;
    await publish(tx, {
      type: "invitation.revoked",
      actorId: actor.userId,
      taskId: row.taskId,
      audience: [actor.userId],
      data: { invitationId: row.id, taskId: row.taskId, projectId: row.projectId },
    });
  });
}

// The invitee's side

/** What the landing page shows for a token, whatever its state; null for an unknown token. */
export interface InvitationPreview extends Omit<InvitationPreviewOutput, "status"> {
  status: InvitationStatus;
}

/**
 * The one reading of a token for the landing page and `GET /invitations/preview/{token}`. An invitation whose
 * inviter can no longer grant what it grants counts as revoked, as accepting it would.
 */
export async function findInvitationPreview(token: string): Promise<InvitationPreview | null> {
  const invitation = await findInvitationByTokenHash(hashToken(token));
  if (!invitation) return null;
  let status = invitationStatus(invitation, nowDate());
  if (status === "pending" && !(await inviterStillMay(invitation))) status = "revoked";
  return toPreview(invitation, status);
}

function toPreview(invitation: InvitationWithTarget, status: InvitationStatus): InvitationPreview {
  return {
    status,
    inviterName: invitation.inviterName,
    kind: invitation.taskId ? "task" : "project",
    taskTitle: invitation.taskTitle,
    projectName: invitation.projectName,
    projectRole: invitation.projectRole as InvitationProjectRole | null,
    inviteeName: invitation.inviteeName,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** The preview of a usable invitation: 404 for an unknown token, 410 (with the reason) for one that no longer works. */
export async function getInvitationPreview(token: string): Promise<InvitationPreviewOutput> {
  const preview = await findInvitationPreview(token);
  if (!preview) throw invitationNotFound();
  if (preview.status !== "pending") throw invitationGone(preview.status);
  return { ...preview, status: "pending" };
}

interface Accepted {
  userId: string;
  taskId: string | null;
  projectId: string | null;
  /** Whose task lists changed. */
  audience: string[];
}

/**
 * Accepts an invitation, either registering a new account (`registration`) or as the signed-in `actor`. In one
 * transaction: the token is used up (atomically, so that it works once), the account is created if asked, and the
 * user is assigned to the task or joins the project. Answers a session token for the user.
 */
export async function acceptInvitation(
  token: string,
  registration: RegisterInput | null,
  actor: Actor | null,
): Promise<AcceptedInvitationOutput & { created: boolean }> {
  const tokenHash = hashToken(token);
  // Cheap checks first: no password is hashed for a token that cannot work or an email that is taken.
  const found = await findInvitationByTokenHash(tokenHash);
  if (!found) throw invitationNotFound();
  const status = invitationStatus(found, nowDate());
  if (status !== "pending") throw invitationGone(status);
  if (found.projectId && !isModuleEnabled("projects")) throw projectsOff();
  if (!registration && !actor) {
    throw new AppError("unauthenticated", "Sign in to accept the invitation, or send name, email and password to register");
  }
  if (registration && (await findUserByEmail(registration.email))) throw emailTaken();
  const newUser = registration && {
    email: registration.email,
    name: registration.name ?? found.inviteeName ?? registration.email.split("@")[0]!,
    passwordHash: await hashPassword(registration.password),
    locale: registration.locale ?? DEFAULT_LOCALE,
    timeZone: registration.timeZone,
  };

  const accepted = await db().transaction(async (tx): Promise<Accepted> => {
    const now = nowDate();
    const invitation = await consumeInvitation(tokenHash, now, tx);
    if (!invitation) {
      const current = await findInvitationByTokenHash(tokenHash, tx);
      if (!current) throw invitationNotFound();
      const state = invitationStatus(current, now);
      throw invitationGone(state === "pending" ? "accepted" : state);
    }
    const userId = newUser ? await registerInvitee(newUser, tx) : actor!.userId;
    if (invitation.inviterId === userId) {
      throw new AppError("conflict", "This is your own invitation: send the link to the person you are inviting");
    }
    await setAcceptedBy(invitation.id, userId, tx);
    return invitation.taskId ? joinTask(invitation, invitation.taskId, userId, tx) : joinProject(invitation, userId, tx);
  });

  await invalidateTaskLists(accepted.audience);
  const user = await findUserById(accepted.userId);
  if (!user) throw new AppError("unauthenticated", "This account no longer exists");
  return {
    token: await issueSessionToken(user.id, user.tokenVersion),
    user: toUserOutput(user),
    taskId: accepted.taskId,
    projectId: accepted.projectId,
    created: newUser !== null,
  };
}

async function joinTask(invitation: InvitationRow, taskId: string, userId: string, tx: Executor): Promise<Accepted> {
  await lockTask(taskId, tx);
  if (!(await inviterStillMay(invitation, tx))) throw invitationGone("revoked");
  // Who saw the task before: their lists change too (the assignee count and ids).
  const before = await taskAudience([taskId], tx);
  if (!(await insertTaskAssignee(taskId, userId, tx))) throw new AppError("conflict", "You are assigned to this task already");
  await announceTaskChange(tx, { type: "task.updated", actorId: userId, taskId, before });
  const after = await taskAudience([taskId], tx);
  await publish(tx, {
    type: "invitation.accepted",
    actorId: userId,
    taskId,
    audience: after,
    data: { invitationId: invitation.id, taskId, userId, inviterId: invitation.inviterId },
  });
  return { userId, taskId, projectId: null, audience: [...new Set([...before, ...after])] };
}

async function joinProject(invitation: InvitationRow, userId: string, tx: Executor): Promise<Accepted> {
  const projectId = invitation.projectId!;
  // Membership changes to one project happen one at a time (lib/projects): the inviter's role is read after the lock.
  if (!(await lockProject(tx, projectId)) || !(await inviterStillMay(invitation, tx))) throw invitationGone("revoked");
  const role = (invitation.projectRole ?? "member") as InvitationProjectRole;
  if (!(await insertMember(projectId, userId, role, tx)))
    throw new AppError("conflict", "You are a member of this project already");
  const members = await listMemberIds(projectId, tx);
  await publish(
    tx,
    {
      type: "invitation.accepted",
      actorId: userId,
      audience: [invitation.inviterId, userId],
      data: { invitationId: invitation.id, projectId, userId, role, inviterId: invitation.inviterId },
    },
    {
      type: "project.member_added",
      actorId: userId,
      audience: members,
      data: { projectId, userId, role, invitationId: invitation.id },
    },
  );
  // The project's tasks join the new member's lists.
  return { userId, taskId: null, projectId, audience: [userId] };
}
