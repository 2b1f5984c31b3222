import { z } from "@hono/zod-openapi";
import { answeredBySchema } from "../ai/schema";
import { GOAL_STATUSES } from "../db/schema/goals";
import type { NotificationChannel } from "./channel";

export const CHANNEL_NAMES = ["in_app", "push", "email"] as const satisfies readonly NotificationChannel[];
export const NOTIFICATION_LIMIT_MAX = 100;
/** `remind_before` is at most four weeks, in minutes (the table's check constraint says the same). */
export const REMIND_BEFORE_MAX = 40_320;

/*
 * The documented defaults: what applies while nothing is stored.
 * Per task (GET /notification-prefs/{taskId} answers them with `stored: false`): a reminder 30 minutes before the
 * due time, one at the due time, the task in the daily summary, in the app and by push (not by email).
 * Per user (GET /notification-settings): the daily summary at 07:00 local time, the weekly report on, both in the
 * app and by email.
 */
export const DEFAULT_PREFS = { remind_before: 30, on_due: true, daily: true, channels: ["in_app", "push"] } as const satisfies {
  remind_before: number | null;
  on_due: boolean;
  daily: boolean;
  channels: readonly NotificationChannel[];
};
export const DEFAULT_SETTINGS = {
  dailySummaryTime: "07:00",
  weeklyReport: true,
  weeklyReportWhenQuiet: false,
  summaryChannels: ["in_app", "email"],
} as const satisfies {
  dailySummaryTime: string | null;
  weeklyReport: boolean;
  weeklyReportWhenQuiet: boolean;
  summaryChannels: readonly NotificationChannel[];
};

const CHANNEL_LIST = CHANNEL_NAMES.join(", ");
const channelSchema = z.enum(CHANNEL_NAMES, { message: `must be one of ${CHANNEL_LIST}` }).openapi({
  description: "`in_app`: stored in the app and sent on the socket; `push`: browser push to your subscribed devices; `email`",
});

/** A list of channels, each at most once (a duplicate is a 400 pointing at it). */
const channelList = z
  .array(channelSchema, { message: `must be an array of ${CHANNEL_LIST}` })
  .superRefine((channels, context) => {
    channels.forEach((channel, index) => {
      if (channels.indexOf(channel) !== index)
        context.addIssue({ code: "custom", message: `names ${channel} twice`, path: [index] });
    });
  });

const uuid = (what: string) => z.uuid(`must be ${what}`);

// In-app notifications

export const notificationIdParams = z.object({ id: uuid("a notification id") });

