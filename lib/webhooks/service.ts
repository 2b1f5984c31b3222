import { AppError, invalidField } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from "../db/schema/webhooks";
import type { StoredDomainEvent } from "../events/types";
import { TargetRefused } from "../net/addresses";
import { cancelQueued } from "../queue/service";
import {
  attemptDeliveries,
  attemptDelivery,
  attemptDueDeliveries,
  inBackground,
  queueDeliveries,
  webhookDeliveryQueue,
} from "./deliver";
import { checkWebhookUrl } from "./endpoint-url";
import {
  countEndpoints,
  deleteEndpointRow,
  endpointsWithEvent,
  failPendingDeliveries,
  findDelivery,
  findEndpoint,
  insertDeliveries,
  insertEndpoint,
  pendingDeliveryIds,
  listAttempts,
  listDeliveries,
  listEndpoints,
  lockEndpoint,
  anySubscribedEndpoint,
  lockSubscribedEndpoints,
  updateEndpointRow,
  type EndpointPatch,
  type NewDelivery,
} from "./repo";
import {
  TEST_MESSAGE_TYPE,
  type AttemptOutput,
  type CreatedEndpointOutput,
  type CreateEndpointInput,
  type DeliveryDetailOutput,
  type DeliveryListOutput,
  type DeliveryOutput,
  type EndpointListOutput,
  type EndpointOutput,
  type ListDeliveriesQuery,
  type RotatedSecretOutput,
  type UpdateEndpointInput,
} from "./schema";
import { generateMessageId, generateSecret } from "./sign";

/*
 * The rules (the routes' descriptions say the same).
 * - Each user has their own endpoints (at most MAX_ENDPOINTS); anyone else's endpoint or delivery is a 404.
 * - The secret is shown when the endpoint is created and when it is rotated, never again. A rotation keeps the
 *   previous secret signing (a second signature) for ROTATION_GRACE_MS; rotating again ends that early.
 * - An endpoint receives the events whose audience includes its owner (who may see them), of the types it
 *   subscribes to (none listed: all), that happen while it is enabled and after it was created; each event at most
 *   once per endpoint.
 * - Test messages and replays need an enabled endpoint (409). A replay is a new delivery with the same `webhook-id`
 *   and body (Standard Webhooks: the id stays the same when a message is sent again, so that receivers that saw it
 *   deduplicate it), of a delivery that has finished (409 while its retries are pending).
 */

export const MAX_ENDPOINTS = 20;
export const ROTATION_GRACE_MS = 24 * 3600_000;
/** How far the clocks of two processes may disagree (a delivery's time against its event's). */
const CLOCK_MARGIN_MS = 3600_000;

const endpointNotFound = () => new AppError("not_found", "No such webhook endpoint");
const deliveryNotFound = () => new AppError("not_found", "No such delivery of this webhook endpoint");
const endpointDisabled = () =>
  new AppError("conflict", "The endpoint is disabled: enable it first (PATCH /webhooks/{id} with enabled: true)");

