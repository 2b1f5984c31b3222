import { and, asc, desc, eq, getTableColumns, inArray, lt, lte, ne, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { db, type Executor } from "../db/client";
import {
  taskCollaboration,
  taskCollaborationHistory,
  taskCollaborators,
  type CollaborationKind,
  type CollaborationState,
  type TaskCollaborationHistoryRow,
  type TaskCollaborationRow,
} from "../db/schema/collaboration";
import { taskAssignees, tasks, type TaskStatus } from "../db/schema/tasks";
import { users } from "../db/schema/users";

/** A request with what its answer shows besides its own columns: both parties' names and the task's summary. */
export interface RequestView extends TaskCollaborationRow {
  requesterName: string;
  recipientName: string;
  taskTitle: string;
  taskStatus: TaskStatus;
  taskDueAt: Date | null;
}

/** Where a page of a user's requests ended: the last request's creation time and id. */
export interface RequestKeyset {
  createdAt: Date;
  id: string;
}

export type Box = "incoming" | "outgoing";

const requesterUser = alias(users, "requester_user");
const recipientUser = alias(users, "recipient_user");

const viewColumns = {
  ...getTableColumns(taskCollaboration),
  requesterName: requesterUser.name,
  recipientName: recipientUser.name,
  taskTitle: tasks.title,
  taskStatus: tasks.status,
  taskDueAt: tasks.dueAt,
};

function views(executor: Executor) {
  return executor
    .select(viewColumns)
    .from(taskCollaboration)
    .innerJoin(requesterUser, eq(requesterUser.id, taskCollaboration.requesterId))
    .innerJoin(recipientUser, eq(recipientUser.id, taskCollaboration.recipientId))
    .innerJoin(tasks, eq(tasks.id, taskCollaboration.taskId));
}

/** Incoming: the user decides (claims, where they are both parties, are outgoing only); outgoing: they asked. */
function boxCondition(userId: string, box: Box): SQL {
  return box === "incoming"
    ? and(eq(taskCollaboration.recipientId, userId), ne(taskCollaboration.kind, "claim"))!
    : eq(taskCollaboration.requesterId, userId);
}

export async function findRequestView(requestId: string, executor: Executor = db()): Promise<RequestView | null> {
  const [row] = await views(executor).where(eq(taskCollaboration.id, requestId)).limit(1);
  return row ?? null;
}

/** A page of a user's requests in one box, newest first (then by id), after `after`. */
export async function listRequestViews(
  userId: string,
  filter: { box: Box; state?: CollaborationState },
  limit: number,
  after: RequestKeyset | null,
): Promise<RequestView[]> {
  const conditions = [boxCondition(userId, filter.box)];
  if (filter.state) conditions.push(eq(taskCollaboration.state, filter.state));
  if (after) {
    conditions.push(
      or(
        lt(taskCollaboration.createdAt, after.createdAt),
        and(eq(taskCollaboration.createdAt, after.createdAt), lt(taskCollaboration.id, after.id)),
      )!,
    );
  }
  return views(db())
    .where(and(...conditions))
    .orderBy(desc(taskCollaboration.createdAt), desc(taskCollaboration.id))
    .limit(limit);
}

export async function findRequest(requestId: string, executor: Executor = db()): Promise<TaskCollaborationRow | null> {
  const [row] = await executor.select().from(taskCollaboration).where(eq(taskCollaboration.id, requestId)).limit(1);
  return row ?? null;
}

/** The request, locked until the transaction ends (decisions on one request happen one at a time). */
export async function lockRequest(requestId: string, tx: Executor): Promise<TaskCollaborationRow | null> {
  const [row] = await tx.select().from(taskCollaboration).where(eq(taskCollaboration.id, requestId)).for("update");
  return row ?? null;
}

/**
 * Inserts a request; null (changing nothing) when a pending one of the same kind, task and recipient exists
 * (the unique partial index `task_collaboration_pending_key` decides, also between requests sent at once).
 */
export async function insertRequest(
  request: Omit<typeof taskCollaboration.$inferInsert, "id">,
  tx: Executor,
): Promise<TaskCollaborationRow | null> {
  const [row] = await tx
    .insert(taskCollaboration)
    .values(request)
    .onConflictDoNothing({
      target: [taskCollaboration.taskId, taskCollaboration.kind, taskCollaboration.recipientId],
      where: sql`${taskCollaboration.state} = 'pending'`,
    })
    .returning();
  return row ?? null;
}

/** Ends a pending request (the caller holds its lock and has checked that it is pending). */
export async function updateRequestState(requestId: string, state: CollaborationState, now: Date, tx: Executor): Promise<void> {
  await tx.update(taskCollaboration).set({ state, decidedAt: now, updatedAt: now }).where(eq(taskCollaboration.id, requestId));
}

/** Which pending requests an expiry pass looks at: one, a user's in one box, one task/kind/recipient, or all. */
export type ExpiryScope =
  { requestId: string } | { userId: string; box: Box } | { taskId: string; kind: CollaborationKind; recipientId: string } | "all";

function scopeCondition(scope: ExpiryScope): SQL | undefined {
  if (scope === "all") return undefined;
  if ("requestId" in scope) return eq(taskCollaboration.id, scope.requestId);
  if ("box" in scope) return boxCondition(scope.userId, scope.box);
  return and(
    eq(taskCollaboration.taskId, scope.taskId),
    eq(taskCollaboration.kind, scope.kind),
    eq(taskCollaboration.recipientId, scope.recipientId),
  );
}

/**
 * Marks up to `limit` pending requests whose time ran out (expires_at <= now) as expired, oldest expiry first,
 * and answers them. Rows another transaction holds (being decided) are skipped, and only pending rows change,
 * so that running it twice, or in two processes, expires each request once. `decidedAt` becomes the moment the
 * request expired, whenever this runs.
 */
export async function expirePendingRows(
  scope: ExpiryScope,
  now: Date,
  limit: number,
  tx: Executor,
): Promise<TaskCollaborationRow[]> {
  const due = tx
    .select({ id: taskCollaboration.id })
    .from(taskCollaboration)
    .where(and(eq(taskCollaboration.state, "pending"), lte(taskCollaboration.expiresAt, now), scopeCondition(scope)))
    .orderBy(asc(taskCollaboration.expiresAt))
    .limit(limit)
    .for("update", { skipLocked: true });
  return tx
    .update(taskCollaboration)
    .set({ state: "expired", decidedAt: sql`${taskCollaboration.expiresAt}`, updatedAt: now })
    .where(and(inArray(taskCollaboration.id, due), eq(taskCollaboration.state, "pending")))
    .returning();
}

// History

export async function insertHistory(
  entries: readonly { requestId: string; actorId: string | null; action: string; at: Date }[],
  tx: Executor,
): Promise<void> {
  if (entries.length) await tx.insert(taskCollaborationHistory).values([...entries]);
}

/** What happened to a request, in order. */
export async function listHistory(requestId: string, executor: Executor = db()): Promise<TaskCollaborationHistoryRow[]> {
  return executor
    .select()
    .from(taskCollaborationHistory)
    .where(eq(taskCollaborationHistory.requestId, requestId))
    .orderBy(asc(taskCollaborationHistory.id));
}

// Effects on the task

/** Assigns a user to a task; nothing changes when they already are. */
export async function insertAssignee(taskId: string, userId: string, now: Date, tx: Executor): Promise<void> {
  await tx
    .insert(taskAssignees)
    .values({ taskId, userId, createdAt: now })
    .onConflictDoNothing({ target: [taskAssignees.taskId, taskAssignees.userId] });
}

/** Makes a user a collaborator on a task; nothing changes when they already are. */
export async function insertCollaborator(taskId: string, userId: string, now: Date, tx: Executor): Promise<void> {
  await tx
    .insert(taskCollaborators)
    .values({ taskId, userId, createdAt: now })
    .onConflictDoNothing({ target: [taskCollaborators.taskId, taskCollaborators.userId] });
}

/** Removes a collaborator; false when they were none. */
export async function deleteCollaborator(taskId: string, userId: string, tx: Executor): Promise<boolean> {
  const rows = await tx
    .delete(taskCollaborators)
    .where(and(eq(taskCollaborators.taskId, taskId), eq(taskCollaborators.userId, userId)))
    .returning({ userId: taskCollaborators.userId });
  return rows.length > 0;
}
