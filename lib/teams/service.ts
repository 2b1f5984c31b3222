import type { Precondition } from "../api/conditional";
import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { CreatedInvitationOutput } from "../invitations/schema";
import { inviteToJoin, isConnected } from "../invitations/service";
import { membershipPolicy, type MembershipPolicy } from "../membership/policy";
import { invalidateTaskLists } from "../tasks/list-cache";
import { announceLostTasks, announceTasksAround, userGroupTaskIds } from "../tasks/service";
import type { UserGroupRole } from "../db/schema/teams";
import {
  countOwners,
  deleteMember,
  deleteUserGroupRow,
  findMember,
  findMemberGroup,
  findMemberRole,
  findUserId,
  insertMember,
  insertUserGroup,
  listMemberGroups,
  listMembers,
  lockUserGroup,
  memberWorkloadCounts,
  updateMemberRole,
  updateUserGroupRow,
  type MemberGroup,
  type MemberRecord,
} from "./repo";
import type {
  AddMemberInput,
  ChangeRoleInput,
  CreateUserGroupInput,
  MemberListOutput,
  MemberOutput,
  TeamWorkloadOutput,
  UpdateUserGroupInput,
  UserGroupListOutput,
  UserGroupOutput,
} from "./schema";

/*
 * The rules. Only members see a group: to anyone else every route answers 404. Who may manage it, own it, change
 * roles and leave it is the circles' policy (lib/membership/policy.ts), the same as a project's.
 */

const groupNotFound = () => new AppError("not_found", "User group not found");
const memberNotFound = () => new AppError("not_found", "No such member in this group");
const policy: MembershipPolicy<UserGroupRole> = membershipPolicy({
  noun: "group",
  owner: "an owner",
  invitationRoles: "admin or member",
});

