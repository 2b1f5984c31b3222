import { z } from "@hono/zod-openapi";
import type { DomainEventType } from "../events/types";

/**
 * The event types an endpoint may subscribe to: every domain event (lib/events/types.ts), each with what it means.
 * A new domain event type fails the type check here until it is described.
 */
export const WEBHOOK_EVENT_TYPES = {
  "task.created": "A task you can see was created",
  "task.updated": "A task you can see changed",
  "task.completed": "A task you can see was completed",
  "task.deleted": "A task you could see was deleted",
  "task.moved": "A task you can see moved on the board or to another list",
  "task.unshared": "You no longer see a task you saw before (carries only its id)",
  "task.reminded": "Someone sent a task's assignees a reminder by email",
  "reminder.due": "A reminder of one of your tasks came due (before the due time, or at it)",
  "collaboration.requested": "Someone asked you (or you asked someone) to take part in a task",
  "collaboration.accepted": "A collaboration request you are party to was accepted",
  "collaboration.rejected": "A collaboration request you are party to was rejected",
  "collaboration.withdrawn": "A collaboration request you are party to was withdrawn",
  "collaboration.expired": "A collaboration request you are party to expired undecided",
  "collaboration.claimed": "Someone claimed a task you can see",
  "invitation.created": "An invitation you sent (or one addressed to you) was created",
  "invitation.accepted": "An invitation was accepted",
  "invitation.revoked": "An invitation was revoked",
  "invitation.declined": "An invitation you sent (or got) was declined",
  "project.member_added": "Someone joined a project you belong to",
  "project.member_removed": "Someone left or was removed from a project you belong to",
  "family.member_added": "Someone joined your family workspace",
  "family.member_removed": "Someone left or was removed from your family workspace",
  "notification.created": "You got an in-app notification (carries it as the API shows it)",
  "comment.created": "Someone commented on a task you can see (carries the comment)",
  "comment.updated": "A comment on a task you can see was edited (carries the comment)",
  "comment.deleted": "A comment on a task you can see was deleted (carries its id and the task's)",
  "notification.read": "You read a notification, or all of them (notificationId, null for all; unread: how many are left)",
  "board.columns_changed": "The board columns of a project or team you belong to changed (carries its id)",
  "webhook.disabled": "One of your webhook endpoints kept failing and was disabled",
} as const satisfies Record<DomainEventType, string>;

const EVENT_NAMES = Object.keys(WEBHOOK_EVENT_TYPES) as [DomainEventType, ...DomainEventType[]];

/** The type of the message `POST /webhooks/{id}/test` sends (no endpoint subscribes to it: it always goes). */
export const TEST_MESSAGE_TYPE = "webhook.test";

export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 500;
export const DELIVERY_PAGE_MAX = 100;

const EVENT_LIST = Object.entries(WEBHOOK_EVENT_TYPES)
  .map(([name, meaning]) => `\`${name}\` (${meaning.charAt(0).toLowerCase()}${meaning.slice(1)})`)
  .join(", ");

const url = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(URL_MAX, `must be at most ${URL_MAX} characters`)
  .openapi({
    format: "uri",
    description:
      "Where to POST the messages: an `https://` (or `http://`) URL without a user name or password. An IP address " +
      "in a private, loopback, link-local, unique-local, CGNAT, multicast, documentation or unspecified range (IPv4 " +
      "and IPv6, IPv4-mapped included), or a `localhost` name, is a 400 unless the operator allows private targets " +
      "(ALLOW_PRIVATE_NETWORK_TARGETS, for webhooks or for the address); a host name is resolved and checked the same way on every attempt.",
    example: "https://example.com/hooks/spolu",
  });

const eventType = z.enum(EVENT_NAMES, { message: "is not an event type (see the list in the description of `events`)" });

const events = z
  .array(eventType)
  .max(EVENT_NAMES.length, `must list at most ${EVENT_NAMES.length} types`)
  .openapi({
    description: `The event types to send; empty (the default) sends every type, including types added later. Types: ${EVENT_LIST}.`,
  });

