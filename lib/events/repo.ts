import { and, asc, gt, sql } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { domainEvents } from "../db/schema/events";
import type { DomainEvent, StoredDomainEvent } from "./types";

export async function insertEvents(events: readonly DomainEvent[], database: Executor): Promise<number[]> {
  if (events.length === 0) return [];
  const rows = await database
    .insert(domainEvents)
    .values(
      events.map((event) => ({
        type: event.type,
        actorId: event.actorId,
        taskId: event.taskId ?? null,
        audience: [...new Set(event.audience)],
        data: event.data,
      })),
    )
    .returning({ id: domainEvents.id });
  return rows.map((row) => row.id);
}

/** The events a user may receive after `afterId`, oldest first. */
export async function eventsFor(userId: string, afterId: number, limit: number, database: Executor = db()): Promise<StoredDomainEvent[]> {
  const rows = await database
    .select()
    .from(domainEvents)
    .where(and(gt(domainEvents.id, afterId), sql`${domainEvents.audience} @> array[${userId}]::uuid[]`))
    .orderBy(asc(domainEvents.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, type: row.type as StoredDomainEvent["type"] }));
}