function toEndpointOutput(row: WebhookEndpointRow): EndpointOutput {
  const graceLeft =
    row.previousSecret !== null && row.previousSecretExpiresAt !== null && row.previousSecretExpiresAt > nowDate();
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    status: row.enabled ? "enabled" : "disabled",
    enabled: row.enabled,
    disabledReason: row.enabled ? null : row.disabledReason,
    consecutiveFailures: row.consecutiveFailures,
    previousSecretExpiresAt: graceLeft ? row.previousSecretExpiresAt!.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toDeliveryOutput(row: WebhookDeliveryRow): DeliveryOutput {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventType: row.eventType,
    eventId: row.eventId,
    status: row.status,
    attemptCount: row.attempts,
    nextAttemptAt: row.status === "pending" ? (row.nextAttemptAt?.toISOString() ?? null) : null,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    payload: row.payload,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

function toAttemptOutput(row: WebhookAttemptRow): AttemptOutput {
  return {
    at: row.at.toISOString(),
    statusCode: row.statusCode,
    error: row.error,
    durationMs: row.durationMs,
    responseExcerpt: row.responseExcerpt,
  };
}

/** The URL checked for registration (400 naming /url when refused). */
function checkedUrl(url: string): string {
  try {
    return checkWebhookUrl(url);
  } catch (error) {
    if (error instanceof TargetRefused) throw invalidField("body", "/url", error.message);
    throw error;
  }
}

const uniqueSorted = (events: readonly string[]) => [...new Set(events)].sort();

async function getEndpointOrThrow(actor: Actor, endpointId: string): Promise<WebhookEndpointRow> {
  const endpoint = await findEndpoint(actor.userId, endpointId);
  if (!endpoint) throw endpointNotFound();
  return endpoint;
}

// Endpoints

export async function listWebhookEndpoints(actor: Actor): Promise<EndpointListOutput> {
  return { items: (await listEndpoints(actor.userId)).map(toEndpointOutput) };
}

export async function getWebhookEndpoint(actor: Actor, endpointId: string): Promise<EndpointOutput> {
  return toEndpointOutput(await getEndpointOrThrow(actor, endpointId));
}

/** Registers an endpoint with a new secret, shown in the answer only. */
export async function createWebhookEndpoint(actor: Actor, input: CreateEndpointInput): Promise<CreatedEndpointOutput> {
  const url = checkedUrl(input.url);
  if ((await countEndpoints(actor.userId)) >= MAX_ENDPOINTS) {
    throw new AppError("conflict", `You have ${MAX_ENDPOINTS} webhook endpoints already, the most allowed: delete one first`);
  }
  const now = nowDate();
  const row = await insertEndpoint({
    userId: actor.userId,
    url,
    description: input.description ?? "",
    events: uniqueSorted(input.events ?? []),
    secret: generateSecret(),
    createdAt: now,
    updatedAt: now,
  });
  return { ...toEndpointOutput(row), secret: row.secret };
}

/** Changes an endpoint; disabling ends its pending retries, enabling resets its failures. */
export async function updateWebhookEndpoint(
  actor: Actor,
  endpointId: string,
  input: UpdateEndpointInput,
): Promise<EndpointOutput> {
  const url = input.url === undefined ? undefined : checkedUrl(input.url);
  return db().transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, actor.userId, endpointId);
    if (!endpoint) throw endpointNotFound();
    const now = nowDate();
    const patch: EndpointPatch = {
      url,
      description: input.description,
      events: input.events && uniqueSorted(input.events),
      updatedAt: now,
    };
    if (input.enabled === true && !endpoint.enabled) {
      Object.assign(patch, { enabled: true, disabledReason: null, consecutiveFailures: 0 });
    } else if (input.enabled === false && endpoint.enabled) {
      Object.assign(patch, { enabled: false, disabledReason: "Disabled by its owner" });
      const failed = await failPendingDeliveries(endpoint.id, "The endpoint was disabled", now, tx);
      await cancelQueued(webhookDeliveryQueue, failed, "The endpoint was disabled", tx);
    }
    return toEndpointOutput(await updateEndpointRow(endpoint.id, patch, tx));
  });
}

/** Deletes the endpoint with its deliveries; their queued attempts are cancelled. */
export async function deleteWebhookEndpoint(actor: Actor, endpointId: string): Promise<void> {
  await db().transaction(async (tx) => {
    const pending = await pendingDeliveryIds(actor.userId, endpointId, tx);
    if (!(await deleteEndpointRow(actor.userId, endpointId, tx))) throw endpointNotFound();
    await cancelQueued(webhookDeliveryQueue, pending, "The endpoint was deleted", tx);
  });
}

/** Records new deliveries with their first attempt queued, in one transaction. */
async function insertQueuedDeliveries(deliveries: readonly NewDelivery[], executor?: Executor) {
  const insert = async (tx: Executor) => {
    const rows = await insertDeliveries(deliveries, tx);
    await queueDeliveries(
      rows.map((row) => row.id),
      tx,
    );
    return rows;
  };
  return executor ? insert(executor) : db().transaction(insert);
}

/** A new secret; the current one keeps signing alongside it for ROTATION_GRACE_MS. */
export async function rotateWebhookSecret(actor: Actor, endpointId: string): Promise<RotatedSecretOutput> {
  return db().transaction(async (tx) => {
    const endpoint = await lockEndpoint(tx, actor.userId, endpointId);
    if (!endpoint) throw endpointNotFound();
    const now = nowDate();
    const previousSecretExpiresAt = new Date(now.getTime() + ROTATION_GRACE_MS);
    const secret = generateSecret();
    await updateEndpointRow(
      endpoint.id,
      { secret, previousSecret: endpoint.secret, previousSecretExpiresAt, updatedAt: now },
      tx,
    );
    return { secret, previousSecretExpiresAt: previousSecretExpiresAt.toISOString() };
  });
}

// Deliveries

async function getDeliveryDetail(endpointId: string, deliveryId: string): Promise<DeliveryDetailOutput> {
  const delivery = await findDelivery(endpointId, deliveryId);
  if (!delivery) throw deliveryNotFound();
  return { ...toDeliveryOutput(delivery), attempts: (await listAttempts(delivery.id)).map(toAttemptOutput) };
}

/** Queues a `webhook.test` message and attempts it at once; answers the delivery with that attempt. */
export async function testWebhookEndpoint(actor: Actor, endpointId: string): Promise<DeliveryDetailOutput> {
  const endpoint = await getEndpointOrThrow(actor, endpointId);
  if (!endpoint.enabled) throw endpointDisabled();
  const now = nowDate();
  const [delivery] = await insertQueuedDeliveries([
    {
      endpointId: endpoint.id,
      eventId: null,
      eventType: TEST_MESSAGE_TYPE,
      messageId: generateMessageId(),
      payload: {
        type: TEST_MESSAGE_TYPE,
        timestamp: now.toISOString(),
        data: { endpointId: endpoint.id, message: "A test message from Spolu: your endpoint receives webhooks." },
      },
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    },
  ]);
  await attemptDelivery(delivery!.id);
  return getDeliveryDetail(endpoint.id, delivery!.id);
}

