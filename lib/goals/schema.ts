import { z } from "@hono/zod-openapi";
import { answeredBySchema } from "../ai/schema";
import { TASK_STATUSES } from "../tasks/vocabulary";
import { GOAL_DESCRIPTION_MAX, GOAL_STATUSES, GOAL_TITLE_MAX, REPORT_NOTE_MAX } from "./vocabulary";

const localDate = z.iso.date("must be a date such as 2026-12-01");

const statusSchema = z.enum(GOAL_STATUSES, { message: `must be one of ${GOAL_STATUSES.join(", ")}` }).openapi({
  description: "`active` (the default), `achieved` (sets `achievedAt`; any other status clears it), `paused`, `abandoned`",
});
const title = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(GOAL_TITLE_MAX, `must be at most ${GOAL_TITLE_MAX} characters`)
  .openapi({ description: `1-${GOAL_TITLE_MAX} characters (trimmed)` });
const description = z
  .string()
  .trim()
  .max(GOAL_DESCRIPTION_MAX, `must be at most ${GOAL_DESCRIPTION_MAX} characters`)
  .openapi({
    description:
      `At most ${GOAL_DESCRIPTION_MAX} characters (trimmed); empty by default. The built-in study planner makes one ` +
      "topic of each line (or, for a single paragraph, of each sentence).",
  });
const percent = z
  .number({ message: "must be a whole number from 0 to 100" })
  .int("must be a whole number from 0 to 100")
  .min(0, "must be a whole number from 0 to 100")
  .max(100, "must be a whole number from 0 to 100");
const targetDate = localDate.nullable().openapi({ description: "The local date the goal should be reached by, or null" });

export const goalIdParams = z.object({ id: z.uuid("must be a goal id") });
export const goalTaskParams = z.object({ id: z.uuid("must be a goal id"), taskId: z.uuid("must be a task id") });
export const reportParams = z.object({ id: z.uuid("must be a goal id"), reportId: z.uuid("must be a report id") });

export const listGoalsQuery = z
  .strictObject({ status: statusSchema.optional().openapi({ description: "Only goals with this status" }) })
  .openapi("ListGoalsQuery");
export type ListGoalsQuery = z.infer<typeof listGoalsQuery>;

export const createGoalInput = z
  .strictObject({
    title,
    description: description.optional(),
    status: statusSchema.optional(),
    progress: percent.optional().openapi({ description: "0-100, set by hand; default 0" }),
    targetDate: targetDate.optional(),
  })
  .openapi("CreateGoalInput");
export type CreateGoalInput = z.infer<typeof createGoalInput>;

export const updateGoalInput = z
  .strictObject({
    title: title.optional(),
    description: description.optional(),
    status: statusSchema.optional(),
    progress: percent.optional().openapi({ description: "Only while no task is linked (409 otherwise)" }),
    targetDate: targetDate.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of title, description, status, progress, targetDate",
    path: ["title"],
  })
  .openapi("UpdateGoalInput", { description: "The fields given change; the others stay" });
export type UpdateGoalInput = z.infer<typeof updateGoalInput>;

export const linkedTaskOutput = z
  .object({
    id: z.uuid(),
    title: z.string(),
    status: z.enum(TASK_STATUSES),
    dueAt: z.iso.datetime().nullable(),
  })
  .openapi("GoalLinkedTask");
export type LinkedTaskOutput = z.infer<typeof linkedTaskOutput>;

