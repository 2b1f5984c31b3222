import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import type { TaskGroupRow } from "../db/schema/tasks";
import { LOCALES, type Locale } from "../i18n/locales";
import { invalidateTaskLists } from "../tasks/list-cache";
import { MAX_GROUPS } from "./defaults";
import { groupLanguage, groupName } from "./names";
import {
  deleteOwnGroup,
  findOwnGroup,
  insertOwnGroup,
  listOwnGroups,
  reorderOwnGroups,
  updateGroupSettings,
  updateOwnGroup,
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

export function toGroupOutput(group: TaskGroupRow, lang: Locale): GroupOutput {
  return {
    id: group.id,
    key: group.key,
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

async function getOwnGroupOrThrow(actor: Actor, groupId: string): Promise<TaskGroupRow> {
  const group = await findOwnGroup(actor.userId, groupId);
  if (!group) throw groupNotFound();
  return group;
}

export async function listGroups(actor: Actor, query: ListGroupsQuery): Promise<GroupListOutput> {
  const lang = groupLanguage(query.lang, actor.locale);
  const groups = await listOwnGroups(actor.userId, query.includeArchived ?? false);
  return { lang, items: groups.map((group) => toGroupOutput(group, lang)) };
}

export async function getGroup(actor: Actor, groupId: string, lang?: Locale): Promise<GroupOutput> {
  return toGroupOutput(await getOwnGroupOrThrow(actor, groupId), groupLanguage(lang, actor.locale));
}

export async function createGroup(actor: Actor, input: CreateGroupInput, lang?: Locale): Promise<GroupOutput> {
  const group = await insertOwnGroup(actor.userId, { names: input.names, settings: input.settings }, MAX_GROUPS);
  if (!group) {
    throw new AppError("conflict", `You already have ${MAX_GROUPS} groups (archived ones count), the most one user may hold`);
  }
  return toGroupOutput(group, groupLanguage(lang, actor.locale));
}

/** Renames per language (null removes a language, never the last one), archives or unarchives. */
export async function updateGroup(actor: Actor, groupId: string, input: UpdateGroupInput, lang?: Locale): Promise<GroupOutput> {
  const names = input.names ?? {};
  const group = await updateOwnGroup(actor.userId, groupId, {
    setNames: Object.fromEntries(Object.entries(names).filter(([, name]) => typeof name === "string")),
    removeNames: LOCALES.filter((locale) => names[locale] === null),
    archived: input.archived,
  });
  if (!group) {
    await getOwnGroupOrThrow(actor, groupId);
    throw invalidField("body", "/names", "must keep the group's name in at least one language");
  }
  return toGroupOutput(group, groupLanguage(lang, actor.locale));
}

/** Sets the order of all the user's groups; `ids` must list each of them (archived too) exactly once. */
export async function reorderGroups(actor: Actor, input: ReorderGroupsInput, lang?: Locale): Promise<GroupListOutput> {
  const groups = await reorderOwnGroups(actor.userId, input.ids);
  if (!groups) throw invalidField("body", "/ids", "must list every one of your groups (archived ones too) exactly once");
  const language = groupLanguage(lang, actor.locale);
  return { lang: language, items: groups.map((group) => toGroupOutput(group, language)) };
}

/**
 * Deletes one of the user's groups. A group that holds tasks needs `moveTo` (another of the user's groups,
 * where its tasks go) or `deleteTasks=true`; without either it is a 409 that says how many tasks it holds.
 * Everyone who sees the moved or deleted tasks gets fresh task lists.
 */
export async function deleteGroup(actor: Actor, groupId: string, query: DeleteGroupQuery): Promise<void> {
  if (query.moveTo === groupId) throw invalidField("query", "/moveTo", "must be another group than the one deleted");
  const result = await deleteOwnGroup(actor.userId, groupId, query);
  switch (result.outcome) {
    case "not_found":
      throw groupNotFound();
    case "target_not_found":
      throw new AppError("not_found", "moveTo: no group of yours has this id");
    case "has_tasks": {
      const tasks = result.taskCount === 1 ? "1 task" : `${result.taskCount} tasks`;
      throw new AppError(
        "conflict",
        `This group holds ${tasks}: pass moveTo=<another of your group ids> to move them there, or deleteTasks=true to delete them`,
      );
    }
    case "deleted":
      if (result.affectedUserIds.length > 0) await invalidateTaskLists(result.affectedUserIds);
  }
}

function toScheduleOutput(group: TaskGroupRow): GroupScheduleOutput {
  return { groupId: group.id, timeZones: group.settings.timeZones, locations: group.settings.locations };
}

export async function getGroupSchedule(actor: Actor, groupId: string): Promise<GroupScheduleOutput> {
  return toScheduleOutput(await getOwnGroupOrThrow(actor, groupId));
}

/** Replaces the group's time zones and locations. */
export async function replaceGroupSchedule(actor: Actor, groupId: string, input: GroupScheduleInput): Promise<GroupScheduleOutput> {
  const group = await updateGroupSettings(actor.userId, groupId, input);
  if (!group) throw groupNotFound();
  return toScheduleOutput(group);
}