export async function listWebhookDeliveries(
  actor: Actor,
  endpointId: string,
  query: ListDeliveriesQuery,
): Promise<DeliveryListOutput> {
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : null;
  const after = cursor && { createdAt: cursor.at, id: cursor.id };
  const endpoint = await getEndpointOrThrow(actor, endpointId);
  const rows = await listDeliveries(endpoint.id, { status: query.status }, query.limit + 1, after);
  const items = rows.slice(0, query.limit).map(toDeliveryOutput);
  return { items, nextCursor: rows.length > query.limit ? encodeTimeCursor(items.at(-1)!.createdAt, items.at(-1)!.id) : null };
}

export async function getWebhookDelivery(actor: Actor, endpointId: string, deliveryId: string): Promise<DeliveryDetailOutput> {
  const endpoint = await getEndpointOrThrow(actor, endpointId);
  return getDeliveryDetail(endpoint.id, deliveryId);
}

/** Sends a finished delivery again as a new delivery: same `webhook-id` and body, attempted at once. */
export async function replayWebhookDelivery(actor: Actor, endpointId: string, deliveryId: string): Promise<DeliveryDetailOutput> {
  const endpoint = await getEndpointOrThrow(actor, endpointId);
  const original = await findDelivery(endpoint.id, deliveryId);
  if (!original) throw deliveryNotFound();
  if (!endpoint.enabled) throw endpointDisabled();
  if (original.status === "pending") {
    throw new AppError("conflict", "This delivery is still being retried: replay it once it has succeeded or failed");
  }
  const now = nowDate();
  const [replay] = await insertQueuedDeliveries([
    {
      endpointId: endpoint.id,
      // The event stays named in the payload; null here keeps "one delivery per event and endpoint" for fan-out.
      eventId: null,
      eventType: original.eventType,
      messageId: original.messageId,
      payload: original.payload,
      nextAttemptAt: now,
      createdAt: now,
      updatedAt: now,
    },
  ]);
  await attemptDelivery(replay!.id);
  return getDeliveryDetail(endpoint.id, replay!.id);
}

// Fan-out

/** The Standard Webhooks body of an event: `{type, timestamp, data}`. */
function eventPayload(event: StoredDomainEvent): Record<string, unknown> {
  return {
    type: event.type,
    timestamp: event.createdAt.toISOString(),
    data: { ...event.data, taskId: event.taskId ?? null, actorId: event.actorId, eventId: event.id },
  };
}

/**
 * Queues a delivery of the event to every subscribed endpoint of its audience that does not have one yet (the
 * endpoints are locked while checking, so two fan-outs of one event cannot both insert); answers the new ids.
 */
export async function queueEventDeliveries(event: StoredDomainEvent): Promise<string[]> {
  if (!(await anySubscribedEndpoint(event.audience, event.type, event.createdAt))) return [];
  const created = await db().transaction(async (tx) => {
    const endpoints = await lockSubscribedEndpoints(tx, event.audience, event.type, event.createdAt);
    if (endpoints.length === 0) return [];
    const ids = endpoints.map((endpoint) => endpoint.id);
    const done = await endpointsWithEvent(tx, ids, event.id, new Date(event.createdAt.getTime() - CLOCK_MARGIN_MS));
    const now = nowDate();
    const payload = eventPayload(event);
    const deliveries: NewDelivery[] = endpoints
      .filter((endpoint) => !done.has(endpoint.id))
      .map((endpoint) => ({
        endpointId: endpoint.id,
        eventId: event.id,
        eventType: event.type,
        messageId: generateMessageId(),
        payload,
        nextAttemptAt: now,
        createdAt: now,
        updatedAt: now,
      }));
    return insertQueuedDeliveries(deliveries, tx);
  });
  return created.map((delivery) => delivery.id);
}

/**
 * The `webhooks` event consumer (lib/events/consumers.ts): queues the event's deliveries (once per endpoint, also
 * when the consumer sees the event twice) and makes their first attempts in the background.
 */
export async function fanOutEvent(event: StoredDomainEvent): Promise<void> {
  const queued = await queueEventDeliveries(event);
  if (queued.length) inBackground(() => attemptDeliveries(queued));
}

/** The `webhook-deliveries` job: attempts every due delivery (retries, and first attempts a stopped process left). */
export async function runWebhookDeliveries(signal?: AbortSignal): Promise<{ attempted: number }> {
  return { attempted: await attemptDueDeliveries(signal) };
}
