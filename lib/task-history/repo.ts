import { and, desc, eq, inArray, lt } from "drizzle-orm";
import { db } from "../db/client";
import { domainEvents } from "../db/schema/events";
import { users } from "../db/schema/users";

/** The events a task's history shows: its own changes and its comments (nothing addressed to one person). */
export const HISTORY_TYPES = [
  "task.created",
  "task.updated",
  "task.moved",
  "comment.created",
  "comment.updated",
  "comment.deleted",
] as const;
export type HistoryType = (typeof HISTORY_TYPES)[number];

/** The events that carry the task as it was after them (`data.task`). */
export const SNAPSHOT_TYPES = ["task.created", "task.updated", "task.moved"] as const;

export interface HistoryEvent {
  id: number;
  type: HistoryType;
  actorId: string | null;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** A task's history events, newest first, below `beforeId` when given. */
export async function listTaskEvents(taskId: string, limit: number, beforeId: number | null): Promise<HistoryEvent[]> {
  const rows = await db()
    .select({
      id: domainEvents.id,
      type: domainEvents.type,
      actorId: domainEvents.actorId,
      data: domainEvents.data,
      createdAt: domainEvents.createdAt,
    })
    .from(domainEvents)
    .where(
      and(
        eq(domainEvents.taskId, taskId),
        inArray(domainEvents.type, [...HISTORY_TYPES]),
        beforeId === null ? undefined : lt(domainEvents.id, beforeId),
      ),
    )
    .orderBy(desc(domainEvents.id))
    .limit(limit);
  return rows.map((row) => ({ ...row, type: row.type as HistoryType }));
}

/** The task as the latest event below `beforeId` left it (null: none, e.g. before the log began). */
export async function findSnapshotBefore(taskId: string, beforeId: number): Promise<Record<string, unknown> | null> {
  const [row] = await db()
    .select({ data: domainEvents.data })
    .from(domainEvents)
    .where(and(eq(domainEvents.taskId, taskId), inArray(domainEvents.type, [...SNAPSHOT_TYPES]), lt(domainEvents.id, beforeId)))
    .orderBy(desc(domainEvents.id))
    .limit(1);
  return (row?.data.task as Record<string, unknown> | undefined) ?? null;
}

export async function findNames(ids: readonly string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db()
    .select({ id: users.id, name: users.name })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, row.name]));
}
