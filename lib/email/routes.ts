import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  REMINDER_INTERVAL_MINUTES,
  REMINDER_MESSAGE_MAX,
  emailLogEntryOutput,
  emailLogPageOutput,
  emailLogQuery,
  reminderInput,
  reminderOutput,
  sendEmailInput,
} from "./schema";
import { listEmailLogPage, sendAdminEmail, sendTaskReminder } from "./service";

// Email routes answer under /api/v1 and at the site root (`/email/...`).
const TAGS = ["Email"];
const TRANSPORTS =
  "Emails leave through the configured transport (EMAIL_TRANSPORT): `log` (the default: written to the server log, " +
  "nothing sent, recorded as sent), `smtp` (SMTP_URL) or `resend` (RESEND_API_KEY), from EMAIL_FROM. Every email " +
  "sent or tried is an entry of the email log (`GET /email/log`). A mail server or Resend refusing an email is " +
  "not an error of this API: the entry says `failed`, with their answer in `error`.";

const sendRoute = apiRoute({
  method: "post",
  path: "/email/send",
  tags: TAGS,
  summary: "Send an email (admins)",
  description:
    `Administrators (ADMIN_EMAILS) only; anyone else gets 403. Sends \`subject\`, \`text\` and, when given, \`html\` ` +
    "exactly as given to `to`, or to the account address of `userId` (exactly one of the two; a `userId` with no " +
    `account behind it is a 400 naming the field). Logged with kind \`admin\`. ${TRANSPORTS} The answer is the log ` +
    "entry: 201 whether the transport accepted the email (`status: sent`) or refused it (`status: failed`).",
  access: "admin",
  request: { body: jsonBody(sendEmailInput) },
  responses: { 201: jsonContent(emailLogEntryOutput, "The email log entry of this email: `sent`, or `failed` with the reason") },
});

const reminderRoute = apiRoute({
  method: "post",
  path: "/email/reminder",
  tags: TAGS,
  summary: "Remind a task's assignees by email",
  description:
    "Anyone who can see the task (its owner, assignees, collaborators, team, project or family members) may remind " +
    "the people assigned to it. Each assignee except you gets the reminder in their own language (profile `locale`) " +
    "with the due date in their time zone, the task's title, your name, a link to the task when APP_URL is set, " +
    `and \`message\` when given (at most ${REMINDER_MESSAGE_MAX} characters). A task you cannot see is a 404; one ` +
    "with nobody assigned but you, or nobody at all, is a 409. One reminder per task per sender in " +
    `${REMINDER_INTERVAL_MINUTES} minutes: an earlier one is a 429 with Retry-After (seconds). The reminder counts ` +
    "once accepted, whatever comes of its delivery; the assignees (and you) get a `task.reminded` event. The answer " +
    `lists each recipient's result: \`sent\`, \`failed\` (the transport refused it: \`reason\`) or \`skipped\`. ${TRANSPORTS}`,
  access: "user",
  request: { body: jsonBody(reminderInput) },
  responses: {
    200: jsonContent(reminderOutput, "What came of the reminder, per recipient"),
    404: problemResponse("No such task, or you cannot see it (both answer the same)"),
    409: problemResponse("Nobody is assigned to the task besides you: there is nobody to remind"),
  },
});

const logRoute = apiRoute({
  method: "get",
  path: "/email/log",
  tags: TAGS,
  summary: "The email log (admins)",
  description:
    "Administrators only; anyone else gets 403. Every email the service sent or tried, newest first, `limit` a page " +
    "(default 50, at most 200); `nextCursor` gives the next page. `status` keeps only `sent` or `failed` entries. " +
    "Kinds: `admin` (POST /email/send), `personal_reminder` (POST /email/reminder), and the notification emails " +
    "`reminder`, `daily_summary`, `weekly_report`, `notification`.",
  access: "admin",
  request: { query: emailLogQuery },
  responses: { 200: jsonContent(emailLogPageOutput, "A page of the log") },
});

export const emailRoutes = createRouter()
  .openapi(sendRoute, async (c) => c.json(await sendAdminEmail(c.req.valid("json")), 201))
  .openapi(reminderRoute, async (c) => c.json(await sendTaskReminder(c.var.actor, c.req.valid("json")), 200))
  .openapi(logRoute, async (c) => c.json(await listEmailLogPage(c.req.valid("query")), 200));
