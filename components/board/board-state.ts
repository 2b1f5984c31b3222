import type { MoveTaskInput, TaskOutput } from "@/lib/tasks/schema";
import type { TaskStatus } from "@/lib/tasks/vocabulary";
import { matchesFilter, type BoardFilter } from "./board-filter";

/*
 * The board as the page holds it, and the pure changes made to it: a drag, a "Move to…" choice, a task that
 * changed elsewhere. Columns keep the order GET /board gives: one per status (in the order of TASK_STATUSES), or a
 * project's or team's own columns (lib/board-columns). A column's key (`columnKey`) is its droppable id: its id
 * when it has one, else its status (ids are random UUIDs, so they cannot clash with each other or with a task's).
 */

export interface BoardColumn {
  /** A project's or team's own column: its id (`columnId` of a move); null for one column per status. */
  id: string | null;
  /** Its name; null: called after its status. */
  name: string | null;
  status: TaskStatus;
  tasks: TaskOutput[];
  /** Tasks in the column, including those not loaded yet. */
  total: number;
  /** Where the column's next cards start (`GET /board?status=…&cursor=…`); null when all are loaded. */
  nextCursor: string | null;
}
export type Board = BoardColumn[];

/**
 * Cards per column on the first screen (the page's `limit` of GET /board): a window's height of them and a few
 * more, so that four columns stay within the board's budget of DOM nodes (docs/performance.md) with any number
 * of tasks. The rest load as a column is scrolled.
 */
export const BOARD_FIRST_PAGE = 8;

/** Cards per "load more" (the `limit` of GET /board with a column's cursor). */
export const BOARD_PAGE_SIZE = 50;

/** Where a task is (or would land): its column (key, status and name), its index there and how many tasks it then shows. */
export interface Spot {
  column: string;
  status: TaskStatus;
  name: string | null;
  index: number;
  count: number;
}

/** A column's droppable id and key: its id, or its status when the board has one column per status. */
export function columnKey(column: Pick<BoardColumn, "id" | "status">): string {
  return column.id ?? column.status;
}

const keyed = (board: Board, key: unknown) => board.find((column) => columnKey(column) === key);

/** Whether a droppable id is a column's (not a card's). */
export function isColumnKey(board: Board, id: unknown): boolean {
  return keyed(board, id) !== undefined;
}

/** Whether the board shows a project's or team's own columns. */
export const hasOwnColumns = (board: Board) => board.some((column) => column.id !== null);

const spotIn = (column: BoardColumn, index: number, count: number): Spot => ({
  column: columnKey(column),
  status: column.status,
  name: column.name,
  index,
  count,
});

/** The column of a droppable id: a column's key names it, a task id the column holding it. */
export function columnOf(board: Board, id: unknown): string | null {
  if (isColumnKey(board, id)) return String(id);
  const column = board.find((candidate) => candidate.tasks.some((task) => task.id === id));
  return column ? columnKey(column) : null;
}

export function findTask(board: Board, taskId: unknown): TaskOutput | null {
  for (const column of board) for (const task of column.tasks) if (task.id === taskId) return task;
  return null;
}

export function locate(board: Board, taskId: unknown): Spot | null {
  for (const column of board) {
    const index = column.tasks.findIndex((task) => task.id === taskId);
    if (index !== -1) return spotIn(column, index, column.tasks.length);
  }
  return null;
}

/**
 * Where the dragged task lands when dropped over `overId`: in the same column it takes the place of the card
 * it is over (or goes last over the column's empty space); in another column it goes before that card.
 */
export function dropSpot(board: Board, activeId: unknown, overId: unknown): Spot | null {
  const column = keyed(board, columnOf(board, overId));
  if (!column) return null;
  const here = column.tasks.findIndex((task) => task.id === activeId);
  const overIndex = column.tasks.findIndex((task) => task.id === overId);
  const count = here === -1 ? column.tasks.length + 1 : column.tasks.length;
  return spotIn(column, overIndex === -1 ? count - 1 : overIndex, count);
}

