import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { db, type Executor } from "../db/client";
import type { FamilyRole } from "../db/schema/family";
import type { TaskGroupRow } from "../db/schema/tasks";
import { publish } from "../events/publish";
import { groupLanguage } from "../groups/names";
import type { CreatedInvitationOutput } from "../invitations/schema";
import { inviteToJoin } from "../invitations/service";
import { findOwnGroup, homeGroupId, moveTasksToGroup, tasksInGroup } from "../groups/repo";
import type { GroupOutput } from "../groups/schema";
import { sendTasksHome, toGroupOutput } from "../groups/service";
import type { Locale } from "../i18n/locales";
import { announceTasksAround } from "../tasks/service";
import {
  countFamilyMembers,
  deleteFamilyMember,
  deleteFamilyRow,
  findFamilyGroup,
  findFamilyMember,
  findFamilyRole,
  findMembership,
  findUserId,
  insertFamily,
  listFamilyMembers,
  listSharedGroups,
  lockFamily,
  memberTasksInOthersGroups,
  setGroupFamily,
  sharedTaskIds,
  updateFamilyMemberRole,
  updateFamilyName,
  type FamilyMemberRecord,
} from "./repo";
import type {
  AddFamilyMemberInput,
  ChangeFamilyRoleInput,
  CreateFamilyInput,
  FamilyMemberOutput,
  FamilyOutput,
  UpdateFamilyInput,
} from "./schema";

/*
 * The rules. A user belongs to at most one family workspace; to anyone outside it every route answers 404, as if
 * it did not exist. Parents rename and delete it, add and remove members and change roles; a child gets 403 there.
 * A family always keeps a parent while it has other members: the last parent cannot leave or be demoted (409).
 * Any member shares their own task groups with the family and stops sharing them; a parent may also stop sharing
 * anyone else's. Every member sees the shared groups and their tasks (lib/permissions).
 *
 * Nothing is lost silently: when a group stops being shared (unshared, its owner leaves or is removed, the family
 * is deleted) the tasks in it that other people own go back to their owners' first active group; when a member
 * leaves or is removed, their tasks in the groups others share go back to their own first active group. Every
 * change that alters who sees a task drops the cached task lists of everyone who saw it before or sees it after.
 */

const noFamily = () => new AppError("not_found", "You belong to no family workspace");
const memberNotFound = () => new AppError("not_found", "No such member in your family workspace");
const parentsOnly = (what: string) => new AppError("forbidden", `Only a parent can ${what}`);
const alreadyInFamily = () => new AppError("conflict", "You already belong to a family workspace: leave it first");
const lastParent = (who: "you" | "member") =>
  new AppError(
    "conflict",
    `${who === "you" ? "You are" : "This member is"} the family's last parent: make another member a parent first ` +
      "(or remove the other members, or delete the workspace)",
  );

interface FamilyContext {
  familyId: string;
  /** The actor's role. */
  role: FamilyRole;
  tx: Executor;
}

/** Runs a change with the actor's family locked (see `lockFamily`), given their role in it; 404 when they have none. */
async function changeFamily<T>(actor: Actor, change: (context: FamilyContext) => Promise<T>): Promise<T> {
  return db().transaction(async (tx) => {
    const mine = await findMembership(actor.userId, tx);
    if (!mine || !(await lockFamily(mine.family.id, tx))) throw noFamily();
    // Read again once locked: a parent may have removed the actor meanwhile.
    const role = await findFamilyRole(mine.family.id, actor.userId, tx);
    if (!role) throw noFamily();
    return change({ familyId: mine.family.id, role, tx });
  });
}

const userIds = (members: readonly FamilyMemberRecord[]) => members.map((member) => member.userId);

function toMemberOutput(member: FamilyMemberRecord): FamilyMemberOutput {
  return { ...member, joinedAt: member.joinedAt.toISOString() };
}

async function getMemberOrThrow(familyId: string, userId: string, tx: Executor): Promise<FamilyMemberRecord> {
  const member = await findFamilyMember(familyId, userId, tx);
  if (!member) throw memberNotFound();
  return member;
}

/** The groups stop being shared; the tasks in them that others own go back to their owners. */
async function stopSharing(groups: readonly TaskGroupRow[], tx: Executor): Promise<void> {
  for (const group of groups) {
    await setGroupFamily(group.id, null, tx);
    const othersTasks = (await tasksInGroup(group.id, tx)).filter((task) => task.ownerId !== group.ownerId);
    await sendTasksHome(othersTasks, group.id, tx);
  }
}

