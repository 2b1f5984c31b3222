import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { listGroups } from "../groups/service";
import { isLocale } from "../i18n/locales";
import { isModuleEnabled } from "../modules/registry";
import { listProjects } from "../projects/service";
import { parseQuickAdd, type QuickAddLists } from "./parse";
import type { ParseQuickAddInput, QuickAddOutput } from "./schema";

/**
 * The groups and projects the actor may put a new task in, by every name they have: their own groups and those
 * shared with their family (while the family module is on), and projects where they are more than a viewer.
 * Nobody else's name can ever resolve.
 */
export async function quickAddLists(actor: Actor): Promise<QuickAddLists> {
  const { items: groups } = await listGroups(actor, { includeArchived: false });
  const family = isModuleEnabled("family");
  const projects = isModuleEnabled("projects") ? (await listProjects(actor, false)).items : [];
  return {
    groups: groups
      .filter((group) => group.own || family)
      .map((group) => ({ id: group.id, names: Object.values(group.names).filter((name) => name !== undefined) })),
    projects: projects.filter((project) => project.role !== "viewer").map((project) => ({ id: project.id, name: project.name })),
  };
}

/** What a quick-add line means for the actor, in their time zone, with their groups and projects. */
export async function parseQuickAddFor(actor: Actor, input: ParseQuickAddInput): Promise<QuickAddOutput> {
  const locale = input.locale ?? (isLocale(actor.locale) ? actor.locale : "en");
  return parseQuickAdd(input.text, {
    locale,
    now: nowDate(),
    timeZone: actor.timeZone,
    lists: await quickAddLists(actor),
    literal: input.literal,
  });
}
