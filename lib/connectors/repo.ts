import { and, desc, eq, inArray, isNotNull, isNull, or } from "drizzle-orm";
import { nowDate } from "../clock";
import { isUniqueViolation } from "../api/app-error";
import { db, type Executor } from "../db/client";
import {
  connectorConnections,
  connectorLinks,
  connectorRuns,
  type ConnectorConnectionRow,
  type ConnectorKind,
  type ConnectorLinkRow,
  type ConnectorRunRow,
} from "../db/schema/connectors";
import { userGroupMembers } from "../db/schema/teams";

export type { ConnectorConnectionRow, ConnectorRunRow };

// Connections

export async function insertConnection(row: typeof connectorConnections.$inferInsert): Promise<ConnectorConnectionRow> {
  const now = nowDate();
  const [inserted] = await db()
    .insert(connectorConnections)
    .values({ ...row, createdAt: now, updatedAt: now })
    .returning();
  return inserted!;
}

export async function findConnection(id: string): Promise<ConnectorConnectionRow | null> {
  const [row] = await db().select().from(connectorConnections).where(eq(connectorConnections.id, id));
  return row ?? null;
}

/** The connections a user sees: their personal ones and those of every team they belong to, newest first. */
export async function listVisibleConnections(userId: string, kinds: readonly ConnectorKind[]): Promise<ConnectorConnectionRow[]> {
  if (kinds.length === 0) return [];
  const teams = db().select({ id: userGroupMembers.groupId }).from(userGroupMembers).where(eq(userGroupMembers.userId, userId));
  return db()
    .select()
    .from(connectorConnections)
    .where(
      and(
        inArray(connectorConnections.kind, [...kinds]),
        or(
          and(eq(connectorConnections.ownerId, userId), isNull(connectorConnections.userGroupId)),
          inArray(connectorConnections.userGroupId, teams),
        ),
      ),
    )
    .orderBy(desc(connectorConnections.createdAt), desc(connectorConnections.id));
}

export async function updateConnectionRow(
  id: string,
  patch: Partial<
    Pick<
      ConnectorConnectionRow,
      "name" | "baseUrl" | "credentials" | "settings" | "webhookSecret" | "status" | "lastSyncAt" | "lastError"
    >
  >,
): Promise<ConnectorConnectionRow | null> {
  const [row] = await db()
    .update(connectorConnections)
    .set({ ...patch, updatedAt: nowDate() })
    .where(eq(connectorConnections.id, id))
    .returning();
  return row ?? null;
}

export async function deleteConnectionRow(id: string, executor: Executor = db()): Promise<void> {
  await executor.delete(connectorConnections).where(eq(connectorConnections.id, id));
}

// Links

export async function findLink(connectionId: string, entity: string, externalId: string): Promise<ConnectorLinkRow | null> {
  const [row] = await db()
    .select()
    .from(connectorLinks)
    .where(
      and(
        eq(connectorLinks.connectionId, connectionId),
        eq(connectorLinks.entity, entity),
        eq(connectorLinks.externalId, externalId),
      ),
    );
  return row ?? null;
}

export async function findLinkByLocal(connectionId: string, entity: string, localId: string): Promise<ConnectorLinkRow | null> {
  const [row] = await db()
    .select()
    .from(connectorLinks)
    .where(
      and(eq(connectorLinks.connectionId, connectionId), eq(connectorLinks.entity, entity), eq(connectorLinks.localId, localId)),
    );
  return row ?? null;
}

/** Every link of one entity of a connection (an export walks what was synced before). */
export async function listLinks(connectionId: string, entity: string): Promise<ConnectorLinkRow[]> {
  return db()
    .select()
    .from(connectorLinks)
    .where(and(eq(connectorLinks.connectionId, connectionId), eq(connectorLinks.entity, entity)))
    .orderBy(connectorLinks.externalId);
}

export async function saveLink(
  connectionId: string,
  entity: string,
  externalId: string,
  localId: string | null,
  fingerprint: string | null,
): Promise<void> {
  const syncedAt = nowDate();
  await db()
    .insert(connectorLinks)
    .values({ connectionId, entity, externalId, localId, fingerprint, syncedAt })
    .onConflictDoUpdate({
      target: [connectorLinks.connectionId, connectorLinks.entity, connectorLinks.externalId],
      set: { localId, fingerprint, syncedAt },
    });
}

// Runs

/**
 * Records a run (`running`, or `queued` for a webhook waiting its turn); null when another run of the connection
 * is running already, or (a webhook) this delivery id was recorded.
 */
export async function insertRun(
  row: typeof connectorRuns.$inferInsert & { status: "running" | "queued" },
  executor: Executor = db(),
): Promise<ConnectorRunRow | null> {
  const [inserted] = await executor
    .insert(connectorRuns)
    .values({ ...row, startedAt: nowDate() })
    .onConflictDoNothing()
    .returning();
  return inserted ?? null;
}

/** Whether a webhook delivery id was already received for the connection. */
export async function deliverySeen(connectionId: string, deliveryId: string): Promise<boolean> {
  const [row] = await db()
    .select({ id: connectorRuns.id })
    .from(connectorRuns)
    .where(and(eq(connectorRuns.connectionId, connectionId), eq(connectorRuns.deliveryId, deliveryId)));
  return Boolean(row);
}

export async function finishRun(
  id: string,
  result: Pick<ConnectorRunRow, "status" | "counts" | "items" | "error" | "nextAttemptAt"> & { keepPayload: boolean },
): Promise<ConnectorRunRow> {
  const { keepPayload, ...fields } = result;
  const [row] = await db()
    .update(connectorRuns)
    .set({ ...fields, finishedAt: nowDate(), ...(keepPayload ? {} : { payload: null }) })
    .where(eq(connectorRuns.id, id))
    .returning();
  return row!;
}

export async function listRuns(connectionId: string, limit: number): Promise<ConnectorRunRow[]> {
  return db()
    .select()
    .from(connectorRuns)
    .where(eq(connectorRuns.connectionId, connectionId))
    .orderBy(desc(connectorRuns.startedAt), desc(connectorRuns.id))
    .limit(limit);
}

/** Starts a run again as `running` (attempt given); null while another run of the connection is running. */
export async function restartRun(id: string, attempt: number): Promise<ConnectorRunRow | null> {
  try {
    const [row] = await db()
      .update(connectorRuns)
      .set({ status: "running", attempt, error: null, finishedAt: null, nextAttemptAt: null, startedAt: nowDate() })
      .where(eq(connectorRuns.id, id))
      .returning();
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export async function findRun(id: string): Promise<ConnectorRunRow | null> {
  const [row] = await db().select().from(connectorRuns).where(eq(connectorRuns.id, id));
  return row ?? null;
}

/** The runs of a connection that may still have queued work: running, queued or waiting for a retry. */
export async function activeRunIds(connectionId: string, executor: Executor): Promise<string[]> {
  const rows = await executor
    .select({ id: connectorRuns.id })
    .from(connectorRuns)
    .where(
      and(
        eq(connectorRuns.connectionId, connectionId),
        or(inArray(connectorRuns.status, ["running", "queued"]), isNotNull(connectorRuns.nextAttemptAt)),
      ),
    );
  return rows.map((row) => row.id);
}
