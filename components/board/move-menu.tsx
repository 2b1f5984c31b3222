"use client";

import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { columnKey, type BoardColumn, type Spot } from "./board-state";
import { columnLabel } from "./column-label";

/** A place to move a card to: a column (its key), and an index there ("end": after its last card). */
export interface MoveTarget {
  column: string;
  index: number | "end";
}

/**
 * The way to move a card without dragging it: a "Move" button that opens a short list (up, down, to each
 * other column). A disclosure rather than an ARIA menu: plain buttons in tab order, Escape closes it and gives
 * focus back to the button.
 */
export function MoveMenu({
  taskId,
  title,
  spot,
  columns,
  onMove,
}: {
  taskId: string;
  title: string;
  spot: Spot;
  columns: readonly Pick<BoardColumn, "id" | "name" | "status">[];
  onMove(target: MoveTarget): void;
}) {
  const t = useTranslations("Board");
  const fields = useTranslations("TaskFields");
  const id = useId();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (open) list.current?.querySelector("button")?.focus();
  }, [open]);

  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  const choose = (target: MoveTarget) => {
    setOpen(false);
    onMove(target);
  };
  const targets: { label: string; target: MoveTarget }[] = [
    ...(spot.index > 0 ? [{ label: t("moveUp"), target: { column: spot.column, index: spot.index - 1 } }] : []),
    ...(spot.index < spot.count - 1 ? [{ label: t("moveDown"), target: { column: spot.column, index: spot.index + 1 } }] : []),
    ...columns
      .filter((column) => columnKey(column) !== spot.column)
      .map((column) => ({
        label: t("moveToColumn", { column: columnLabel(column, fields) }),
        target: { column: columnKey(column), index: "end" as const },
      })),
  ];

  return (
    <div
      className="board-move"
      onBlur={(event) => {
        if (open && !event.currentTarget.contains(event.relatedTarget)) setOpen(false);
      }}
      onKeyDown={(event) => {
        if (open && event.key === "Escape") {
          event.stopPropagation();
          close();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="board-move-button"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={t("moveTask", { title })}
        data-move-button={taskId}
        onClick={() => setOpen(!open)}
      >
        {t("move")}
      </button>
      {open && (
        <ul ref={list} id={id} className="board-move-list">
          {targets.map(({ label, target }) => (
            <li key={label}>
              <button type="button" onClick={() => choose(target)}>
                {label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
