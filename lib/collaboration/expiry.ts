import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { TaskCollaborationRow } from "../db/schema/collaboration";
import { publish } from "../events/publish";
import type { DomainEvent } from "../events/types";
import { expirePendingRows, insertHistory, type ExpiryScope } from "./repo";

/*
 * A pending request expires when its `expiresAt` passes without a decision. It is marked (state `expired`,
 * history `expired` with no actor, event `collaboration.expired`) lazily, whenever it is read or decided, and by
 * the `collaboration-expiry` background job (server/jobs.ts), so that lists and events do not wait for a read.
 */

/** How many requests one transaction of the job expires. */
export const EXPIRY_BATCH = 100;

/** The event of a request's change of state: its two parties hear of it, and `alsoTo` (the task's audience). */
export function requestEvent(
  type: DomainEvent["type"],
  actorId: string | null,
  request: Pick<TaskCollaborationRow, "id" | "taskId" | "kind" | "requesterId" | "recipientId">,
  state: TaskCollaborationRow["state"],
  alsoTo: readonly string[] = [],
): DomainEvent {
  return {
    type,
    actorId,
    taskId: request.taskId,
    audience: [request.requesterId, request.recipientId, ...alsoTo],
    data: { requestId: request.id, kind: request.kind, state },
  };
}

/** Expires the due requests of `scope` (at most `limit`) in the caller's transaction; answers how many. */
export async function expireDueInTransaction(scope: ExpiryScope, now: Date, limit: number, tx: Executor): Promise<number> {
  const expired = await expirePendingRows(scope, now, limit, tx);
  if (expired.length === 0) return 0;
  await insertHistory(
    expired.map((request) => ({ requestId: request.id, actorId: null, action: "expired", at: request.expiresAt ?? now })),
    tx,
  );
  await publish(tx, ...expired.map((request) => requestEvent("collaboration.expired", null, request, "expired")));
  return expired.length;
}

/** Expires the due requests of `scope` (at most `limit`) in a transaction of its own; answers how many. */
export async function expireDueRequests(scope: ExpiryScope, limit = EXPIRY_BATCH): Promise<number> {
  return db().transaction((tx) => expireDueInTransaction(scope, nowDate(), limit, tx));
}

/**
 * The background job: expires every due request, a batch per transaction, and answers how many. Idempotent:
 * only pending requests change, and rows being decided at that moment are left to their decision (or the next run).
 */
export async function expireAllDueRequests(): Promise<number> {
  let total = 0;
  for (;;) {
    const expired = await expireDueRequests("all", EXPIRY_BATCH);
    total += expired;
    if (expired < EXPIRY_BATCH) return total;
  }
}
