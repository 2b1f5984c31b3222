"use client";

import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { FormError } from "@/components/auth/form-field";
import type { SubtaskOutput } from "@/lib/tasks/schema";
import { ArrowDownIcon, ArrowUpIcon, GripIcon, TrashIcon } from "./detail-icons";
import { noAnswer, useFailureMessage, type Announce } from "./task-api";
import { api } from "@/lib/api-client/client";

/*
 * The task's checklist: add, rename (saved when the field is left), tick off, delete and reorder its subtasks.
 * Reordering works by dragging the handle (pointer, or keyboard: Space, arrows, Space, as dnd-kit announces in
 * the page's language) and by the "move up" and "move down" buttons. Each change reads the task again
 * afterwards: ticking off the last open subtask completes it on the server, and reopening one reopens it.
 */

interface SubtaskListProps {
  taskId: string;
  subtasks: SubtaskOutput[];
  setSubtasks: React.Dispatch<React.SetStateAction<SubtaskOutput[]>>;
  canEdit: boolean;
  /** Reads the task again (its status follows its subtasks). */
  onChanged(): Promise<void>;
  announce: Announce;
}

const TITLE_MAX = 500;

export function SubtaskList({ taskId, subtasks, setSubtasks, canEdit, onChanged, announce }: SubtaskListProps) {
  const t = useTranslations("TaskDetail");
  const failure = useFailureMessage();
  const id = useId();
  const [error, setError] = useState<string>();
  const [newTitle, setNewTitle] = useState("");
  const [titleError, setTitleError] = useState<string>();
  /** After a move with the buttons, the button to give focus back to (the row moved in the DOM). */
  const [refocus, setRefocus] = useState<{ id: string; direction: "up" | "down" } | null>(null);
  const list = useRef<HTMLOListElement>(null);
  const done = subtasks.filter((subtask) => subtask.done).length;

  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  useEffect(() => {
    if (!refocus) return;
    const row = list.current?.querySelector<HTMLElement>(`[data-subtask="${refocus.id}"]`);
    const wanted = row?.querySelector<HTMLButtonElement>(`[data-move="${refocus.direction}"]:not(:disabled)`);
    (wanted ?? row?.querySelector<HTMLButtonElement>("[data-move]:not(:disabled)"))?.focus();
    setRefocus(null);
  }, [refocus]);

  const titleOf = (subtaskId: UniqueIdentifier) => subtasks.find((subtask) => subtask.id === subtaskId)?.title ?? "";
  const positionOf = (subtaskId: UniqueIdentifier) => subtasks.findIndex((subtask) => subtask.id === subtaskId) + 1;
  /** Where the dragged subtask was last announced to be, so that "picked up" is not drowned by "over itself". */
  const announcedOver = useRef<UniqueIdentifier | null>(null);
  const announcements: Announcements = {
    onDragStart: ({ active }) => {
      announcedOver.current = active.id;
      return t("dragStart", { title: titleOf(active.id), position: positionOf(active.id), total: subtasks.length });
    },
    onDragOver: ({ active, over }) => {
      if (!over || over.id === announcedOver.current) return undefined;
      announcedOver.current = over.id;
      return t("dragOver", { title: titleOf(active.id), position: positionOf(over.id), total: subtasks.length });
    },
    onDragEnd: ({ active, over }) =>
      over
        ? t("dragEnd", { title: titleOf(active.id), position: positionOf(over.id), total: subtasks.length })
        : t("dragCancel", { title: titleOf(active.id) }),
    onDragCancel: ({ active }) => t("dragCancel", { title: titleOf(active.id) }),
  };

  async function add() {
    const title = newTitle.trim();
    if (!title) return setTitleError(t("errorSubtaskTitle"));
    setTitleError(undefined);
    const answer = await api
      .POST("/api/v1/tasks/{id}/subtasks", { params: { path: { id: taskId } }, body: { title } })
      .catch(noAnswer);
    if (answer.ok) {
      const added = answer.body;
      setSubtasks((current) => [...current.filter((subtask) => subtask.id !== added.id), added]);
      setNewTitle("");
      setError(undefined);
      announce(t("subtaskAdded", { title: added.title }));
      await onChanged();
    } else if (answer.status === 400) {
      setTitleError(t("errorSubtaskTitle"));
    } else {
      setError(answer.status === 409 ? t("errorTooManySubtasks") : failure(answer.status));
    }
  }

  async function change(subtask: SubtaskOutput, patch: { title?: string; done?: boolean }): Promise<boolean> {
    const replace = (next: SubtaskOutput) =>
      setSubtasks((current) => current.map((other) => (other.id === next.id ? next : other)));
    // A ticked box shows ticked at once; it goes back if the API refuses.
    if (patch.done !== undefined) replace({ ...subtask, done: patch.done });
    const answer = await api
      .PATCH("/api/v1/tasks/{id}/subtasks/{subtaskId}", { params: { path: { id: taskId, subtaskId: subtask.id } }, body: patch })
      .catch(noAnswer);
    if (!answer.ok) {
      if (patch.done !== undefined) replace(subtask);
      setError(answer.status === 400 ? t("errorSubtaskTitle") : failure(answer.status));
      return false;
    }
    const changed = answer.body;
    replace(changed);
    setError(undefined);
    if (patch.done !== undefined) announce(t(patch.done ? "subtaskDone" : "subtaskReopened", { title: changed.title }));
    else announce(t("saved"));
    await onChanged();
    return true;
  }

  async function remove(subtask: SubtaskOutput) {
    const answer = await api
      .DELETE("/api/v1/tasks/{id}/subtasks/{subtaskId}", { params: { path: { id: taskId, subtaskId: subtask.id } } })
      .catch(noAnswer);
    if (!answer.ok) return setError(failure(answer.status));
    setSubtasks((current) => current.filter((other) => other.id !== subtask.id));
    setError(undefined);
    announce(t("subtaskDeleted", { title: subtask.title }));
    await onChanged();
  }

  async function move(from: number, to: number) {
    if (to < 0 || to >= subtasks.length || from === to) return;
    const before = subtasks;
    const reordered = arrayMove(subtasks, from, to);
    setSubtasks(reordered);
    const answer = await api
      .PUT("/api/v1/tasks/{id}/subtasks/order", {
        params: { path: { id: taskId } },
        body: { ids: reordered.map((subtask) => subtask.id) },
      })
      .catch(noAnswer);
    if (!answer.ok) {
      setSubtasks(before);
      // 400: the list changed meanwhile (someone added or deleted one); show it as it is now.
      setError(answer.status === 400 ? t("errorSubtasksChanged") : failure(answer.status));
      if (answer.status === 400) await onChanged();
      return;
    }
    setSubtasks(answer.body);
    setError(undefined);
    announce(t("subtaskMoved", { title: reordered[to]!.title, position: to + 1, total: reordered.length }));
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    void move(positionOf(active.id) - 1, positionOf(over.id) - 1);
  }

  return (
    <section className="task-card" aria-labelledby={`${id}-title`}>
      <div className="task-card-heading">
        <h2 id={`${id}-title`}>{t("subtasksTitle")}</h2>
        {subtasks.length > 0 && <p className="task-progress">{t("subtaskProgress", { done, total: subtasks.length })}</p>}
      </div>
      <FormError id={`${id}-error`} message={error} />
      {subtasks.length === 0 && <p className="auth-hint">{t("noSubtasks")}</p>}
      {subtasks.length > 0 && (
        <DndContext
          id={`${id}-dnd`}
          sensors={sensors}
          collisionDetection={closestCenter}
          onDragEnd={onDragEnd}
          accessibility={{ announcements, screenReaderInstructions: { draggable: t("dragInstructions") } }}
        >
          <SortableContext
            items={subtasks.map((subtask) => subtask.id)}
            strategy={verticalListSortingStrategy}
            disabled={!canEdit}
          >
            <ol ref={list} className="subtasks" aria-labelledby={`${id}-title`}>
              {subtasks.map((subtask, index) => (
                <SubtaskRow
                  key={subtask.id}
                  subtask={subtask}
                  index={index}
                  total={subtasks.length}
                  canEdit={canEdit}
                  onChange={(patch) => change(subtask, patch)}
                  onRemove={() => void remove(subtask)}
                  onMove={(direction) => {
                    setRefocus({ id: subtask.id, direction });
                    void move(index, direction === "up" ? index - 1 : index + 1);
                  }}
                />
              ))}
            </ol>
          </SortableContext>
        </DndContext>
      )}
      {canEdit && (
        <form
          className="task-input-row"
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            void add();
          }}
        >
          <label htmlFor={`${id}-new`} className="visually-hidden">
            {t("newSubtaskLabel")}
          </label>
          <input
            id={`${id}-new`}
            value={newTitle}
            maxLength={TITLE_MAX}
            dir="auto"
            placeholder={t("newSubtaskPlaceholder")}
            aria-invalid={titleError ? true : undefined}
            aria-describedby={titleError ? `${id}-new-error` : undefined}
            onChange={(event) => setNewTitle(event.currentTarget.value)}
          />
          <button type="submit" className="button">
            {t("addSubtask")}
          </button>
          {titleError && (
            <p id={`${id}-new-error`} className="auth-field-error task-row-error" role="alert">
              {titleError}
            </p>
          )}
        </form>
      )}
    </section>
  );
}

