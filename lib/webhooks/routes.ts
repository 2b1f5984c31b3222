import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { DISABLE_AFTER_FAILED_DELIVERIES, MAX_ATTEMPTS, MAX_REDIRECTS } from "./deliver";
import {
  createdEndpointOutput,
  createEndpointInput,
  deliveryDetailOutput,
  deliveryListOutput,
  deliveryParams,
  endpointIdParams,
  endpointListOutput,
  endpointOutput,
  listDeliveriesQuery,
  rotatedSecretOutput,
  TEST_MESSAGE_TYPE,
  updateEndpointInput,
} from "./schema";
import {
  createWebhookEndpoint,
  deleteWebhookEndpoint,
  getWebhookDelivery,
  getWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  MAX_ENDPOINTS,
  replayWebhookDelivery,
  rotateWebhookSecret,
  testWebhookEndpoint,
  updateWebhookEndpoint,
} from "./service";

// Webhooks live under /api/v1 only (no root alias).
const TAGS = ["Webhooks"];
const ABOUT =
  "Outgoing webhooks: Spolu POSTs the events you may see (those whose audience includes you: your tasks, your " +
  "requests, your projects...) to the endpoints you register, signed per Standard Webhooks v1 (HMAC-SHA256). " +
  "Every message has the headers `webhook-id` (the message id, the same on every retry and on a replay: " +
  "deduplicate on it), `webhook-timestamp` (Unix seconds of the attempt; reject old ones, e.g. beyond 5 minutes) " +
  'and `webhook-signature` (`v1,<base64 HMAC-SHA256 of "{id}.{timestamp}.{body}">` keyed with the base64-decoded ' +
  "part of your `whsec_` secret; space-separated, two of them during a rotation). The body is JSON " +
  "`{type, timestamp, data}`, `data` holding the event's fields and `taskId`, `actorId` and `eventId`. A 2xx " +
  `answer within WEBHOOK_TIMEOUT_MS (10 s by default) is a success; anything else is retried ${MAX_ATTEMPTS - 1} times ` +
  "after 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h and 8 h (about 16 hours in all), then the delivery is `failed`. " +
  `After ${DISABLE_AFTER_FAILED_DELIVERIES} deliveries in a row failed the endpoint is disabled and you are notified. ` +
  `Redirects are followed up to ${MAX_REDIRECTS} times, each target checked like the first. Private, loopback and ` +
  "other non-public addresses are refused, on registration for IP addresses and on every attempt after resolving " +
  "host names (unless the operator allows them with ALLOW_PRIVATE_NETWORK_TARGETS). Only you see your endpoints and their " +
  "deliveries: to anyone else every `/webhooks/{id}` route answers 404.";
const NOT_FOUND = "No such webhook endpoint of yours (another user's answers the same)";
const NO_DELIVERY = "No such endpoint of yours, or no such delivery of it";
const DISABLED = "The endpoint is disabled: enable it first";