/**
 * Takes a member out of the family: their shared groups stop being shared, their tasks in the groups others share
 * go back to their first active group. The last member leaving deletes the workspace.
 */
async function removeFromFamily(actor: Actor, familyId: string, member: { userId: string; role: FamilyRole }, tx: Executor) {
  const taskIds = await sharedTaskIds(familyId, tx);
  const members = userIds(await listFamilyMembers(familyId, tx));
  await announceTasksAround(tx, { actorId: actor.userId, taskIds }, async () => {
    await stopSharing(await listSharedGroups(familyId, tx, member.userId), tx);
    const theirTasks = await memberTasksInOthersGroups(familyId, member.userId, tx);
    if (theirTasks.length > 0) await moveTasksToGroup(theirTasks, await homeGroupId(member.userId, tx), tx);
    await deleteFamilyMember(familyId, member.userId, tx);
  });
  await publish(tx, {
    type: "family.member_removed",
    actorId: actor.userId,
    audience: members,
    data: { familyId, userId: member.userId, role: member.role, left: member.userId === actor.userId },
  });
  if ((await countFamilyMembers(familyId, tx)).members === 0) await deleteFamilyRow(familyId, tx);
}

// The workspace

export async function getFamily(actor: Actor, lang?: Locale): Promise<FamilyOutput> {
  const mine = await findMembership(actor.userId);
  if (!mine) throw noFamily();
  const { family, role } = mine;
  const language = groupLanguage(lang, actor.locale);
  const [members, groups] = [await listFamilyMembers(family.id), await listSharedGroups(family.id)];
  return {
    id: family.id,
    name: family.name,
    role,
    createdBy: family.createdBy,
    createdAt: family.createdAt.toISOString(),
    updatedAt: family.updatedAt.toISOString(),
    lang: language,
    members: members.map(toMemberOutput),
    groups: groups.map((group) => toGroupOutput(group, language, actor.userId)),
  };
}

/** Creates a family workspace with the actor as its first parent; 409 when they already belong to one. */
export async function createFamily(actor: Actor, input: CreateFamilyInput, lang?: Locale): Promise<FamilyOutput> {
  await db().transaction(async (tx) => {
    if (await findMembership(actor.userId, tx)) throw alreadyInFamily();
    const family = await insertFamily(actor.userId, input.name, tx);
    if (!family) throw alreadyInFamily();
    await publish(tx, {
      type: "family.member_added",
      actorId: actor.userId,
      audience: [actor.userId],
      data: { familyId: family.id, userId: actor.userId, role: "parent" },
    });
  });
  return getFamily(actor, lang);
}

/** Renames the workspace: parents. */
export async function updateFamily(actor: Actor, input: UpdateFamilyInput, lang?: Locale): Promise<FamilyOutput> {
  await changeFamily(actor, async ({ familyId, role, tx }) => {
    if (role !== "parent") throw parentsOnly("rename the family workspace");
    await updateFamilyName(familyId, input.name, tx);
  });
  return getFamily(actor, lang);
}

/** Deletes the workspace: parents. Its groups stop being shared (and others' tasks go home); nothing else is deleted. */
export async function deleteFamily(actor: Actor): Promise<void> {
  await changeFamily(actor, async ({ familyId, role, tx }) => {
    if (role !== "parent") throw parentsOnly("delete the family workspace");
    const members = await listFamilyMembers(familyId, tx);
    const taskIds = await sharedTaskIds(familyId, tx);
    await announceTasksAround(tx, { actorId: actor.userId, taskIds }, async () =>
      stopSharing(await listSharedGroups(familyId, tx), tx),
    );
    await publish(
      tx,
      ...members.map((member) => ({
        type: "family.member_removed" as const,
        actorId: actor.userId,
        audience: userIds(members),
        data: { familyId, userId: member.userId, role: member.role, familyDeleted: true },
      })),
    );
    await deleteFamilyRow(familyId, tx);
  });
}

// Members

/**
 * Invites someone to the family, by account id or by email, with a role: parents. Nobody joins a family without
 * saying yes: this makes an invitation addressed to them (it shows in their app if they have an account, and its
 * link works with an account or without one), answered the same whether the email has an account or not. A
 * current member of this family is a 409 (the parent sees them already); an unknown id a 400 naming `/userId`.
 */
