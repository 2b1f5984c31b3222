import type { Precondition } from "../api/conditional";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { db, type Executor } from "../db/client";
import type { TaskGroupRow } from "../db/schema/tasks";
import { findMembership, listFamilyMembers } from "../family/repo";
import { LOCALES, type Locale } from "../i18n/locales";
import { purgeDeletedMedia } from "../media/purge";
import { announceTasksAround } from "../tasks/service";
import { MAX_GROUPS } from "./defaults";
import { groupLanguage, groupName } from "./names";
import {
  countOpenTasks,
  deleteGroupRow,
  deleteTasksById,
  findVisibleGroup,
  homeGroupId,
  insertOwnGroup,
  listVisibleGroups,
  lockGroup,
  moveTasksToGroup,
  reorderOwnGroups,
  updateGroupSettings,
  updateOwnGroup,
  type GroupTask,
  tasksInGroup,
} from "./repo";
import type {
  CreateGroupInput,
  DeleteGroupQuery,
  GroupListOutput,
  GroupOutput,
  GroupScheduleInput,
  GroupScheduleOutput,
  ListGroupsQuery,
  ReorderGroupsInput,
  UpdateGroupInput,
} from "./schema";

/** For the tasks module: a task's group must be one of its owner's, and new tasks go to the first active one. */
export { findOwnGroup, firstActiveGroupId } from "./repo";

/*
 * The rules. A user's own groups are theirs alone to rename, archive, reorder and schedule. A group they share with
 * their family workspace (lib/family) is seen by every member: it is listed in `GET /groups` (`own: false`), and
 * `GET /groups/{id}` and its schedule answer it; renaming, archiving and its schedule stay with its owner (403 for
 * the other members). Deleting a shared group: its owner or a parent; a child who does not own it gets 403.
 * Anyone else's group is a 404, as if it did not exist.
 */

/** `viewerId`: the user the answer is for (`own` says whether the group is theirs). */
export function toGroupOutput(group: TaskGroupRow, lang: Locale, viewerId: string): GroupOutput {
  return {
    id: group.id,
    key: group.key,
    ownerId: group.ownerId,
    own: group.ownerId === viewerId,
    familyId: group.familyId,
    name: groupName(group.names, lang),
    names: group.names,
    position: group.position,
    archived: group.archivedAt !== null,
    archivedAt: group.archivedAt?.toISOString() ?? null,
    settings: group.settings,
    createdAt: group.createdAt.toISOString(),
    updatedAt: group.updatedAt.toISOString(),
  };
}

const groupNotFound = () => new AppError("not_found", "Group not found");
const ownerOnly = (what: string) =>
  new AppError("forbidden", `Only the group's owner can ${what}: it is shared with your family`);

/** A group the actor sees: their own or one shared with their family; else 404. */
async function getVisibleGroupOrThrow(actor: Actor, groupId: string, database?: Executor): Promise<TaskGroupRow> {
  const group = await findVisibleGroup(actor.userId, groupId, database);
  if (!group) throw groupNotFound();
  return group;
}

/** After a change of the actor's own group found nothing to change: 404, 403 for a shared group of someone else. */
async function refuseNotOwn(actor: Actor, groupId: string, what: string): Promise<TaskGroupRow> {
  const group = await getVisibleGroupOrThrow(actor, groupId);
  if (group.ownerId !== actor.userId) throw ownerOnly(what);
  return group;
}

export async function listGroups(actor: Actor, query: ListGroupsQuery): Promise<GroupListOutput> {
  const lang = groupLanguage(query.lang, actor.locale);
  const groups = await listVisibleGroups(actor.userId, query.includeArchived ?? false);
  const items = groups.map((group) => toGroupOutput(group, lang, actor.userId));
  if (!query.counts) return { lang, items };
  const open = await countOpenTasks(groups.map((group) => group.id));
  return { lang, items: items.map((item) => ({ ...item, openTasks: open.get(item.id) ?? 0 })) };
}

