import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { getTaskReminderLog } from "./reminders";
import {
  listNotificationsQuery,
  listReportsQuery,
  notificationIdParams,
  notificationListOutput,
  notificationOutput,
  prefsOutput,
  prefsParams,
  readAllOutput,
  reminderLogOutput,
  settingsOutput,
  taskIdParams,
  unreadCountOutput,
  updatePrefsInput,
  updateSettingsInput,
  weeklyReportListOutput,
  weeklyReportOutput,
  weekStartParams,
} from "./schema";
import {
  getPrefs,
  getSettings,
  getWeeklyReport,
  listNotifications,
  listWeeklyReports,
  readAllNotifications,
  readNotification,
  unreadCount,
  updatePrefs,
  updateSettings,
} from "./service";

// `/notification-prefs` also answers at the site root (the spec's path); the rest lives under /api/v1 only.
const NOTIFICATIONS = ["Notifications"];
const REMINDERS = ["Reminders"];
const REPORTS = ["Reports"];

const ABOUT_NOTIFICATIONS =
  "In-app notifications are yours alone: reminders (`reminder`, `due`), the daily summary (`daily_summary`), the " +
  "weekly report (`weekly_report`), requests and their answers (`collaboration.requested`, `collaboration.accepted`, " +
  "`collaboration.rejected`), accepted invitations (`invitation.accepted`) and more. Each new one also reaches your " +
  "open sockets as the `notification.created` event, carrying the notification as listed here; reading one, or all, " +
  "sends `notification.read` (`notificationId`, null for all, and `unread`: the count left) to your sockets, so that " +
  "every open page's badge agrees.";
const NO_TASK = "No such task, or you cannot see it (both answer the same)";
const WHO_IS_REMINDED =
  "Reminders go to the people responsible for a task: its assignees, or its owner while nobody is assigned, each by " +
  "their own preferences and in their own time zone; only open tasks (todo, in_progress) with a due time are " +
  "reminded of.";
const PREF_RULES =
  "Fields (the spec's names): `remind_before`: minutes before the due time, 0-40320 (4 weeks), or null for no advance " +
  "reminder (0 is the due time itself: with `on_due` too, one reminder goes out); `on_due`: a reminder at the due time itself; `daily`: the task appears in your daily summary; " +
  "`channels`: any of `in_app` (stored here and sent on the socket), `push`, `email`, each at most once. Defaults, " +
  'while nothing is stored (`stored: false`): `remind_before` 30, `on_due` true, `daily` true, `channels` ["in_app", ' +
  '"push"]. Channels not chosen are logged as skipped, so the reminder log still shows them.';

const listRoute = apiRoute({
  method: "get",
  path: "/notifications",
  tags: NOTIFICATIONS,
  summary: "Your notifications",
  description:
    `${ABOUT_NOTIFICATIONS} Newest first, \`limit\` (1-100, default 50) at a time: pass \`nextCursor\` as \`cursor\` ` +
    "for the next page. `unread=true` lists only those not read yet.",
  access: "user",
  request: { query: listNotificationsQuery },
  responses: { 200: jsonContent(notificationListOutput, "A page of your notifications") },
});

const unreadCountRoute = apiRoute({
  method: "get",
  path: "/notifications/unread-count",
  tags: NOTIFICATIONS,
  summary: "How many notifications you have not read",
  description: "The number for a badge; it drops as you read them one by one or all at once.",
  access: "user",
  responses: { 200: jsonContent(unreadCountOutput, "Your unread count") },
});

const readRoute = apiRoute({
  method: "post",
  path: "/notifications/{id}/read",
  tags: NOTIFICATIONS,
  summary: "Mark a notification read",
  description: "Marks one of your notifications read; again keeps the time it was first read. Anyone else's is a 404.",
  access: "user",
  request: { params: notificationIdParams },
  responses: {
    200: jsonContent(notificationOutput, "The notification, read"),
    404: problemResponse("No such notification, or it is not yours"),
  },
});

const readAllRoute = apiRoute({
  method: "post",
  path: "/notifications/read-all",
  tags: NOTIFICATIONS,
  summary: "Mark all your notifications read",
  description: "Marks every unread notification of yours read and answers how many that was (0 when none were unread).",
  access: "user",
  responses: { 200: jsonContent(readAllOutput, "How many were marked read") },
});

const getPrefsRoute = apiRoute({
  method: "get",
  path: "/notification-prefs/{taskId}",
  tags: REMINDERS,
  summary: "Your reminder preferences for a task",
  description:
    `Your own preferences for a task you can see (anyone else's task: 404); each user has their own. ${PREF_RULES} ` +
    WHO_IS_REMINDED,
  access: "user",
  request: { params: prefsParams },
  responses: { 200: jsonContent(prefsOutput, "Your preferences, or the defaults"), 404: problemResponse(NO_TASK) },
});

const putPrefsRoute = apiRoute({
  method: "put",
  path: "/notification-prefs/{taskId}",
  tags: REMINDERS,
  summary: "Set your reminder preferences for a task",
  description:
    `Stores your preferences for a task you can see (anyone else's task: 404). The fields given change; those left ` +
    `out keep their current value (the stored one, or the default). ${PREF_RULES} A value out of range, an unknown ` +
    "or repeated channel, or an unknown field is a 400 naming it. A new occurrence of a recurring task takes over " +
    `the preferences of the one before it. ${WHO_IS_REMINDED}`,
  access: "user",
  request: { params: prefsParams, body: jsonBody(updatePrefsInput) },
  responses: { 200: jsonContent(prefsOutput, "Your preferences as stored"), 404: problemResponse(NO_TASK) },
});