interface SubtaskRowProps {
  subtask: SubtaskOutput;
  index: number;
  total: number;
  canEdit: boolean;
  onChange(patch: { title?: string; done?: boolean }): Promise<boolean>;
  onRemove(): void;
  onMove(direction: "up" | "down"): void;
}

function SubtaskRow({ subtask, index, total, canEdit, onChange, onRemove, onMove }: SubtaskRowProps) {
  const t = useTranslations("TaskDetail");
  const id = useId();
  const [draft, setDraft] = useState<string | null>(null);
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({
    id: subtask.id,
    disabled: !canEdit,
    attributes: { roleDescription: t("sortableRole") },
  });
  const style = { transform: CSS.Translate.toString(transform), transition };
  const title = subtask.title;

  async function rename() {
    if (draft === null) return;
    const wanted = draft.trim();
    if (!wanted || wanted === title) return setDraft(null);
    if (await onChange({ title: wanted })) setDraft((current) => (current === draft ? null : current));
  }

  return (
    <li
      ref={setNodeRef}
      style={style}
      className={`subtask${subtask.done ? " subtask-done" : ""}${isDragging ? " subtask-dragging" : ""}`}
      data-subtask={subtask.id}
    >
      {canEdit && (
        <button
          type="button"
          ref={setActivatorNodeRef}
          className="icon-button subtask-handle"
          {...attributes}
          {...listeners}
          aria-label={t("dragHandle", { title })}
        >
          <GripIcon />
        </button>
      )}
      <input
        id={`${id}-done`}
        type="checkbox"
        className="subtask-check"
        checked={subtask.done}
        disabled={!canEdit}
        aria-label={t("subtaskDoneLabel", { title })}
        onChange={(event) => void onChange({ done: event.currentTarget.checked })}
      />
      {canEdit ? (
        <input
          className="subtask-title"
          value={draft ?? title}
          maxLength={TITLE_MAX}
          dir="auto"
          aria-label={t("subtaskTitleLabel", { position: index + 1 })}
          onChange={(event) => setDraft(event.currentTarget.value)}
          onBlur={() => void rename()}
          onKeyDown={(event) => {
            if (event.key === "Enter") {
              event.preventDefault();
              void rename();
            } else if (event.key === "Escape" && draft !== null) {
              event.preventDefault(); // the draft goes, not the side panel the list may be in
              setDraft(null);
            }
          }}
        />
      ) : (
        <label htmlFor={`${id}-done`} className="subtask-title" dir="auto">
          {title}
        </label>
      )}
      {canEdit && (
        <span className="subtask-actions">
          <button
            type="button"
            className="icon-button"
            data-move="up"
            disabled={index === 0}
            aria-label={t("moveUp", { title })}
            onClick={() => onMove("up")}
          >
            <ArrowUpIcon />
          </button>
          <button
            type="button"
            className="icon-button"
            data-move="down"
            disabled={index === total - 1}
            aria-label={t("moveDown", { title })}
            onClick={() => onMove("down")}
          >
            <ArrowDownIcon />
          </button>
          <button type="button" className="icon-button" aria-label={t("deleteSubtask", { title })} onClick={onRemove}>
            <TrashIcon />
          </button>
        </span>
      )}
    </li>
  );
}
