import { createHash, randomBytes } from "node:crypto";
import { toUserOutput } from "../accounts/service";
import { findUserByEmail, findUserById, insertUser } from "../accounts/repo";
import type { RegisterInput } from "../accounts/schema";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { startSession, type ClientInfo } from "../auth/sessions/service";
import { nowDate } from "../clock";
import { config } from "../config";
import { db, type Executor } from "../db/client";
import type { InvitationRow } from "../db/schema/invitations";
import { publish } from "../events/publish";
import { findFamilyRole, insertFamilyMember, listFamilyMembers, lockFamily } from "../family/repo";
import { DEFAULT_LOCALE } from "../i18n/locales";
import { isModuleEnabled, type ModuleId } from "../modules/registry";
import { mayOnTask } from "../permissions/tasks";
import { findProjectRole, insertMember, listMemberIds, lockProject } from "../projects/repo";
import { invalidateTaskLists } from "../tasks/list-cache";
import { findVisibleTask, lockTask, taskAudience } from "../tasks/repo";
import { announceTaskChange, getTaskFor } from "../tasks/service";
import { findMemberRole, insertMember as insertTeamMember, lockUserGroup } from "../teams/repo";
import { shareLinks, shareText } from "./links";
import {
  areConnected,
  consumeInvitation,
  findAddressedInvitation,
  findFamilyName,
  findInvitationByTokenHash,
  findInvitationOf,
  findProjectName,
  findTeamName,
  findUserName,
  insertInvitation,
  insertTaskAssignee,
  insertTaskCollaborator,
  listAddressedInvitations,
  listInvitationsOf,
  markInvitationDeclined,
  markInvitationRevoked,
  setAcceptedBy,
  type InvitationWithTarget,
  type NewInvitation,
} from "./repo";
import {
  INVITATION_TTL_MS,
  type AcceptedInvitationOutput,
  type CreatedInvitationOutput,
  type CreateInvitationInput,
  type InvitationFamilyRole,
  type InvitationKind,
  type InvitationListOutput,
  type InvitationOutput,
  type InvitationPreviewOutput,
  type InvitationProjectRole,
  type InvitationStatus,
  type InvitationTaskRole,
  type InvitationTeamRole,
  type Invitee,
  type JoinedOutput,
  type ReceivedInvitationListOutput,
  type ReceivedInvitationOutput,
} from "./schema";

/*
 * The rules. Nobody becomes part of anything without saying yes: an invitation is how a person joins a task, a
 * project, a family workspace or a team (and how someone not yet connected to a team's or project's manager joins
 * it: lib/teams, lib/projects). It is accepted by its link (`/invite/{token}`, with or without an account), or in the
 * app by the person it is addressed to (their account, or their email), who may also decline it.
 *
 * Who may invite: a task invitation needs the `share` right on the task (404 when the inviter cannot see the task,
 * 403 when they may not share it); a project or team invitation the owner or admin role there (404 for
 * non-members, 403 for other members), a family invitation a parent of that family (404 for non-members, 403 for
 * a child). It grants a role, never ownership. The token (32 random bytes) is shown once to the inviter; only its
 * SHA-256 is stored. It works once, for 7 days, and only while the inviter could still grant what it grants: an
 * inviter who lost the right has in effect withdrawn it (410 invitation_revoked). The link is not bound to the
 * invitee's email or phone: those only describe whom the inviter meant (and an addressed invitation shows in that
 * person's app). Only the inviter sees, lists and revokes an invitation; the person it is addressed to sees it,
 * accepts or declines it; anyone else gets 404.
 *
 * Answers never say whether an email has an account: inviting by email answers the same whatever the address.
 */

/** Why a token no longer works: the `detail` of the 410 starts with this code, and `errors` names it at /token. */
export const GONE_CODES = {
  accepted: "invitation_used",
  declined: "invitation_declined",
  revoked: "invitation_revoked",
  expired: "invitation_expired",
} as const satisfies Record<Exclude<InvitationStatus, "pending">, string>;

const GONE_DETAILS: Record<keyof typeof GONE_CODES, string> = {
  accepted: "this invitation has already been accepted; an invitation link works once",
  declined: "this invitation was declined by the person it was sent to",
  revoked: "this invitation was withdrawn by the person who sent it",
  expired: "this invitation has expired; ask for a new one",
};