function toUserGroupOutput(group: MemberGroup): UserGroupOutput {
  return {
    id: group.id,
    name: group.name,
    description: group.description,
    role: group.role,
    memberCount: group.memberCount,
    createdBy: group.createdBy,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

function toMemberOutput(member: MemberRecord): MemberOutput {
  return { ...member, joinedAt: member.joinedAt.toISOString() };
}

async function getMemberGroupOrThrow(actor: Actor, groupId: string, executor?: Executor): Promise<MemberGroup> {
  const group = await findMemberGroup(actor.userId, groupId, executor);
  if (!group) throw groupNotFound();
  return group;
}

/** The actor's role in the group; 404 when they are not a member. */
async function getRoleOrThrow(actor: Actor, groupId: string): Promise<UserGroupRole> {
  const role = await findMemberRole(groupId, actor.userId);
  if (!role) throw groupNotFound();
  return role;
}

/** Runs a membership change with the group locked (see `lockUserGroup`), given the actor's role. */
async function changeMembership<T>(actor: Actor, groupId: string, change: (tx: Executor, role: UserGroupRole) => Promise<T>) {
  return db().transaction(async (tx) => {
    const role = (await lockUserGroup(tx, groupId)) ? await findMemberRole(groupId, actor.userId, tx) : null;
    if (!role) throw groupNotFound();
    return change(tx, role);
  });
}

async function getMemberOrThrow(groupId: string, userId: string, executor?: Executor): Promise<MemberRecord> {
  const member = await findMember(groupId, userId, executor);
  if (!member) throw memberNotFound();
  return member;
}

// Groups

export async function listUserGroups(actor: Actor): Promise<UserGroupListOutput> {
  return { items: (await listMemberGroups(actor.userId)).map(toUserGroupOutput) };
}

export async function getUserGroup(actor: Actor, groupId: string): Promise<UserGroupOutput> {
  return toUserGroupOutput(await getMemberGroupOrThrow(actor, groupId));
}

/** Creates a group; its creator is its owner. */
export async function createUserGroup(actor: Actor, input: CreateUserGroupInput): Promise<UserGroupOutput> {
  const groupId = await insertUserGroup(actor.userId, { name: input.name, description: input.description ?? "" });
  return getUserGroup(actor, groupId);
}

/** Renames the group or changes its description: owners and admins. */
/**
 * Renames the group or changes its description: owners and admins. `precondition` (an `If-Match`,
 * lib/api/conditional.ts) is asked with the group as it is once locked: one changed since the client read it is left
 * as it is (412).
 */
export async function updateUserGroup(
  actor: Actor,
  groupId: string,
  input: UpdateUserGroupInput,
  precondition?: Precondition,
): Promise<UserGroupOutput> {
  return changeMembership(actor, groupId, async (tx, role) => {
    policy.requireManager(role);
    await precondition?.(toUserGroupOutput(await getMemberGroupOrThrow(actor, groupId, tx)));
    await updateUserGroupRow(groupId, { name: input.name, description: input.description }, tx);
    return toUserGroupOutput(await getMemberGroupOrThrow(actor, groupId, tx));
  });
}

/**
 * Deletes the group and every membership in it: owners only. `precondition` as for `updateUserGroup`. The group's
 * tasks stay, without a group.
 */
export async function deleteUserGroup(actor: Actor, groupId: string, precondition?: Precondition): Promise<void> {
  await changeMembership(actor, groupId, async (tx, role) => {
    policy.requireOwner(role, "delete the group");
    await precondition?.(toUserGroupOutput(await getMemberGroupOrThrow(actor, groupId, tx)));
    // Its tasks stay their owners' and assignees' without a group: they hear the change, the other members that
    // the tasks are gone from their screens.
    const taskIds = await userGroupTaskIds(groupId, tx);
    await announceTasksAround(tx, { actorId: actor.userId, taskIds }, () => deleteUserGroupRow(groupId, tx));
  });
}

// Members

export async function listUserGroupMembers(actor: Actor, groupId: string): Promise<MemberListOutput> {
  await getRoleOrThrow(actor, groupId);
  return { items: (await listMembers(groupId)).map(toMemberOutput) };
}

/**
 * Adds someone, by id or by email, as `member` unless `role` says otherwise. Someone who already works with the
 * actor (a shared team, project or family workspace) is added at once; anyone else (and any email without an
 * account) gets an invitation to accept, answered the same whether the email has an account or not. Someone
 * already in the group is a 409; an unknown id a 400 naming `/userId`.
 */
export async function addUserGroupMember(
  actor: Actor,
  groupId: string,
  input: AddMemberInput,
  origin: string,
): Promise<{ member: MemberOutput } | { invitation: CreatedInvitationOutput }> {
  const added = await changeMembership(actor, groupId, async (tx, actorRole) => {
    policy.requireManager(actorRole);
    const role = input.role ?? "member";
    policy.checkAdd(actorRole, role);
    const userId = await findUserId(input, tx);
    if (userId && (await findMemberRole(groupId, userId, tx)))
      throw new AppError("conflict", "This user is already a member of the group");
    if (!userId || !(await isConnected(actor, userId, tx))) return null;
    await insertMember(groupId, userId, role, tx);
    return toMemberOutput(await getMemberOrThrow(groupId, userId, tx));
  });
  if (!added) {
    const role = input.role ?? "member";
    policy.checkInvitationRole(role);
    return { invitation: await inviteToJoin(actor, { teamId: groupId, teamRole: role }, input, origin) };
  }
  // The group's tasks join the new member's lists.
  await invalidateTaskLists([added.userId]);
  return { member: added };
}

/**
 * Changes a member's role: owners and admins; only an owner grants or takes the owner role, and the last owner
 * cannot be demoted.
 */
export async function changeUserGroupMemberRole(
  actor: Actor,
  groupId: string,
  userId: string,
  input: ChangeRoleInput,
): Promise<MemberOutput> {
  return changeMembership(actor, groupId, async (tx, actorRole) => {
    policy.requireManager(actorRole);
    const current = (await getMemberOrThrow(groupId, userId, tx)).role;
    await policy.checkRoleChange({
      actorRole,
      current,
      next: input.role,
      self: userId === actor.userId,
      owners: () => countOwners(groupId, tx),
    });
    if (current !== input.role) await updateMemberRole(groupId, userId, input.role, tx);
    return toMemberOutput(await getMemberOrThrow(groupId, userId, tx));
  });
}

/** Removes a member: owners and admins; only an owner removes an owner. Removing yourself is leaving. */
export async function removeUserGroupMember(actor: Actor, groupId: string, userId: string): Promise<void> {
  if (userId === actor.userId) return leaveUserGroup(actor, groupId);
  await changeMembership(actor, groupId, async (tx, actorRole) => {
    policy.requireManager(actorRole);
    policy.checkRemoval(actorRole, (await getMemberOrThrow(groupId, userId, tx)).role);
    await deleteMember(groupId, userId, tx);
    await announceLostTasks(tx, { actorId: actor.userId, userId, taskIds: await userGroupTaskIds(groupId, tx) });
  });
}

/** Any member may leave, except the last owner. */
export async function leaveUserGroup(actor: Actor, groupId: string): Promise<void> {
  await changeMembership(actor, groupId, async (tx, actorRole) => {
    await policy.checkLeave(actorRole, () => countOwners(groupId, tx));
    await deleteMember(groupId, actor.userId, tx);
    await announceLostTasks(tx, { actorId: actor.userId, userId: actor.userId, taskIds: await userGroupTaskIds(groupId, tx) });
  });
}

// Workload

/** Every member's active (in_progress), pending (todo) and completed (done) tasks among the group's tasks. */
export async function getTeamWorkload(actor: Actor, groupId: string): Promise<TeamWorkloadOutput> {
  await getRoleOrThrow(actor, groupId);
  return { groupId, items: await memberWorkloadCounts(groupId, nowDate()) };
}