/** The board with a task taken out of its column and put into the column `key` at `index` (of the column without it). */
export function moveTask(board: Board, taskId: string, key: string, index: number): Board {
  const task = findTask(board, taskId);
  if (!task) return board;
  return board.map((column) => {
    const had = column.tasks.some((candidate) => candidate.id === taskId);
    const tasks = column.tasks.filter((candidate) => candidate.id !== taskId);
    if (columnKey(column) !== key) return had ? { ...column, tasks, total: column.total - 1 } : column;
    tasks.splice(Math.max(0, Math.min(index, tasks.length)), 0, { ...task, status: column.status });
    return { ...column, tasks, total: had ? column.total : column.total + 1 };
  });
}

/** Board order: by position key (bytewise, as the database sorts it), then by id. */
function compareBoardOrder(a: TaskOutput, b: TaskOutput): number {
  if (a.position !== b.position) return a.position < b.position ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export function removeTask(board: Board, taskId: string): Board {
  return board.map((column) =>
    column.tasks.some((task) => task.id === taskId)
      ? { ...column, tasks: column.tasks.filter((task) => task.id !== taskId), total: column.total - 1 }
      : column,
  );
}

/**
 * The board with a task as it is now (from a live event, or the answer to a move): in place when its column and
 * position did not change, else in its column by board order, or gone when it no longer matches the filter. Its
 * column is the one of its status it is in, else its status's first (another column of the same status is only
 * known from GET /board: a move there made elsewhere reloads the board, board-live.ts).
 * A column cut off at the limit only counts a task that sorts after its last card (the board does not show it).
 */
export function placeTask(board: Board, task: TaskOutput, filter: BoardFilter): Board {
  const current = findTask(board, task.id);
  if (current && current.status === task.status && current.position === task.position && matchesFilter(task, filter)) {
    return board.map((column) => ({
      ...column,
      tasks: column.tasks.map((candidate) => (candidate.id === task.id ? task : candidate)),
    }));
  }
  const without = current ? removeTask(board, task.id) : board;
  if (!matchesFilter(task, filter)) return without;
  const holder = board.find((column) => column.tasks.some((candidate) => candidate.id === task.id));
  const target = holder && holder.status === task.status ? holder : board.find((column) => column.status === task.status);
  return without.map((column) => {
    if (!target || columnKey(column) !== columnKey(target)) return column;
    const index = column.tasks.findIndex((candidate) => compareBoardOrder(task, candidate) < 0);
    const cutOff = column.total > column.tasks.length;
    if (index === -1 && cutOff) return { ...column, total: column.total + 1 };
    const tasks = [...column.tasks];
    tasks.splice(index === -1 ? tasks.length : index, 0, task);
    return { ...column, tasks, total: column.total + 1 };
  });
}

/** The board with a task's fields replaced where it stands (the server's answer to a move made here). */
export function replaceTask(board: Board, task: TaskOutput): Board {
  return board.map((column) => ({
    ...column,
    tasks: column.tasks.map((candidate) => (candidate.id === task.id ? task : candidate)),
  }));
}

/**
 * `POST /tasks/{id}/move` for a task where it now stands: its column and the cards just above and below.
 * With one neighbour the server puts it right next to that one (so a column cut off at the limit keeps its
 * hidden tail after it); with none (an empty column) only the status changes.
 */
export function moveInput(board: Board, taskId: string): MoveTaskInput | null {
  const spot = locate(board, taskId);
  const column = spot ? keyed(board, spot.column) : undefined;
  if (!spot || !column) return null;
  const above = column.tasks[spot.index - 1];
  const below = column.tasks[spot.index + 1];
  return {
    ...(column.id ? { columnId: column.id } : { status: spot.status }),
    ...(above ? { afterId: above.id } : {}),
    ...(below ? { beforeId: below.id } : {}),
  };
}

/**
 * The board with a column's next cards appended (the answer to `GET /board?status=…&cursor=…`). A card already
 * there (moved or placed by a live event meanwhile) stays where it is; the column takes the answer's total and cursor.
 */
export function appendCards(board: Board, more: BoardColumn): Board {
  const shown = new Set(board.flatMap((column) => column.tasks.map((task) => task.id)));
  return board.map((column) =>
    columnKey(column) === columnKey(more)
      ? {
          ...column,
          tasks: [...column.tasks, ...more.tasks.filter((task) => !shown.has(task.id))],
          total: more.total,
          nextCursor: more.nextCursor,
        }
      : column,
  );
}