const description = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`)
  .openapi({ description: `A note for yourself, at most ${DESCRIPTION_MAX} characters (trimmed); empty by default` });

export const endpointIdParams = z.object({ id: z.uuid("must be a webhook endpoint id") });

export const deliveryParams = z.object({
  id: z.uuid("must be a webhook endpoint id"),
  deliveryId: z.uuid("must be a delivery id"),
});

export const createEndpointInput = z
  .strictObject({ url, events: events.optional(), description: description.optional() })
  .openapi("CreateWebhookEndpointInput");
export type CreateEndpointInput = z.infer<typeof createEndpointInput>;

export const updateEndpointInput = z
  .strictObject({
    url: url.optional(),
    events: events.optional(),
    description: description.optional(),
    enabled: z
      .boolean()
      .optional()
      .openapi({
        description:
          "`false` stops deliveries (pending retries end as `failed`); `true` turns a disabled endpoint back on and " +
          "resets its count of consecutive failures",
      }),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of url, events, description, enabled",
    path: ["url"],
  })
  .openapi("UpdateWebhookEndpointInput", { description: "The fields given change; the others stay" });
export type UpdateEndpointInput = z.infer<typeof updateEndpointInput>;

export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;
const deliveryStatus = z.enum(DELIVERY_STATUSES).openapi({
  description: "`pending` while attempts remain (see `nextAttemptAt`), then `succeeded` or `failed`",
});

export const listDeliveriesQuery = z
  .strictObject({
    status: z
      .enum(DELIVERY_STATUSES, { message: `must be one of ${DELIVERY_STATUSES.join(", ")}` })
      .optional()
      .openapi({
        description: "Only deliveries in this status",
      }),
    limit: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(DELIVERY_PAGE_MAX, `must be at most ${DELIVERY_PAGE_MAX}`)
      .default(20)
      .openapi({ description: `Deliveries per page, 1-${DELIVERY_PAGE_MAX}; 20 by default` }),
    cursor: z
      .string()
      .max(500, "is not a cursor of this list")
      .optional()
      .openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("ListWebhookDeliveriesQuery");
export type ListDeliveriesQuery = z.infer<typeof listDeliveriesQuery>;

export const endpointOutput = z
  .object({
    id: z.uuid(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.string()).openapi({ description: "The subscribed event types; empty: all" }),
    status: z.enum(["enabled", "disabled"]).openapi({ description: "`disabled` by you or after repeated failures" }),
    enabled: z.boolean(),
    disabledReason: z.string().nullable().openapi({ description: "Why the endpoint is disabled; null while enabled" }),
    consecutiveFailures: z.number().int().openapi({
      description: "Deliveries in a row that finally failed (every retry used up); a success resets it",
    }),
    previousSecretExpiresAt: z.iso.datetime().nullable().openapi({
      description: "After a rotation: until when the previous secret still signs (a second signature); else null",
    }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("WebhookEndpoint", { description: "A webhook endpoint; its secret is shown only on creation and rotation" });
export type EndpointOutput = z.infer<typeof endpointOutput>;

const secret = z.string().openapi({
  description:
    "The signing secret, `whsec_` + base64 of 32 random bytes (Standard Webhooks); the HMAC-SHA256 key is the " +
    "base64-decoded part. Shown only here: keep it.",
  example: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
});

export const createdEndpointOutput = endpointOutput.extend({ secret }).openapi("CreatedWebhookEndpoint");
export type CreatedEndpointOutput = z.infer<typeof createdEndpointOutput>;

export const endpointListOutput = z
  .object({ items: z.array(endpointOutput).openapi({ description: "Oldest first" }) })
  .openapi("WebhookEndpointList");
export type EndpointListOutput = z.infer<typeof endpointListOutput>;

export const rotatedSecretOutput = z
  .object({
    secret,
    previousSecretExpiresAt: z.iso.datetime().openapi({
      description: "Until then every message carries a second signature made with the previous secret",
    }),
  })
  .openapi("RotatedWebhookSecret");
export type RotatedSecretOutput = z.infer<typeof rotatedSecretOutput>;

export const deliveryOutput = z
  .object({
    id: z.uuid(),
    endpointId: z.uuid(),
    messageId: z.string().openapi({ description: "The `webhook-id` header: the same on every attempt and on a replay" }),
    eventType: z.string().openapi({ description: "The message's `type`: an event type, or `webhook.test`" }),
    eventId: z.number().int().nullable().openapi({
      description: "The domain event delivered; null for a test message and for a replay (its payload names the event)",
    }),
    status: deliveryStatus,
    attemptCount: z.number().int().openapi({ description: "Attempts made so far" }),
    nextAttemptAt: z.iso.datetime().nullable().openapi({ description: "When the next attempt is due; null once finished" }),
    lastStatusCode: z.number().int().nullable().openapi({ description: "The HTTP status of the last attempt, if it got one" }),
    lastError: z.string().nullable().openapi({ description: "Why the last attempt failed; null after a success" }),
    payload: z.record(z.string(), z.unknown()).openapi({ description: "The JSON body sent: `{type, timestamp, data}`" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("WebhookDelivery");
export type DeliveryOutput = z.infer<typeof deliveryOutput>;

export const attemptOutput = z
  .object({
    at: z.iso.datetime(),
    statusCode: z.number().int().nullable().openapi({ description: "The HTTP status; null when none came back" }),
    error: z.string().nullable().openapi({
      description: "Why it failed (a status outside 2xx, a timeout, a refused address...); null for a success",
    }),
    durationMs: z.number().int(),
    responseExcerpt: z.string().nullable().openapi({ description: "The first 1024 bytes of the response body" }),
  })
  .openapi("WebhookAttempt");
export type AttemptOutput = z.infer<typeof attemptOutput>;

export const deliveryDetailOutput = deliveryOutput
  .extend({ attempts: z.array(attemptOutput).openapi({ description: "Every attempt, oldest first" }) })
  .openapi("WebhookDeliveryDetail");
export type DeliveryDetailOutput = z.infer<typeof deliveryDetailOutput>;

export const deliveryListOutput = z
  .object({
    items: z.array(deliveryOutput).openapi({ description: "Newest first" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("WebhookDeliveryList");
export type DeliveryListOutput = z.infer<typeof deliveryListOutput>;
