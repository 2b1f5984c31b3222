import { and, eq, isNotNull, notInArray, sql } from "drizzle-orm";
import { db } from "../../db/client";
import { connectorLinks } from "../../db/schema/connectors";
import { tasks } from "../../db/schema/tasks";

/** The owner's tasks carrying `tag` that this connection has not synced yet (oldest first): the export creates them. */
export async function findUnlinkedTaggedTaskIds(
  ownerId: string,
  connectionId: string,
  tag: string,
  limit: number,
): Promise<string[]> {
  const linked = db()
    .select({ id: connectorLinks.localId })
    .from(connectorLinks)
    .where(
      and(eq(connectorLinks.connectionId, connectionId), eq(connectorLinks.entity, "task"), isNotNull(connectorLinks.localId)),
    );
  const rows = await db()
    .select({ id: tasks.id })
    .from(tasks)
    .where(and(eq(tasks.ownerId, ownerId), sql`${tag} = any(${tasks.tags})`, notInArray(tasks.id, linked)))
    .orderBy(tasks.createdAt, tasks.id)
    .limit(limit);
  return rows.map((row) => row.id);
}
