import { z } from "@hono/zod-openapi";
import { answeredBySchema } from "../ai/schema";
import {
  ACTIVITY_CATEGORIES,
  APP_MAX,
  BATCH_MAX,
  CLIENT_ID_MAX,
  DEFAULT_WINDOW_DAYS,
  RECORD_RANGE_MAX_HOURS,
} from "./vocabulary";

const dateTime = z.iso.datetime({ offset: true, message: "must be an ISO 8601 date-time such as 2026-12-01T09:00:00Z" });
const localDate = z.iso.date("must be a date such as 2026-12-01");
const seconds = z.number().int().min(0);

const category = z.enum(ACTIVITY_CATEGORIES, { error: `must be one of ${ACTIVITY_CATEGORIES.join(", ")}` }).openapi({
  description:
    "A fixed set, so that every client's time adds up the same way: map the platform's own categories onto it " +
    "(`other` when none fits). `communication` is messaging and calls, `reading` books and documents, `news` " +
    "news and magazines.",
});

// Reporting

export const reportedRecord = z
  .strictObject({
    id: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(CLIENT_ID_MAX, `must be at most ${CLIENT_ID_MAX} characters`)
      .openapi({
        description: "The client's own id for the record (a UUID, say): sending it again adds nothing",
        example: "7d1c7f0e-3b8a-4d4e-9a53-1f0c2f4b8e21",
      }),
    app: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(APP_MAX, `must be at most ${APP_MAX} characters`)
      .openapi({ description: "The app's name or package id, as the summaries should show it (trimmed)", example: "Instagram" }),
    category,
    seconds: z
      .number({ error: "must be a number of seconds" })
      .int("must be a whole number of seconds")
      .min(0, "must not be negative")
      .openapi({
        description: "Time spent in the app within the range: at most the range's length, rounded up to whole seconds",
        example: 1500,
      }),
    startedAt: dateTime,
    endedAt: dateTime.openapi({
      description: `Not before startedAt, at most ${RECORD_RANGE_MAX_HOURS} hours after it, not in the future`,
    }),
  })
  .openapi("ActivityRecordInput");
export type ReportedRecord = z.infer<typeof reportedRecord>;

export const reportRecordsInput = z
  .strictObject({
    records: z
      .array(reportedRecord, { error: "must be an array of records" })
      .min(1, "must hold at least one record")
      .max(BATCH_MAX, `must hold at most ${BATCH_MAX} records`),
  })
  .openapi("ActivityBatchInput");
export type ReportRecordsInput = z.infer<typeof reportRecordsInput>;

export const reportRecordsOutput = z
  .object({
    accepted: z.number().int().openapi({ description: "Records stored by this call" }),
    duplicates: z.number().int().openapi({ description: "Records skipped because their id was stored already" }),
    items: z
      .array(z.object({ id: z.string(), status: z.enum(["accepted", "duplicate"]) }))
      .openapi({ description: "Each record of the batch, in the batch's order" }),
  })
  .openapi("ActivityBatchResult");
export type ReportRecordsOutput = z.infer<typeof reportRecordsOutput>;

// Windows of local dates

const windowFields = {
  from: localDate
    .optional()
    .openapi({ description: `First local date (your time zone); by default ${DEFAULT_WINDOW_DAYS - 1} days before \`to\`` }),
  to: localDate.optional().openapi({ description: "Last local date, included; by default today" }),
};

export const summaryQuery = z.strictObject(windowFields);
export type WindowInput = z.infer<typeof summaryQuery>;

export const analysisInput = z.strictObject(windowFields).openapi("ActivityAnalysisInput");

export const dailyQuery = z.strictObject({
  date: localDate.optional().openapi({ description: "The local date (your time zone); by default today" }),
});

export const deleteRecordsQuery = z.strictObject({
  before: localDate
    .optional()
    .openapi({ description: "Delete the records that started before this local date (your time zone)" }),
  all: z
    .literal("true", { error: "must be true" })
    .optional()
    .openapi({ description: "`true` deletes every record you reported" }),
});
export type DeleteRecordsQuery = z.infer<typeof deleteRecordsQuery>;

export const deleteRecordsOutput = z.object({ deleted: z.number().int() }).openapi("ActivityDeleteResult");

// Summaries

const categoryTotal = z.object({ category, seconds });
const appTotal = z.object({
  app: z.string(),
  category: category.openapi({ description: "The category most of the app's time was reported under" }),
  seconds,
});

export const summaryOutput = z
  .object({
    from: localDate,
    to: localDate,
    timeZone: z.string().openapi({ description: "Your time zone, in which the dates are read" }),
    days: z.number().int(),
    totalSeconds: seconds,
    dailyAverageSeconds: seconds.openapi({
      description: "totalSeconds divided by `days` (every day of the window counts), rounded",
    }),
    perDay: z.array(z.object({ date: localDate, seconds })),
    categories: z.array(categoryTotal).openapi({ description: "Categories with any time, most first" }),
    apps: z.array(appTotal).openapi({ description: "Apps with any time, most first" }),
    topApps: z.array(appTotal).openapi({ description: "The first five of `apps`" }),
  })
  .openapi("ActivitySummary");
