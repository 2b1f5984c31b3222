import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { findVisibleGroup } from "../groups/repo";
import { groupLanguage, groupName } from "../groups/names";
import type { Locale } from "../i18n/locales";
import { addDays, localDateOf } from "../local-dates";
import { findMemberProject } from "../projects/repo";
import { fromZonedWallTime, zonedWallTime } from "../tasks/recurrence";
import { listSubtasks } from "../tasks/repo";
import { createTasksWithSubtasks, listVisibleTasks } from "../tasks/service";
import { BUILT_IN_TEMPLATES, findBuiltInTemplate, type BuiltInTemplate } from "./defaults";
import {
  countOwnTemplates,
  deleteOwnTemplate,
  findOwnTemplate,
  insertTemplate,
  listOwnTemplates,
  updateOwnTemplate,
  type TaskTemplateRow,
  type TemplateTask,
} from "./repo";
import {
  MAX_DUE_DAYS,
  MAX_TEMPLATE_SUBTASKS,
  MAX_TEMPLATE_TASKS,
  MAX_TEMPLATES,
  type AppliedTemplateOutput,
  type ApplyTemplateInput,
  type CreateTemplateInput,
  type FromSourceInput,
  type TemplateListOutput,
  type TemplateOutput,
  type UpdateTemplateInput,
} from "./schema";

/*
 * Templates: task sets with subtasks and due dates relative to the day they are applied. Three built-in ones
 * (lib/templates/defaults.ts) everyone sees in their language and nobody may change (403); a user's own are
 * private (anyone else gets 404). Applying one creates all its tasks through the tasks service in one transaction.
 */

const notFound = () => new AppError("not_found", "No such template");
const readOnly = () => new AppError("forbidden", "The built-in templates are read-only: save a copy of your own to change it");

function builtInOutput(template: BuiltInTemplate, lang: Locale): TemplateOutput {
  return {
    id: template.id,
    builtIn: true,
    key: template.key,
    lang,
    name: groupName(template.name, lang),
    description: groupName(template.description, lang),
    tasks: template.tasks.map((task) => ({
      title: groupName(task.title, lang),
      description: "",
      priority: task.priority,
      dueAfter: task.dueAfter,
      subtasks: task.subtasks.map((subtask) => groupName(subtask, lang)),
    })),
    createdAt: null,
    updatedAt: null,
  };
}