export const listNotificationsQuery = z
  .strictObject({
    unread: z
      .enum(["true", "false"], { message: "must be true or false" })
      .optional()
      .openapi({ description: "`true`: only those not read yet; by default all" }),
    limit: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(NOTIFICATION_LIMIT_MAX, `must be at most ${NOTIFICATION_LIMIT_MAX}`)
      .default(50)
      .openapi({ description: `Notifications per page, 1-${NOTIFICATION_LIMIT_MAX} (default 50)` }),
    cursor: z
      .string()
      .max(500, "is not a cursor of this list")
      .optional()
      .openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("ListNotificationsQuery");
export type ListNotificationsQuery = z.infer<typeof listNotificationsQuery>;

export const notificationOutput = z
  .object({
    id: z.uuid(),
    kind: z.string().openapi({
      description:
        "What it is about: `reminder` (before a task's due time), `due` (at it), `daily_summary`, `weekly_report`, " +
        "`collaboration.requested`, `collaboration.accepted`, `collaboration.rejected`, `invitation.accepted`...",
    }),
    title: z.string().openapi({ description: "In your language" }),
    body: z.string(),
    taskId: z.uuid().nullable().openapi({ description: "The task it is about, if any (null once that task is deleted)" }),
    data: z.record(z.string(), z.unknown()).openapi({ description: "Details for the client, by kind" }),
    read: z.boolean(),
    readAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .openapi("Notification");
export type NotificationOutput = z.infer<typeof notificationOutput>;

export const notificationListOutput = z
  .object({
    items: z.array(notificationOutput).openapi({ description: "Newest first" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("NotificationList");
export type NotificationListOutput = z.infer<typeof notificationListOutput>;

export const unreadCountOutput = z
  .object({ unread: z.number().int().openapi({ description: "Your notifications not read yet" }) })
  .openapi("UnreadNotificationCount");
export type UnreadCountOutput = z.infer<typeof unreadCountOutput>;

export const readAllOutput = z
  .object({ marked: z.number().int().openapi({ description: "How many unread notifications this marked read" }) })
  .openapi("NotificationsMarkedRead");
export type ReadAllOutput = z.infer<typeof readAllOutput>;

// Per-task preferences (the spec's field names)

export const prefsParams = z.object({ taskId: uuid("a task id") });

const remindBefore = z
  .number({ message: "must be a whole number of minutes or null" })
  .int("must be a whole number of minutes")
  .min(0, "must be at least 0")
  .max(REMIND_BEFORE_MAX, `must be at most ${REMIND_BEFORE_MAX} (4 weeks)`)
  .nullable()
  .openapi({
    description: `Minutes before the due time to remind you, 0-${REMIND_BEFORE_MAX} (4 weeks); null: no advance reminder`,
  });

export const updatePrefsInput = z
  .strictObject({
    remind_before: remindBefore.optional(),
    on_due: z
      .boolean({ message: "must be true or false" })
      .optional()
      .openapi({ description: "Remind you at the due time itself" }),
    daily: z
      .boolean({ message: "must be true or false" })
      .optional()
      .openapi({ description: "Put the task in your daily summary" }),
    channels: channelList
      .optional()
      .openapi({ description: `Where reminders reach you: any of ${CHANNEL_LIST}, each once; [] for none` }),
  })
  .openapi("UpdateNotificationPrefsInput", {
    description: "The fields given change; those left out keep their current value (the stored one, or the default)",
  });
export type UpdatePrefsInput = z.infer<typeof updatePrefsInput>;

export const prefsOutput = z
  .object({
    taskId: z.uuid(),
    remind_before: z.number().int().nullable().openapi({ description: "Minutes before the due time; null: no advance reminder" }),
    on_due: z.boolean(),
    daily: z.boolean(),
    channels: z.array(channelSchema),
    stored: z.boolean().openapi({ description: "false: nothing stored yet, these are the defaults" }),
    updatedAt: z.iso.datetime().nullable().openapi({ description: "When you last stored them; null for the defaults" }),
  })
  .openapi("NotificationPrefs");
export type PrefsOutput = z.infer<typeof prefsOutput>;

// Per-user summary settings

const summaryTime = z
  .string({ message: "must be a time HH:MM or null" })
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a local time HH:MM (00:00-23:59)")
  .nullable()
  .openapi({ description: "Local time (your time zone) of the daily summary, HH:MM; null: no daily summary", example: "07:00" });

export const updateSettingsInput = z
  .strictObject({
    dailySummaryTime: summaryTime.optional(),
    weeklyReport: z
      .boolean({ message: "must be true or false" })
      .optional()
      .openapi({ description: "The weekly report on Mondays at 08:00" }),
    weeklyReportWhenQuiet: z
      .boolean({ message: "must be true or false" })
      .optional()
      .openapi({
        description:
          "Also send the weekly report after a quiet week (nothing completed, created, overdue or tracked, no goal moved). " +
          "false (the default): such a week's report is kept under GET /reports/weekly but not sent",
      }),
    summaryChannels: channelList
      .optional()
      .openapi({ description: `Where the summaries reach you: any of ${CHANNEL_LIST}, each once` }),
  })
  .openapi("UpdateNotificationSettingsInput", {
    description: "The fields given change; those left out keep their current value (the stored one, or the default)",
  });
export type UpdateSettingsInput = z.infer<typeof updateSettingsInput>;

export const settingsOutput = z
  .object({
    dailySummaryTime: z.string().nullable().openapi({ description: "HH:MM in your time zone; null: none" }),
    weeklyReport: z.boolean(),
    weeklyReportWhenQuiet: z.boolean().openapi({ description: "Whether a quiet week's report is sent too" }),
    summaryChannels: z.array(channelSchema),
    timeZone: z.string().openapi({ description: "Your time zone (your profile's), in which the times above are read" }),
    stored: z.boolean().openapi({ description: "false: nothing stored yet, these are the defaults" }),
  })
  .openapi("NotificationSettings");
export type SettingsOutput = z.infer<typeof settingsOutput>;

// A task's reminder log

export const taskIdParams = z.object({ id: uuid("a task id") });

const deliveryOutput = z
  .object({
    channel: channelSchema,
    status: z.enum(["sent", "failed", "skipped"]),
    reason: z.string().nullable().openapi({ description: "Why it failed or was skipped; null when sent" }),
    at: z.iso.datetime(),
  })
  .openapi("ReminderDelivery");

const reminderKind = z
  .enum(["before", "due"])
  .openapi({ description: "`before`: `remind_before` minutes ahead; `due`: at the due time" });

export const reminderLogOutput = z
  .object({
    taskId: z.uuid(),
    responsible: z.boolean().openapi({
      description: "Whether you are reminded of this task at all: its assignees are, or its owner while nobody is assigned",
    }),
    timeZone: z.string().openapi({ description: "Your time zone, in which the reminders' texts show times" }),
    prefs: prefsOutput.openapi({ description: "Your preferences for the task, which produce the schedule" }),
    scheduled: z
      .array(
        z.object({
          kind: reminderKind,
          at: z.iso.datetime().openapi({ description: "When it goes out (the next scheduler run at or after this time)" }),
          dueAt: z.iso.datetime().openapi({ description: "The due time it reminds of" }),
          channels: z.array(channelSchema).openapi({ description: "Where it will go (your `channels`)" }),
        }),
      )
      .openapi({ description: "Reminders still to come for the current due time, soonest first" }),
    notes: z.array(z.string()).openapi({ description: "Why nothing (more) is scheduled, when that is the case" }),
    fires: z
      .array(
        z.object({
          id: z.number().int(),
          kind: reminderKind,
          dueAt: z.string().openapi({ description: "The due time it reminded of (a changed due time fires again)" }),
          firedAt: z.iso.datetime(),
          deliveries: z.array(deliveryOutput).openapi({ description: "One per channel: sent, failed (why) or skipped (why)" }),
        }),
      )
      .openapi({ description: "The reminders that went out (or were skipped), newest first" }),
  })
  .openapi("TaskReminderLog");
export type ReminderLogOutput = z.infer<typeof reminderLogOutput>;

// Weekly reports

const localDate = z.iso.date("must be a date such as 2026-03-23");

export const weekStartParams = z.object({
  weekStart: localDate.openapi({ description: "The Monday the reported week starts on (YYYY-MM-DD, your time zone)" }),
});

export const listReportsQuery = z
  .strictObject({
    limit: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(NOTIFICATION_LIMIT_MAX, `must be at most ${NOTIFICATION_LIMIT_MAX}`)
      .default(20)
      .openapi({ description: `Reports per page, 1-${NOTIFICATION_LIMIT_MAX} (default 20)` }),
    cursor: localDate.optional().openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("ListWeeklyReportsQuery");
export type ListReportsQuery = z.infer<typeof listReportsQuery>;

export const weeklyReportOutput = z
  .object({
    weekStart: z.iso.date().openapi({ description: "Monday of the reported week (your time zone when it was made)" }),
    weekEnd: z.iso.date().openapi({ description: "Its Sunday" }),
    timeZone: z.string(),
    completed: z.number().int().openapi({ description: "Your tasks completed during the week" }),
    created: z.number().int().openapi({ description: "Your tasks created during the week" }),
    overdue: z.number().int().openapi({ description: "Your open tasks whose due time had passed when the report was made" }),
    open: z.number().int().openapi({ description: "Your tasks still open (todo or in progress) when the report was made" }),
    goals: z
      .array(
        z.object({
          id: z.uuid(),
          title: z.string(),
          status: z.enum(GOAL_STATUSES),
          progress: z.number().int().openapi({ description: "0-100 when the report was made" }),
          progressAtStart: z.number().int().nullable().openapi({
            description:
              "0-100 when the week began (0 for a goal made during it); null when nothing tells (a hand-set goal without a progress report from before)",
          }),
        }),
      )
      .openapi({ description: "Your goals active then, or achieved during the week: how they moved" }),
    timeTrackedSeconds: z.number().int().openapi({
      description:
        "Seconds you tracked during the week (your own entries, each for its part inside the week; 0 while time tracking is off)",
    }),
    timeTrackingAvailable: z
      .boolean()
      .openapi({ description: "false: the time-tracking module was switched off when the report was made" }),
    narrative: z
      .object({ text: z.string(), answeredBy: answeredBySchema, fallbackReason: z.string().nullable() })
      .nullable()
      .openapi({
        description:
          "A few sentences about the week from the AI endpoint when one is configured, else from the built-in assistant; " +
          "`fallbackReason` says why the built-in one stood in for a failing endpoint. null on reports made before narratives existed " +
          "and while the `ai` module is switched off.",
      }),
    createdAt: z.iso.datetime(),
  })
  .openapi("WeeklyReport");
export type WeeklyReportOutput = z.infer<typeof weeklyReportOutput>;

export const weeklyReportListOutput = z
  .object({
    items: z.array(weeklyReportOutput).openapi({ description: "Newest week first" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("WeeklyReportList");
export type WeeklyReportListOutput = z.infer<typeof weeklyReportListOutput>;