export async function addFamilyMember(
  actor: Actor,
  input: AddFamilyMemberInput,
  origin: string,
): Promise<CreatedInvitationOutput> {
  const mine = await findMembership(actor.userId);
  if (!mine) throw noFamily();
  if (mine.role !== "parent") throw parentsOnly("invite members");
  const existing = await findUserId(input);
  if (existing && (await findFamilyRole(mine.family.id, existing))) {
    throw new AppError("conflict", "This person is already a member of your family workspace");
  }
  return inviteToJoin(actor, { familyId: mine.family.id, familyRole: input.role }, input, origin);
}

/** Changes a member's role: parents; the last parent cannot become a child. */
export async function changeFamilyMemberRole(
  actor: Actor,
  userId: string,
  input: ChangeFamilyRoleInput,
): Promise<FamilyMemberOutput> {
  return changeFamily(actor, async ({ familyId, role, tx }) => {
    if (role !== "parent") throw parentsOnly("change roles");
    const current = (await getMemberOrThrow(familyId, userId, tx)).role;
    if (current === "parent" && input.role === "child" && (await countFamilyMembers(familyId, tx)).parents === 1) {
      throw lastParent(userId === actor.userId ? "you" : "member");
    }
    if (current !== input.role) await updateFamilyMemberRole(familyId, userId, input.role, tx);
    return toMemberOutput(await getMemberOrThrow(familyId, userId, tx));
  });
}

/** Removes a member: parents (children cannot remove others). Removing yourself is leaving. */
export async function removeFamilyMember(actor: Actor, userId: string): Promise<void> {
  if (userId === actor.userId) return leaveFamily(actor);
  await changeFamily(actor, async ({ familyId, role, tx }) => {
    if (role !== "parent") throw new AppError("forbidden", "Children cannot remove others: only a parent can");
    const member = await getMemberOrThrow(familyId, userId, tx);
    await removeFromFamily(actor, familyId, member, tx);
  });
}

/**
 * Anyone may leave, except the last parent while other members remain (409). The last member leaving deletes
 * the workspace.
 */
export async function leaveFamily(actor: Actor): Promise<void> {
  await changeFamily(actor, async ({ familyId, role, tx }) => {
    const { members, parents } = await countFamilyMembers(familyId, tx);
    if (role === "parent" && parents === 1 && members > 1) throw lastParent("you");
    await removeFromFamily(actor, familyId, { userId: actor.userId, role }, tx);
  });
}

// Shared groups

/** Shares one of the actor's own task groups with their family: any member. Sharing it again changes nothing. */
export async function shareGroup(actor: Actor, groupId: string, lang?: Locale): Promise<GroupOutput> {
  const group = await changeFamily(actor, async ({ familyId, tx }) => {
    const own = await findOwnGroup(actor.userId, groupId, tx);
    if (!own) throw new AppError("not_found", "No such group of yours (only your own groups can be shared)");
    if (own.familyId === familyId) return own;
    const taskIds = (await tasksInGroup(groupId, tx)).map((task) => task.id);
    // The family now sees the group's tasks: they hear them (a screen adds a task it did not have).
    await announceTasksAround(tx, { actorId: actor.userId, taskIds }, async () => {
      if (own.familyId) await stopSharing([own], tx);
      await setGroupFamily(groupId, familyId, tx);
    });
    return (await findOwnGroup(actor.userId, groupId, tx))!;
  });
  return toGroupOutput(group, groupLanguage(lang, actor.locale), actor.userId);
}

/**
 * Stops sharing a group with the family: its owner, or a parent (a child who does not own it gets 403). The tasks
 * in it that others own go back to their owners' first active group.
 */
export async function unshareGroup(actor: Actor, groupId: string): Promise<void> {
  await changeFamily(actor, async ({ role, tx }) => {
    const group = await findFamilyGroup(actor.userId, groupId, tx);
    if (!group) throw new AppError("not_found", "No such group shared with your family workspace");
    if (group.ownerId !== actor.userId && role !== "parent") {
      throw new AppError("forbidden", "Only the group's owner or a parent can stop sharing it");
    }
    const taskIds = (await tasksInGroup(groupId, tx)).map((task) => task.id);
    await announceTasksAround(tx, { actorId: actor.userId, taskIds }, () => stopSharing([group], tx));
  });
}