const listRoute = apiRoute({
  method: "get",
  path: "/webhooks",
  tags: TAGS,
  summary: "Your webhook endpoints",
  description: `${ABOUT} Oldest first, each with its status, consecutive failures and why it was disabled; never the secret.`,
  access: "user",
  responses: { 200: jsonContent(endpointListOutput, "Your endpoints") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/webhooks",
  tags: TAGS,
  summary: "Register a webhook endpoint",
  description:
    `${ABOUT} The answer carries the endpoint's signing secret: it is never shown again (rotate it to get a new ` +
    `one). \`events\` empty or left out: every event type. At most ${MAX_ENDPOINTS} endpoints per user (409). ` +
    "A bad URL (not http(s), with a user name or password, or an IP address in a refused range) or an unknown " +
    "event type is a 400 naming the field.",
  access: "user",
  request: { body: jsonBody(createEndpointInput) },
  responses: {
    201: jsonContent(createdEndpointOutput, "The new endpoint, with its secret"),
    409: problemResponse(`You have ${MAX_ENDPOINTS} endpoints already`),
  },
});

const getRoute = apiRoute({
  method: "get",
  path: "/webhooks/{id}",
  tags: TAGS,
  summary: "One of your webhook endpoints",
  description: "The endpoint with its status, consecutive failures and disabled reason; never the secret.",
  access: "user",
  request: { params: endpointIdParams },
  responses: { 200: jsonContent(endpointOutput, "The endpoint"), 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/webhooks/{id}",
  tags: TAGS,
  summary: "Change, disable or re-enable a webhook endpoint",
  description:
    "The fields given change; give at least one. A new `url` is checked as on registration. `enabled: false` " +
    "stops deliveries: pending retries end as `failed` and events that happen meanwhile are not queued. " +
    "`enabled: true` turns a disabled endpoint (by you or after repeated failures) back on and resets its " +
    "consecutive failures; replay the deliveries you need.",
  access: "user",
  request: { params: endpointIdParams, body: jsonBody(updateEndpointInput) },
  responses: { 200: jsonContent(endpointOutput, "The updated endpoint"), 404: problemResponse(NOT_FOUND) },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/webhooks/{id}",
  tags: TAGS,
  summary: "Delete a webhook endpoint",
  description: "The endpoint goes with its deliveries and their attempt log; pending retries are dropped.",
  access: "user",
  request: { params: endpointIdParams },
  responses: { 204: { description: "Deleted" }, 404: problemResponse(NOT_FOUND) },
});

const rotateRoute = apiRoute({
  method: "post",
  path: "/webhooks/{id}/rotate-secret",
  tags: TAGS,
  summary: "Rotate an endpoint's signing secret",
  description:
    "Makes a new secret and answers it (the only time it is shown). For 24 hours (until `previousSecretExpiresAt`) " +
    "every message carries two signatures in `webhook-signature`, the new secret's first and the previous one's " +
    "second, so that the receiver can switch over; afterwards only the new one. Rotating again within those 24 " +
    "hours drops the oldest secret at once (only the last two sign).",
  access: "user",
  request: { params: endpointIdParams },
  responses: { 200: jsonContent(rotatedSecretOutput, "The new secret"), 404: problemResponse(NOT_FOUND) },
});

const testRoute = apiRoute({
  method: "post",
  path: "/webhooks/{id}/test",
  tags: TAGS,
  summary: "Send a test message",
  description:
    `Queues a \`${TEST_MESSAGE_TYPE}\` message (whatever the endpoint subscribes to) and attempts it at once; answers ` +
    "the delivery with that attempt (status code, error, duration, response excerpt). A failed test is retried " +
    "like any delivery. Counted against the stricter rate limit, per user.",
  access: "user",
  limit: "strict",
  request: { params: endpointIdParams },
  responses: {
    201: jsonContent(deliveryDetailOutput, "The test delivery and its first attempt"),
    404: problemResponse(NOT_FOUND),
    409: problemResponse(DISABLED),
  },
});

const listDeliveriesRoute = apiRoute({
  method: "get",
  path: "/webhooks/{id}/deliveries",
  tags: TAGS,
  summary: "An endpoint's deliveries",
  description:
    "Newest first, a page at a time (20 by default), each with its status, attempt count, last result and when " +
    "the next attempt is due. `status` filters.",
  access: "user",
  request: { params: endpointIdParams, query: listDeliveriesQuery },
  responses: { 200: jsonContent(deliveryListOutput, "A page of deliveries"), 404: problemResponse(NOT_FOUND) },
});

const getDeliveryRoute = apiRoute({
  method: "get",
  path: "/webhooks/{id}/deliveries/{deliveryId}",
  tags: TAGS,
  summary: "One delivery with every attempt",
  description: "Every attempt, oldest first: when, the HTTP status, the error, the duration and the response's first 1024 bytes.",
  access: "user",
  request: { params: deliveryParams },
  responses: { 200: jsonContent(deliveryDetailOutput, "The delivery"), 404: problemResponse(NO_DELIVERY) },
});

const replayRoute = apiRoute({
  method: "post",
  path: "/webhooks/{id}/deliveries/{deliveryId}/replay",
  tags: TAGS,
  summary: "Send a delivery again",
  description:
    "Queues a new delivery of the same message and attempts it at once; answers it. Following Standard Webhooks, " +
    "it keeps the original `webhook-id` and body (the id stays the same when a message is sent again: a receiver " +
    "that processed it already can tell) and is signed with a fresh timestamp; it is retried like any delivery. " +
    "Only a delivery that has finished (`succeeded` or `failed`) can be replayed (409 while it is pending), on an " +
    "enabled endpoint (409). Counted against the stricter rate limit, per user.",
  access: "user",
  limit: "strict",
  request: { params: deliveryParams },
  responses: {
    201: jsonContent(deliveryDetailOutput, "The new delivery and its first attempt"),
    404: problemResponse(NO_DELIVERY),
    409: problemResponse(`${DISABLED}; or the delivery is still pending`),
  },
});

export const webhooksRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listWebhookEndpoints(c.var.actor), 200))
  .openapi(createRoute, async (c) => c.json(await createWebhookEndpoint(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getWebhookEndpoint(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    c.json(await updateWebhookEndpoint(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteWebhookEndpoint(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(rotateRoute, async (c) => c.json(await rotateWebhookSecret(c.var.actor, c.req.valid("param").id), 200))
  .openapi(testRoute, async (c) => c.json(await testWebhookEndpoint(c.var.actor, c.req.valid("param").id), 201))
  .openapi(listDeliveriesRoute, async (c) =>
    c.json(await listWebhookDeliveries(c.var.actor, c.req.valid("param").id, c.req.valid("query")), 200),
  )
  .openapi(getDeliveryRoute, async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    return c.json(await getWebhookDelivery(c.var.actor, id, deliveryId), 200);
  })
  .openapi(replayRoute, async (c) => {
    const { id, deliveryId } = c.req.valid("param");
    return c.json(await replayWebhookDelivery(c.var.actor, id, deliveryId), 201);
  });
