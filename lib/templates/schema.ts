import { z } from "@hono/zod-openapi";
import { LOCALES } from "../i18n/locales";
import { taskOutput } from "../tasks/schema";
import { PRIORITIES } from "../tasks/vocabulary";

export const MAX_TEMPLATES = 100;
export const MAX_TEMPLATE_TASKS = 100;
export const MAX_TEMPLATE_SUBTASKS = 50;
export const MAX_DUE_DAYS = 365;
const LANGUAGES = LOCALES.join(", ");

const name = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const description = z.string().trim().max(2000, "must be at most 2000 characters");
const whole = (min: number, max: number) =>
  z
    .number({ message: `must be a whole number from ${min} to ${max}` })
    .int(`must be a whole number from ${min} to ${max}`)
    .min(min, `must be a whole number from ${min} to ${max}`)
    .max(max, `must be a whole number from ${min} to ${max}`);

export const dueAfterSchema = z
  .strictObject({
    days: whole(0, MAX_DUE_DAYS),
    hours: whole(0, 23),
    minutes: whole(0, 59).default(0),
  })
  .openapi("TemplateDueAfter", {
    description:
      "Due `days` calendar days after the apply date, at `hours`:`minutes` wall-clock time in the time zone of " +
      "whoever applies it (so 18:00 stays 18:00 across a daylight-saving change)",
  });

export const templateTaskInput = z
  .strictObject({
    title: z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters"),
    description: z.string().max(5000, "must be at most 5000 characters").default(""),
    priority: z.enum(PRIORITIES, { message: `must be one of ${PRIORITIES.join(", ")}` }).default("normal"),
    dueAfter: dueAfterSchema.nullable().default(null).openapi({ description: "null (the default): no due date" }),
    subtasks: z
      .array(z.string().trim().min(1, "must not be empty").max(500, "must be at most 500 characters"))
      .max(MAX_TEMPLATE_SUBTASKS, `at most ${MAX_TEMPLATE_SUBTASKS} subtasks`)
      .default([])
      .openapi({ description: "Subtask titles, in order" }),
  })
  .openapi("TemplateTaskInput");

const tasksInput = z
  .array(templateTaskInput)
  .min(1, "a template has at least one task")
  .max(MAX_TEMPLATE_TASKS, `at most ${MAX_TEMPLATE_TASKS} tasks`);

export const templateIdParams = z.object({ id: z.uuid("must be a template id") });
export const groupIdParams = z.object({ id: z.uuid("must be a group id") });
export const projectIdParams = z.object({ id: z.uuid("must be a project id") });

export const langQuery = z
  .strictObject({
    lang: z
      .enum(LOCALES, { message: `must be one of ${LANGUAGES}` })
      .optional()
      .openapi({
        description: `The language of the built-in templates' texts: one of ${LANGUAGES}. Default: your profile locale, then en.`,
      }),
  })
  .openapi("TemplateLangQuery");
export type LangQuery = z.infer<typeof langQuery>;

export const createTemplateInput = z
  .strictObject({ name, description: description.default(""), tasks: tasksInput })
  .openapi("CreateTemplateInput");
export type CreateTemplateInput = z.infer<typeof createTemplateInput>;

export const updateTemplateInput = z
  .strictObject({ name: name.optional(), description: description.optional(), tasks: tasksInput.optional() })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of name, description, tasks",
    path: ["name"],
  })
  .openapi("UpdateTemplateInput", { description: "The fields given change; `tasks` replaces the whole task set" });
export type UpdateTemplateInput = z.infer<typeof updateTemplateInput>;

export const fromSourceInput = z
  .strictObject({
    name: name.optional().openapi({ description: "Default: the group's or project's name" }),
    description: description.optional(),
  })
  .openapi("TemplateFromSourceInput");
export type FromSourceInput = z.infer<typeof fromSourceInput>;

export const applyTemplateInput = z
  .strictObject({
    groupId: z
      .uuid("must be a group id")
      .optional()
      .openapi({ description: "Your group or your family's; default: your first active group" }),
    projectId: z
      .uuid("must be a project id")
      .nullable()
      .optional()
      .openapi({ description: "A project you may add tasks to (not as viewer)" }),
    startDate: z.iso
      .date("must be a date such as 2026-12-01")
      .optional()
      .openapi({ description: "The apply date the due dates count from; default: today in your time zone" }),
  })
  .openapi("ApplyTemplateInput");
export type ApplyTemplateInput = z.infer<typeof applyTemplateInput>;

export const templateTaskOutput = z
  .object({
    title: z.string(),
    description: z.string(),
    priority: z.enum(PRIORITIES),
    dueAfter: z.object({ days: z.number().int(), hours: z.number().int(), minutes: z.number().int() }).nullable(),
    subtasks: z.array(z.string()),
  })
  .openapi("TemplateTask");

export const templateOutput = z
  .object({
    id: z.uuid(),
    builtIn: z.boolean().openapi({ description: "One of the three built-in templates: read-only, its texts in `lang`" }),
    key: z.string().nullable().openapi({ description: "A built-in template's stable key (`moving-house`...); null for yours" }),
    lang: z.enum(LOCALES).openapi({ description: "The language of a built-in template's texts (yours are as you wrote them)" }),
    name: z.string(),
    description: z.string(),
    tasks: z.array(templateTaskOutput),
    createdAt: z.iso.datetime().nullable().openapi({ description: "null for a built-in template" }),
    updatedAt: z.iso.datetime().nullable(),
  })
  .openapi("Template");
export type TemplateOutput = z.infer<typeof templateOutput>;

export const templateListOutput = z.object({ lang: z.enum(LOCALES), items: z.array(templateOutput) }).openapi("TemplateList");
export type TemplateListOutput = z.infer<typeof templateListOutput>;

export const appliedTemplateOutput = z
  .object({
    templateId: z.uuid(),
    startDate: z.iso.date(),
    timeZone: z.string(),
    tasks: z.array(taskOutput).openapi({ description: "The new tasks, in the template's order" }),
  })
  .openapi("AppliedTemplate");
export type AppliedTemplateOutput = z.infer<typeof appliedTemplateOutput>;
