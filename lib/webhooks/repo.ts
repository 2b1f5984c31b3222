import { and, asc, count, desc, eq, gte, inArray, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import {
  webhookAttempts,
  webhookDeliveries,
  webhookEndpoints,
  type WebhookAttemptRow,
  type WebhookDeliveryRow,
  type WebhookDeliveryStatus,
  type WebhookEndpointRow,
} from "../db/schema/webhooks";

// Endpoints: every query is scoped to its owner.

const owned = (userId: string, endpointId: string) =>
  and(eq(webhookEndpoints.userId, userId), eq(webhookEndpoints.id, endpointId));

export type NewEndpoint = Pick<
  WebhookEndpointRow,
  "userId" | "url" | "description" | "events" | "secret" | "createdAt" | "updatedAt"
>;

export async function insertEndpoint(values: NewEndpoint, executor: Executor = db()): Promise<WebhookEndpointRow> {
  const [row] = await executor.insert(webhookEndpoints).values(values).returning();
  return row!;
}

export async function countEndpoints(userId: string, executor: Executor = db()): Promise<number> {
  const [row] = await executor.select({ count: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
  return row?.count ?? 0;
}

/** The user's endpoints, oldest first. */
export async function listEndpoints(userId: string): Promise<WebhookEndpointRow[]> {
  return db()
    .select()
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.userId, userId))
    .orderBy(asc(webhookEndpoints.createdAt), asc(webhookEndpoints.id));
}

export async function findEndpoint(
  userId: string,
  endpointId: string,
  executor: Executor = db(),
): Promise<WebhookEndpointRow | null> {
  const [row] = await executor.select().from(webhookEndpoints).where(owned(userId, endpointId)).limit(1);
  return row ?? null;
}

/** The user's endpoint, locked until the transaction ends (changes to one endpoint happen one at a time). */
export async function lockEndpoint(tx: Executor, userId: string, endpointId: string): Promise<WebhookEndpointRow | null> {
  const [row] = await tx.select().from(webhookEndpoints).where(owned(userId, endpointId)).for("update");
  return row ?? null;
}

export type EndpointPatch = Partial<
  Pick<
    WebhookEndpointRow,
    | "url"
    | "description"
    | "events"
    | "enabled"
    | "disabledReason"
    | "consecutiveFailures"
    | "secret"
    | "previousSecret"
    | "previousSecretExpiresAt"
    | "updatedAt"
  >
>;

export async function updateEndpointRow(
  endpointId: string,
  patch: EndpointPatch,
  executor: Executor,
): Promise<WebhookEndpointRow> {
  const [row] = await executor.update(webhookEndpoints).set(patch).where(eq(webhookEndpoints.id, endpointId)).returning();
  return row!;
}

/** Deletes the user's endpoint with its deliveries and attempts (cascade); false when there is no such endpoint. */
export async function deleteEndpointRow(userId: string, endpointId: string, executor: Executor = db()): Promise<boolean> {
  const rows = await executor.delete(webhookEndpoints).where(owned(userId, endpointId)).returning({ id: webhookEndpoints.id });
  return rows.length > 0;
}

/** Ends the endpoint's pending deliveries as `failed` (it was disabled); answers their ids. */
export async function failPendingDeliveries(endpointId: string, reason: string, at: Date, executor: Executor): Promise<string[]> {
  const rows = await executor
    .update(webhookDeliveries)
    .set({ status: "failed", nextAttemptAt: null, lastError: reason, updatedAt: at })
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.status, "pending")))
    .returning({ id: webhookDeliveries.id });
  return rows.map((row) => row.id);
}

// Fan-out

/** Which endpoints an event goes to: the enabled ones of its audience that subscribe to its type and existed then. */
function subscribedTo(userIds: readonly string[], type: string, happenedAt: Date): SQL {
  return and(
    inArray(webhookEndpoints.userId, [...userIds]),
    eq(webhookEndpoints.enabled, true),
    lte(webhookEndpoints.createdAt, happenedAt),
    sql`(cardinality(${webhookEndpoints.events}) = 0 or ${type} = any(${webhookEndpoints.events}))`,
  )!;
}

/**
 * Whether any of the given users has an endpoint the event goes to (see `lockSubscribedEndpoints`), without a lock or
 * a transaction: most events have none, and then nothing else needs reading.
 */
export async function anySubscribedEndpoint(
  userIds: readonly string[],
  type: string,
  happenedAt: Date,
  database: Executor = db(),
): Promise<boolean> {
  if (userIds.length === 0) return false;
  const rows = await database
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(subscribedTo(userIds, type, happenedAt))
    .limit(1);
  return rows.length > 0;
}

/**
 * The enabled endpoints of the given users that subscribe to `type` (an empty list: every type) and existed when
 * the event happened, locked in id order until the transaction ends: two fan-outs of one event (the in-process
 * handler and the catch-up job) then check and insert one after the other.
 */
export async function lockSubscribedEndpoints(
  tx: Executor,
  userIds: readonly string[],
  type: string,
  happenedAt: Date,
): Promise<{ id: string }[]> {
  if (userIds.length === 0) return [];
  return tx
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(subscribedTo(userIds, type, happenedAt))
    .orderBy(asc(webhookEndpoints.id))
    .for("update");
}

/**
 * Of the given endpoints, those that already have a delivery of the event. A delivery is made after its event, so
 * only deliveries created since `since` (the event's time, less a margin for clocks between processes) are read,
 * through the (endpoint_id, created_at) index.
 */
