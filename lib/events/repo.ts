import { and, asc, gt, gte, or, sql } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { domainEvents } from "../db/schema/events";
import type { DomainEvent, StoredDomainEvent } from "./types";

export async function insertEvents(events: readonly DomainEvent[], createdAt: Date, database: Executor): Promise<number[]> {
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
        createdAt,
      })),
    )
    .returning({ id: domainEvents.id });
  return rows.map((row) => row.id);
}

/**
 * The events a user may receive after `afterId`, oldest first; with `lateSince`, also those at or below it written
 * since then (one may have committed after a later-numbered one the client saw).
 */
export async function eventsFor(
  userId: string,
  afterId: number,
  limit: number,
  lateSince?: Date,
  database: Executor = db(),
): Promise<StoredDomainEvent[]> {
  const window = lateSince
    ? or(gt(domainEvents.id, afterId), gte(domainEvents.createdAt, lateSince))
    : gt(domainEvents.id, afterId);
  const rows = await database
    .select()
    .from(domainEvents)
    .where(and(window, sql`${domainEvents.audience} @> array[${userId}]::uuid[]`))
    .orderBy(asc(domainEvents.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, type: row.type as StoredDomainEvent["type"] }));
}
