import { and, asc, eq, inArray, ne, notExists, sql } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { boardColumns, boardPlacements, type BoardColumnRow } from "../db/schema/board-columns";
import { projectMembers, projects } from "../db/schema/projects";
import { tasks, type TaskStatus } from "../db/schema/tasks";
import { userGroupMembers, userGroups } from "../db/schema/teams";

/** Whose board: a project's or a team's (user group's). */
export type BoardScope = { kind: "project"; id: string } | { kind: "team"; id: string };

const scopeColumn = (scope: BoardScope) => (scope.kind === "project" ? boardColumns.projectId : boardColumns.userGroupId);

/** The user's role in the project or team, or null when they are not a member (or it does not exist). */
export async function findScopeRole(scope: BoardScope, userId: string, executor: Executor = db()): Promise<string | null> {
  if (scope.kind === "project") {
    const [row] = await executor
      .select({ role: projectMembers.role })
      .from(projectMembers)
      .where(and(eq(projectMembers.projectId, scope.id), eq(projectMembers.userId, userId)));
    return row?.role ?? null;
  }
  const [row] = await executor
    .select({ role: userGroupMembers.role })
    .from(userGroupMembers)
    .where(and(eq(userGroupMembers.groupId, scope.id), eq(userGroupMembers.userId, userId)));
  return row?.role ?? null;
}

/** Everyone who sees the project's or team's board. */
export async function listScopeMemberIds(scope: BoardScope, executor: Executor): Promise<string[]> {
  const rows =
    scope.kind === "project"
      ? await executor.select({ id: projectMembers.userId }).from(projectMembers).where(eq(projectMembers.projectId, scope.id))
      : await executor
          .select({ id: userGroupMembers.userId })
          .from(userGroupMembers)
          .where(eq(userGroupMembers.groupId, scope.id));
  return rows.map((row) => row.id);
}

/** Locks the project or team row until the transaction ends: its columns change one request at a time. */
export async function lockScope(scope: BoardScope, tx: Executor): Promise<boolean> {
  const table = scope.kind === "project" ? projects : userGroups;
  const rows = await tx.select({ id: table.id }).from(table).where(eq(table.id, scope.id)).for("update");
  return rows.length > 0;
}

/** The scope's columns in board order. */
export function findColumns(scope: BoardScope, executor: Executor = db()): Promise<BoardColumnRow[]> {
  return executor
    .select()
    .from(boardColumns)
    .where(eq(scopeColumn(scope), scope.id))
    .orderBy(asc(boardColumns.position), asc(boardColumns.id));
}

export async function findColumnById(columnId: string, executor: Executor = db()): Promise<BoardColumnRow | null> {
  const [row] = await executor.select().from(boardColumns).where(eq(boardColumns.id, columnId));
  return row ?? null;
}

export async function insertColumns(
  scope: BoardScope,
  columns: readonly { name: string | null; status: TaskStatus; position: number }[],
  tx: Executor,
): Promise<string[]> {
  const owner = scope.kind === "project" ? { projectId: scope.id } : { userGroupId: scope.id };
  const rows = await tx
    .insert(boardColumns)
    .values(columns.map(({ name, status, position }) => ({ ...owner, name, status, position })))
    .returning({ id: boardColumns.id });
  return rows.map((row) => row.id);
}

export async function updateColumnRow(
  columnId: string,
  patch: Partial<Pick<BoardColumnRow, "name" | "status" | "position">>,
  now: Date,
  tx: Executor,
): Promise<void> {
  await tx
    .update(boardColumns)
    .set({ ...patch, updatedAt: now })
    .where(eq(boardColumns.id, columnId));
}

/** Gives the columns, in this order, the positions 0, 1, 2… (only those whose position changes are written). */
export async function writePositions(ordered: readonly BoardColumnRow[], now: Date, tx: Executor): Promise<void> {
  for (const [index, column] of ordered.entries()) {
    if (column.position !== index) await updateColumnRow(column.id, { position: index }, now, tx);
  }
}

export async function deleteColumnRow(columnId: string, tx: Executor): Promise<void> {
  await tx.delete(boardColumns).where(eq(boardColumns.id, columnId));
}

/** The cards placed in one column go to another (a task has one placement per board, so none is there yet). */
export async function movePlacements(fromColumnId: string, toColumnId: string, tx: Executor): Promise<void> {
  await tx.update(boardPlacements).set({ columnId: toColumnId }).where(eq(boardPlacements.columnId, fromColumnId));
}

/**
 * Places in `target` the scope's tasks of `status` that are placed in no column of that status on its board (those
 * the first column of the status shows without a placement): before another column becomes the status's first.
 */
export async function placeUnplacedTasks(scope: BoardScope, status: TaskStatus, target: string, tx: Executor): Promise<void> {
  const taskScope = scope.kind === "project" ? tasks.projectId : tasks.userGroupId;
  const placed = tx
    .select({ one: sql`1` })
    .from(boardPlacements)
    .innerJoin(boardColumns, eq(boardColumns.id, boardPlacements.columnId))
    .where(and(eq(boardPlacements.taskId, tasks.id), eq(scopeColumn(scope), scope.id), eq(boardColumns.status, status)));
  await tx.insert(boardPlacements).select(
    tx
      .select({ taskId: tasks.id, columnId: sql<string>`${target}::uuid`.as("column_id") })
      .from(tasks)
      .where(and(eq(taskScope, scope.id), eq(tasks.status, status), notExists(placed))),
  );
}

/** Records that a task is in `column` on its scope's board (its placement in another column of the board goes). */
export async function setPlacement(taskId: string, column: BoardColumnRow, tx: Executor): Promise<void> {
  const scope: BoardScope = column.projectId
    ? { kind: "project", id: column.projectId }
    : { kind: "team", id: column.userGroupId! };
  const sameBoard = tx
    .select({ id: boardColumns.id })
    .from(boardColumns)
    .where(eq(scopeColumn(scope), scope.id));
  await tx
    .delete(boardPlacements)
    .where(
      and(
        eq(boardPlacements.taskId, taskId),
        inArray(boardPlacements.columnId, sameBoard),
        ne(boardPlacements.columnId, column.id),
      ),
    );
  await tx.insert(boardPlacements).values({ taskId, columnId: column.id }).onConflictDoNothing();
}
