import { z } from "@hono/zod-openapi";
import { requestHeader } from "../api/request-header";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  connectionListOutput,
  connectionOutput,
  connectionParams,
  createConnectionInput,
  createdConnectionOutput,
  listConnectionsQuery,
  runListOutput,
  runOutput,
  statusOutput,
  updateConnectionInput,
  webhookAnswer,
  webhookSecretOutput,
} from "./schema";
import {
  checkConnection,
  createConnection,
  deleteConnection,
  getConnection,
  listConnectionRuns,
  listConnections,
  receiveWebhook,
  rotateWebhookSecret,
  runOperation,
  updateConnection,
} from "./service";

const TAGS = ["Connectors"];
const ABOUT =
  "A connection to an external system: `erp` (Odoo), `learning` (Moodle) or `accounting` (POHODA mServer), each a " +
  "feature module of its own (404 `module_disabled` while switched off). Personal, or a team's workspace connection " +
  "(`teamId`): the team's members see it; its creator and the team's owners and admins change, run and delete it " +
  "(403 for other members). Credentials are stored encrypted (AES-256-GCM) and never answered back; " +
  "`credentialsHint` says which are stored. Outgoing calls time out after CONNECTOR_TIMEOUT_MS and reach only " +
  "public addresses unless the operator allows private ones.";
const NOT_FOUND = "No connection with this id that you can see";
const FOR_MANAGERS = "403: you see the connection through a team but are not its creator nor an owner or admin of the team.";
const RUNS =
  "One run at a time per connection (409 while one runs). Every run is idempotent: external ids are mapped to local " +
  "records, so running it again updates what changed and creates nothing twice. A failed item does not fail the " +
  "run (`partial`, the item's error listed). A run that failed for a reason that may pass (no answer, a timeout, " +
  "HTTP 5xx or 429) is retried after 1, 5 and 30 minutes (`nextAttemptAt`).";

