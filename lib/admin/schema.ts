import { z } from "@hono/zod-openapi";
import { localeInput } from "../accounts/schema";
import { MODULE_IDS } from "../modules/ids";

export const USER_PAGE_SIZE_MAX = 100;
export const USER_SEARCH_MAX = 100;

export const listUsersQuery = z
  .strictObject({
    q: z
      .string()
      .trim()
      .max(USER_SEARCH_MAX, `must be at most ${USER_SEARCH_MAX} characters`)
      .optional()
      .openapi({ description: "Only users whose name or email contains this text (any case); empty: everyone" }),
    page: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(100_000, "must be at most 100000")
      .default(1)
      .openapi({ description: "Which page, from 1; a page after the last is empty" }),
    pageSize: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(USER_PAGE_SIZE_MAX, `must be at most ${USER_PAGE_SIZE_MAX}`)
      .default(25)
      .openapi({ description: `Users per page, 1-${USER_PAGE_SIZE_MAX}; 25 by default` }),
  })
  .openapi("ListAdminUsersQuery");
export type ListUsersQuery = z.infer<typeof listUsersQuery>;

export const adminUserParams = z.object({ id: z.uuid("must be a user id") });

export const adminUserOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    email: z.string(),
    locale: localeInput,
    createdAt: z.iso.datetime(),
    lastSeenAt: z.iso.datetime().nullable().openapi({
      description:
        "When a session of the user was last used, to within about five minutes (kept since this field exists); null when unknown",
    }),
    taskCount: z.number().int().openapi({ description: "Tasks the user owns (open and done)" }),
    isAdmin: z.boolean().openapi({ description: "Listed in ADMIN_EMAILS" }),
    disabledAt: z.iso.datetime().nullable().openapi({
      description: "When an administrator disabled the account; null while it is enabled",
    }),
  })
  .openapi("AdminUser");
export type AdminUserOutput = z.infer<typeof adminUserOutput>;

export const adminUserListOutput = z
  .object({
    items: z.array(adminUserOutput).openapi({ description: "Newest accounts first" }),
    total: z.number().int().openapi({ description: "Users matching `q`, on all pages" }),
    page: z.number().int(),
    pageSize: z.number().int(),
  })
  .openapi("AdminUserList");
export type AdminUserListOutput = z.infer<typeof adminUserListOutput>;

export const jobStatusOutput = z
  .object({
    name: z.string(),
    module: z
      .enum(MODULE_IDS)
      .nullable()
      .openapi({ description: "The feature module the job belongs to; null for the core's jobs" }),
    paused: z.boolean().openapi({ description: "true while its module is switched off: the job does not run" }),
    intervalMs: z
      .number()
      .int()
      .openapi({ description: "How often it runs: once per interval across every process of the deployment" }),
    nextRunAt: z.iso.datetime().nullable().openapi({
      description: "When its next run is due (the first process to claim it then runs it); null before its first run",
    }),
    runningOn: z
      .string()
      .nullable()
      .openapi({ description: "The process running it now (host name and process id); null when it is not running" }),
    lastStartedAt: z.iso
      .datetime()
      .nullable()
      .openapi({ description: "When its last run began; null if it never ran (since job status was recorded)" }),
    lastFinishedAt: z.iso.datetime().nullable().openapi({ description: "When its last finished run ended" }),
    lastDurationMs: z.number().int().nullable(),
    lastOutcome: z.enum(["running", "succeeded", "failed"]).nullable().openapi({
      description: "`running`: a run began and has not ended (or its process stopped midway); null if it never ran",
    }),
    lastError: z
      .string()
      .nullable()
      .openapi({ description: "The error message of the last finished run when it failed; null when it succeeded" }),
    lastRunner: z.string().nullable().openapi({ description: "The process of the last run: host name and process id" }),
    runCount: z.number().int().openapi({ description: "Finished runs, in every process" }),
    failureCount: z.number().int().openapi({ description: "Finished runs that failed" }),
  })
  .openapi("JobStatus");
export type JobStatusOutput = z.infer<typeof jobStatusOutput>;

export const eventConsumerStatusOutput = z
  .object({
    name: z.string().openapi({ description: "The consumer: `notifications`, `gamification`, `webhooks`, `socket`…" }),
    runningOn: z.string().nullable().openapi({
      description: "The process holding its lease (host name and process id); null when no live process holds it",
    }),
    behind: z
      .number()
      .int()
      .openapi({ description: "Events written that it has not handled yet (counted up to 100000)", example: 0 }),
    oldestPendingAt: z.iso.datetime().nullable().openapi({
      description: "When the oldest event it has not handled was written; null when it is up to date",
    }),
    lagSeconds: z.number().openapi({
      description: "How long the oldest event it has not handled has waited, in seconds (0 when up to date)",
      example: 0,
    }),
    updatedAt: z.iso.datetime().openapi({ description: "When its cursor last moved" }),
  })
  .openapi("EventConsumerStatus");

export const jobStatusListOutput = z
  .object({
    items: z.array(jobStatusOutput).openapi({ description: "Every job, by name" }),
    eventConsumers: z.array(eventConsumerStatusOutput).openapi({
      description:
        "The durable consumers of the domain event log (in-app notifications, gamification, webhooks, the socket, " +
        "reminder settings of new occurrences), by name, with how far behind the log each is",
    }),
  })
  .openapi("JobStatusList");
export type JobStatusListOutput = z.infer<typeof jobStatusListOutput>;
