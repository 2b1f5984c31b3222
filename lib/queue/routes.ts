import { apiRoute, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { listQueueItemsQuery, queueItemListOutput, queueItemOutput, queueItemParams, queueSummaryOutput } from "./schema";
import { cancelQueueItem, listQueue, queueSummary } from "./service";

// The work queue (lib/queue) for administrators, under /api/v1 only.
const TAGS = ["Admin"];
const ADMINS_ONLY =
  "Administrators only (the accounts whose email is in ADMIN_EMAILS): anyone else signed in gets 403, like every " +
  "admin route.";

const summaryRoute = apiRoute({
  method: "get",
  path: "/admin/queue",
  tags: TAGS,
  summary: "The work queue at a glance (admins)",
  description:
    `${ADMINS_ONLY} Every kind of queued work (webhook deliveries, connector runs, deploys, transcriptions, ` +
    "reminders) with how many of its items are pending, running, done, dead and cancelled, and the back-off table " +
    "every retry follows. Finished items are forgotten after a week (dead ones after 30 days).",
  access: "admin",
  responses: { 200: jsonContent(queueSummaryOutput, "Every kind") },
});

const listRoute = apiRoute({
  method: "get",
  path: "/admin/queue/items",
  tags: TAGS,
  summary: "Queued work, by kind and state (admins)",
  description:
    `${ADMINS_ONLY} Queue items newest first, a page at a time (\`cursor\`), filtered by \`kind\` and \`state\`: ` +
    "when each is due, how many attempts it had of how many, the last error, and which process holds a running one.",
  access: "admin",
  request: { query: listQueueItemsQuery },
  responses: { 200: jsonContent(queueItemListOutput, "A page of items") },
});

const cancelRoute = apiRoute({
  method: "post",
  path: "/admin/queue/items/{id}/cancel",
  tags: TAGS,
  summary: "Cancel a queued item (admins)",
  description:
    `${ADMINS_ONLY} A pending item is never attempted; a running one finishes its attempt, which records nothing ` +
    "in the queue and is not retried. The domain's own record (a delivery, a run) keeps the state it had. An item " +
    "that has finished (done, dead, cancelled) cannot be cancelled: 409.",
  access: "admin",
  request: { params: queueItemParams },
  responses: {
    200: jsonContent(queueItemOutput, "The item, cancelled"),
    404: problemResponse("No queue item with this id"),
    409: problemResponse("The item has finished already"),
  },
});

export const queueRoutes = createRouter()
  .openapi(summaryRoute, async (c) => c.json(await queueSummary(), 200))
  .openapi(listRoute, async (c) => c.json(await listQueue(c.req.valid("query")), 200))
  .openapi(cancelRoute, async (c) => c.json(await cancelQueueItem(c.req.valid("param").id), 200));
