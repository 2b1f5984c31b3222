import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import type { BoardColumnRow } from "../db/schema/board-columns";
import { publish } from "../events/publish";
import { TASK_STATUSES, type TaskStatus } from "../tasks/vocabulary";
import { mayManageColumns, maySeeColumns } from "./policy";
import {
  deleteColumnRow,
  findColumnById,
  findColumns,
  findScopeRole,
  insertColumns,
  listScopeMemberIds,
  lockScope,
  movePlacements,
  placeUnplacedTasks,
  setPlacement,
  updateColumnRow,
  writePositions,
  type BoardScope,
} from "./repo";
import {
  BOARD_COLUMNS_MAX,
  type BoardColumnListOutput,
  type BoardColumnOutput,
  type CreateBoardColumnInput,
  type UpdateBoardColumnInput,
} from "./schema";

export type { BoardScope };

/*
 * A project's or team's own board columns (issue 22). Without any, its board shows one column per status. The first
 * column added also writes the four status columns (unnamed: called after their status), so that every status keeps
 * a column; from then on a status's last column can be neither deleted nor mapped to another status (409). Members see
 * the columns; owners and admins of the project or team change them; anyone else gets 404. Which column of a status a
 * card is in is its placement (lib/db/schema/board-columns.ts): a card with none is in its status's first column.
 */

const scopeNotFound = (scope: BoardScope) =>
  new AppError("not_found", scope.kind === "project" ? "Project not found" : "User group not found");
const columnNotFound = () => new AppError("not_found", "No such column on this board");
const managersOnly = (scope: BoardScope) =>
  new AppError(
    "forbidden",
    `Only the ${scope.kind === "project" ? "project's" : "group's"} owners and admins can change its board columns`,
  );

function toColumnOutput(column: BoardColumnRow): BoardColumnOutput {
  return { id: column.id, name: column.name, status: column.status, position: column.position };
}

/** The columns a board without its own shows. */
const DEFAULT_COLUMNS: BoardColumnOutput[] = TASK_STATUSES.map((status, position) => ({
  id: null,
  name: null,
  status,
  position,
}));

function listOutput(columns: readonly BoardColumnRow[]): BoardColumnListOutput {
  return columns.length === 0 ? { custom: false, items: DEFAULT_COLUMNS } : { custom: true, items: columns.map(toColumnOutput) };
}

/** How a column is called in a problem's text. */
const describe = (column: BoardColumnRow) => (column.name === null ? `the ${column.status} column` : `"${column.name}"`);

const scopeData = (scope: BoardScope) => (scope.kind === "project" ? { projectId: scope.id } : { userGroupId: scope.id });

/** Runs a change of the scope's columns, locked, for a manager; announces it to the members (their boards reload). */
async function changeColumns<T>(
  actor: Actor,
  scope: BoardScope,
  change: (tx: Executor, columns: BoardColumnRow[]) => Promise<T>,
): Promise<T> {
  return db().transaction(async (tx) => {
    const role = (await lockScope(scope, tx)) ? await findScopeRole(scope, actor.userId, tx) : null;
    if (!maySeeColumns(role)) throw scopeNotFound(scope);
    if (!mayManageColumns(role)) throw managersOnly(scope);
    const result = await change(tx, await findColumns(scope, tx));
    await publish(tx, {
      type: "board.columns_changed",
      actorId: actor.userId,
      audience: await listScopeMemberIds(scope, tx),
      data: scopeData(scope),
    });
    return result;
  });
}

/** Where a column goes in the order: `position` (0-based, clamped), or next to another column. */
function placeAt(others: readonly BoardColumnRow[], input: Pick<UpdateBoardColumnInput, "position" | "beforeId" | "afterId">) {
  if (input.position !== undefined) return Math.min(input.position, others.length);
  const field = input.beforeId !== undefined ? "beforeId" : "afterId";
  const index = others.findIndex((column) => column.id === input[field]);
  if (index === -1) throw invalidField("body", `/${field}`, "is not another column of this board");
  return field === "beforeId" ? index : index + 1;
}

export async function listBoardColumns(actor: Actor, scope: BoardScope): Promise<BoardColumnListOutput> {
  if (!maySeeColumns(await findScopeRole(scope, actor.userId))) throw scopeNotFound(scope);
  return listOutput(await findColumns(scope));
}

/** Adds a column; the first one added also writes the four status columns before it. */
export async function createBoardColumn(
  actor: Actor,
  scope: BoardScope,
  input: CreateBoardColumnInput,
): Promise<BoardColumnOutput> {
  return changeColumns(actor, scope, async (tx, current) => {
    let columns = current;
    if (columns.length === 0) {
      await insertColumns(scope, DEFAULT_COLUMNS, tx);
      columns = await findColumns(scope, tx);
    }
    if (columns.length >= BOARD_COLUMNS_MAX) {
      throw new AppError("conflict", `A board has at most ${BOARD_COLUMNS_MAX} columns: delete one first`);
    }
    const [id] = await insertColumns(scope, [{ name: input.name, status: input.status, position: columns.length }], tx);
    const ordered = [...columns];
    ordered.splice(placeAt(columns, { position: input.position ?? columns.length }), 0, (await findColumnById(id!, tx))!);
    await writePositions(ordered, nowDate(), tx);
    return toColumnOutput((await findColumnById(id!, tx))!);
  });
}