const SETTINGS_RULES =
  "`dailySummaryTime`: the local time (your profile's time zone) of the daily summary, `HH:MM`, or null for none; " +
  "it lists your open tasks due today or overdue (those whose `daily` preference is true), once per local day, at " +
  "that time on your wall clock across DST changes (if the service was down then, later that day; with nothing to " +
  "list, nothing is sent). `weeklyReport`: a report of the week before, Mondays at 08:00 local time (see " +
  "`GET /reports/weekly`). `summaryChannels`: where both go, any of `in_app`, `push`, `email`, each once. Defaults, " +
  'while nothing is stored (`stored: false`): "07:00", true, ["in_app", "email"].';

const getSettingsRoute = apiRoute({
  method: "get",
  path: "/notification-settings",
  tags: REMINDERS,
  summary: "Your daily summary and weekly report settings",
  description: SETTINGS_RULES,
  access: "user",
  responses: { 200: jsonContent(settingsOutput, "Your settings, or the defaults") },
});

const putSettingsRoute = apiRoute({
  method: "put",
  path: "/notification-settings",
  tags: REMINDERS,
  summary: "Set your daily summary and weekly report settings",
  description: `The fields given change; those left out keep their current value. ${SETTINGS_RULES} Invalid values and unknown fields are a 400 naming the field.`,
  access: "user",
  request: { body: jsonBody(updateSettingsInput) },
  responses: { 200: jsonContent(settingsOutput, "Your settings as stored") },
});

const reminderLogRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/reminders",
  tags: REMINDERS,
  summary: "Your reminders of a task: what went out, and what is to come",
  description:
    'The answer to "why didn\'t I get it?" for a task you can see (404 otherwise). `fires`: each reminder fired ' +
    "for you (newest first; at most 100), with one delivery per channel: `sent`, `failed` with the reason, or " +
    "`skipped` with the reason (not chosen in your preferences, missed, or what the channel said, such as no push " +
    "subscription). `scheduled`: the reminders still to come for the current due time, by the preferences shown " +
    "in `prefs`. `notes`: why nothing (more) is scheduled. " +
    `${WHO_IS_REMINDED} The scheduler runs every minute and sends each reminder once per task, kind and due ` +
    "time: a changed due time reminds again. Reminders whose time passed while the service was down still go out " +
    "within 6 hours; older ones are logged as skipped.",
  access: "user",
  request: { params: taskIdParams },
  responses: { 200: jsonContent(reminderLogOutput, "Your reminder log for the task"), 404: problemResponse(NO_TASK) },
});

const listReportsRoute = apiRoute({
  method: "get",
  path: "/reports/weekly",
  tags: REPORTS,
  summary: "Your weekly reports",
  description:
    "Made on Mondays at 08:00 in your time zone (or later that Monday, if the service was down), once a week, unless " +
    "`weeklyReport` is off in `/notification-settings`. Each covers the week before (Monday to Sunday): your tasks " +
    "completed and created during it, and those overdue and still open when it was made (your tasks: those you are " +
    "assigned to, and your own while nobody is assigned); how your goals moved over the week; the time you tracked " +
    "(your own timers and entries, each counted for its part inside the week; 0 with `timeTrackingAvailable: false` while " +
    "the time-tracking module is switched off); and a few sentences about the week from the " +
    "AI endpoint when one is configured, else from the built-in assistant (an endpoint that fails never stops a " +
    "report: the built-in narrative stands in and `fallbackReason` says why; while the `ai` module is switched off a " +
    "report is made without one, `narrative: null`). Newest week first, `limit` (1-100, " +
    "default 20) at a time.",
  access: "user",
  request: { query: listReportsQuery },
  responses: { 200: jsonContent(weeklyReportListOutput, "A page of your weekly reports") },
});

const getReportRoute = apiRoute({
  method: "get",
  path: "/reports/weekly/{weekStart}",
  tags: REPORTS,
  summary: "Your weekly report of one week",
  description: "The report of the week starting on the Monday `weekStart` (YYYY-MM-DD). 404 when you have none for that week.",
  access: "user",
  request: { params: weekStartParams },
  responses: { 200: jsonContent(weeklyReportOutput, "The report"), 404: problemResponse("You have no report for that week") },
});

export const notificationsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listNotifications(c.var.actor, c.req.valid("query")), 200))
  .openapi(unreadCountRoute, async (c) => c.json(await unreadCount(c.var.actor), 200))
  .openapi(readAllRoute, async (c) => c.json(await readAllNotifications(c.var.actor), 200))
  .openapi(readRoute, async (c) => c.json(await readNotification(c.var.actor, c.req.valid("param").id), 200))
  .openapi(getPrefsRoute, async (c) => c.json(await getPrefs(c.var.actor, c.req.valid("param").taskId), 200))
  .openapi(putPrefsRoute, async (c) =>
    c.json(await updatePrefs(c.var.actor, c.req.valid("param").taskId, c.req.valid("json")), 200),
  )
  .openapi(getSettingsRoute, async (c) => c.json(await getSettings(c.var.actor), 200))
  .openapi(putSettingsRoute, async (c) => c.json(await updateSettings(c.var.actor, c.req.valid("json")), 200))
  .openapi(reminderLogRoute, async (c) => c.json(await getTaskReminderLog(c.var.actor, c.req.valid("param").id), 200))
  .openapi(listReportsRoute, async (c) => c.json(await listWeeklyReports(c.var.actor, c.req.valid("query")), 200))
  .openapi(getReportRoute, async (c) => c.json(await getWeeklyReport(c.var.actor, c.req.valid("param").weekStart), 200));