export type SummaryOutput = z.infer<typeof summaryOutput>;

export const dailyOutput = z
  .object({
    date: localDate,
    timeZone: z.string(),
    totalSeconds: seconds,
    hours: z
      .array(
        z.object({
          startsAt: z.string().openapi({ description: "ISO instant the hour starts" }),
          endsAt: z.string(),
          hour: z.number().int().openapi({ description: "The wall-clock hour (0-23) it starts at" }),
          seconds,
        }),
      )
      .openapi({ description: "Every hour of the day: 24, or 23 and 25 on the days the clocks change" }),
    categories: z.array(categoryTotal),
    apps: z.array(appTotal),
  })
  .openapi("ActivityDay");
export type DailyOutput = z.infer<typeof dailyOutput>;

// Analysis

const taskRef = z.object({ id: z.uuid(), title: z.string(), dueAt: z.string() });

export const activityFacts = z
  .object({
    days: z.number().int(),
    totalSeconds: seconds,
    previousTotalSeconds: seconds,
    changePercent: z.number().int().nullable().openapi({ description: "Against the period before; null when it had no time" }),
    dailyAverageSeconds: seconds,
    categories: z.array(z.object({ category, seconds, previousSeconds: seconds })),
    topApps: z.array(appTotal),
    lateNightSeconds: seconds.openapi({ description: "Time between 23:00 and 05:00 on your wall clock" }),
    lateNights: z.number().int().openapi({ description: "Nights with any late-night time (23:00 to 05:00 is one night)" }),
    peakHour: z.number().int().nullable().openapi({ description: "The wall-clock hour with the most time; null without any" }),
    busiestDay: z.object({ date: localDate, seconds }).nullable(),
    tasks: z.object({
      open: z.number().int().openapi({ description: "Open tasks you are responsible for (todo or in progress)" }),
      overdue: z.number().int(),
      dueSoon: z.number().int().openapi({ description: "Open tasks due within the next 7 days (not overdue)" }),
      next: z.array(taskRef).openapi({ description: "Up to three open tasks with the earliest due dates" }),
    }),
  })
  .openapi("ActivityFacts", { description: "Your numbers the analysis is built on; the AI endpoint is given exactly these" });
export type ActivityFacts = z.infer<typeof activityFacts>;

export const insight = z
  .discriminatedUnion("kind", [
    z.object({ kind: z.literal("noData") }),
    z.object({
      kind: z.literal("change"),
      totalSeconds: seconds,
      previousTotalSeconds: seconds,
      changePercent: z.number().int().nullable(),
    }),
    z.object({
      kind: z.literal("heaviestCategory"),
      category,
      seconds,
      sharePercent: z.number().int(),
      dailyAverageSeconds: seconds,
    }),
    z.object({ kind: z.literal("topApp"), app: z.string(), category, seconds, dailyAverageSeconds: seconds }),
    z.object({ kind: z.literal("lateNight"), seconds, nights: z.number().int() }),
    z
      .object({
        kind: z.literal("focus"),
        minutesPerDay: z.number().int(),
        openTasks: z.number().int(),
        overdueTasks: z.number().int(),
        dueSoonTasks: z.number().int(),
        fromCategory: category.nullable().openapi({
          description:
            "The heaviest leisure category (social, games, video, music, news, shopping) averaging at least 25 minutes a " +
            "day, to take the time from; null when none does",
        }),
        peakHour: z.number().int().nullable(),
        nextTask: taskRef.nullable(),
      })
      .openapi({
        description:
          "Focus time for the open tasks: one 25-minute block a day per two pressing tasks (overdue or due within 7 " +
          "days), at least one and at most four; `peakHour` is when the phone is used most, `nextTask` the task due first.",
      }),
    z.object({ kind: z.literal("noOpenTasks") }),
  ])
  .openapi("ActivityInsight");
export type Insight = z.infer<typeof insight>;

export const analysisOutput = z
  .object({
    from: localDate,
    to: localDate,
    previousFrom: localDate,
    previousTo: localDate,
    timeZone: z.string(),
    facts: activityFacts,
    insights: z
      .array(insight)
      .openapi({ description: "The built-in assistant's findings from the facts (computed in every case)" }),
    text: z
      .string()
      .nullable()
      .openapi({ description: "The AI endpoint's answer, in your language; null when the built-in assistant answered" }),
    answeredBy: answeredBySchema,
    fallbackReason: z
      .string()
      .optional()
      .openapi({ description: "Why the built-in assistant answered although an endpoint is configured" }),
  })
  .openapi("ActivityAnalysis");
export type AnalysisOutput = z.infer<typeof analysisOutput>;
