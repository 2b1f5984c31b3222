import type { z } from "@hono/zod-openapi";
import type { Actor } from "../auth/actor";
import type { ConnectorKind, ConnectorRunItem } from "../db/schema/connectors";
import type { ModuleId } from "../modules/registry";
import type { ConnectorRequest, ConnectorResponse } from "./http";

/*
 * What each kind of connector (lib/connectors/<kind>/driver.ts) provides to the framework (service.ts): how its
 * credentials and settings look, a status check, and what import, export and the incoming webhook do. The framework
 * does the rest: it stores the credentials encrypted, runs one operation at a time per connection, records each
 * run item by item, retries runs that failed for a reason that may pass, and deduplicates webhook deliveries.
 */

/** A connection as a driver sees it, the credentials decrypted. */
export interface ConnectionContext<Credentials = unknown, Settings = unknown> {
  id: string;
  kind: ConnectorKind;
  name: string;
  baseUrl: string;
  credentials: Credentials;
  settings: Settings;
  /** Whom the connection acts for: its owner (tasks and goals are created as theirs). */
  actor: Actor;
  /** The team of a workspace connection, else null. */
  userGroupId: string | null;
}

/** The links between the external system's ids and local records, for this connection. */
export interface LinkStore {
  /** The local id an external record was synced to, and the fingerprint of what was synced. */
  find(entity: string, externalId: string): Promise<{ localId: string | null; fingerprint: string | null } | null>;
  /** The external id a local record was synced to. */
  findByLocal(entity: string, localId: string): Promise<{ externalId: string; fingerprint: string | null } | null>;
  /** Every link of an entity (what an export sends updates for). */
  list(entity: string): Promise<{ externalId: string; localId: string | null; fingerprint: string | null }[]>;
  save(entity: string, externalId: string, localId: string | null, fingerprint: string | null): Promise<void>;
}

export interface SyncContext<Credentials = unknown, Settings = unknown> {
  connection: ConnectionContext<Credentials, Settings>;
  links: LinkStore;
  /** An HTTP call through the outbound guard, with the connector time limit (lib/connectors/http.ts). */
  request(request: ConnectorRequest): Promise<ConnectorResponse>;
  /** Records what happened to one item: a failed item does not fail the run (it ends `partial`). */
  item(item: ConnectorRunItem): void;
}

export interface StatusReport {
  reachable: boolean;
  authenticated: boolean;
  /** The system's version as it reports it. */
  version?: string | null;
  /** Anything else worth showing (the company, the site name, the API flavour used...). */
  details?: Record<string, unknown>;
  /** Why it is not reachable or not authenticated. */
  error?: string | null;
}

export interface ConnectorDriver<Credentials = unknown, Settings = unknown> {
  kind: ConnectorKind;
  /** The feature module it belongs to: while that is off, its connections and routes answer 404. */
  module: ModuleId;
  /** The credentials a connection of this kind needs (stored encrypted; never answered back). */
  credentials: z.ZodType<Credentials>;
  /** Its settings (answered back). */
  settings: z.ZodType<Settings>;
  /** A safe description of the credentials for display (a user name, a masked token), never a secret. */
  describeCredentials(credentials: Credentials): string;
  check(context: SyncContext<Credentials, Settings>): Promise<StatusReport>;
  import?(context: SyncContext<Credentials, Settings>): Promise<void>;
  export?(context: SyncContext<Credentials, Settings>): Promise<void>;
  /** Handles an incoming webhook's verified payload (JSON, or the raw text for an XML system). */
  webhook?(context: SyncContext<Credentials, Settings>, payload: unknown): Promise<void>;
}

export type AnyDriver = ConnectorDriver<any, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
