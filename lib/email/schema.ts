import { z } from "@hono/zod-openapi";
import { emailInput } from "../accounts/schema";

export const SUBJECT_MAX = 200;
export const TEXT_MAX = 50_000;
export const HTML_MAX = 200_000;
export const REMINDER_MESSAGE_MAX = 1000;
export const LOG_LIMIT_MAX = 200;
/** One reminder per task per sender in this many minutes. */
export const REMINDER_INTERVAL_MINUTES = 10;

export const sendEmailInput = z
  .strictObject({
    to: emailInput.optional().openapi({ description: "The address to send to; or give `userId`" }),
    userId: z
      .uuid("must be a user id")
      .optional()
      .openapi({ description: "A user to send to, at their account's address; or give `to`" }),
    subject: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(SUBJECT_MAX, `must be at most ${SUBJECT_MAX} characters`)
      .refine((subject) => !/[\r\n]/.test(subject), "must be one line")
      .openapi({ description: `One line, 1-${SUBJECT_MAX} characters (trimmed)` }),
    text: z
      .string()
      .min(1, "must not be empty")
      .max(TEXT_MAX, `must be at most ${TEXT_MAX} characters`)
      .openapi({ description: `The plain-text body, sent as given (at most ${TEXT_MAX} characters)` }),
    html: z
      .string()
      .min(1, "must not be empty")
      .max(HTML_MAX, `must be at most ${HTML_MAX} characters`)
      .optional()
      .openapi({ description: `An HTML body besides the text one, sent as given (at most ${HTML_MAX} characters)` }),
  })
  .superRefine((input, context) => {
    if (input.to === undefined && input.userId === undefined) {
      context.addIssue({ code: "custom", message: "give to or userId", path: ["to"] });
    } else if (input.to !== undefined && input.userId !== undefined) {
      context.addIssue({ code: "custom", message: "give either to or userId, not both", path: ["userId"] });
    }
  })
  .openapi("SendEmailInput", { description: "Exactly one of `to` and `userId`" });
export type SendEmailInput = z.infer<typeof sendEmailInput>;

export const reminderInput = z
  .strictObject({
    taskId: z.uuid("must be a task id").openapi({ description: "A task you can see that has assignees besides you" }),
    message: z
      .string()
      .trim()
      .max(REMINDER_MESSAGE_MAX, `must be at most ${REMINDER_MESSAGE_MAX} characters`)
      .optional()
      .openapi({
        description: `A personal note shown in the email (at most ${REMINDER_MESSAGE_MAX} characters, trimmed; empty: none)`,
      }),
  })
  .openapi("EmailReminderInput");
export type ReminderInput = z.infer<typeof reminderInput>;

export const emailLogQuery = z
  .strictObject({
    limit: z.coerce
      .number({ error: "must be a whole number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(LOG_LIMIT_MAX, `must be at most ${LOG_LIMIT_MAX}`)
      .default(50)
      .openapi({ description: `Entries per page, 1-${LOG_LIMIT_MAX}; default 50` }),
    cursor: z.string().max(200).optional().openapi({ description: "`nextCursor` of the previous page" }),
    status: z
      .enum(["sent", "failed"], { message: "must be sent or failed" })
      .optional()
      .openapi({ description: "Only entries with this outcome" }),
  })
  .openapi("EmailLogQuery");
export type EmailLogQuery = z.infer<typeof emailLogQuery>;

export const emailLogEntryOutput = z
  .object({
    id: z.uuid(),
    userId: z.uuid().nullable().openapi({ description: "The user it was for, when it was for one" }),
    to: z.string(),
    subject: z.string(),
    kind: z.string().openapi({
      description:
        "`admin` (POST /email/send), `personal_reminder` (POST /email/reminder), or the notification template " +
        "that sent it: `reminder`, `daily_summary`, `weekly_report`, `notification`",
    }),
    transport: z
      .enum(["log", "smtp", "resend"])
      .openapi({ description: "`log` writes the email to the server log and sends nothing" }),
    status: z.enum(["sent", "failed"]).openapi({ description: "`sent`: the transport accepted it; `failed`: see `error`" }),
    error: z.string().nullable().openapi({ description: "Why the transport refused it (the mail server's or Resend's answer)" }),
    providerMessageId: z.string().nullable().openapi({ description: "The SMTP Message-ID or Resend's email id" }),
    createdAt: z.iso.datetime(),
  })
  .openapi("EmailLogEntry");
export type EmailLogEntryOutput = z.infer<typeof emailLogEntryOutput>;

export const emailLogPageOutput = z
  .object({
    items: z.array(emailLogEntryOutput).openapi({ description: "Newest first" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("EmailLogPage");
export type EmailLogPageOutput = z.infer<typeof emailLogPageOutput>;

export const reminderOutput = z
  .object({
    taskId: z.uuid(),
    results: z
      .array(
        z.object({
          userId: z.uuid(),
          name: z.string(),
          status: z.enum(["sent", "failed", "skipped"]),
          reason: z.string().nullable().openapi({ description: "Why it failed or was skipped" }),
          emailLogId: z.uuid().nullable().openapi({ description: "The email log entry (none when skipped)" }),
        }),
      )
      .openapi({ description: "One per assignee other than you, in the order they were assigned" }),
  })
  .openapi("EmailReminderResult");
export type ReminderOutput = z.infer<typeof reminderOutput>;
