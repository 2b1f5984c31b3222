import { and, desc, eq, inArray, isNull, lte, or } from "drizzle-orm";
import { nowDate } from "../clock";
import { isUniqueViolation } from "../api/app-error";
import { db } from "../db/client";
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

export async function deleteConnectionRow(id: string): Promise<void> {
  await db().delete(connectorConnections).where(eq(connectorConnections.id, id));
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
): Promise<ConnectorRunRow | null> {
  try {
    const [inserted] = await db()
      .insert(connectorRuns)
      .values({ ...row, startedAt: nowDate() })
      .returning();
    return inserted!;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
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

/**
 * Takes the failed runs whose retry is due (each exactly once, whichever process asks): their `nextAttemptAt` is
 * cleared in the same statement that returns them.
 */
export async function claimDueRetries(limit: number): Promise<ConnectorRunRow[]> {
  const due = db()
    .select({ id: connectorRuns.id })
    .from(connectorRuns)
    .where(lte(connectorRuns.nextAttemptAt, nowDate()))
    .orderBy(connectorRuns.nextAttemptAt)
    .limit(limit)
    .for("update", { skipLocked: true });
  return db().update(connectorRuns).set({ nextAttemptAt: null }).where(inArray(connectorRuns.id, due)).returning();
}

/** Starts a claimed run again as `running` (attempt given); null while another run of the connection is running. */
export async function restartRun(id: string, attempt: number): Promise<ConnectorRunRow | null> {
  try {
    const [row] = await db()
      .update(connectorRuns)
      .set({ status: "running", attempt, error: null, finishedAt: null, startedAt: nowDate() })
      .where(eq(connectorRuns.id, id))
      .returning();
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Puts a claimed retry back (its connection's module is off, or another run is in progress). */
export async function postponeRetry(id: string, at: Date): Promise<void> {
  await db().update(connectorRuns).set({ nextAttemptAt: at }).where(eq(connectorRuns.id, id));
}

/** Runs still `running` that started before `before`: their process died. They end as failed, to be retried. */
export async function failAbandonedRuns(before: Date, retryAt: Date): Promise<number> {
  const rows = await db()
    .update(connectorRuns)
    .set({
      status: "failed",
      error: "The run was interrupted (the server stopped)",
      finishedAt: nowDate(),
      nextAttemptAt: retryAt,
    })
    .where(and(eq(connectorRuns.status, "running"), lte(connectorRuns.startedAt, before)))
    .returning({ id: connectorRuns.id });
  return rows.length;
}
