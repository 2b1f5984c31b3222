import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { users } from "./users";

/** An outgoing webhook endpoint a user registered: where to send which events, signed with its secret. */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    /** Event types (lib/events/types.ts) to send; empty: all the user may receive. */
    events: text("events")
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** `whsec_` + base64 of the signing key (Standard Webhooks). */
    secret: text("secret").notNull(),
    /** After a rotation, the old secret still signs (a second signature) until this time. */
    previousSecret: text("previous_secret"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    /** Deliveries in a row that finally failed; reset by a success. */
    consecutiveFailures: integer("consecutive_failures").notNull().default(0),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("webhook_endpoints_user_idx").on(table.userId)],
);

export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;

export type WebhookDeliveryStatus = "pending" | "succeeded" | "failed";

/** One message to one endpoint (an event, a test or a replay), retried until it succeeds or gives up. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    endpointId: uuid("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** The domain event delivered (null for a test message). */
    eventId: bigint("event_id", { mode: "number" }),
    eventType: text("event_type").notNull(),
    /** The `webhook-id` header: the same on every attempt of this delivery (receivers deduplicate by it). */
    messageId: text("message_id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    /** `pending` while attempts remain, then `succeeded` or `failed`. */
    status: text("status").$type<WebhookDeliveryStatus>().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    /** When the next attempt is due, as its queue item (lib/queue) has it; shown to the owner. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("webhook_deliveries_endpoint_idx").on(table.endpointId, table.createdAt),
    // One delivery per event and endpoint (replays and tests carry no event id).
    uniqueIndex("webhook_deliveries_event_key")
      .on(table.endpointId, table.eventId)
      .where(sql`${table.eventId} is not null`),
    check("webhook_deliveries_status", sql`${table.status} in ('pending', 'succeeded', 'failed')`),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/** Each attempt of a delivery: when, what came back, how long it took. */
export const webhookAttempts = pgTable(
  "webhook_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    deliveryId: uuid("delivery_id")
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    statusCode: integer("status_code"),
    error: text("error"),
    durationMs: integer("duration_ms").notNull(),
    /** A short start of the response body, for the log. */
    responseExcerpt: text("response_excerpt"),
  },
  (table) => [index("webhook_attempts_delivery_idx").on(table.deliveryId, table.id)],
);

export type WebhookAttemptRow = typeof webhookAttempts.$inferSelect;
