import { sql } from "drizzle-orm";
import { check, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { userGroups } from "./teams";
import { users } from "./users";

export type ConnectorKind = "erp" | "learning" | "accounting";
export type ConnectionStatus = "new" | "ok" | "error";

/**
 * A connection to an external system (lib/connectors): an ERP, a learning platform or an accounting program.
 * Personal (only its owner sees it) or a team's workspace connection (the team's members see it, its owners and
 * admins manage it). Credentials and the incoming-webhook secret are encrypted at rest (lib/connectors/secrets.ts).
 */
export const connectorConnections = pgTable(
  "connector_connections",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<ConnectorKind>().notNull(),
    name: text("name").notNull(),
    /** Who created it; the imports act as this user (their tasks and goals). */
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The team whose workspace connection it is; null: personal. */
    userGroupId: uuid("user_group_id").references(() => userGroups.id, { onDelete: "cascade" }),
    baseUrl: text("base_url").notNull(),
    /** The kind's credentials as JSON, encrypted (AES-256-GCM). */
    credentials: text("credentials").notNull(),
    /** The kind's settings (no secrets): Odoo's database, Moodle's user id, POHODA's IČO... */
    settings: jsonb("settings").$type<Record<string, unknown>>().notNull().default({}),
    /** Signs the incoming webhook's requests (HMAC-SHA256), encrypted like the credentials. */
    webhookSecret: text("webhook_secret").notNull(),
    status: text("status").$type<ConnectionStatus>().notNull().default("new"),
    lastSyncAt: timestamp("last_sync_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("connector_connections_owner_idx").on(table.ownerId),
    index("connector_connections_group_idx").on(table.userGroupId),
    check("connector_connections_kind", sql`${table.kind} in ('erp', 'learning', 'accounting')`),
    check("connector_connections_status", sql`${table.status} in ('new', 'ok', 'error')`),
    check("connector_connections_name_length", sql`char_length(${table.name}) between 1 and 100`),
  ],
);

export type ConnectorConnectionRow = typeof connectorConnections.$inferSelect;

/**
 * What a connection's external ids stand for here: an Odoo task is this task, a Moodle course this goal, an
 * invoice this POHODA document. Every sync looks here first, so that running it again updates instead of
 * creating twice. `fingerprint` is a hash of what was last synced, so that unchanged records are skipped.
 */
export const connectorLinks = pgTable(
  "connector_links",
  {
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connectorConnections.id, { onDelete: "cascade" }),
    /** What kind of record: `task`, `goal`, `invoice`... (the driver's names). */
    entity: text("entity").notNull(),
    externalId: text("external_id").notNull(),
    /** The local record's id (a task, a goal...); null while the local side is not created yet. */
    localId: uuid("local_id"),
    fingerprint: text("fingerprint"),
    syncedAt: timestamp("synced_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.connectionId, table.entity, table.externalId] }),
    uniqueIndex("connector_links_local_key").on(table.connectionId, table.entity, table.localId),
  ],
);

export type ConnectorLinkRow = typeof connectorLinks.$inferSelect;

export type ConnectorOperation = "import" | "export" | "webhook";
export type ConnectorRunStatus = "queued" | "running" | "succeeded" | "partial" | "failed";

/** One item a run handled: what it became, or why it failed. */
export interface ConnectorRunItem {
  entity: string;
  externalId: string | null;
  localId: string | null;
  action: "created" | "updated" | "unchanged" | "skipped" | "failed";
  error?: string;
  /** What the system said about an item that went through (a warning, why it was skipped). */
  note?: string;
}

export interface ConnectorRunCounts {
  created: number;
  updated: number;
  unchanged: number;
  skipped: number;
  failed: number;
}

/**
 * One run of a connection's import, export, check or incoming webhook: what it did, item by item. A run that failed
 * for a reason that may pass (the system did not answer, timed out, answered 5xx) is tried again later
 * (`nextAttemptAt`, the same row, `attempt` counting), up to the retry limit; an incoming webhook's delivery id is
 * kept so that a redelivery is not processed twice, and a webhook arriving while another run is running waits
 * `queued` for it.
 */
export const connectorRuns = pgTable(
  "connector_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    connectionId: uuid("connection_id")
      .notNull()
      .references(() => connectorConnections.id, { onDelete: "cascade" }),
    operation: text("operation").$type<ConnectorOperation>().notNull(),
    /** Who started it: a user's request, the incoming webhook, or the retry job. */
    trigger: text("trigger").$type<"user" | "webhook" | "retry">().notNull(),
    status: text("status").$type<ConnectorRunStatus>().notNull().default("running"),
    attempt: integer("attempt").notNull().default(1),
    /** When this failed run is tried again (its queue item, lib/queue, is due then); null: no retry. */
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    /** An incoming webhook's delivery id (its header, else a hash of the body). */
    deliveryId: text("delivery_id"),
    /** The incoming webhook's payload, kept until the run succeeded (for a retry). */
    payload: jsonb("payload"),
    counts: jsonb("counts")
      .$type<ConnectorRunCounts>()
      .notNull()
      .default({ created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 }),
    /** The first items (up to 200), failures first. */
    items: jsonb("items").$type<ConnectorRunItem[]>().notNull().default([]),
    error: text("error"),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    index("connector_runs_connection_idx").on(table.connectionId, table.startedAt),
    uniqueIndex("connector_runs_delivery_key").on(table.connectionId, table.deliveryId),
    // One run at a time per connection: a second start while one is running fails on this index.
    uniqueIndex("connector_runs_running_key")
      .on(table.connectionId)
      .where(sql`${table.status} = 'running'`),
    check("connector_runs_operation", sql`${table.operation} in ('import', 'export', 'webhook')`),
    check("connector_runs_trigger", sql`${table.trigger} in ('user', 'webhook', 'retry')`),
    check("connector_runs_status", sql`${table.status} in ('queued', 'running', 'succeeded', 'partial', 'failed')`),
  ],
);

export type ConnectorRunRow = typeof connectorRuns.$inferSelect;
