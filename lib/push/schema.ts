import { ECDH } from "node:crypto";
import { z } from "@hono/zod-openapi";

export const ENDPOINT_MAX = 2048;
export const TITLE_MAX = 120;
export const BODY_MAX = 600;
export const URL_MAX = 1000;
export const TAG_MAX = 64;

/** The bytes of a base64url text (padding allowed, as some browsers send it), or null when it is not base64url. */
export function decodeBase64Url(value: string): Buffer | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(value)) return null;
  return Buffer.from(value.replace(/=+$/, ""), "base64url");
}

/** Whether the bytes are an uncompressed point on P-256 (0x04 || x || y), as browsers give `p256dh`. */
function isP256Point(bytes: Buffer): boolean {
  if (bytes.length !== 65 || bytes[0] !== 0x04) return false;
  try {
    ECDH.convertKey(bytes, "prime256v1");
    return true;
  } catch {
    return false;
  }
}

const p256dh = z
  .string({ error: "must be a string" })
  .refine((value) => {
    const bytes = decodeBase64Url(value);
    return bytes !== null && isP256Point(bytes);
  }, "must be the browser's P-256 public key: base64url of a 65-byte uncompressed point")
  .transform((value) => value.replace(/=+$/, ""))
  .openapi({ description: "The browser's P-256 public key: base64url of 65 bytes (an uncompressed point)" });

const auth = z
  .string({ error: "must be a string" })
  .refine((value) => decodeBase64Url(value)?.length === 16, "must be the browser's auth secret: base64url of 16 bytes")
  .transform((value) => value.replace(/=+$/, ""))
  .openapi({ description: "The browser's auth secret: base64url of 16 bytes" });

/** A push service address; who may be pushed to is decided by the service (it knows the configuration). */
const endpoint = z
  .url({ protocol: /^https?$/, error: "must be an https URL (the push service address the browser gave)" })
  .max(ENDPOINT_MAX, `must be at most ${ENDPOINT_MAX} characters`)
  .openapi({
    description:
      "The push service address (`PushSubscription.endpoint`). An https URL; http only for a loopback address that " +
      "`ALLOW_PRIVATE_NETWORK_TARGETS` allows for push. Addresses in private, loopback and link-local ranges are " +
      "refused unless `ALLOW_PRIVATE_NETWORK_TARGETS` allows them.",
    example: "https://fcm.googleapis.com/fcm/send/c1KrmpTuRm4:APA91bH...",
  });

/** What `PushSubscription.toJSON()` gives: those fields and no others (an unknown one is a 400 naming it). */
export const subscribeInput = z
  .strictObject({
    endpoint,
    expirationTime: z.number({ error: "must be a number of milliseconds or null" }).nullable().optional().openapi({
      description: "As the browser gives it; accepted and not used (a 404 or 410 from the push service ends a subscription)",
    }),
    keys: z.strictObject({ p256dh, auth }, { error: "must be an object with p256dh and auth" }),
  })
  .openapi("PushSubscriptionInput", { description: "The browser's `PushSubscription.toJSON()`, sent as it is" });
export type SubscribeInput = z.infer<typeof subscribeInput>;

export const unsubscribeInput = z
  .strictObject({
    endpoint: z
      .string({ error: "must be a string" })
      .min(1, "must not be empty")
      .max(ENDPOINT_MAX, `must be at most ${ENDPOINT_MAX} characters`),
  })
  .openapi("PushUnsubscribeInput", { description: "The endpoint of the subscription to end, as the browser knows it" });
export type UnsubscribeInput = z.infer<typeof unsubscribeInput>;

export const subscriptionIdParams = z.object({ id: z.uuid("must be a push subscription id") });

/** A path on this site (`/tasks/…`) or an http(s) address; the service worker opens only this site's pages. */
const url = z
  .string({ error: "must be a string" })
  .max(URL_MAX, `must be at most ${URL_MAX} characters`)
  .refine(
    (value) => /^\/(?![/\\])/.test(value) || /^https?:\/\/[^\s]+$/i.test(value),
    "must be a path starting with / or an http(s) URL",
  )
  .openapi({
    description: "The page a click on the notification opens: a path on this site (`/en/tasks`) or a URL of this site",
  });

export const sendPushInput = z
  .strictObject({
    userId: z.uuid("must be a user id").openapi({ description: "Whose devices get the message" }),
    title: z
      .string({ error: "must be a string" })
      .trim()
      .min(1, "must not be empty")
      .max(TITLE_MAX, `must be at most ${TITLE_MAX} characters`),
    body: z.string({ error: "must be a string" }).trim().max(BODY_MAX, `must be at most ${BODY_MAX} characters`),
    url: url.optional(),
  })
  .openapi("SendPushInput");
export type SendPushInput = z.infer<typeof sendPushInput>;

export const vapidPublicKeyOutput = z
  .object({
    publicKey: z.string().openapi({
      description: "The VAPID public key (base64url, 65 bytes): `applicationServerKey` for `pushManager.subscribe()`",
    }),
  })
  .openapi("VapidPublicKey");
export type VapidPublicKeyOutput = z.infer<typeof vapidPublicKeyOutput>;

export const subscriptionOutput = z
  .object({
    id: z.uuid(),
    endpoint: z.string().openapi({ description: "The push service address (a browser finds its own subscription by it)" }),
    userAgent: z
      .string()
      .nullable()
      .openapi({ description: "The User-Agent of the browser that subscribed, to tell devices apart" }),
    createdAt: z.iso.datetime(),
    lastSuccessAt: z.iso.datetime().nullable().openapi({ description: "When the push service last accepted a message for it" }),
    failureCount: z.number().int().openapi({ description: "Failed deliveries since the last one that worked" }),
  })
  .openapi("PushSubscription", { description: "One of your devices; its keys are never shown" });
export type SubscriptionOutput = z.infer<typeof subscriptionOutput>;

export const subscriptionListOutput = z
  .object({ items: z.array(subscriptionOutput).openapi({ description: "Oldest subscription first" }) })
  .openapi("PushSubscriptionList");
export type SubscriptionListOutput = z.infer<typeof subscriptionListOutput>;

export const deviceResultOutput = z
  .object({
    subscriptionId: z.uuid(),
    userAgent: z.string().nullable(),
    outcome: z.enum(["delivered", "removed", "failed"]).openapi({
      description:
        "`delivered`: the push service accepted the message; `removed`: it answered 404 or 410 (the subscription " +
        "is gone), so it was deleted; `failed`: any other answer or error (the subscription stays, its failureCount grows)",
    }),
    statusCode: z.number().int().nullable().openapi({ description: "The push service's HTTP status; null when no answer came" }),
    error: z.string().nullable().openapi({ description: "Why it failed, when it did" }),
  })
  .openapi("PushDeviceResult");
export type DeviceResultOutput = z.infer<typeof deviceResultOutput>;

export const pushResultOutput = z
  .object({
    status: z.enum(["sent", "failed", "skipped"]).openapi({
      description: "`sent`: at least one device accepted it; `skipped`: no device is subscribed; `failed`: none accepted it",
    }),
    reason: z.string().nullable().openapi({ description: "Why it was skipped or failed" }),
    devices: z.array(deviceResultOutput).openapi({ description: "One entry per subscribed device" }),
  })
  .openapi("PushResult");
export type PushResultOutput = z.infer<typeof pushResultOutput>;
