"use client";

import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useTranslations } from "next-intl";
import { useCallback, useEffect, useRef } from "react";
import { SortableTaskCard, type Clock, type People } from "./board-card";
import { columnKey, type BoardColumn as Column } from "./board-state";
import { columnLabel } from "./column-label";
import type { MoveTarget } from "./move-menu";

/**
 * One column (a status's, or a project's or team's own): its name and count, then its cards in board order. The card
 * list and the space below it are the column's drop area (its id is the column's key), so that an empty column takes
 * a card too. The list scrolls
 * on its own; when its end comes into view and the column has more cards than are loaded, the next ones load
 * (the "Show more" button at the end does the same, for the keyboard and when scrolling is not possible).
 */
export function BoardColumn({
  column,
  columns,
  clock,
  people,
  loading,
  onMove,
  onLoadMore,
}: {
  column: Column;
  /** Every column of the board (the cards' "Move to…" choices). */
  columns: readonly Column[];
  clock: Clock;
  people: People;
  loading: boolean;
  onMove(taskId: string, target: MoveTarget): void;
  onLoadMore(key: string): void;
}) {
  const t = useTranslations("Board");
  const fields = useTranslations("TaskFields");
  const key = columnKey(column);
  const { setNodeRef, isOver } = useDroppable({ id: key });
  const body = useRef<HTMLDivElement | null>(null);
  const end = useRef<HTMLButtonElement | null>(null);
  const bodyRef = useCallback(
    (node: HTMLDivElement | null) => {
      body.current = node;
      setNodeRef(node);
    },
    [setNodeRef],
  );
  const headingId = `board-column-${key}`;
  const shown = column.tasks.length;
  const { nextCursor } = column;

  useEffect(() => {
    const button = end.current;
    if (!nextCursor || loading || !button || typeof IntersectionObserver === "undefined") return;
    const observer = new IntersectionObserver((entries) => entries.some((entry) => entry.isIntersecting) && onLoadMore(key), {
      root: body.current,
      rootMargin: "0px 0px 200px 0px",
    });
    observer.observe(button);
    return () => observer.disconnect();
  }, [nextCursor, loading, key, onLoadMore]);

  return (
    <section
      className={`board-column board-column-${column.status}`}
      aria-labelledby={headingId}
      data-status={column.status}
      data-column={column.id ?? undefined}
    >
      <header className="board-column-head">
        <h2 id={headingId}>{columnLabel(column, fields)}</h2>
        <span className="board-column-count">{t("taskCount", { count: column.total })}</span>
      </header>
      <div ref={bodyRef} className="board-column-body" data-over={isOver || undefined}>
        <SortableContext id={key} items={column.tasks.map((task) => task.id)} strategy={verticalListSortingStrategy}>
          <ol className="board-cards">
            {column.tasks.map((task, index) => (
              <SortableTaskCard
                key={task.id}
                task={task}
                spot={{ column: key, status: column.status, name: column.name, index, count: shown }}
                columns={columns}
                clock={clock}
                people={people}
                onMove={onMove}
              />
            ))}
          </ol>
        </SortableContext>
        {shown === 0 && <p className="board-column-empty">{t("emptyColumn")}</p>}
        {nextCursor && (
          <button
            ref={end}
            type="button"
            className="board-column-load"
            aria-busy={loading || undefined}
            disabled={loading}
            onClick={() => onLoadMore(key)}
          >
            {loading ? t("loadingMore") : t("loadMore")}
          </button>
        )}
      </div>
      {column.total > shown && <p className="board-column-more">{t("columnCutOff", { shown, total: column.total })}</p>}
    </section>
  );
}