const listRoute = apiRoute({
  method: "get",
  path: "/connectors",
  tags: TAGS,
  summary: "Your connections and your teams'",
  description: `${ABOUT} Newest first; connections of switched-off modules are left out.`,
  access: "user",
  request: { query: listConnectionsQuery },
  responses: { 200: jsonContent(connectionListOutput, "Connections you see") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/connectors",
  tags: TAGS,
  summary: "Add a connection",
  description:
    `${ABOUT} \`credentials\` and \`settings\` are validated by the kind (errors point into them, e.g. ` +
    "`/credentials/apiKey`). The answer carries the incoming webhook's secret once (`webhookSecret`); rotate it to " +
    "get a new one. Nothing is called on the system until you check or run it.",
  access: "user",
  request: { body: jsonBody(createConnectionInput) },
  responses: {
    201: jsonContent(createdConnectionOutput, "The connection, with its webhook secret (shown once)"),
    403: problemResponse("You are a member, not an owner or admin, of the team"),
    404: problemResponse("No team with this id among yours; or no connector of this kind on this server"),
  },
});

const getRoute = apiRoute({
  method: "get",
  path: "/connectors/{id}",
  tags: TAGS,
  summary: "One connection",
  description: ABOUT,
  access: "user",
  request: { params: connectionParams },
  responses: { 200: jsonContent(connectionOutput, "The connection"), 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/connectors/{id}",
  tags: TAGS,
  summary: "Change a connection",
  description:
    "The fields given change; `credentials` and `settings` are replaced as a whole. A new address or new credentials " +
    `set \`status\` back to \`new\`. ${FOR_MANAGERS}`,
  access: "user",
  request: { params: connectionParams, body: jsonBody(updateConnectionInput) },
  responses: {
    200: jsonContent(connectionOutput, "The connection"),
    403: problemResponse(FOR_MANAGERS),
    404: problemResponse(NOT_FOUND),
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/connectors/{id}",
  tags: TAGS,
  summary: "Delete a connection",
  description: `Its credentials, id mappings and run history go; the tasks and goals it imported stay. ${FOR_MANAGERS}`,
  access: "user",
  request: { params: connectionParams },
  responses: { 204: { description: "Deleted" }, 403: problemResponse(FOR_MANAGERS), 404: problemResponse(NOT_FOUND) },
});

const checkRoute = apiRoute({
  method: "post",
  path: "/connectors/{id}/check",
  tags: TAGS,
  summary: "Check that the system answers and accepts the credentials",
  description:
    "Calls the system now (its version, then an authenticated call). The connection's `status` becomes `ok`, or " +
    "`error` with `lastError`. Anyone who sees the connection may check it.",
  access: "user",
  request: { params: connectionParams },
  responses: { 200: jsonContent(statusOutput, "What the system answered"), 404: problemResponse(NOT_FOUND) },
});

const EXPORTS =
  "By kind: `erp` (Odoo) writes the fields changed here to linked tasks and creates tasks tagged `odoo`; " +
  "`accounting` (POHODA) sends the invoices not exported yet; `learning` (Moodle) sends each linked task's " +
  "completion (done here or not) to its assignment with `core_completion_update_activity_completion_status_manually` " +
  "(course module id, completed 1/0). Moodle takes that only where the activity's completion is manual and only for " +
  "the token's own user: an activity with automatic or no completion tracking (as Moodle reports it), one Moodle " +
  "refuses (`cannotmanualctrack`, `completionnotenabled`, or `status: false` with warnings), a connection syncing " +
  "another Moodle user, and a task whose state Moodle already has or that was changed in Moodle after the last " +
  "export sent it are `skipped` items with the reason in `note` (or `unchanged`), nothing sent; what was sent is " +
  "kept per task, so a repeated export sends nothing again.";

function runRoute(operation: "import" | "export") {
  return apiRoute({
    method: "post",
    path: `/connectors/{id}/${operation}`,
    tags: TAGS,
    summary: operation === "import" ? "Import from the system now" : "Export to the system now",
    description:
      `${operation === "import" ? "Brings the system's records in (what each kind imports is in its section)." : "Sends your records out (what each kind exports is in its section)."} ` +
      `${operation === "export" ? `${EXPORTS} ` : ""}${RUNS} The answer is the finished run. ${FOR_MANAGERS}`,
    access: "user",
    request: { params: connectionParams },
    responses: {
      200: jsonContent(runOutput, "The run, finished (`failed` runs carry the error and maybe a retry time)"),
      403: problemResponse(FOR_MANAGERS),
      404: problemResponse(`${NOT_FOUND}; or the kind has no ${operation}`),
      409: problemResponse("A run of this connection is in progress"),
    },
  });
}
const importRoute = runRoute("import");
const exportRoute = runRoute("export");

const runsRoute = apiRoute({
  method: "get",
  path: "/connectors/{id}/runs",
  tags: TAGS,
  summary: "The connection's last 50 runs",
  description: `What each import, export and webhook did, item by item (up to 200 items each, failures first). ${RUNS}`,
  access: "user",
  request: { params: connectionParams },
  responses: { 200: jsonContent(runListOutput, "Runs, newest first"), 404: problemResponse(NOT_FOUND) },
});

const rotateRoute = apiRoute({
  method: "post",
  path: "/connectors/{id}/webhook-secret",
  tags: TAGS,
  summary: "Replace the incoming webhook's secret",
  description: `The old secret stops working at once; the new one is answered once. ${FOR_MANAGERS}`,
  access: "user",
  request: { params: connectionParams },
  responses: {
    200: jsonContent(webhookSecretOutput, "The new secret"),
    403: problemResponse(FOR_MANAGERS),
    404: problemResponse(NOT_FOUND),
  },
});

const webhookRoute = apiRoute({
  method: "post",
  path: "/connectors/{id}/webhook",
  tags: TAGS,
  summary: "An event from the external system (signed)",
  description:
    "No session: the request is authenticated by its signature, GitHub's format: `X-Hub-Signature-256: sha256=<hex " +
    "HMAC-SHA256 of the raw body with the connection's webhook secret>`, compared in constant time. A system that " +
    "cannot sign (Odoo's \"Send Webhook Notification\" action, Moodle's webhook plugins) may instead put the secret " +
    "in the URL as `?token=<secret>`: simpler, but the secret then sits in that system's configuration and any proxy " +
    "log of the URL, so prefer the signature and use https. A missing or wrong signature and token, or an unknown " +
    "connection: 401, nothing runs. `X-Delivery-Id` (or `X-GitHub-Delivery`; else the " +
    "body's SHA-256) identifies the delivery: one received before answers `duplicate: true` and runs nothing. The " +
    "body is JSON, what each kind accepts is in its section. The event runs now and the answer is the finished run; " +
    "while another run is in progress it waits `queued` and runs within seconds after.",
  access: "public",
  // The signature is over the bytes sent: the raw text is read (and cached) before the validator parses the JSON.
  middleware: [
    async (c, next) => {
      await c.req.text();
      await next();
    },
  ],
  request: {
    params: connectionParams,
    query: z.object({
      token: z.string().max(200).optional().openapi({ description: "The webhook secret, for systems that cannot sign" }),
    }),
    headers: z.object({
      "x-hub-signature-256": z.string().optional().openapi({ description: "sha256=<hex HMAC-SHA256 of the raw body>" }),
      "x-delivery-id": z
        .string()
        .optional()
        .openapi({ description: "The sender's id of this delivery (or `X-GitHub-Delivery`): a repeat of one is a duplicate" }),
    }),
    body: { required: true, content: { "application/json": { schema: z.record(z.string(), z.unknown()) } } },
  },
  responses: {
    200: jsonContent(webhookAnswer, "Processed (or a duplicate)"),
    401: problemResponse("Not signed with this connection's secret, or no such connection"),
    404: problemResponse("The kind takes no webhook"),
  },
});

export const connectorsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listConnections(c.var.actor, c.req.valid("query").kind), 200))
  .openapi(createRoute, async (c) => c.json(await createConnection(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getConnection(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    c.json(await updateConnection(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteConnection(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(checkRoute, async (c) => c.json(await checkConnection(c.var.actor, c.req.valid("param").id), 200))
  .openapi(importRoute, async (c) => c.json(await runOperation(c.var.actor, c.req.valid("param").id, "import"), 200))
  .openapi(exportRoute, async (c) => c.json(await runOperation(c.var.actor, c.req.valid("param").id, "export"), 200))
  .openapi(runsRoute, async (c) => c.json(await listConnectionRuns(c.var.actor, c.req.valid("param").id), 200))
  .openapi(rotateRoute, async (c) => c.json(await rotateWebhookSecret(c.var.actor, c.req.valid("param").id), 200))
  .openapi(webhookRoute, async (c) => {
    const rawBody = await c.req.text();
    const answer = await receiveWebhook(c.req.valid("param").id, rawBody, {
      signature: requestHeader(c, "x-hub-signature-256"),
      deliveryId: requestHeader(c, "x-delivery-id") ?? requestHeader(c, "x-github-delivery"),
      token: c.req.valid("query").token,
    });
    return c.json(answer, 200);
  });
