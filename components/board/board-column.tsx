"use client";

import { useDroppable } from "@dnd-kit/core";
import { SortableContext, verticalListSortingStrategy } from "@dnd-kit/sortable";
import { useTranslations } from "next-intl";
import { SortableTaskCard, type Clock } from "./board-card";
import type { BoardColumn as Column } from "./board-state";
import type { MoveTarget } from "./move-menu";

/**
 * One status column: its name and count, then its cards in board order. The card list and the space below it
 * are the column's drop area (its id is the status), so that an empty column takes a card too.
 */
export function BoardColumn({
  column,
  clock,
  onMove,
}: {
  column: Column;
  clock: Clock;
  onMove(taskId: string, target: MoveTarget): void;
}) {
  const t = useTranslations("Board");
  const fields = useTranslations("TaskFields");
  const { setNodeRef, isOver } = useDroppable({ id: column.status });
  const headingId = `board-column-${column.status}`;
  const shown = column.tasks.length;

  return (
    <section className={`board-column board-column-${column.status}`} aria-labelledby={headingId} data-status={column.status}>
      <header className="board-column-head">
        <h2 id={headingId}>{fields(`status.${column.status}`)}</h2>
        <span className="board-column-count">{t("taskCount", { count: column.total })}</span>
      </header>
      <div ref={setNodeRef} className="board-column-body" data-over={isOver || undefined}>
        <SortableContext id={column.status} items={column.tasks.map((task) => task.id)} strategy={verticalListSortingStrategy}>
          <ol className="board-cards">
            {column.tasks.map((task, index) => (
              <SortableTaskCard
                key={task.id}
                task={task}
                spot={{ status: column.status, index, count: shown }}
                clock={clock}
                onMove={onMove}
              />
            ))}
          </ol>
        </SortableContext>
        {shown === 0 && <p className="board-column-empty">{t("emptyColumn")}</p>}
      </div>
      {column.total > shown && <p className="board-column-more">{t("columnCutOff", { shown, total: column.total })}</p>}
    </section>
  );
}