function ownOutput(row: TaskTemplateRow, lang: Locale): TemplateOutput {
  return {
    id: row.id,
    builtIn: false,
    key: null,
    lang,
    name: row.name,
    description: row.description,
    tasks: row.tasks,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A template the actor may use: a built-in one or their own; 404 otherwise. */
async function templateFor(actor: Actor, templateId: string, lang: Locale): Promise<TemplateOutput> {
  const builtIn = findBuiltInTemplate(templateId);
  if (builtIn) return builtInOutput(builtIn, lang);
  const own = await findOwnTemplate(actor.userId, templateId);
  if (!own) throw notFound();
  return ownOutput(own, lang);
}

export async function listTemplates(actor: Actor, requested?: Locale): Promise<TemplateListOutput> {
  const lang = groupLanguage(requested, actor.locale);
  const own = await listOwnTemplates(actor.userId);
  return {
    lang,
    items: [...BUILT_IN_TEMPLATES.map((template) => builtInOutput(template, lang)), ...own.map((row) => ownOutput(row, lang))],
  };
}

export async function getTemplate(actor: Actor, templateId: string, requested?: Locale): Promise<TemplateOutput> {
  return templateFor(actor, templateId, groupLanguage(requested, actor.locale));
}

async function saveTemplate(
  actor: Actor,
  input: { name: string; description: string; tasks: TemplateTask[] },
): Promise<TemplateOutput> {
  if ((await countOwnTemplates(actor.userId)) >= MAX_TEMPLATES) {
    throw new AppError("conflict", `You have ${MAX_TEMPLATES} templates, the most there may be: delete some first`);
  }
  const row = await insertTemplate({ ownerId: actor.userId, ...input });
  return ownOutput(row, groupLanguage(undefined, actor.locale));
}

export function createTemplate(actor: Actor, input: CreateTemplateInput): Promise<TemplateOutput> {
  return saveTemplate(actor, input);
}

export async function updateTemplate(actor: Actor, templateId: string, input: UpdateTemplateInput): Promise<TemplateOutput> {
  if (findBuiltInTemplate(templateId)) throw readOnly();
  const row = await updateOwnTemplate(actor.userId, templateId, {
    name: input.name,
    description: input.description,
    tasks: input.tasks,
    updatedAt: nowDate(),
  });
  if (!row) throw notFound();
  return ownOutput(row, groupLanguage(undefined, actor.locale));
}

export async function deleteTemplate(actor: Actor, templateId: string): Promise<void> {
  if (findBuiltInTemplate(templateId)) throw readOnly();
  if (!(await deleteOwnTemplate(actor.userId, templateId))) throw notFound();
}

// Saving a group or a project as a template

const OPEN_STATUSES = ["todo", "in_progress"] as const;

/**
 * The open tasks the actor sees in a group or project (board order), with their subtasks, as template tasks: due
 * dates become offsets from the local date of the earliest one, at the same wall-clock time, in the actor's zone.
 */
async function copyOpenTasks(actor: Actor, filter: { groupId?: string; projectId?: string }): Promise<TemplateTask[]> {
  const found = await listVisibleTasks(actor, { ...filter, statuses: OPEN_STATUSES }, MAX_TEMPLATE_TASKS + 1);
  if (found.length === 0) throw new AppError("conflict", "There are no open tasks to copy");
  if (found.length > MAX_TEMPLATE_TASKS)
    throw new AppError("conflict", `A template holds at most ${MAX_TEMPLATE_TASKS} tasks: there are more open ones`);
  const dues = found.flatMap((task) => (task.dueAt ? [new Date(task.dueAt)] : []));
  const earliest = dues.length ? localDateOf(new Date(Math.min(...dues.map(Number))), actor.timeZone) : null;
  const copied: TemplateTask[] = [];
  for (const task of found) {
    const subtasks = (await listSubtasks(task.id)).slice(0, MAX_TEMPLATE_SUBTASKS).map((subtask) => subtask.title);
    copied.push({
      title: task.title,
      description: task.description.slice(0, 5000),
      priority: task.priority,
      dueAfter: task.dueAt && earliest ? offsetOf(new Date(task.dueAt), earliest, actor.timeZone) : null,
      subtasks,
    });
  }
  return copied;
}

function offsetOf(dueAt: Date, base: string, timeZone: string): TemplateTask["dueAfter"] {
  const wall = zonedWallTime(dueAt, timeZone);
  const [year, month, day] = base.split("-").map(Number) as [number, number, number];
  const days = Math.round((Date.UTC(wall.year, wall.month - 1, wall.day) - Date.UTC(year, month - 1, day)) / 86_400_000);
  return { days: Math.min(days, MAX_DUE_DAYS), hours: wall.hour, minutes: wall.minute };
}

export async function templateFromGroup(actor: Actor, groupId: string, input: FromSourceInput): Promise<TemplateOutput> {
  const group = await findVisibleGroup(actor.userId, groupId);
  if (!group) throw new AppError("not_found", "No such task group");
  const tasksOf = await copyOpenTasks(actor, { groupId });
  const name = input.name ?? groupName(group.names, groupLanguage(undefined, actor.locale));
  return saveTemplate(actor, { name, description: input.description ?? "", tasks: tasksOf });
}

export async function templateFromProject(actor: Actor, projectId: string, input: FromSourceInput): Promise<TemplateOutput> {
  const project = await findMemberProject(actor.userId, projectId);
  if (!project) throw new AppError("not_found", "No such project");
  const tasksOf = await copyOpenTasks(actor, { projectId });
  return saveTemplate(actor, { name: input.name ?? project.name, description: input.description ?? "", tasks: tasksOf });
}

// Applying

/**
 * Creates the template's tasks with their subtasks, all or none, through the tasks service (which checks the group
 * and project for the actor, publishes `task.created` and invalidates the lists). Due dates: `dueAfter.days` after
 * `startDate` (default today in the actor's zone) at that wall-clock time in the actor's time zone.
 */
export async function applyTemplate(
  actor: Actor,
  templateId: string,
  input: ApplyTemplateInput,
  requested?: Locale,
): Promise<AppliedTemplateOutput> {
  const template = await templateFor(actor, templateId, groupLanguage(requested, actor.locale));
  const startDate = input.startDate ?? localDateOf(nowDate(), actor.timeZone);
  const items = template.tasks.map((task) => ({
    task: {
      title: task.title,
      description: task.description,
      priority: task.priority,
      dueAt: task.dueAfter ? dueAtOf(startDate, task.dueAfter, actor.timeZone).toISOString() : null,
      groupId: input.groupId,
      projectId: input.projectId,
    },
    subtasks: task.subtasks,
  }));
  const created = await createTasksWithSubtasks(actor, items);
  return { templateId, startDate, timeZone: actor.timeZone, tasks: created };
}

function dueAtOf(startDate: string, dueAfter: NonNullable<TemplateTask["dueAfter"]>, timeZone: string): Date {
  const [year, month, day] = addDays(startDate, dueAfter.days).split("-").map(Number) as [number, number, number];
  return fromZonedWallTime(
    { year, month, day, hour: dueAfter.hours, minute: dueAfter.minutes, second: 0, millisecond: 0 },
    timeZone,
  );
}
