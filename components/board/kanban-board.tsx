"use client";

import {
  closestCenter,
  DndContext,
  DragOverlay,
  getFirstCollision,
  KeyboardSensor,
  MeasuringStrategy,
  MouseSensor,
  pointerWithin,
  rectIntersection,
  TouchSensor,
  useSensor,
  useSensors,
  type CollisionDetection,
  type DragEndEvent,
  type DragOverEvent,
  type DragStartEvent,
} from "@dnd-kit/core";
import { sortableKeyboardCoordinates } from "@dnd-kit/sortable";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import { Link } from "@/i18n/navigation";
import { useLiveEvents } from "@/components/realtime/use-live-events";
import type { TaskOutput } from "@/lib/tasks/schema";
import { useBoardAccessibility } from "./board-announcements";
import { DraggedTaskCard, type Clock, type People } from "./board-card";
import { BoardColumn } from "./board-column";
import { columnLabel } from "./column-label";
import { EditColumns, type ColumnsScope } from "./edit-columns";
import { boardSearch, type BoardFilter } from "./board-filter";
import { liveChange, namesUnknown } from "./board-live";
import {
  appendCards,
  BOARD_FIRST_PAGE,
  BOARD_PAGE_SIZE,
  columnKey,
  columnOf,
  dropSpot,
  findTask,
  hasOwnColumns,
  isColumnKey,
  locate,
  moveInput,
  moveTask,
  placeTask,
  removeTask,
  replaceTask,
  type Board,
  type Spot,
} from "./board-state";
import type { MoveTarget } from "./move-menu";

/** Live events often come in bursts (a bulk change, a replay after reconnecting): one reload for the lot. */
const RELOAD_DELAY_MS = 250;

type Change = (board: Board) => Board;

/** A person on the cards, as GET /board names them. */
interface Person {
  id: string;
  name: string;
}

interface Props {
  /** The board as the server rendered it, for this filter (the page remounts the board when the filter changes). */
  initial: Board;
  /** The names of its cards' assignees. */
  initialPeople: Person[];
  filter: BoardFilter;
  clock: Clock;
  /** The project or team whose columns the board shows, when the user may change them ("Edit columns"). */
  editColumns?: ColumnsScope;
}

/**
 * The kanban board: drag cards with the pointer or the keyboard (dnd-kit), or move them with their Move button.
 * A move shows at once and is sent to `POST /tasks/{id}/move` with the card's new neighbours; if the server
 * refuses, the card goes back and a message says why. Other people's and other tabs' changes arrive on the live
 * socket and apply as they come, except during a drag: they wait until the card is dropped.
 */
