import { Readable } from "node:stream";
import { z } from "@hono/zod-openapi";
import { apiRoute, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { clearSessionCookie } from "../api/session-cookie";
import { exportKeys } from "./tables";
import { accountExportOutput, deleteAccountInput, FRESH_SIGN_IN_MINUTES } from "./schema";
import { ARCHIVE_FOLDER, ARCHIVE_JSON } from "./archive";
import { deleteAccount, exportAccountArchive, exportAccountData } from "./service";

const TAGS = ["Account"];

const EXPORT_KEYS = exportKeys()
  .map(({ view }) => `\`${view.key}\``)
  .join(", ");

const exportRoute = apiRoute({
  method: "get",
  path: "/auth/export-data",
  tags: TAGS,
  summary: "Download everything of yours (GDPR export)",
  description:
    'A JSON file (`Content-Disposition: attachment; filename="spolu-export-<YYYY-MM-DD>.json"`, not cached) with ' +
    "`exportedAt`, your profile as `user`, and one key per kind of data, each a list of rows with their columns in " +
    `camelCase: ${EXPORT_KEYS}. Your tasks come whole (\`tasks\`, with \`subtasks\`); other people's tasks you are ` +
    "assigned to or collaborate on only with their own fields (`sharedTasks`). Teams, projects and the family come " +
    "with your own membership, not the other members'. `domainEvents` lists the events addressed to you without " +
    "their data (snapshots of what the other keys hold, with other people in them). Secrets are left out: the " +
    "password hash, passkeys' public keys, push subscriptions' keys (endpoints only), webhook secrets, invitation " +
    "token hashes, sign-in challenges; so are stack traces of error reports. Counted against the strict rate limit.\n\n" +
    "**With the files: `?format=zip`** (or `Accept: application/zip` without `format`) answers a ZIP " +
    "(`spolu-export-<YYYY-MM-DD>.zip`) holding the same JSON as `" +
    ARCHIVE_JSON +
    "` and every attachment file of " +
    `yours under \`${ARCHIVE_FOLDER}/\`: those of your tasks and those you uploaded to others' tasks, exactly the ` +
    "`mediaItems` rows, each of which then has `file`, the path of its bytes in the archive (null when the stored " +
    "file is missing). File names are the display names made safe (characters file systems refuse, control and " +
    "bidirectional characters become `_`; reserved Windows names get a leading `_`) and unique (` (2)` before the " +
    "extension). The archive is written while it is sent (chunked, no Content-Length): its size does not weigh on " +
    "the server's memory. Without `format` and without `Accept: application/zip` the answer stays the JSON.",
  access: "user",
  limit: "strict",
  request: {
    query: z.strictObject({
      format: z
        .enum(["json", "zip"])
        .optional()
        .openapi({
          description:
            "`json`: the data only; `zip`: the data and your attachment files. Default: `zip` when Accept names " +
            "application/zip, else `json`",
          example: "zip",
        }),
    }),
  },
  responses: {
    200: {
      description: "Your data, as a download",
      headers: {
        "Content-Disposition": {
          description: 'attachment; filename="spolu-export-<YYYY-MM-DD>.json" (or .zip)',
          schema: { type: "string" },
        },
        "Cache-Control": { description: "no-store", schema: { type: "string" } },
      },
      content: {
        "application/json": { schema: accountExportOutput },
        "application/zip": {
          schema: z.string().openapi({
            format: "binary",
            description: `\`${ARCHIVE_JSON}\` (the JSON answer) and \`${ARCHIVE_FOLDER}/<file name>\` for each attachment`,
          }),
        },
      },
    },
  },
});

/** `?format=`, else the Accept header: ZIP only when asked for. */
function wantsZip(format: "json" | "zip" | undefined, accept: string | undefined): boolean {
  if (format) return format === "zip";
  return /(^|,)\s*application\/zip\s*(;|,|$)/i.test(accept ?? "");
}

const DELETE_DESCRIPTION =
  `Needs \`password\`, or a fresh sign-in: a session token issued less than ${FRESH_SIGN_IN_MINUTES} minutes ago ` +
  "(accounts without a password, signing in with a passkey or another provider, sign in again first). A given " +
  "password is always checked: a wrong one is a 403 that deletes nothing and counts as a failed sign-in. In one " +
  "transaction: your tasks go (with their subtasks, assignees, collaborators, requests and invitations); other " +
  "people's tasks stay, without you among their assignees and collaborators; tasks others put into your task groups " +
  "(shared with your family) go back to their owners' first active group; your groups, collaboration requests sent " +
  "and received, invitations sent, notifications, preferences and settings, reminders, weekly reports, push " +
  "subscriptions, webhooks, passkeys, linked sign-in providers, email log entries and error reports go. A team or " +
  "project where you are the last owner passes to its longest-standing admin (else member, else for a project " +
  "viewer), or is deleted when nobody else is in it; a family where you are the last parent gets its " +
  "longest-standing member as parent, or is deleted when empty. What stays that you created (teams, projects, a " +
  "family) no longer names you, and your id leaves the event log. Afterwards your tokens, password and passkeys " +
  "sign in no more (personal access tokens included, which cannot delete an account themselves); the session cookie is cleared. Counted against the strict rate limit.";

function deleteRoute<P extends string>(path: P, summary: string) {
  return apiRoute({
    method: "delete",
    path,
    tags: TAGS,
    summary,
    description: DELETE_DESCRIPTION,
    access: "user",
    limit: "strict",
    sessionOnly: true,
    request: { body: { required: false, content: { "application/json": { schema: deleteAccountInput } } } },
    responses: {
      204: { description: "The account and everything of it are deleted" },
      403: problemResponse(
        "The password is wrong; or, for an account without a password, the sign-in is older than " +
          `${FRESH_SIGN_IN_MINUTES} minutes (sign in again)`,
      ),
    },
  });
}

export const accountDataRoutes = createRouter()
  .openapi(exportRoute, async (c) => {
    if (wantsZip(c.req.valid("query").format, c.req.header("accept"))) {
      const archive = await exportAccountArchive(c.var.actor);
      return c.body(Readable.toWeb(archive.stream) as ReadableStream, 200, {
        "Content-Type": "application/zip",
        "Content-Disposition": `attachment; filename="${archive.filename}"`,
        "Cache-Control": "no-store",
      });
    }
    const data = await exportAccountData(c.var.actor);
    return c.json(data, 200, {
      "Content-Disposition": `attachment; filename="spolu-export-${data.exportedAt.slice(0, 10)}.json"`,
      "Cache-Control": "no-store",
    });
  })
  .openapi(deleteRoute("/auth/delete-account", "Delete your account and everything of it"), async (c) => {
    await deleteAccount(c.var.actor, c.req.valid("json"));
    clearSessionCookie(c);
    return c.body(null, 204);
  })
  .openapi(deleteRoute("/delete-account", "Delete your account (alias of DELETE /auth/delete-account)"), async (c) => {
    await deleteAccount(c.var.actor, c.req.valid("json"));
    clearSessionCookie(c);
    return c.body(null, 204);
  });
