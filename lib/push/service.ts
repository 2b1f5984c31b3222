import webpush from "web-push";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { log } from "../log";
import { bareHost, hostRefusal, isLoopbackHost } from "../net/addresses";
import { OutboundError, outboundRequest, policyFor } from "../net/client";
import type { ChannelResult } from "../notifications/channel";
import {
  deleteSubscription,
  deleteUserSubscription,
  deleteUserSubscriptionByEndpoint,
  listUserSubscriptions,
  recordDelivery,
  recordFailure,
  saveSubscription,
  userExists,
  type PushSubscriptionRow,
} from "./repo";
import type {
  DeviceResultOutput,
  PushResultOutput,
  SendPushInput,
  SubscribeInput,
  SubscriptionListOutput,
  SubscriptionOutput,
  UnsubscribeInput,
  VapidPublicKeyOutput,
} from "./schema";
import { vapidDetails, vapidKeys, type VapidDetails } from "./vapid";

/*
 * Web Push (RFC 8030, 8291, 8292). A browser subscribes with our VAPID public key and hands us its
 * PushSubscription; we send each message encrypted (aes128gcm) and signed (VAPID) to every device of the user at once.
 *
 * - A user keeps at most MAX_SUBSCRIPTIONS devices: subscribing one more deletes their oldest other subscription
 *   (browsers drop subscriptions without telling us, so stale ones would otherwise pile up).
 * - Push services answering 404 or 410 for a subscription mean it is gone: it is deleted. Any other failure (5xx,
 *   429, 401/403 after a VAPID key change, a timeout, a refused address) counts in failure_count; the subscription
 *   stays, and the next delivery that works resets the count.
 * - Endpoints come from browsers, so they are addresses on the internet: https only, and never in private, loopback,
 *   link-local or other special ranges, nor a `localhost` name (lib/net: checked on the literal address when
 *   subscribing, and on every address the name resolves to when sending, at connection time). Where
 *   ALLOW_PRIVATE_NETWORK_TARGETS allows push to reach loopback addresses, http is accepted too, for loopback hosts
 *   only (a push service on the same machine).
 * - A message is sent with TTL one day, urgency normal and a PUSH_TIMEOUT_MS limit for the whole request. Its JSON
 *   (title, body, url, tag, data) is cut to fit the 4 KB push services accept: data goes first, then the body.
 *
 * web-push's generateRequestDetails builds each request (encryption, VAPID JWT, headers); it is sent here rather than
 * with web-push's sendNotification, which speaks https only and cannot refuse private addresses at connection time.
 */

/** The push message as the service worker (public/sw.js) shows it. */
export interface PushMessage {
  title: string;
  body: string;
  /** The page to open when the notification is clicked. */
  url?: string;
  /** Notifications with the same tag replace each other on the device. */
  tag?: string;
  data?: Record<string, unknown>;
}

export const MAX_SUBSCRIPTIONS = 20;
export const PUSH_TTL_SECONDS = 24 * 3600;
export const PUSH_TIMEOUT_MS = 10_000;
/** Push services accept 4096 bytes of encrypted body: 86 bytes of header and 17 of padding and tag leave 3993. */
const PAYLOAD_MAX_BYTES = 3900;
const USER_AGENT_MAX = 500;

const subscriptionNotFound = () => new AppError("not_found", "No such push subscription of yours");

/** Why an endpoint may not be pushed to, judged on the URL alone; null when it may. */
function endpointProblem(endpoint: string): string | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return "must be an https URL";
  }
  if (url.username || url.password) return "must not carry a user name or password";
  const policy = policyFor("push");
  if (url.protocol === "http:") {
    return isLoopbackHost(bareHost(url)) && !hostRefusal(url, policy) ? null : "must be an https URL";
  }
  if (url.protocol !== "https:") return "must be an https URL";
  if (hostRefusal(url, policy)) {
    return "must be a push service on the internet, not a private, loopback or link-local address";
  }
  return null;
}

interface Delivery {
  statusCode: number | null;
  error: string | null;
}

