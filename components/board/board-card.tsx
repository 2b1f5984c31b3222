"use client";

import { useSortable } from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useTranslations } from "next-intl";
import { Link } from "@/i18n/navigation";
import { PriorityBadge } from "@/components/tasks/task-fields";
import type { TaskOutput } from "@/lib/tasks/schema";
import { AssigneeAvatars } from "./assignee-avatars";
import { GripIcon } from "./board-icons";
import { DueChip } from "./due-chip";
import { DragHandle } from "./drag-handle";
import type { BoardColumn, Spot } from "./board-state";
import { MoveMenu, type MoveTarget } from "./move-menu";

/** The render time and the user's time zone, for due dates ("due today") that read the same on server and client. */
export interface Clock {
  now: string;
  timeZone: string;
}

/** The names of the people on the board's cards, by id (GET /board's `people`). */
export type People = ReadonlyMap<string, string>;

interface CardProps {
  task: TaskOutput;
  spot: Spot;
  /** The board's columns (the "Move to…" choices). */
  columns: readonly BoardColumn[];
  clock: Clock;
  people: People;
  onMove(taskId: string, target: MoveTarget): void;
}

/**
 * A card on the board. The whole card drags with the mouse or a finger (the sensors of kanban-board.tsx wait for
 * a few pixels of movement, or a long press, so that a click on its link or Move button and a swipe to scroll
 * still work); with the keyboard only its handle picks it up (Space), and screen readers reach it there. While
 * it is dragged it stays in place as a faint placeholder and the overlay follows the pointer.
 */
export function SortableTaskCard({ task, spot, columns, clock, people, onMove }: CardProps) {
  const t = useTranslations("Board");
  const sortable = useSortable({ id: task.id, attributes: { roleDescription: t("cardRole") } });
  const { setNodeRef, transform, transition, isDragging } = sortable;
  return (
    <li
      ref={setNodeRef}
      className="board-card"
      data-placeholder={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform), transition }}
      {...sortable.listeners}
    >
      <div className="board-card-head">
        <DragHandle sortable={sortable} className="board-handle" label={t("dragHandle", { title: task.title })} />
        <Link className="board-card-title" href={`/tasks/${task.id}`} prefetch={false} draggable={false}>
          {task.title}
        </Link>
      </div>
      <TaskDetails task={task} clock={clock} people={people} />
      <MoveMenu taskId={task.id} title={task.title} spot={spot} columns={columns} onMove={(target) => onMove(task.id, target)} />
    </li>
  );
}

/** The card under the pointer while dragging: a picture of the card, hidden from screen readers (they hear the announcements). */
export function DraggedTaskCard({ task, clock, people }: { task: TaskOutput; clock: Clock; people: People }) {
  return (
    <div className="board-card board-card-dragged" aria-hidden="true">
      <div className="board-card-head">
        <span className="drag-handle board-handle">
          <GripIcon />
        </span>
        <span className="board-card-title">{task.title}</span>
      </div>
      <TaskDetails task={task} clock={clock} people={people} />
    </div>
  );
}

function TaskDetails({ task, clock, people }: { task: TaskOutput; clock: Clock; people: People }) {
  const t = useTranslations("Board");
  const finished = task.status === "done" || task.status === "cancelled";
  const { total, done } = task.subtasks;
  const hasBadges = task.dueAt !== null || task.priority !== "normal";
  return (
    <>
      {hasBadges && (
        <p className="board-card-badges">
          <PriorityBadge priority={task.priority} />
          {task.dueAt && <DueChip dueAt={task.dueAt} now={clock.now} timeZone={clock.timeZone} finished={finished} />}
        </p>
      )}
      <AssigneeAvatars ids={task.assigneeIds} people={people} />
      {total > 0 && (
        <p className="board-subtasks">
          <span className="board-progress" aria-hidden="true">
            <span style={{ inlineSize: `${Math.round((done / total) * 100)}%` }} />
          </span>
          {t("subtasks", { done, total })}
        </p>
      )}
      {task.tags.length > 0 && (
        <ul className="board-tags" aria-label={t("tags")}>
          {task.tags.map((tag) => (
            <li key={tag} dir="auto">
              {tag}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}