export async function endpointsWithEvent(
  tx: Executor,
  endpointIds: readonly string[],
  eventId: number,
  since: Date,
): Promise<Set<string>> {
  if (endpointIds.length === 0) return new Set();
  const rows = await tx
    .select({ endpointId: webhookDeliveries.endpointId })
    .from(webhookDeliveries)
    .where(
      and(
        inArray(webhookDeliveries.endpointId, [...endpointIds]),
        gte(webhookDeliveries.createdAt, since),
        eq(webhookDeliveries.eventId, eventId),
      ),
    );
  return new Set(rows.map((row) => row.endpointId));
}

export type NewDelivery = Pick<
  WebhookDeliveryRow,
  "endpointId" | "eventId" | "eventType" | "messageId" | "payload" | "nextAttemptAt" | "createdAt" | "updatedAt"
>;

export async function insertDeliveries(
  deliveries: readonly NewDelivery[],
  executor: Executor = db(),
): Promise<WebhookDeliveryRow[]> {
  if (deliveries.length === 0) return [];
  return executor
    .insert(webhookDeliveries)
    .values([...deliveries])
    .returning();
}

// Sending

/** A delivery about to be attempted, with what sending it needs from its endpoint. */
export interface DeliveryToSend {
  id: string;
  endpointId: string;
  status: WebhookDeliveryStatus;
  enabled: boolean;
  userId: string;
  url: string;
  messageId: string;
  payload: Record<string, unknown>;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
}

/** A delivery with its endpoint's address and secrets; null when it is gone (its endpoint was deleted). */
export async function findDeliveryToSend(deliveryId: string): Promise<DeliveryToSend | null> {
  const [row] = await db()
    .select({
      id: webhookDeliveries.id,
      endpointId: webhookDeliveries.endpointId,
      status: webhookDeliveries.status,
      enabled: webhookEndpoints.enabled,
      userId: webhookEndpoints.userId,
      url: webhookEndpoints.url,
      messageId: webhookDeliveries.messageId,
      payload: webhookDeliveries.payload,
      secret: webhookEndpoints.secret,
      previousSecret: webhookEndpoints.previousSecret,
      previousSecretExpiresAt: webhookEndpoints.previousSecretExpiresAt,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row ?? null;
}

/** The ids of an endpoint's pending deliveries (their queued attempts are cancelled with the endpoint). */
export async function pendingDeliveryIds(userId: string, endpointId: string, executor: Executor): Promise<string[]> {
  const rows = await executor
    .select({ id: webhookDeliveries.id })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(and(owned(userId, endpointId), eq(webhookDeliveries.status, "pending")));
  return rows.map((row) => row.id);
}

export type NewAttempt = Pick<WebhookAttemptRow, "deliveryId" | "at" | "statusCode" | "error" | "durationMs" | "responseExcerpt">;

export async function insertAttempt(attempt: NewAttempt, executor: Executor): Promise<void> {
  await executor.insert(webhookAttempts).values(attempt);
}

export interface DeliveryResult {
  status: WebhookDeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  updatedAt: Date;
}

/** Stores an attempt's outcome on its delivery; false when the delivery is gone (its endpoint was deleted). */
export async function updateDeliveryResult(deliveryId: string, result: DeliveryResult, executor: Executor): Promise<boolean> {
  const rows = await executor
    .update(webhookDeliveries)
    .set(result)
    .where(eq(webhookDeliveries.id, deliveryId))
    .returning({ id: webhookDeliveries.id });
  return rows.length > 0;
}

/** Counts a finished delivery: a failure adds one to the endpoint's consecutive failures, a success resets them. */
export async function countEndpointOutcome(
  endpointId: string,
  reset: boolean,
  executor: Executor,
): Promise<WebhookEndpointRow | null> {
  const [row] = await executor
    .update(webhookEndpoints)
    .set({ consecutiveFailures: reset ? 0 : sql`${webhookEndpoints.consecutiveFailures} + 1` })
    .where(eq(webhookEndpoints.id, endpointId))
    .returning();
  return row ?? null;
}

// Reading deliveries

export interface DeliveryKeyset {
  createdAt: Date;
  id: string;
}

/** The endpoint's deliveries, newest first, after the keyset. */
export async function listDeliveries(
  endpointId: string,
  filter: { status?: WebhookDeliveryStatus },
  limit: number,
  after: DeliveryKeyset | null,
): Promise<WebhookDeliveryRow[]> {
  const conditions: (SQL | undefined)[] = [eq(webhookDeliveries.endpointId, endpointId)];
  if (filter.status) conditions.push(eq(webhookDeliveries.status, filter.status));
  if (after) {
    conditions.push(
      or(
        lt(webhookDeliveries.createdAt, after.createdAt),
        and(eq(webhookDeliveries.createdAt, after.createdAt), lt(webhookDeliveries.id, after.id)),
      ),
    );
  }
  return db()
    .select()
    .from(webhookDeliveries)
    .where(and(...conditions))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

export async function findDelivery(
  endpointId: string,
  deliveryId: string,
  executor: Executor = db(),
): Promise<WebhookDeliveryRow | null> {
  const [row] = await executor
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpointId), eq(webhookDeliveries.id, deliveryId)))
    .limit(1);
  return row ?? null;
}

/** A delivery's attempts, oldest first. */
export async function listAttempts(deliveryId: string): Promise<WebhookAttemptRow[]> {
  return db().select().from(webhookAttempts).where(eq(webhookAttempts.deliveryId, deliveryId)).orderBy(asc(webhookAttempts.id));
}
