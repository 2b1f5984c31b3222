import { requestHeader } from "../api/request-header";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  pushResultOutput,
  sendPushInput,
  subscribeInput,
  subscriptionIdParams,
  subscriptionListOutput,
  subscriptionOutput,
  unsubscribeInput,
  vapidPublicKeyOutput,
} from "./schema";
import {
  getVapidPublicKey,
  listSubscriptions,
  MAX_SUBSCRIPTIONS,
  removeSubscription,
  sendAdminPush,
  sendTestPush,
  subscribe,
  unsubscribe,
} from "./service";

// Web push lives under /api/v1 only (no root alias).
const TAGS = ["Push"];
const NOT_FOUND = "No such subscription, or it is not yours (both answer the same)";
const DELIVERY =
  "Each device is sent the message at once, encrypted (aes128gcm) and signed with the VAPID key, with TTL one day, " +
  "urgency normal and a 10 s limit. A device whose push service answers 404 or 410 is deleted (`removed`); any " +
  "other failure (`failed`) keeps it and counts in its `failureCount`. `status` is `sent` when at least one device " +
  "accepted the message, `skipped` when there is no device, else `failed`; the answer is 200 in every case.";

const publicKeyRoute = apiRoute({
  method: "get",
  path: "/push/vapid-public-key",
  tags: TAGS,
  summary: "The VAPID public key to subscribe with",
  description:
    "Pass it as `applicationServerKey` to `pushManager.subscribe()`. It is `VAPID_PUBLIC_KEY` when configured; " +
    "otherwise a key pair generated on first use and kept in the database, so it stays the same across restarts " +
    "and processes. Public: it is no secret.",
  access: "public",
  responses: { 200: jsonContent(vapidPublicKeyOutput, "The public key, base64url") },
});

const subscribeRoute = apiRoute({
  method: "post",
  path: "/push/subscriptions",
  tags: TAGS,
  summary: "Subscribe this browser to push notifications",
  description:
    "Send `PushSubscription.toJSON()` as it is. `keys.p256dh` must be a P-256 public key (65 bytes, uncompressed) " +
    "and `keys.auth` a 16-byte secret, both base64url. The endpoint must be an https URL of a push service on the " +
    "internet: private, loopback and link-local addresses are refused unless `ALLOW_PRIVATE_NETWORK_TARGETS` allows " +
    "them for push (http is then accepted for a loopback address it allows). An endpoint you subscribed already is updated (200); one stored " +
    "for another user moves to you, as a browser does when someone else signs in on it (201). The User-Agent is " +
    `kept to tell devices apart. You keep at most ${MAX_SUBSCRIPTIONS} devices: one more deletes your oldest other one.`,
  access: "user",
  request: { body: jsonBody(subscribeInput) },
  responses: {
    200: jsonContent(subscriptionOutput, "The endpoint was yours already: its keys are updated"),
    201: jsonContent(subscriptionOutput, "The new subscription"),
  },
});

const listRoute = apiRoute({
  method: "get",
  path: "/push/subscriptions",
  tags: TAGS,
  summary: "Your subscribed devices",
  description:
    "Oldest first, without their keys. Subscriptions a push service reported gone (404, 410) are deleted and not listed.",
  access: "user",
  responses: { 200: jsonContent(subscriptionListOutput, "Your subscriptions") },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/push/subscriptions/{id}",
  tags: TAGS,
  summary: "Remove one of your devices",
  description: "The device gets no more push messages. Only your own subscriptions: any other id answers 404.",
  access: "user",
  request: { params: subscriptionIdParams },
  responses: { 204: { description: "Removed" }, 404: problemResponse(NOT_FOUND) },
});

const unsubscribeRoute = apiRoute({
  method: "post",
  path: "/push/unsubscribe",
  tags: TAGS,
  summary: "Unsubscribe this browser by its endpoint",
  description:
    "What a browser calls after `subscription.unsubscribe()`: it knows its endpoint, not our id. 404 when none of " +
    "your subscriptions has that endpoint (it was removed already, or belongs to someone else).",
  access: "user",
  request: { body: jsonBody(unsubscribeInput) },
  responses: { 204: { description: "Removed" }, 404: problemResponse(NOT_FOUND) },
});

const testRoute = apiRoute({
  method: "post",
  path: "/push/test",
  tags: TAGS,
  summary: "Send a test notification to all your devices",
  description: `Shows "Push notifications work on this device." on every device you subscribed; the answer says how each fared. ${DELIVERY}`,
  access: "user",
  responses: { 200: jsonContent(pushResultOutput, "How the message fared, per device") },
});

const sendRoute = apiRoute({
  method: "post",
  path: "/push/send",
  tags: TAGS,
  summary: "Send a notification to a user's devices (admins)",
  description:
    "Administrators only (`ADMIN_EMAILS`); anyone else gets 403. The notification shows `title` and `body`; a click " +
    `opens \`url\` (a path or a URL of this site; the start page by default). 404 when there is no such user. ${DELIVERY}`,
  access: "admin",
  request: { body: jsonBody(sendPushInput) },
  responses: { 200: jsonContent(pushResultOutput, "How the message fared, per device"), 404: problemResponse("No such user") },
});

export const pushRoutes = createRouter()
  .openapi(publicKeyRoute, async (c) => c.json(await getVapidPublicKey(), 200))
  .openapi(subscribeRoute, async (c) => {
    const { subscription, created } = await subscribe(c.var.actor, c.req.valid("json"), requestHeader(c, "user-agent"));
    return created ? c.json(subscription, 201) : c.json(subscription, 200);
  })
  .openapi(listRoute, async (c) => c.json(await listSubscriptions(c.var.actor), 200))
  .openapi(deleteRoute, async (c) => {
    await removeSubscription(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(unsubscribeRoute, async (c) => {
    await unsubscribe(c.var.actor, c.req.valid("json"));
    return c.body(null, 204);
  })
  .openapi(testRoute, async (c) => c.json(await sendTestPush(c.var.actor), 200))
  .openapi(sendRoute, async (c) => c.json(await sendAdminPush(c.var.actor, c.req.valid("json")), 200));
