import type { Precondition } from "../api/conditional";
import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { ProjectRole } from "../db/schema/projects";
import { publish } from "../events/publish";
import type { CreatedInvitationOutput } from "../invitations/schema";
import { inviteToJoin, isConnected } from "../invitations/service";
import { membershipPolicy, type MembershipPolicy } from "../membership/policy";
import { invalidateTaskLists } from "../tasks/list-cache";
import { announceLostTasks, announceTasksAround } from "../tasks/service";
import { findUserId } from "../teams/repo";
import {
  countOwners,
  deleteMember,
  deleteProjectRow,
  findMember,
  findMemberProject,
  findMemberProjectAnswer,
  findProjectRole,
  insertMember,
  insertProject,
  listMemberIds,
  listMemberProjects,
  listMembers,
  memberWorkloadCounts,
  listProjectTaskIds,
  lockProject,
  updateMemberRole,
  updateProjectRow,
  type MemberProject,
  type MemberProjectAnswerRow,
  type MemberRecord,
  type ProjectPatch,
} from "./repo";
import type {
  AddMemberInput,
  ChangeRoleInput,
  CreateProjectInput,
  MemberListOutput,
  ProjectWorkloadOutput,
  MemberOutput,
  ProjectListOutput,
  ProjectOutput,
  UpdateProjectInput,
} from "./schema";

/*
 * The rules, those of user groups (lib/teams) plus a read-only role. Only members see a project: to anyone else
 * every route answers 404. Who may edit, archive and delete it, manage its members, own it and leave it is the
 * circles' policy (lib/membership/policy.ts). Every member sees the project's tasks; members (not viewers) edit
 * them (lib/permissions/tasks.ts), so a membership change changes whose task lists are stale.
 */

const projectNotFound = () => new AppError("not_found", "Project not found");
const memberNotFound = () => new AppError("not_found", "No such member in this project");
const policy: MembershipPolicy<ProjectRole> = membershipPolicy({
  noun: "project",
  owner: "an owner of the project",
  invitationRoles: "admin, member or viewer",
});

function toProjectOutput(project: MemberProject): ProjectOutput {
  return projectAnswer({
    ...project,
    archivedAt: project.archivedAt?.toISOString() ?? null,
    createdAt: project.createdAt.toISOString(),
    updatedAt: project.updatedAt.toISOString(),
  });
}

/** A project's answer from its fields, instants already ISO text: the one place that orders the answer's fields. */
function projectAnswer(project: MemberProjectAnswerRow): ProjectOutput {
  return {
    id: project.id,
    name: project.name,
    description: project.description,
    color: project.color,
    role: project.role,
    memberCount: project.memberCount,
    tasks: { total: project.taskTotal, open: project.taskOpen },
    archived: project.archivedAt !== null,
    archivedAt: project.archivedAt,
    createdBy: project.createdBy,
    createdAt: project.createdAt,
    updatedAt: project.updatedAt,
  };
}

function toMemberOutput(member: MemberRecord): MemberOutput {
  return { ...member, joinedAt: member.joinedAt.toISOString() };
}

async function getMemberProjectOrThrow(actor: Actor, projectId: string, executor?: Executor): Promise<MemberProject> {
  const project = await findMemberProject(actor.userId, projectId, executor);
  if (!project) throw projectNotFound();
  return project;
}

/** The actor's role in the project; 404 when they are not a member. */
async function getRoleOrThrow(actor: Actor, projectId: string): Promise<ProjectRole> {
  const role = await findProjectRole(projectId, actor.userId);
  if (!role) throw projectNotFound();
  return role;
}

/** Runs a change with the project locked (see `lockProject`), given the actor's role; 404 for a non-member. */
async function withLockedProject<T>(actor: Actor, projectId: string, change: (tx: Executor, role: ProjectRole) => Promise<T>) {
  return db().transaction(async (tx) => {
    const role = (await lockProject(tx, projectId)) ? await findProjectRole(projectId, actor.userId, tx) : null;
    if (!role) throw projectNotFound();
    return change(tx, role);
  });
}