export async function getGroup(actor: Actor, groupId: string, lang?: Locale): Promise<GroupOutput> {
  return toGroupOutput(await getVisibleGroupOrThrow(actor, groupId), groupLanguage(lang, actor.locale), actor.userId);
}

export async function createGroup(actor: Actor, input: CreateGroupInput, lang?: Locale): Promise<GroupOutput> {
  const group = await insertOwnGroup(actor.userId, { names: input.names, settings: input.settings }, MAX_GROUPS);
  if (!group) {
    throw new AppError("conflict", `You already have ${MAX_GROUPS} groups (archived ones count), the most one user may hold`);
  }
  return toGroupOutput(group, groupLanguage(lang, actor.locale), actor.userId);
}

/**
 * Renames per language (null removes a language, never the last one), archives or unarchives. `precondition` (an
 * `If-Match`, lib/api/conditional.ts) is asked with the group as it is once locked, in `lang` (its ETag depends on
 * the language of its name): a group changed since the client read it is left as it is (412).
 */
export async function updateGroup(
  actor: Actor,
  groupId: string,
  input: UpdateGroupInput,
  lang?: Locale,
  precondition?: Precondition,
): Promise<GroupOutput> {
  const names = input.names ?? {};
  const language = groupLanguage(lang, actor.locale);
  const group = await db().transaction(async (tx) => {
    // Not the actor's own group: nothing is locked or changed, and the refusal below says why.
    const current = await lockGroup(actor.userId, groupId, tx);
    if (!current) return null;
    await precondition?.(toGroupOutput(current, language, actor.userId));
    return updateOwnGroup(
      actor.userId,
      groupId,
      {
        setNames: Object.fromEntries(Object.entries(names).filter(([, name]) => typeof name === "string")),
        removeNames: LOCALES.filter((locale) => names[locale] === null),
        archived: input.archived,
      },
      tx,
    );
  });
  if (!group) {
    await refuseNotOwn(actor, groupId, "rename or archive it");
    throw invalidField("body", "/names", "must keep the group's name in at least one language");
  }
  return toGroupOutput(group, groupLanguage(lang, actor.locale), actor.userId);
}

/** Sets the order of all the user's groups; `ids` must list each of them (archived too) exactly once. */
export async function reorderGroups(actor: Actor, input: ReorderGroupsInput, lang?: Locale): Promise<GroupListOutput> {
  const groups = await reorderOwnGroups(actor.userId, input.ids);
  if (!groups) throw invalidField("body", "/ids", "must list every one of your groups (archived ones too) exactly once");
  const language = groupLanguage(lang, actor.locale);
  return { lang: language, items: groups.map((group) => toGroupOutput(group, language, actor.userId)) };
}

/**
 * Moves tasks back to their owners: each to its owner's first active group (else another group of theirs, else a
 * new one; never `leaving`, the group they are taken out of). For tasks left in a group their owner can no longer
 * use: nothing is lost silently.
 */
export async function sendTasksHome(moving: readonly GroupTask[], leaving: string, tx: Executor): Promise<void> {
  for (const ownerId of new Set(moving.map((task) => task.ownerId))) {
    const owned = moving.filter((task) => task.ownerId === ownerId).map((task) => task.id);
    await moveTasksToGroup(owned, await homeGroupId(ownerId, tx, leaving), tx);
  }
}

/** Who may use a group for their tasks: its owner, and the members of the family it is shared with. */
async function groupUsers(group: TaskGroupRow, tx: Executor): Promise<Set<string>> {
  const members = group.familyId ? await listFamilyMembers(group.familyId, tx) : [];
  return new Set([group.ownerId, ...members.map((member) => member.userId)]);
}

function hasTasks(taskCount: number): AppError {
  const tasks = taskCount === 1 ? "1 task" : `${taskCount} tasks`;
  return new AppError(
    "conflict",
    `This group holds ${tasks}: pass moveTo=<another of your group ids> to move them there, or deleteTasks=true to delete them`,
  );
}