/** Renames a column, maps it to another status, or moves it (one of `position`, `beforeId`, `afterId`). */
export async function updateBoardColumn(
  actor: Actor,
  scope: BoardScope,
  columnId: string,
  input: UpdateBoardColumnInput,
): Promise<BoardColumnOutput> {
  return changeColumns(actor, scope, async (tx, columns) => {
    const column = columns.find((candidate) => candidate.id === columnId);
    if (!column) throw columnNotFound();
    const now = nowDate();
    if (input.status !== undefined && input.status !== column.status) requireAnother(columns, column);
    if (input.name !== undefined || input.status !== undefined) {
      await updateColumnRow(columnId, { name: input.name, status: input.status }, now, tx);
    }
    if (input.position !== undefined || input.beforeId !== undefined || input.afterId !== undefined) {
      const others = columns.filter((candidate) => candidate.id !== columnId);
      others.splice(placeAt(others, input), 0, column);
      await writePositions(others, now, tx);
    }
    return toColumnOutput((await findColumnById(columnId, tx))!);
  });
}

/** 409 when `column` is the last of its status on the board: every status keeps a column. */
function requireAnother(columns: readonly BoardColumnRow[], column: BoardColumnRow): BoardColumnRow[] {
  const others = columns.filter((candidate) => candidate.status === column.status && candidate.id !== column.id);
  if (others.length === 0) {
    throw new AppError(
      "conflict",
      `${describe(column)} is the board's last column of the status ${column.status}: every status keeps at least one ` +
        "column (add another of that status first)",
    );
  }
  return others;
}

/**
 * Deletes a column. Its cards go to `moveTo` (a column of the same status on this board) or else to the first other
 * column of its status; when it was its status's first column, the cards it showed without a placement go there too.
 */
export async function deleteBoardColumn(actor: Actor, scope: BoardScope, columnId: string, moveTo?: string): Promise<void> {
  await changeColumns(actor, scope, async (tx, columns) => {
    const column = columns.find((candidate) => candidate.id === columnId);
    if (!column) throw columnNotFound();
    const others = requireAnother(columns, column);
    const target = moveTo === undefined ? others[0]! : others.find((candidate) => candidate.id === moveTo);
    if (!target) {
      throw invalidField("query", "/moveTo", `must be another column of this board with the status ${column.status}`);
    }
    const wasFirst = columns.find((candidate) => candidate.status === column.status)?.id === column.id;
    await movePlacements(column.id, target.id, tx);
    await deleteColumnRow(column.id, tx);
    if (wasFirst) await placeUnplacedTasks(scope, column.status, target.id, tx);
    await writePositions(
      columns.filter((candidate) => candidate.id !== columnId),
      nowDate(),
      tx,
    );
  });
}

// For the board (lib/tasks)

/** A column of a board as the board reads it: `first` when it is its status's first (cards without a placement). */
export interface BoardLayoutColumn {
  id: string;
  name: string | null;
  status: TaskStatus;
  first: boolean;
}

/**
 * The columns of a project's or team's board as the actor sees it: null when it has none of its own, or the actor
 * is not a member (their board shows one column per status, and nothing of the scope's columns).
 */
export async function boardLayout(actor: Actor, scope: BoardScope): Promise<BoardLayoutColumn[] | null> {
  if (!maySeeColumns(await findScopeRole(scope, actor.userId))) return null;
  const columns = await findColumns(scope);
  if (columns.length === 0) return null;
  const seen = new Set<TaskStatus>();
  return columns.map((column) => {
    const first = !seen.has(column.status);
    seen.add(column.status);
    return { id: column.id, name: column.name, status: column.status, first };
  });
}

/**
 * The column a task is dropped in (`POST /tasks/{id}/move` with `columnId`): one of the board of the task's project
 * or team, which the actor belongs to; anything else is a 400 naming `columnId`.
 */
export async function columnForTask(
  actor: Actor,
  task: { projectId: string | null; userGroupId: string | null },
  columnId: string,
  executor?: Executor,
): Promise<BoardColumnRow> {
  const column = await findColumnById(columnId, executor);
  const scope: BoardScope | null = !column
    ? null
    : column.projectId
      ? { kind: "project", id: column.projectId }
      : { kind: "team", id: column.userGroupId! };
  const ofTask = scope && (scope.kind === "project" ? task.projectId === scope.id : task.userGroupId === scope.id);
  if (!column || !scope || !ofTask || !maySeeColumns(await findScopeRole(scope, actor.userId, executor))) {
    throw invalidField("body", "/columnId", "is not a column of the board of the task's project or team");
  }
  return column;
}

/** Records that a task is in `column` on its board (in the transaction of the move). */
export function placeTaskInColumn(taskId: string, column: BoardColumnRow, tx: Executor): Promise<void> {
  return setPlacement(taskId, column, tx);
}
