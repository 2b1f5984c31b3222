import { apiRoute, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { adminUserListOutput, adminUserOutput, adminUserParams, jobStatusListOutput, listUsersQuery } from "./schema";
import { disableUser, enableUser, listJobStatus, listUsers } from "./service";

// Administration lives under /api/v1 only (no root alias). The error statistics are `GET /errors/stats` and
// `GET /errors/recent`.
const TAGS = ["Admin"];
const ADMINS_ONLY =
  "Administrators only (the accounts whose email is in ADMIN_EMAILS): anyone else signed in gets 403, like every " +
  "admin route.";
const NO_USER = "No user with this id";

const listRoute = apiRoute({
  method: "get",
  path: "/admin/users",
  tags: TAGS,
  summary: "Every account, searchable (admins)",
  description:
    `${ADMINS_ONLY} Newest accounts first, a page at a time (\`page\`, \`pageSize\`; \`total\` counts every match). ` +
    "`q` searches names and emails for the text as typed (case-insensitive; `%` and `_` are no wildcards). Each " +
    "user comes with the number of tasks they own, whether they are an administrator and whether (since when) " +
    "they are disabled; `lastSeenAt` is when one of their sessions was last used, to within about five minutes.",
  access: "admin",
  request: { query: listUsersQuery },
  responses: { 200: jsonContent(adminUserListOutput, "A page of users") },
});

const disableRoute = apiRoute({
  method: "post",
  path: "/admin/users/{id}/disable",
  tags: TAGS,
  summary: "Disable an account (admins)",
  description:
    `${ADMINS_ONLY} The account's sessions end at once: every token issued so far answers 401 from now on ` +
    "(as after `POST /auth/logout?everywhere=true`) and its open sockets are closed. Signing in again (password, " +
    "passkey or external account) is refused with 403 `account_disabled`. Nothing of the account's data changes; " +
    "others still see what it shares with them. Disabling a disabled account changes nothing. You cannot disable " +
    "your own account, nor another administrator's (take them off ADMIN_EMAILS first): 409.",
  access: "admin",
  request: { params: adminUserParams },
  responses: {
    200: jsonContent(adminUserOutput, "The user, disabled"),
    404: problemResponse(NO_USER),
    409: problemResponse("The account is yours, or an administrator's"),
  },
});

const enableRoute = apiRoute({
  method: "post",
  path: "/admin/users/{id}/enable",
  tags: TAGS,
  summary: "Enable a disabled account again (admins)",
  description:
    `${ADMINS_ONLY} The account can sign in again. The sessions that ended when it was disabled stay ended. ` +
    "Enabling an enabled account changes nothing.",
  access: "admin",
  request: { params: adminUserParams },
  responses: { 200: jsonContent(adminUserOutput, "The user, enabled"), 404: problemResponse(NO_USER) },
});

const jobsRoute = apiRoute({
  method: "get",
  path: "/admin/jobs",
  tags: TAGS,
  summary: "The background jobs and their last runs (admins)",
  description:
    `${ADMINS_ONLY} Every job of this server's code, by name: how often it runs, the feature module it belongs to ` +
    "and whether it is paused because that module is switched off, and its last run across the deployment " +
    "(whichever process ran it: each job runs in one process at a time): when it began and ended, how long it took, " +
    "whether it succeeded, the error message when it failed, and how many runs finished and failed. A job that " +
    "never ran since the status was recorded has nulls and zero counts. A process that stopped during a run leaves " +
    "it `running` until the next run. `eventConsumers` lists the consumers of the domain event log (notifications, " +
    "gamification, webhooks, the socket, reminder settings): which process runs each, and how many events and how " +
    "many seconds it is behind.",
  access: "admin",
  responses: { 200: jsonContent(jobStatusListOutput, "Every job") },
});

export const adminRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listUsers(c.req.valid("query")), 200))
  .openapi(disableRoute, async (c) => c.json(await disableUser(c.var.actor, c.req.valid("param").id), 200))
  .openapi(enableRoute, async (c) => c.json(await enableUser(c.req.valid("param").id), 200))
  .openapi(jobsRoute, async (c) => c.json(await listJobStatus(), 200));