/**
 * Deletes a group: one of the user's own, or (a parent) one shared with their family; a child gets 403 for a
 * shared group they do not own. A group that holds tasks needs `moveTo` (another group the user can use: their own
 * or one shared with their family) or `deleteTasks=true`; without either it is a 409 that says how many tasks it
 * holds. Nothing of anyone else is lost: `deleteTasks` deletes only the user's own tasks, and a task whose owner
 * could not use `moveTo` goes back to its owner's first active group instead (as do other people's tasks with
 * `deleteTasks`). Everyone who saw the moved or deleted tasks gets fresh task lists. `precondition` as for
 * `updateGroup`, in `query.lang`.
 */
export async function deleteGroup(
  actor: Actor,
  groupId: string,
  query: DeleteGroupQuery,
  precondition?: Precondition,
): Promise<void> {
  if (query.moveTo === groupId) throw invalidField("query", "/moveTo", "must be another group than the one deleted");
  const seen = await getVisibleGroupOrThrow(actor, groupId);
  await db().transaction(async (tx) => {
    // Locked, then checked again: the group may have stopped being shared meanwhile.
    const group = await lockGroup(seen.ownerId, groupId, tx);
    if (!group || !(await findVisibleGroup(actor.userId, groupId, tx))) throw groupNotFound();
    if (group.ownerId !== actor.userId && (await findMembership(actor.userId, tx))?.role !== "parent") {
      throw new AppError("forbidden", "Children cannot delete shared groups: ask a parent or the group's owner");
    }
    await precondition?.(toGroupOutput(group, groupLanguage(query.lang, actor.locale), actor.userId));
    const target = query.moveTo ? await findVisibleGroup(actor.userId, query.moveTo, tx) : null;
    if (query.moveTo && !target) throw new AppError("not_found", "moveTo: no group of yours has this id");
    const inGroup = await tasksInGroup(groupId, tx);
    if (inGroup.length > 0 && !target && !query.deleteTasks) throw hasTasks(inGroup.length);
    const taskIds = inGroup.map((task) => task.id);
    // Everyone who saw the tasks hears where they went (or that they are gone, or no longer theirs to see).
    await announceTasksAround(tx, { actorId: actor.userId, taskIds }, async () => {
      if (target) {
        const users = await groupUsers(target, tx);
        await moveTasksToGroup(
          inGroup.filter((task) => users.has(task.ownerId)).map((task) => task.id),
          target.id,
          tx,
        );
        await sendTasksHome(
          inGroup.filter((task) => !users.has(task.ownerId)),
          groupId,
          tx,
        );
      } else if (inGroup.length > 0) {
        await deleteTasksById(
          inGroup.filter((task) => task.ownerId === actor.userId).map((task) => task.id),
          tx,
        );
        await sendTasksHome(
          inGroup.filter((task) => task.ownerId !== actor.userId),
          groupId,
          tx,
        );
      }
      await deleteGroupRow(groupId, tx);
    });
  });
  // Deleted tasks take their media with them: remove the files too.
  if (query.deleteTasks) await purgeDeletedMedia();
}

function toScheduleOutput(group: TaskGroupRow): GroupScheduleOutput {
  return { groupId: group.id, timeZones: group.settings.timeZones, locations: group.settings.locations };
}

/** The owner's, and every member's of the family it is shared with. */
export async function getGroupSchedule(actor: Actor, groupId: string): Promise<GroupScheduleOutput> {
  return toScheduleOutput(await getVisibleGroupOrThrow(actor, groupId));
}

/** Replaces the group's time zones and locations: its owner only. */
export async function replaceGroupSchedule(
  actor: Actor,
  groupId: string,
  input: GroupScheduleInput,
): Promise<GroupScheduleOutput> {
  const group = await updateGroupSettings(actor.userId, groupId, input);
  if (!group) {
    await refuseNotOwn(actor, groupId, "change its schedule");
    throw groupNotFound();
  }
  return toScheduleOutput(group);
}
