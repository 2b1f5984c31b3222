import { z } from "@hono/zod-openapi";

/** The longest one entry may be: a week (a timer left running longer is stopped by hand and then edited). */
export const MAX_ENTRY_SECONDS = 7 * 24 * 3600;
/** The longest date range of a list, a report or an export. */
export const MAX_RANGE_DAYS = 366;
export const NOTE_MAX = 1000;

const dateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z" });
const localDate = z.iso.date("must be a date such as 2026-12-01");
const note = z.string().trim().max(NOTE_MAX, `must be at most ${NOTE_MAX} characters`);
const durationSeconds = z
  .number({ message: "must be a whole number of seconds" })
  .int("must be a whole number of seconds")
  .min(1, "must be at least 1")
  .max(MAX_ENTRY_SECONDS, `must be at most ${MAX_ENTRY_SECONDS} (7 days)`);

export const taskIdParams = z.object({ id: z.uuid("must be a task id") });
export const entryIdParams = z.object({ id: z.uuid("must be a time entry id") });

export const startTimerInput = z
  .strictObject({ note: note.optional().openapi({ description: `At most ${NOTE_MAX} characters` }) })
  .openapi("StartTimerInput");
export type StartTimerInput = z.infer<typeof startTimerInput>;

export const createEntryInput = z
  .strictObject({
    taskId: z.uuid("must be a task id"),
    startedAt: dateTime,
    endedAt: dateTime.optional().openapi({ description: "After `startedAt`; give this or `durationSeconds`" }),
    durationSeconds: durationSeconds
      .optional()
      .openapi({ description: "Instead of `endedAt`: the entry ends this long after it started" }),
    note: note.optional(),
  })
  .superRefine((input, context) => {
    if ((input.endedAt === undefined) === (input.durationSeconds === undefined)) {
      context.addIssue({ code: "custom", message: "give either endedAt or durationSeconds (exactly one)", path: ["endedAt"] });
    }
  })
  .openapi("CreateTimeEntryInput");
export type CreateEntryInput = z.infer<typeof createEntryInput>;

export const updateEntryInput = z
  .strictObject({
    startedAt: dateTime.optional(),
    endedAt: dateTime.optional().openapi({ description: "After `startedAt`; setting it on the running timer stops it" }),
    note: note.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of startedAt, endedAt, note",
    path: ["startedAt"],
  })
  .openapi("UpdateTimeEntryInput", { description: "The fields given change; the others stay" });
export type UpdateEntryInput = z.infer<typeof updateEntryInput>;

const range = {
  from: localDate
    .optional()
    .openapi({ description: "First local date (in your time zone) of the range; default: 6 days before `to`" }),
  to: localDate.optional().openapi({
    description: `Last local date of the range, included (default: today); at most ${MAX_RANGE_DAYS} days after \`from\``,
  }),
};

export const listEntriesQuery = z
  .strictObject({ ...range, taskId: z.uuid("must be a task id").optional().openapi({ description: "Only this task's entries" }) })
  .openapi("ListTimeEntriesQuery");
export type ListEntriesQuery = z.infer<typeof listEntriesQuery>;

export const REPORT_GROUPINGS = ["task", "user", "day"] as const;
export const reportQuery = z
  .strictObject({
    ...range,
    by: z
      .enum(REPORT_GROUPINGS, { message: `must be one of ${REPORT_GROUPINGS.join(", ")}` })
      .default("task")
      .openapi({ description: "Rows per task (default), per person or per local day" }),
  })
  .openapi("TimeReportQuery");
export type ReportQuery = z.infer<typeof reportQuery>;

export const exportQuery = z.strictObject(range).openapi("TimeExportQuery");
export type ExportQuery = z.infer<typeof exportQuery>;

export const timeEntryOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid(),
    taskTitle: z.string(),
    userId: z.uuid(),
    startedAt: z.iso.datetime(),
    endedAt: z.iso.datetime().nullable().openapi({ description: "null while the timer runs" }),
    running: z.boolean(),
    durationSeconds: z.number().int().openapi({ description: "Whole seconds; for the running timer, so far" }),
    note: z.string(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("TimeEntry");
export type TimeEntryOutput = z.infer<typeof timeEntryOutput>;

export const timerOutput = z
  .object({ running: timeEntryOutput.nullable().openapi({ description: "Your running timer, or null" }) })
  .openapi("Timer");
export type TimerOutput = z.infer<typeof timerOutput>;

export const startedTimerOutput = z
  .object({
    running: timeEntryOutput,
    stopped: timeEntryOutput.nullable().openapi({ description: "The timer this start stopped (on another task), or null" }),
  })
  .openapi("StartedTimer");
export type StartedTimerOutput = z.infer<typeof startedTimerOutput>;

export const entryListOutput = z.object({ items: z.array(timeEntryOutput) }).openapi("TimeEntryList");
export type EntryListOutput = z.infer<typeof entryListOutput>;

export const taskTimeOutput = z
  .object({
    taskId: z.uuid(),
    totalSeconds: z.number().int().openapi({ description: "Everyone's time on the task, running timers so far included" }),
    mineSeconds: z.number().int().openapi({ description: "Your part of it" }),
    running: timeEntryOutput.nullable().openapi({ description: "Your running timer if it is on this task" }),
  })
  .openapi("TaskTime");
export type TaskTimeOutput = z.infer<typeof taskTimeOutput>;

export const reportRowOutput = z
  .object({
    key: z.string().openapi({ description: "The task's id, the person's id, or the local date" }),
    label: z.string().openapi({ description: "The task's title, the person's name, or the local date" }),
    seconds: z.number().int(),
    entries: z.number().int().openapi({ description: "Entries that count towards the row" }),
  })
  .openapi("TimeReportRow");

export const reportOutput = z
  .object({
    from: z.iso.date(),
    to: z.iso.date(),
    timeZone: z.string(),
    by: z.enum(REPORT_GROUPINGS),
    rows: z.array(reportRowOutput),
    totalSeconds: z.number().int(),
  })
  .openapi("TimeReport");
export type ReportOutput = z.infer<typeof reportOutput>;
