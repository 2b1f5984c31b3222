"use client";

import type { useSortable } from "@dnd-kit/sortable";
import { GripIcon } from "./board-icons";

type Sortable = ReturnType<typeof useSortable>;

/**
 * The grip that drags a sortable item (a board card, a task group): a button, so that the keyboard sensor and
 * screen readers reach it, with dnd-kit's attributes and listeners. Styled by `.drag-handle` (app/globals.css);
 * `className` adds the place's own size.
 */
export function DragHandle({
  label,
  className,
  sortable,
}: {
  label: string;
  className: string;
  sortable: Pick<Sortable, "attributes" | "listeners" | "setActivatorNodeRef">;
}) {
  return (
    <button
      ref={sortable.setActivatorNodeRef}
      type="button"
      className={`drag-handle ${className}`}
      aria-label={label}
      {...sortable.attributes}
      {...sortable.listeners}
    >
      <GripIcon />
    </button>
  );
}
