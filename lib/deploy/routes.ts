import { apiRoute, jsonContent, problemResponse } from "../api/route";
import { requestHeader } from "../api/request-header";
import { createRouter } from "../api/router";
import { deployRunListOutput, deployWebhookAnswer, deployWebhookHeaders, deployWebhookPayload } from "./schema";
import { listDeploys, receiveDeploy, verifyDeployDelivery } from "./service";

const TAGS = ["Deploy"];

const webhookRoute = apiRoute({
  method: "post",
  path: "/deploy/webhook",
  tags: TAGS,
  summary: "GitHub's webhook: deploy a push (signed)",
  description:
    "Point a GitHub webhook here (content type `application/json`, secret = DEPLOY_WEBHOOK_SECRET). No session: the " +
    "request is authenticated by `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body>`, compared in " +
    "constant time before the body is read as JSON; a missing or wrong signature is 401 and runs nothing. 404 while " +
    "DEPLOY_WEBHOOK_SECRET or DEPLOY_COMMAND is unset. `ping` answers 200 and records nothing. A `push` of " +
    "DEPLOY_REF (every ref when unset) is queued (202) and DEPLOY_COMMAND runs in the background, one run at a time " +
    "across all processes, oldest first, within DEPLOY_TIMEOUT_MS (then killed: `failed`). Other refs and other " +
    "events are recorded as `skipped` (200). A delivery id received before answers 200 `duplicate: true` with its " +
    "run and runs nothing again.",
  access: "public",
  module: "deploy",
  // The signature is over the bytes sent: checked on the raw body, before the validator parses it.
  middleware: [
    async (c, next) => {
      verifyDeployDelivery(Buffer.from(await c.req.arrayBuffer()), requestHeader(c, "x-hub-signature-256"));
      await next();
    },
  ],
  request: {
    headers: deployWebhookHeaders,
    body: { required: true, content: { "application/json": { schema: deployWebhookPayload } } },
  },
  responses: {
    200: jsonContent(deployWebhookAnswer, "`ping`, a skipped delivery, or a duplicate"),
    202: jsonContent(deployWebhookAnswer, "Queued: the command runs after the runs before it"),
    401: problemResponse("Not signed with DEPLOY_WEBHOOK_SECRET"),
  },
});

const listRoute = apiRoute({
  method: "get",
  path: "/admin/deploys",
  tags: TAGS,
  summary: "The last 50 deploy webhook deliveries (administrators)",
  description:
    "Newest first: each delivery's event, ref, status, exit code and the last 4 KB of the command's output. Past " +
    "runs stay listed after DEPLOY_WEBHOOK_SECRET is unset.",
  access: "admin",
  module: "deploy",
  responses: { 200: jsonContent(deployRunListOutput, "Deliveries, newest first") },
});

export const deployRoutes = createRouter()
  .openapi(webhookRoute, async (c) => {
    const headers = c.req.valid("header");
    const answer = await receiveDeploy(
      { event: headers["x-github-event"], deliveryId: headers["x-github-delivery"] },
      c.req.valid("json"),
    );
    return answer.run?.status === "queued" && !answer.duplicate ? c.json(answer, 202) : c.json(answer, 200);
  })
  .openapi(listRoute, async (c) => c.json(await listDeploys(), 200));