async function getMemberOrThrow(projectId: string, userId: string, executor?: Executor): Promise<MemberRecord> {
  const member = await findMember(projectId, userId, executor);
  if (!member) throw memberNotFound();
  return member;
}

/** Records a membership event for everyone in the project (after an addition; before a removal). */
async function publishMembership(
  tx: Executor,
  type: "project.member_added" | "project.member_removed",
  actor: Actor,
  projectId: string,
  member: { userId: string; role: ProjectRole },
): Promise<void> {
  const audience = await listMemberIds(projectId, tx);
  await publish(tx, { type, actorId: actor.userId, audience, data: { projectId, userId: member.userId, role: member.role } });
}

// Projects

export async function listProjects(actor: Actor, includeArchived: boolean): Promise<ProjectListOutput> {
  return { items: (await listMemberProjects(actor.userId, includeArchived)).map(toProjectOutput) };
}

export async function getProject(actor: Actor, projectId: string): Promise<ProjectOutput> {
  const project = await findMemberProjectAnswer(actor.userId, projectId);
  if (!project) throw projectNotFound();
  return projectAnswer(project);
}

/** Creates a project; its creator is its owner. */
export async function createProject(actor: Actor, input: CreateProjectInput): Promise<ProjectOutput> {
  const projectId = await insertProject(actor.userId, {
    name: input.name,
    description: input.description ?? "",
    color: input.color ?? null,
  });
  return getProject(actor, projectId);
}

/**
 * Changes the name, description or colour, or archives or restores the project: owners and admins. `precondition`
 * (an `If-Match`, lib/api/conditional.ts) is asked with the project as it is once locked: one changed since the client
 * read it is left as it is (412).
 */
export async function updateProject(
  actor: Actor,
  projectId: string,
  input: UpdateProjectInput,
  precondition?: Precondition,
): Promise<ProjectOutput> {
  return withLockedProject(actor, projectId, async (tx) => {
    const project = await getMemberProjectOrThrow(actor, projectId, tx);
    policy.requireManager(project.role);
    await precondition?.(toProjectOutput(project));
    const patch: ProjectPatch = { name: input.name, description: input.description, color: input.color };
    // Archiving an archived project keeps the time it was first archived.
    if (input.archived !== undefined) patch.archivedAt = input.archived ? (project.archivedAt ?? nowDate()) : null;
    await updateProjectRow(projectId, patch, tx);
    return toProjectOutput(await getMemberProjectOrThrow(actor, projectId, tx));
  });
}

/**
 * Deletes the project and every membership in it: owners only. Its tasks stay with their owners, in no project;
 * whoever saw them only through the project no longer does. `precondition` as for `updateProject`.
 */
export async function deleteProject(actor: Actor, projectId: string, precondition?: Precondition): Promise<void> {
  await withLockedProject(actor, projectId, async (tx, role) => {
    policy.requireOwner(role, "delete the project");
    if (precondition) await precondition(toProjectOutput(await getMemberProjectOrThrow(actor, projectId, tx)));
    const taskIds = await listProjectTaskIds(projectId, tx);
    // Those who still see the tasks hear them without the project, the others that they are gone from their screens.
    await announceTasksAround(tx, { actorId: actor.userId, taskIds }, () => deleteProjectRow(projectId, tx));
  });
}

// Members

export async function listProjectMembers(actor: Actor, projectId: string): Promise<MemberListOutput> {
  await getRoleOrThrow(actor, projectId);
  return { items: (await listMembers(projectId)).map(toMemberOutput) };
}

/** Any member (viewers too) sees the workload of every member. */
export async function getProjectWorkload(actor: Actor, projectId: string): Promise<ProjectWorkloadOutput> {
  await getRoleOrThrow(actor, projectId);
  return { projectId, items: await memberWorkloadCounts(projectId, nowDate()) };
}