export const goalOutput = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    status: statusSchema,
    progress: z
      .number()
      .int()
      .min(0)
      .max(100)
      .openapi({
        description:
          "0-100. `progressMode: manual`: the value set by hand, or by the newest progress report (adding one " +
          "dated on or after the others sets it). `progressMode: tasks`: the share of the linked tasks " +
          "that are done, cancelled ones left out (rounded down; 0 when every linked task is cancelled).",
      }),
    progressMode: z.enum(["manual", "tasks"]).openapi({
      description: "`tasks` while at least one task you can see is linked to the goal, else `manual`",
    }),
    targetDate: localDate.nullable(),
    achievedAt: z.iso.datetime().nullable(),
    linkedTasks: z.array(linkedTaskOutput).openapi({
      description: "The linked tasks you can see, in the order they were linked (tasks no longer shared with you are left out)",
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Goal");
export type GoalOutput = z.infer<typeof goalOutput>;

export const goalListOutput = z
  .object({ items: z.array(goalOutput).openapi({ description: "Newest goal first" }) })
  .openapi("GoalList");
export type GoalListOutput = z.infer<typeof goalListOutput>;

// Progress reports

export const createReportInput = z
  .strictObject({
    date: localDate.openapi({ description: "The day the progress was measured: today or earlier, in your time zone" }),
    value: percent.openapi({ description: "The progress then, 0-100" }),
    note: z
      .string()
      .trim()
      .max(REPORT_NOTE_MAX, `must be at most ${REPORT_NOTE_MAX} characters`)
      .optional()
      .openapi({ description: `At most ${REPORT_NOTE_MAX} characters (trimmed); empty by default` }),
  })
  .openapi("CreateGoalReportInput");
export type CreateReportInput = z.infer<typeof createReportInput>;

export const reportOutput = z
  .object({
    id: z.uuid(),
    goalId: z.uuid(),
    date: localDate,
    value: z.number().int().min(0).max(100),
    note: z.string(),
    createdAt: z.iso.datetime(),
  })
  .openapi("GoalReport");
export type ReportOutput = z.infer<typeof reportOutput>;

export const reportListOutput = z
  .object({ items: z.array(reportOutput).openapi({ description: "By date, oldest first (same date: in the order written)" }) })
  .openapi("GoalReportList");
export type ReportListOutput = z.infer<typeof reportListOutput>;

// Study plans

export const STUDY_PLAN_ASSISTANTS = ["auto", "built-in"] as const;

export const generateStudyPlanInput = z
  .strictObject({
    assistant: z
      .enum(STUDY_PLAN_ASSISTANTS, { message: "must be auto or built-in" })
      .optional()
      .openapi({
        description:
          "`auto` (default): the configured AI endpoint if there is one, else the built-in planner; `built-in`: the " +
          "built-in planner even when an endpoint is configured (for instance after a 503)",
      }),
    weekdays: z
      .array(
        z
          .number({ message: "must be a number from 1 to 7" })
          .int()
          .min(1)
          .max(7, "must be a number from 1 (Monday) to 7 (Sunday)"),
      )
      .min(1, "must name at least one day")
      .max(7, "must name at most seven days")
      .refine((days) => new Set(days).size === days.length, "must not name a day twice")
      .optional()
      .openapi({
        description:
          "The days of the week sessions may fall on, ISO numbers: 1 Monday … 7 Sunday. Without it the planner prefers " +
          "Mondays, Wednesdays and Fridays, then every weekday, then every day",
        example: [2, 4, 6],
      }),
    holidayCountry: z
      .string()
      .regex(/^[A-Z]{2}$/, "must be an ISO 3166-1 country code such as CZ")
      .nullable()
      .optional()
      .openapi({
        description:
          "The country whose public holidays get no session (ISO 3166-1 alpha-2). Without it, the country of your time " +
          "zone where that is known (Europe/Prague: CZ); null: no holidays are skipped. A country without holiday data is a 400",
        example: "CZ",
      }),
  })
  .openapi("GenerateStudyPlanInput", { example: { assistant: "built-in", weekdays: [2, 4, 6], holidayCountry: "CZ" } });
export type GenerateStudyPlanInput = z.infer<typeof generateStudyPlanInput>;

export const applyStudyPlanInput = z
  .strictObject({
    replaceManualProgress: z
      .boolean({ message: "must be true or false" })
      .optional()
      .openapi({
        description:
          "true: apply even though the goal's progress was set by hand (above 0 % and no linked tasks); the plan's tasks " +
          "then measure it instead. Without it such a goal answers 409 `progress_set_by_hand`, so that the page can ask first",
      }),
  })
  .openapi("ApplyStudyPlanInput", { example: { replaceManualProgress: true } });
export type ApplyStudyPlanInput = z.infer<typeof applyStudyPlanInput>;

export const studySessionOutput = z
  .object({
    date: localDate.openapi({ description: "The local date of the session" }),
    title: z.string(),
    steps: z.array(z.string()).openapi({ description: "Concrete steps, in order (the subtasks of the session's task)" }),
  })
  .openapi("StudySession");
export type StudySessionOutput = z.infer<typeof studySessionOutput>;

export const studyPlanOutput = z
  .object({
    goalId: z.uuid(),
    version: z.number().int().openapi({ description: "1 for the first plan; each regeneration adds 1" }),
    answeredBy: answeredBySchema,
    fallbackReason: z.string().nullable().openapi({
      description:
        "Why the built-in planner wrote the plan although the AI endpoint answered (its answer was unusable); else null",
    }),
    adjustments: z.array(z.string()).openapi({
      description:
        "What was repaired in the AI endpoint's answer to keep it (a session dated outside the period or not of the " +
        "shape left out, steps or sessions beyond the limits left out); empty when nothing was",
      example: ["Session 4 (2026-12-31) was left out: it is outside 2026-11-27 to 2026-12-24"],
    }),
    timeZone: z.string().openapi({ description: "The time zone the dates are in (yours when the plan was made)" }),
    startDate: localDate.openapi({ description: "The first day the plan could use: the day it was made" }),
    endDate: localDate.openapi({ description: "The last day it could use: the target date, or 4 weeks on without one" }),
    weekdays: z
      .array(z.number().int())
      .nullable()
      .openapi({ description: "The days of the week it was asked to use (1 Monday … 7 Sunday); null: the planner chose" }),
    holidayCountry: z.string().nullable().openapi({
      description: "The country whose public holidays it skipped; null: none (unknown for your time zone, or asked)",
    }),
    skippedHolidays: z
      .array(z.object({ date: localDate, name: z.string() }).openapi("SkippedHoliday"))
      .openapi({ description: "The public holidays in the period, on which no session was put (names in your language)" }),
    sessions: z.array(studySessionOutput).openapi({ description: "By date" }),
    appliedAt: z.iso.datetime().nullable().openapi({ description: "When its sessions became tasks; null until then" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime().openapi({ description: "When this version was generated (or applied)" }),
  })
  .openapi("StudyPlan");
export type StudyPlanOutput = z.infer<typeof studyPlanOutput>;

export const appliedStudyPlanOutput = z
  .object({
    studyPlan: studyPlanOutput,
    goal: goalOutput.openapi({ description: "The goal with the new tasks among its linked tasks" }),
    taskIds: z.array(z.uuid()).openapi({ description: "The tasks made, one per session, in the plan's order" }),
  })
  .openapi("AppliedStudyPlan");
export type AppliedStudyPlanOutput = z.infer<typeof appliedStudyPlanOutput>;