/** POSTs a prepared push request; answers the push service's status, or the error that kept it from answering. */
async function post(request: webpush.RequestDetails): Promise<Delivery> {
  const problem = endpointProblem(request.endpoint);
  if (problem) return { statusCode: null, error: `refused: the endpoint ${problem}` };
  try {
    const answer = await outboundRequest("push", {
      method: "POST",
      url: request.endpoint,
      headers: request.headers as Record<string, string>,
      body: request.body ?? undefined,
      timeoutMs: PUSH_TIMEOUT_MS,
      // Push services answer a few bytes (an error's description at most): nothing more is read.
      maxBytes: 4096,
      overflow: "truncate",
    });
    return { statusCode: answer.status, error: null };
  } catch (error) {
    if (!(error instanceof OutboundError)) throw error;
    const host = bareHost(new URL(request.endpoint));
    const reason =
      error.reason === "refused" && error.address
        ? `refused: ${host} resolves to ${error.address}, a private or special address`
        : error.reason === "refused"
          ? `refused: ${error.message}`
          : error.reason === "timeout"
            ? `no answer within ${PUSH_TIMEOUT_MS / 1000} s`
            : error.message;
    return { statusCode: null, error: reason };
  }
}

/** The message as JSON no longer than a push service takes: data is dropped first, then the body shortened. */
export function pushPayload(message: PushMessage): string {
  const full = {
    title: message.title,
    body: message.body,
    url: message.url ?? null,
    tag: message.tag ?? null,
    data: message.data ?? {},
  };
  const fits = (value: object) => Buffer.byteLength(JSON.stringify(value)) <= PAYLOAD_MAX_BYTES;
  if (fits(full)) return JSON.stringify(full);
  const lean = { ...full, data: {} };
  const characters = Array.from(lean.body);
  let low = 0;
  let high = characters.length;
  while (low < high) {
    const middle = Math.ceil((low + high) / 2);
    if (fits({ ...lean, body: `${characters.slice(0, middle).join("")}…` })) low = middle;
    else high = middle - 1;
  }
  const shortened = { ...lean, body: `${characters.slice(0, low).join("")}…` };
  if (fits(shortened)) return JSON.stringify(shortened);
  // A title of thousands of characters (callers keep them short): keep what fits of it.
  const title = Array.from(lean.title);
  let length = title.length;
  while (length > 0 && !fits({ ...lean, body: "", title: `${title.slice(0, length).join("")}…` }))
    length = Math.floor(length * 0.8);
  return JSON.stringify({ ...lean, body: "", title: `${title.slice(0, length).join("")}…` });
}

function origin(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return "?";
  }
}

async function deliverToDevice(
  subscription: PushSubscriptionRow,
  payload: string,
  vapid: VapidDetails,
): Promise<DeviceResultOutput> {
  const device = { subscriptionId: subscription.id, userAgent: subscription.userAgent };
  let delivery: Delivery;
  try {
    const request = webpush.generateRequestDetails(
      { endpoint: subscription.endpoint, keys: { p256dh: subscription.p256dh, auth: subscription.auth } },
      payload,
      { vapidDetails: vapid, TTL: PUSH_TTL_SECONDS, contentEncoding: "aes128gcm", urgency: "normal" },
    );
    delivery = await post(request);
  } catch (error) {
    delivery = { statusCode: null, error: error instanceof Error ? error.message : String(error) };
  }
  const { statusCode } = delivery;
  if (statusCode !== null && statusCode >= 200 && statusCode < 300) {
    await recordDelivery(subscription.id);
    return { ...device, outcome: "delivered", statusCode, error: null };
  }
  if (statusCode === 404 || statusCode === 410) {
    await deleteSubscription(subscription.id);
    log.info("Push subscription gone: deleted", {
      subscriptionId: subscription.id,
      pushService: origin(subscription.endpoint),
      statusCode,
    });
    return {
      ...device,
      outcome: "removed",
      statusCode,
      error: `the push service answered ${statusCode}: the subscription is gone`,
    };
  }
  await recordFailure(subscription.id);
  const error = delivery.error ?? `the push service answered ${statusCode}`;
  log.warn("Push delivery failed", {
    subscriptionId: subscription.id,
    pushService: origin(subscription.endpoint),
    statusCode,
    error,
  });
  return { ...device, outcome: "failed", statusCode, error };
}