/**
 * Adds someone, by id or by email, as `member` unless `role` says otherwise. Someone who already works with the
 * actor (a shared team, project or family workspace) is added at once; anyone else (and any email without an
 * account) gets an invitation to accept, answered the same whether the email has an account or not. Someone
 * already in the project is a 409; an unknown id a 400 naming `/userId`.
 */
export async function addProjectMember(
  actor: Actor,
  projectId: string,
  input: AddMemberInput,
  origin: string,
): Promise<{ member: MemberOutput } | { invitation: CreatedInvitationOutput }> {
  const added = await withLockedProject(actor, projectId, async (tx, actorRole) => {
    policy.requireManager(actorRole);
    const role = input.role ?? "member";
    policy.checkAdd(actorRole, role);
    const userId = await findUserId(input, tx);
    if (userId && (await findProjectRole(projectId, userId, tx))) {
      throw new AppError("conflict", "This user is already a member of the project");
    }
    if (!userId || !(await isConnected(actor, userId, tx))) return null;
    await insertMember(projectId, userId, role, tx);
    await publishMembership(tx, "project.member_added", actor, projectId, { userId, role });
    return toMemberOutput(await getMemberOrThrow(projectId, userId, tx));
  });
  if (!added) {
    const role = input.role ?? "member";
    policy.checkInvitationRole(role);
    return { invitation: await inviteToJoin(actor, { projectId, projectRole: role }, input, origin) };
  }
  // The project's tasks join the new member's lists.
  await invalidateTaskLists([added.userId]);
  return { member: added };
}

/**
 * Changes a member's role: owners and admins; only an owner grants or takes the owner role, and the last owner
 * cannot be demoted. Who sees the project's tasks does not change (viewers see them too), only who may edit them.
 */
export async function changeProjectMemberRole(
  actor: Actor,
  projectId: string,
  userId: string,
  input: ChangeRoleInput,
): Promise<MemberOutput> {
  return withLockedProject(actor, projectId, async (tx, actorRole) => {
    policy.requireManager(actorRole);
    const current = (await getMemberOrThrow(projectId, userId, tx)).role;
    await policy.checkRoleChange({
      actorRole,
      current,
      next: input.role,
      self: userId === actor.userId,
      owners: () => countOwners(projectId, tx),
    });
    if (current !== input.role) await updateMemberRole(projectId, userId, input.role, tx);
    return toMemberOutput(await getMemberOrThrow(projectId, userId, tx));
  });
}

/** Removes a member: owners and admins; only an owner removes an owner. Removing yourself is leaving. */
export async function removeProjectMember(actor: Actor, projectId: string, userId: string): Promise<void> {
  if (userId === actor.userId) return leaveProject(actor, projectId);
  await withLockedProject(actor, projectId, async (tx, actorRole) => {
    policy.requireManager(actorRole);
    const role = (await getMemberOrThrow(projectId, userId, tx)).role;
    policy.checkRemoval(actorRole, role);
    await publishMembership(tx, "project.member_removed", actor, projectId, { userId, role });
    await deleteMember(projectId, userId, tx);
    // The tasks they saw only through the project leave their screens.
    await announceLostTasks(tx, { actorId: actor.userId, userId, taskIds: await listProjectTaskIds(projectId, tx) });
  });
}

/** Any member may leave, except the last owner. */
export async function leaveProject(actor: Actor, projectId: string): Promise<void> {
  await withLockedProject(actor, projectId, async (tx, role) => {
    await policy.checkLeave(role, () => countOwners(projectId, tx));
    await publishMembership(tx, "project.member_removed", actor, projectId, { userId: actor.userId, role });
    await deleteMember(projectId, actor.userId, tx);
    await announceLostTasks(tx, {
      actorId: actor.userId,
      userId: actor.userId,
      taskIds: await listProjectTaskIds(projectId, tx),
    });
  });
}