export function KanbanBoard({ initial, initialPeople, filter, clock, editColumns }: Props) {
  const t = useTranslations("Board");
  const fields = useTranslations("TaskFields");
  const [board, setBoard] = useState(initial);
  const boardRef = useRef(initial);
  /** The dragged card as it was when picked up; null when nothing is being dragged. */
  const origin = useRef<{ task: TaskOutput; spot: Spot } | null>(null);
  const [draggedId, setDraggedId] = useState<string | null>(null);
  /** Changes that arrived during a drag. */
  const held = useRef<Change[]>([]);
  const pendingMoves = useRef(0);
  const reload = useRef({ wanted: false, timer: undefined as ReturnType<typeof setTimeout> | undefined });
  const [error, setError] = useState("");
  const [status, setStatus] = useState("");
  const [focusMoved, setFocusMoved] = useState<string | null>(null);
  /** The columns whose next cards are on their way. */
  const [loading, setLoading] = useState<ReadonlySet<string>>(new Set());
  const loadingRef = useRef(new Set<string>());
  const accessibility = useBoardAccessibility(boardRef);
  const [people, setPeople] = useState<People>(() => new Map(initialPeople.map(({ id, name }) => [id, name])));
  const peopleRef = useRef(people);

  // A mouse drags once it has moved 5 px (a click stays a click); a finger after a 250 ms press held still
  // (a swipe scrolls the page or the column). The keyboard starts from the handle only.
  const sensors = useSensors(
    useSensor(MouseSensor, { activationConstraint: { distance: 5 } }),
    useSensor(TouchSensor, { activationConstraint: { delay: 250, tolerance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const collisions = useMemo(() => boardCollisions(() => boardRef.current), []);

  function apply(change: Change) {
    boardRef.current = change(boardRef.current);
    setBoard(boardRef.current);
  }

  /** Adds the names an answer of GET /board brings. */
  function learnPeople(more: readonly Person[]) {
    if (more.every(({ id, name }) => peopleRef.current.get(id) === name)) return;
    peopleRef.current = new Map([...peopleRef.current, ...more.map(({ id, name }): [string, string] => [id, name])]);
    setPeople(peopleRef.current);
  }

  const busy = () => origin.current !== null || pendingMoves.current > 0;

  /** Loads the board again once things are quiet: no drag, no move on its way (its answer would be overwritten). */
  function scheduleReload() {
    reload.current.wanted = true;
    clearTimeout(reload.current.timer);
    reload.current.timer = setTimeout(() => void reloadBoard(), RELOAD_DELAY_MS);
  }

  async function reloadBoard() {
    if (busy()) return; // settle() asks again
    reload.current.wanted = false;
    try {
      // As many cards per column as are shown now, so that a reload does not take back what was scrolled into view.
      const shown = Math.max(BOARD_FIRST_PAGE, ...boardRef.current.map((column) => column.tasks.length));
      const answer = await api.GET("/api/v1/board", {
        querySerializer: () => boardQuery({ limit: String(Math.min(shown, 500)) }),
      });
      if (!answer.ok) return setError(t("reloadFailed"));
      const fresh = answer.body.columns;
      learnPeople(answer.body.people);
      if (busy()) reload.current.wanted = true;
      else apply(() => fresh);
    } catch {
      setError(t("reloadFailed"));
    }
  }

  /** The query of GET /board: the page's filter (as in its address) and these parameters. */
  function boardQuery(parameters: Record<string, string>): string {
    const search = new URLSearchParams(boardSearch(filter));
    for (const [name, value] of Object.entries(parameters)) search.set(name, value);
    return search.toString();
  }

  /** Loads a column's next cards (its end scrolled into view, or "Show more"). */
  const loadMore = useCallback(
    async (key: string) => {
      const column = boardRef.current.find((candidate) => columnKey(candidate) === key);
      const cursor = column?.nextCursor;
      if (!column || !cursor || loadingRef.current.has(key)) return;
      const mark = (on: boolean) => {
        if (on) loadingRef.current.add(key);
        else loadingRef.current.delete(key);
        setLoading(new Set(loadingRef.current));
      };
      mark(true);
      try {
        const which: Record<string, string> = column.id ? { columnId: column.id } : { status: column.status };
        const answer = await api.GET("/api/v1/board", {
          querySerializer: () => boardQuery({ ...which, cursor, limit: String(BOARD_PAGE_SIZE) }),
        });
        const more = answer.ok ? answer.body.columns[0] : undefined;
        if (answer.ok) learnPeople(answer.body.people);
        if (!more) setError(t("loadMoreFailed"));
        // A reload meanwhile has its own cursor: this answer continues the old one.
        else if (boardRef.current.find((candidate) => columnKey(candidate) === key)?.nextCursor === cursor) {
          const change: Change = (current) => appendCards(current, more);
          if (origin.current) held.current.push(change);
          else apply(change);
        }
      } catch {
        setError(t("loadMoreFailed"));
      } finally {
        mark(false);
      }
    },
    [filter, t],
  );

  /** After a drop or a move's answer: apply what waited, and reload if that was asked for meanwhile. */
  function settle() {
    if (origin.current) return;
    held.current.splice(0).forEach(apply);
    if (reload.current.wanted && pendingMoves.current === 0) scheduleReload();
  }

  const live = useLiveEvents({
    onEvent(event) {
      const change = liveChange(event, filter, hasOwnColumns(boardRef.current));
      // Someone newly assigned: only a reload of the board brings their name.
      if (namesUnknown(event, peopleRef.current)) scheduleReload();
      if (change === "reload") scheduleReload();
      else if (change && origin.current) held.current.push(change);
      else if (change) apply(change);
    },
    onResync: scheduleReload,
  });

  useEffect(() => () => clearTimeout(reload.current.timer), []);

  // The board is hydrated: a marker for the page benchmark (bench/pages.ts), set without rendering again.
  const element = useRef<HTMLDivElement>(null);
  useEffect(() => element.current?.setAttribute("data-hydrated", ""), []);

  useEffect(() => {
    if (!focusMoved) return;
    document.querySelector<HTMLElement>(`[data-move-button="${focusMoved}"]`)?.focus();
    setFocusMoved(null);
  }, [focusMoved, board]);

  /** Sends a move made here; `before` is the task as it was, to put back if the server says no. */
  async function sendMove(before: TaskOutput) {
    const input = moveInput(boardRef.current, before.id);
    if (!input) return;
    pendingMoves.current++;
    setError("");
    try {
      const answer = await api.POST("/api/v1/tasks/{id}/move", { params: { path: { id: before.id } }, body: input });
      if (answer.ok) {
        const moved = answer.body;
        apply((current) => replaceTask(current, moved));
      } else refuse(before, answer.status);
    } catch {
      refuse(before, 0);
    } finally {
      pendingMoves.current--;
      settle();
    }
  }

  function refuse(before: TaskOutput, status: number) {
    if (status === 404) {
      apply((current) => removeTask(current, before.id));
      return setError(t("moveGone", { title: before.title }));
    }
    apply((current) => placeTask(current, before, filter));
    setError(t(status === 409 ? "moveConflict" : status === 403 ? "moveForbidden" : "moveFailed", { title: before.title }));
    if (status === 409) scheduleReload();
  }

  function onDragStart({ active }: DragStartEvent) {
    const task = findTask(boardRef.current, active.id);
    const spot = locate(boardRef.current, active.id);
    if (!task || !spot) return;
    origin.current = { task, spot };
    setDraggedId(task.id);
    setError("");
    setStatus("");
  }

  /** Across columns the card moves into the other column's list as it is dragged (within one, dnd-kit sorts). */
  function onDragOver({ active, over }: DragOverEvent) {
    const from = columnOf(boardRef.current, active.id);
    const to = over ? columnOf(boardRef.current, over.id) : null;
    if (!over || !from || !to || from === to) return;
    const cards = boardRef.current.find((column) => columnKey(column) === to)?.tasks ?? [];
    const overIndex = cards.findIndex((task) => task.id === over.id);
    const dragged = active.rect.current.translated;
    const below = dragged !== null && dragged.top > over.rect.top + over.rect.height / 2;
    apply((current) => moveTask(current, String(active.id), to, overIndex === -1 ? cards.length : overIndex + (below ? 1 : 0)));
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    const start = origin.current;
    if (!start) return;
    const spot = over ? dropSpot(boardRef.current, active.id, over.id) : null;
    const target = spot ?? start.spot;
    apply((current) => moveTask(current, start.task.id, target.column, target.index));
    endDrag();
    const now = locate(boardRef.current, start.task.id);
    if (now && (now.column !== start.spot.column || now.index !== start.spot.index)) void sendMove(start.task);
  }

  function onDragCancel() {
    const start = origin.current;
    if (start) apply((current) => moveTask(current, start.task.id, start.spot.column, start.spot.index));
    endDrag();
  }

  function endDrag() {
    origin.current = null;
    setDraggedId(null);
    settle();
  }

  function moveWithMenu(taskId: string, target: MoveTarget) {
    const task = findTask(boardRef.current, taskId);
    if (!task || origin.current) return;
    apply((current) => moveTask(current, taskId, target.column, target.index === "end" ? Number.MAX_SAFE_INTEGER : target.index));
    const spot = locate(boardRef.current, taskId);
    if (spot) {
      setStatus(
        t("moved", { title: task.title, column: columnLabel(spot, fields), position: spot.index + 1, count: spot.count }),
      );
    }
    setFocusMoved(taskId);
    void sendMove(task);
  }

  const dragged = draggedId ? findTask(board, draggedId) : null;
  const empty = board.every((column) => column.total === 0);

  return (
    <div ref={element} className="board">
      <div className="board-bar">
        <p className={`board-live board-live-${live}`}>{t(`live.${live}`)}</p>
        {editColumns && <EditColumns scope={editColumns} onChanged={scheduleReload} />}
      </div>
      <p className="board-error" role="alert">
        {error}
      </p>
      <p className="board-visually-hidden" role="status">
        {status}
      </p>
      {empty && (
        <p className="board-empty">
          {filter.groupId || filter.projectId
            ? t("emptyFiltered")
            : t.rich("emptyBoard", { link: (chunks) => <Link href="/tasks">{chunks}</Link> })}
        </p>
      )}
      <DndContext
        id="board"
        sensors={sensors}
        collisionDetection={collisions}
        measuring={{ droppable: { strategy: MeasuringStrategy.Always } }}
        accessibility={accessibility}
        onDragStart={onDragStart}
        onDragOver={onDragOver}
        onDragEnd={onDragEnd}
        onDragCancel={onDragCancel}
      >
        <div className="board-columns" role="group" aria-label={t("columnsLabel")}>
          {board.map((column) => (
            <BoardColumn
              key={columnKey(column)}
              column={column}
              columns={board}
              clock={clock}
              people={people}
              loading={loading.has(columnKey(column))}
              onMove={moveWithMenu}
              onLoadMore={loadMore}
            />
          ))}
        </div>
        <DragOverlay>{dragged && <DraggedTaskCard task={dragged} clock={clock} people={people} />}</DragOverlay>
      </DndContext>
    </div>
  );
}

/**
 * Which card or column the dragged card is over: the droppable under the pointer (or, with the keyboard, the one
 * the card overlaps most); over a column that has cards, the card nearest to it, so that the space below a
 * column's last card means "after it".
 */
function boardCollisions(board: () => Board): CollisionDetection {
  return (args) => {
    const underPointer = pointerWithin(args);
    const overId = getFirstCollision(underPointer.length > 0 ? underPointer : rectIntersection(args), "id");
    if (overId == null || !isColumnKey(board(), overId)) return overId == null ? [] : [{ id: overId }];
    const ids = new Set(
      board()
        .find((column) => columnKey(column) === overId)
        ?.tasks.map((task) => task.id),
    );
    if (ids.size === 0) return [{ id: overId }];
    const nearest = closestCenter({
      ...args,
      droppableContainers: args.droppableContainers.filter(({ id }) => ids.has(String(id))),
    });
    return nearest.length > 0 ? nearest.slice(0, 1) : [{ id: overId }];
  };
}