const invitationNotFound = () => new AppError("not_found", "No such invitation");
const wrongCredentials = () =>
  new AppError(
    "unauthenticated",
    "Wrong email or password: to accept with an account you have, give its password; or register with another email",
  );

/** The module a kind of invitation belongs to: while it is off, those invitations are neither made nor accepted. */
const KIND_MODULE: Partial<Record<InvitationKind, ModuleId>> = { project: "projects", family: "family" };

function requireKindModule(kind: InvitationKind): void {
  const module = KIND_MODULE[kind];
  if (module && !isModuleEnabled(module)) {
    throw new AppError("module_disabled", `The ${module} module is switched off on this server`);
  }
}

function invitationGone(status: keyof typeof GONE_CODES): AppError {
  return new AppError(GONE_CODES[status], GONE_DETAILS[status]);
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

export function invitationStatus(
  invitation: Pick<InvitationRow, "acceptedAt" | "revokedAt" | "declinedAt" | "expiresAt">,
  now: Date,
): InvitationStatus {
  if (invitation.acceptedAt) return "accepted";
  if (invitation.declinedAt) return "declined";
  if (invitation.revokedAt) return "revoked";
  return invitation.expiresAt.getTime() > now.getTime() ? "pending" : "expired";
}

export function invitationKind(invitation: Pick<InvitationRow, "taskId" | "projectId" | "familyId">): InvitationKind {
  if (invitation.taskId) return "task";
  if (invitation.projectId) return "project";
  return invitation.familyId ? "family" : "team";
}

const isManager = (role: string | null) => role === "owner" || role === "admin";

/** Whether the inviter may still grant what the invitation grants. */
async function inviterStillMay(invitation: InvitationRow, executor?: Executor): Promise<boolean> {
  switch (invitationKind(invitation)) {
    case "task": {
      const task = await findVisibleTask(invitation.inviterId, invitation.taskId!, executor);
      return task !== null && mayOnTask(invitation.inviterId, task, "share");
    }
    case "project":
      return isManager(await findProjectRole(invitation.projectId!, invitation.inviterId, executor));
    case "family":
      return (await findFamilyRole(invitation.familyId!, invitation.inviterId, executor)) === "parent";
    case "team":
      return isManager(await findMemberRole(invitation.teamId!, invitation.inviterId, executor));
  }
}

function toInvitationOutput(row: InvitationRow, now = nowDate()): InvitationOutput {
  return {
    id: row.id,
    kind: invitationKind(row),
    taskId: row.taskId,
    taskRole: row.taskRole as InvitationTaskRole | null,
    projectId: row.projectId,
    projectRole: row.projectRole as InvitationProjectRole | null,
    familyId: row.familyId,
    familyRole: row.familyRole as InvitationFamilyRole | null,
    teamId: row.teamId,
    teamRole: row.teamRole as InvitationTeamRole | null,
    status: invitationStatus(row, now),
    invitee: { name: row.inviteeName, email: row.inviteeEmail, phone: row.inviteePhone },
    expiresAt: row.expiresAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
    acceptedAt: row.acceptedAt?.toISOString() ?? null,
    acceptedBy: row.acceptedBy,
    revokedAt: row.revokedAt?.toISOString() ?? null,
    declinedAt: row.declinedAt?.toISOString() ?? null,
  };
}

// The inviter's side

/** What an invitation is to, and the role it grants: one of the four kinds. */
export type InvitationTarget =
  | { taskId: string; taskRole?: InvitationTaskRole }
  | { projectId: string; projectRole?: InvitationProjectRole }
  | { familyId: string; familyRole?: InvitationFamilyRole }
  | { teamId: string; teamRole?: InvitationTeamRole };

type TargetColumns = Pick<
  NewInvitation,
  "taskId" | "taskRole" | "projectId" | "projectRole" | "familyId" | "familyRole" | "teamId" | "teamRole"
>;

/**
 * Checks that the actor may invite to the target (see the rules above) and answers its columns and the title the
 * share text names: the task's title, the project's, family's or team's name.
 */
async function checkedTarget(
  actor: Actor,
  target: InvitationTarget,
  tx: Executor,
): Promise<{ columns: TargetColumns; title: string }> {
  const none: TargetColumns = {
    taskId: null,
    taskRole: null,
    projectId: null,
    projectRole: null,
    familyId: null,
    familyRole: null,
    teamId: null,
    teamRole: null,
  };
  if ("taskId" in target) {
    const task = await getTaskFor(actor, target.taskId, "share", tx);
    return { columns: { ...none, taskId: target.taskId, taskRole: target.taskRole ?? "assignee" }, title: task.title };
  }
  if ("projectId" in target) {
    requireKindModule("project");
    const role = await findProjectRole(target.projectId, actor.userId, tx);
    if (!role) throw new AppError("not_found", "No such project");
    if (!isManager(role)) throw new AppError("forbidden", "Only the project's owners and admins can invite people to it");
    return {
      columns: { ...none, projectId: target.projectId, projectRole: target.projectRole ?? "member" },
      title: (await findProjectName(target.projectId, tx)) ?? "",
    };
  }
  if ("familyId" in target) {
    requireKindModule("family");
    const role = await findFamilyRole(target.familyId, actor.userId, tx);
    if (!role) throw new AppError("not_found", "No such family workspace of yours");
    if (role !== "parent") throw new AppError("forbidden", "Only a parent can invite people to the family workspace");
    return {
      columns: { ...none, familyId: target.familyId, familyRole: target.familyRole ?? "child" },
      title: (await findFamilyName(target.familyId, tx)) ?? "",
    };
  }
  const role = await findMemberRole(target.teamId, actor.userId, tx);
  if (!role) throw new AppError("not_found", "User group not found");
  if (!isManager(role)) throw new AppError("forbidden", "Only the group's owners and admins can invite people to it");
  return {
    columns: { ...none, teamId: target.teamId, teamRole: target.teamRole ?? "member" },
    title: (await findTeamName(target.teamId, tx)) ?? "",
  };
}

function targetOf(input: CreateInvitationInput): InvitationTarget {
  if (input.taskId !== undefined) return { taskId: input.taskId, taskRole: input.taskRole };
  if (input.projectId !== undefined) return { projectId: input.projectId, projectRole: input.projectRole };
  if (input.familyId !== undefined) return { familyId: input.familyId, familyRole: input.familyRole };
  return { teamId: input.teamId!, teamRole: input.teamRole };
}

interface IssueOptions {
  /** The account it is addressed to (it then shows in their app). */
  inviteeUserId?: string;
  name?: string;
  email?: string;
  phone?: string;
  message?: string;
}

/**
 * Creates an invitation and answers its link (on APP_URL, else on `origin`, the server the request came to) with
 * ready-made share links whose text, in the inviter's language, says who invites to what.
 */
async function issueInvitation(
  actor: Actor,
  target: InvitationTarget,
  options: IssueOptions,
  origin: string,
): Promise<CreatedInvitationOutput> {
  const token = randomBytes(32).toString("base64url");
  const now = nowDate();
  // Whose app shows it: the account it names, or the one with its email (known here only, never answered).
  const addressedTo = options.inviteeUserId ?? (options.email ? (await findUserByEmail(options.email))?.id : undefined);
  const { row, title } = await db().transaction(async (tx) => {
    const { columns, title } = await checkedTarget(actor, target, tx);
    const row = await insertInvitation(
      {
        ...columns,
        tokenHash: hashToken(token),
        inviterId: actor.userId,
        inviteeUserId: options.inviteeUserId ?? null,
        inviteeName: options.name ?? null,
        inviteeEmail: options.email ?? null,
        inviteePhone: options.phone ?? null,
        expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
        createdAt: now,
      },
      tx,
    );
    await publish(tx, {
      type: "invitation.created",
      actorId: actor.userId,
      taskId: row.taskId,
      // The person it is addressed to hears of it too (their app lists it), whether it names their account or email.
      audience: addressedTo && addressedTo !== actor.userId ? [actor.userId, addressedTo] : [actor.userId],
      data: { invitationId: row.id, taskId: row.taskId, projectId: row.projectId, familyId: row.familyId, teamId: row.teamId },
    });
    return { row, title };
  });

  const url = `${(config().APP_URL ?? origin).replace(/\/+$/, "")}/invite/${token}`;
  const inviterName = (await findUserName(actor.userId)) ?? actor.email;
  const intro = shareText(actor.locale, { inviterName, kind: invitationKind(row), title });
  const text = options.message ? `${options.message}\n\n${intro}` : intro;
  return {
    invitation: toInvitationOutput(row, now),
    token,
    url,
    text: `${text}\n${url}`,
    links: shareLinks({ url, text, phone: options.phone, email: options.email, subject: intro }),
  };
}

/** `POST /invitations`: an invitation to a task, a project, a family workspace or a team, by link. */
export async function createInvitation(
  actor: Actor,
  input: CreateInvitationInput,
  origin: string,
): Promise<CreatedInvitationOutput> {
  return issueInvitation(actor, targetOf(input), input, origin);
}

/**
 * An invitation addressed to someone named by `userId` or `email` (lib/family, lib/teams, lib/projects and
 * lib/collaboration use it for people who must accept first). The answer is the same whether an email has an
 * account or not: the invitation shows in that account's app if there is one, and its link can be sent anyway.
 * An unknown user id is a 400 naming `/userId` (ids are not secrets to guess); the actor themselves a 400.
 */
export async function inviteToJoin(
  actor: Actor,
  target: InvitationTarget,
  invitee: Invitee,
  origin: string,
): Promise<CreatedInvitationOutput> {
  if (invitee.userId !== undefined) {
    if (invitee.userId === actor.userId) throw invalidField("body", "/userId", "is you: invite someone else");
    if (!(await findUserById(invitee.userId))) throw invalidField("body", "/userId", "no such user");
    return issueInvitation(
      actor,
      target,
      { inviteeUserId: invitee.userId, name: invitee.name, message: invitee.message },
      origin,
    );
  }
  if (invitee.email === actor.email) throw invalidField("body", "/email", "is you: invite someone else");
  return issueInvitation(actor, target, { email: invitee.email, name: invitee.name, message: invitee.message }, origin);
}

/** Whether `userId` already works with the actor (a shared team, project or family): they may be added at once. */
export function isConnected(actor: Actor, userId: string, executor?: Executor): Promise<boolean> {
  return areConnected(actor.userId, userId, executor);
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
      audience: row.inviteeUserId ? [actor.userId, row.inviteeUserId] : [actor.userId],
      data: { invitationId: row.id, taskId: row.taskId, projectId: row.projectId, familyId: row.familyId, teamId: row.teamId },
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
    kind: invitationKind(invitation),
    taskTitle: invitation.taskTitle,
    taskRole: invitation.taskRole as InvitationTaskRole | null,
    projectName: invitation.projectName,
    projectRole: invitation.projectRole as InvitationProjectRole | null,
    familyName: invitation.familyName,
    familyRole: invitation.familyRole as InvitationFamilyRole | null,
    teamName: invitation.teamName,
    teamRole: invitation.teamRole as InvitationTeamRole | null,
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

/** The pending invitations addressed to the actor (their account or their email), newest first. */
export async function listReceivedInvitations(actor: Actor): Promise<ReceivedInvitationListOutput> {
  const rows = await listAddressedInvitations({ id: actor.userId, email: actor.email }, nowDate());
  const items: ReceivedInvitationOutput[] = [];
  for (const row of rows) {
    if (!(await inviterStillMay(row))) continue;
    const { status: _status, inviteeName: _name, ...preview } = toPreview(row, "pending");
    items.push({ ...preview, id: row.id, createdAt: row.createdAt.toISOString() });
  }
  return { items };
}

/** Whom an accepted invitation took into what, and whose task lists changed. */
interface Accepted extends JoinedOutput {
  userId: string;
  audience: string[];
}

/**
 * In one transaction: the invitation is used up (atomically, so that it works once), and the user joins its target
 * with its role. `which` names it by token (a link) or id (in the app); `registerAs` creates the account first.
 */
async function acceptInTransaction(
  which: { tokenHash: string } | { id: string },
  join: { userId: string } | { register: Parameters<typeof insertUser>[0] },
): Promise<Accepted> {
  return db().transaction(async (tx): Promise<Accepted> => {
    const now = nowDate();
    const invitation = await consumeInvitation(which, now, tx);
    if (!invitation) {
      const current =
        "tokenHash" in which ? await findInvitationByTokenHash(which.tokenHash, tx) : await findInvitationById(which.id, tx);
      if (!current) throw invitationNotFound();
      const state = invitationStatus(current, now);
      throw invitationGone(state === "pending" ? "accepted" : state);
    }
    requireKindModule(invitationKind(invitation));
    const userId = "userId" in join ? join.userId : await registerInvitee(join.register, tx);
    if (invitation.inviterId === userId) {
      throw new AppError("conflict", "This is your own invitation: send the link to the person you are inviting");
    }
    await setAcceptedBy(invitation.id, userId, tx);
    switch (invitationKind(invitation)) {
      case "task":
        return joinTask(invitation, userId, tx);
      case "project":
        return joinProject(invitation, userId, tx);
      case "family":
        return joinFamily(invitation, userId, tx);
      case "team":
        return joinTeam(invitation, userId, tx);
    }
  });
}

async function findInvitationById(id: string, tx: Executor): Promise<InvitationRow | null> {
  const [row] = await tx.query.invitations.findMany({ where: (table, { eq }) => eq(table.id, id), limit: 1 });
  return row ?? null;
}

/** Registers the invitee in the acceptance's transaction; an email taken at the same moment is a 409. */
async function registerInvitee(user: Parameters<typeof insertUser>[0], tx: Executor): Promise<string> {
  return (await insertUser(user, tx)).id;
}

/**
 * Accepts an invitation by its link: with `registration` (as `POST /auth/register` takes it), or as the signed-in
 * `actor`. Registration data whose email has an account signs in to that account if the password is its own (and
 * is refused like a wrong sign-in if not), so that the answer never says "this email is taken". Answers a session
 * token for the user: a new session for a registration or sign-in, the request's own (`currentToken`) when accepted
 * signed in.
 */
export async function acceptInvitation(
  token: string,
  registration: RegisterInput | null,
  actor: Actor | null,
  client: ClientInfo,
  currentToken: string | null,
): Promise<AcceptedInvitationOutput & { created: boolean }> {
  const tokenHash = hashToken(token);
  // Cheap checks first: no password is hashed for a token that cannot work.
  const found = await findInvitationByTokenHash(tokenHash);
  if (!found) throw invitationNotFound();
  const status = invitationStatus(found, nowDate());
  if (status !== "pending") throw invitationGone(status);
  requireKindModule(invitationKind(found));
  if (!registration && !actor) {
    throw new AppError("unauthenticated", "Sign in to accept the invitation, or send name, email and password to register");
  }

  let join: { userId: string } | { register: Parameters<typeof insertUser>[0] };
  let created = false;
  if (registration) {
    const existing = await findUserByEmail(registration.email);
    if (existing) {
      if (!(await verifyPassword(existing.passwordHash, registration.password))) throw wrongCredentials();
      if (existing.disabledAt) throw new AppError("account_disabled", "This account has been disabled by an administrator");
      join = { userId: existing.id };
      // Answered as a registration is (201), so that the answer does not tell an existing account from a new one.
      created = true;
    } else {
      join = {
        register: {
          email: registration.email,
          name: registration.name ?? found.inviteeName ?? registration.email.split("@")[0]!,
          passwordHash: await hashPassword(registration.password),
          locale: registration.locale ?? DEFAULT_LOCALE,
          timeZone: registration.timeZone,
        },
      };
      created = true;
    }
  } else {
    join = { userId: actor!.userId };
  }

  const accepted = await acceptInTransaction({ tokenHash }, join);
  await invalidateTaskLists(accepted.audience);
  const user = await findUserById(accepted.userId);
  if (!user) throw new AppError("unauthenticated", "This account no longer exists");
  const sessionToken = registration || !currentToken ? await startSession(user, "invitation", client) : currentToken;
  const { userId: _userId, audience: _audience, ...joined } = accepted;
  return { token: sessionToken, user: toUserOutput(user), ...joined, created };
}

/** Accepts, in the app, an invitation addressed to the actor (404 for any other). */
export async function acceptReceivedInvitation(actor: Actor, id: string): Promise<JoinedOutput> {
  const invitation = await findAddressedInvitation({ id: actor.userId, email: actor.email }, id);
  if (!invitation) throw invitationNotFound();
  const status = invitationStatus(invitation, nowDate());
  if (status !== "pending") throw invitationGone(status);
  const accepted = await acceptInTransaction({ id }, { userId: actor.userId });
  await invalidateTaskLists(accepted.audience);
  const { userId: _userId, audience: _audience, ...joined } = accepted;
  return joined;
}

/** Declines, in the app, an invitation addressed to the actor: its link stops working (410 invitation_declined). */
export async function declineReceivedInvitation(actor: Actor, id: string): Promise<void> {
  const user = { id: actor.userId, email: actor.email };
  const invitation = await findAddressedInvitation(user, id);
  if (!invitation) throw invitationNotFound();
  if (!(await markInvitationDeclined(user, id, nowDate()))) {
    const status = invitationStatus(invitation, nowDate());
    if (status !== "pending") throw invitationGone(status);
  }
  await db().transaction((tx) =>
    publish(tx, {
      type: "invitation.declined",
      actorId: actor.userId,
      taskId: invitation.taskId,
      audience: [invitation.inviterId, actor.userId],
      data: { invitationId: invitation.id },
    }),
  );
}

const joined = (taskId: string | null, projectId: string | null, familyId: string | null, teamId: string | null) => ({
  taskId,
  projectId,
  familyId,
  teamId,
});

async function joinTask(invitation: InvitationRow, userId: string, tx: Executor): Promise<Accepted> {
  const taskId = invitation.taskId!;
  await lockTask(taskId, tx);
  if (!(await inviterStillMay(invitation, tx))) throw invitationGone("revoked");
  // Who saw the task before: their lists change too (the assignee count and ids).
  const before = await taskAudience([taskId], tx);
  const asCollaborator = invitation.taskRole === "collaborator";
  const added = asCollaborator
    ? await insertTaskCollaborator(taskId, userId, nowDate(), tx)
    : await insertTaskAssignee(taskId, userId, tx);
  if (!added) {
    throw new AppError("conflict", asCollaborator ? "You work on this task already" : "You are assigned to this task already");
  }
  await announceTaskChange(tx, { type: "task.updated", actorId: userId, taskId, before });
  const after = await taskAudience([taskId], tx);
  await publish(tx, {
    type: "invitation.accepted",
    actorId: userId,
    taskId,
    audience: after,
    data: { invitationId: invitation.id, taskId, userId, inviterId: invitation.inviterId },
  });
  return { userId, ...joined(taskId, null, null, null), audience: [...new Set([...before, ...after])] };
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
  return { userId, ...joined(null, projectId, null, null), audience: [userId] };
}

async function joinFamily(invitation: InvitationRow, userId: string, tx: Executor): Promise<Accepted> {
  const familyId = invitation.familyId!;
  // Family membership changes happen one at a time (lib/family): the inviter's role is read after the lock.
  if (!(await lockFamily(familyId, tx)) || !(await inviterStillMay(invitation, tx))) throw invitationGone("revoked");
  const role = (invitation.familyRole ?? "child") as InvitationFamilyRole;
  if (!(await insertFamilyMember(familyId, userId, role, tx))) {
    throw new AppError(
      "conflict",
      (await findFamilyRole(familyId, userId, tx))
        ? "You are a member of this family workspace already"
        : "You already belong to another family workspace: leave it first, then accept (the invitation stays usable)",
    );
  }
  const members = (await listFamilyMembers(familyId, tx)).map((member) => member.userId);
  await publish(
    tx,
    {
      type: "invitation.accepted",
      actorId: userId,
      audience: [invitation.inviterId, userId],
      data: { invitationId: invitation.id, familyId, userId, role, inviterId: invitation.inviterId },
    },
    {
      type: "family.member_added",
      actorId: userId,
      audience: members,
      data: { familyId, userId, role, invitationId: invitation.id },
    },
  );
  // The shared groups' tasks join the new member's lists.
  return { userId, ...joined(null, null, familyId, null), audience: members };
}

async function joinTeam(invitation: InvitationRow, userId: string, tx: Executor): Promise<Accepted> {
  const teamId = invitation.teamId!;
  if (!(await lockUserGroup(tx, teamId)) || !(await inviterStillMay(invitation, tx))) throw invitationGone("revoked");
  const role = (invitation.teamRole ?? "member") as InvitationTeamRole;
  if (!(await insertTeamMember(teamId, userId, role, tx)))
    throw new AppError("conflict", "You are a member of this group already");
  await publish(tx, {
    type: "invitation.accepted",
    actorId: userId,
    audience: [invitation.inviterId, userId],
    data: { invitationId: invitation.id, teamId, userId, role, inviterId: invitation.inviterId },
  });
  // The group's tasks join the new member's lists.
  return { userId, ...joined(null, null, null, teamId), audience: [userId] };
}