/** Sends the message to every device of the user at once; answers the overall result and each device's. */
async function deliverToUser(userId: string, message: PushMessage): Promise<PushResultOutput> {
  const subscriptions = await listUserSubscriptions(userId);
  if (subscriptions.length === 0) return { status: "skipped", reason: "no push subscription", devices: [] };
  const vapid = await vapidDetails();
  const payload = pushPayload(message);
  const devices = await Promise.all(subscriptions.map((subscription) => deliverToDevice(subscription, payload, vapid)));
  if (devices.some((device) => device.outcome === "delivered")) return { status: "sent", reason: null, devices };
  const reasons = devices.map((device) => device.error ?? "failed");
  return { status: "failed", reason: `no device accepted the message: ${reasons.join("; ")}`, devices };
}

/** Sends a push message to every device the user subscribed (for notifications and reminders). */
export async function sendPushToUser(userId: string, message: PushMessage): Promise<ChannelResult> {
  try {
    const result = await deliverToUser(userId, message);
    return result.status === "sent" ? { status: "sent" } : { status: result.status, reason: result.reason ?? result.status };
  } catch (error) {
    // The VAPID keys could not be read, the database failed...: the other channels still go out.
    const reason = error instanceof Error ? error.message : String(error);
    log.error("Push sending failed", { userId, error: reason });
    return { status: "failed", reason: `push could not be sent: ${reason}` };
  }
}

function toSubscriptionOutput(row: PushSubscriptionRow): SubscriptionOutput {
  return {
    id: row.id,
    endpoint: row.endpoint,
    userAgent: row.userAgent,
    createdAt: row.createdAt.toISOString(),
    lastSuccessAt: row.lastSuccessAt?.toISOString() ?? null,
    failureCount: row.failureCount,
  };
}

export async function getVapidPublicKey(): Promise<VapidPublicKeyOutput> {
  return { publicKey: (await vapidKeys()).publicKey };
}

/** Stores the browser's subscription for the actor; `created` is false when it was theirs already (keys updated). */
export async function subscribe(
  actor: Actor,
  input: SubscribeInput,
  userAgent: string | undefined,
): Promise<{ subscription: SubscriptionOutput; created: boolean }> {
  const problem = endpointProblem(input.endpoint);
  if (problem) throw invalidField("body", "/endpoint", problem);
  const { row, created } = await saveSubscription(
    actor.userId,
    {
      endpoint: input.endpoint,
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      userAgent: userAgent?.slice(0, USER_AGENT_MAX) || null,
    },
    MAX_SUBSCRIPTIONS,
  );
  return { subscription: toSubscriptionOutput(row), created };
}

export async function listSubscriptions(actor: Actor): Promise<SubscriptionListOutput> {
  return { items: (await listUserSubscriptions(actor.userId)).map(toSubscriptionOutput) };
}

export async function removeSubscription(actor: Actor, id: string): Promise<void> {
  if (!(await deleteUserSubscription(actor.userId, id))) throw subscriptionNotFound();
}

export async function unsubscribe(actor: Actor, input: UnsubscribeInput): Promise<void> {
  if (!(await deleteUserSubscriptionByEndpoint(actor.userId, input.endpoint))) throw subscriptionNotFound();
}

export const TEST_MESSAGE: PushMessage = {
  title: "Spolu",
  body: "Push notifications work on this device.",
  url: "/",
  tag: "spolu-push-test",
};

/** Sends a test message to all of the actor's devices. */
export async function sendTestPush(actor: Actor): Promise<PushResultOutput> {
  return deliverToUser(actor.userId, { ...TEST_MESSAGE, data: { kind: "push.test" } });
}

/** An administrator's message to a user's devices. */
export async function sendAdminPush(actor: Actor, input: SendPushInput): Promise<PushResultOutput> {
  if (!(await userExists(input.userId))) throw new AppError("not_found", "No such user");
  log.info("Push sent by an administrator", { adminId: actor.userId, userId: input.userId });
  return deliverToUser(input.userId, {
    title: input.title,
    body: input.body,
    url: input.url,
    data: { kind: "push.admin" },
  });
}
