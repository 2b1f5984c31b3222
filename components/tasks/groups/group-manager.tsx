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
  type ScreenReaderInstructions,
} from "@dnd-kit/core";
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from "@dnd-kit/sortable";
import { CSS } from "@dnd-kit/utilities";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useId, useMemo, useRef, useState, useTransition, type ReactNode, type RefObject } from "react";
import { DragHandle } from "@/components/board/drag-handle";
import { api } from "@/lib/api-client/client";
import type { Locale } from "@/lib/i18n/locales";
import { GroupEditor } from "./group-editor";
import { failureMessage, type ManagedGroup, type Outcome } from "./managed-group";

interface Props {
  locale: Locale;
  /** Every group the user sees, archived ones too, in the API's order (their own first). */
  groups: readonly ManagedGroup[];
}

/**
 * "Manage groups" under the sidebar's links: the user's own groups (archived ones too) in their order, each
 * dragged by its handle with the pointer or the keyboard (Space, arrows, Space; dnd-kit announces each step in
 * the page's language), opened to rename per language, archive or delete; and a form for a new group. Every
 * change goes to the API and then loads the page's data again, so that the links, counts and filters agree.
 * Groups shared with the user's family by others are not theirs to change and are left out.
 */
export function GroupManager({ locale, groups }: Props) {
  const t = useTranslations("TaskGroups");
  const router = useRouter();
  const id = useId();
  const [open, setOpen] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [, startTransition] = useTransition();
  const [message, setMessage] = useState<{ status?: string; error?: string }>({});
  const own = groups.filter((group) => group.own);
  const serverOrder = own.map((group) => group.id);
  /** The order shown while a reorder is on its way (and until the page's data has it). */
  const [pendingOrder, setPendingOrder] = useState<string[] | null>(null);
  if (pendingOrder && pendingOrder.join() === serverOrder.join()) setPendingOrder(null);
  const order = pendingOrder ?? serverOrder;
  const shown = order.map((groupId) => own.find((group) => group.id === groupId)).filter((group) => group !== undefined);
  const shownRef = useRef(shown);
  useEffect(() => {
    shownRef.current = shown;
  });
  const toggle = useRef<HTMLButtonElement>(null);
  const accessibility = useGroupAccessibility(shownRef);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 5 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );

  async function run(change: () => Promise<Outcome>) {
    setBusy(true);
    setMessage({});
    const outcome = await change();
    setBusy(false);
    if ("error" in outcome) return setMessage({ error: outcome.error });
    setMessage({ status: outcome.status });
    startTransition(() => router.refresh());
  }

  function onDragEnd({ active, over }: DragEndEvent) {
    if (!over || active.id === over.id) return;
    const from = order.indexOf(String(active.id));
    const to = order.indexOf(String(over.id));
    if (from < 0 || to < 0) return;
    const ids = arrayMove(order, from, to);
    setPendingOrder(ids);
    void run(async () => {
      const answer = await api
        .PUT("/api/v1/groups/order", { params: { query: { lang: locale } }, body: { ids } })
        .catch(() => null);
      if (answer?.ok) return { status: t("orderSaved") };
      setPendingOrder(null);
      return { error: failureMessage(t, answer) };
    });
  }

  return (
    <section className="group-manager" aria-labelledby={`${id}-heading`}>
      <h2 id={`${id}-heading`} className="group-manager-heading">
        <button
          ref={toggle}
          type="button"
          className="group-manager-toggle"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen(!open)}
        >
          {t("manage")}
        </button>
      </h2>
      <div id={`${id}-panel`} className="group-manager-panel" hidden={!open}>
        <p className="group-error" role="alert">
          {message.error}
        </p>
        <p className="group-status" role="status">
          {message.status}
        </p>
        {open && (
          <>
            <p id={`${id}-order-hint`} className="group-hint">
              {t("orderHint")}
            </p>
            <DndContext
              id={`groups-${id}`}
              sensors={sensors}
              collisionDetection={closestCenter}
              accessibility={accessibility}
              onDragEnd={onDragEnd}
            >
              <SortableContext items={order} strategy={verticalListSortingStrategy}>
                <ol className="group-manager-list" aria-label={t("listLabel")} aria-describedby={`${id}-order-hint`}>
                  {shown.map((group) => (
                    <SortableGroup
                      key={group.id}
                      group={group}
                      editing={editing === group.id}
                      onEdit={() => setEditing(editing === group.id ? null : group.id)}
                      disabled={busy}
                    >
                      <GroupEditor
                        locale={locale}
                        group={group}
                        others={groups.filter((other) => other.id !== group.id)}
                        run={run}
                        busy={busy}
                        onDeleted={() => {
                          setEditing(null);
                          toggle.current?.focus();
                        }}
                      />
                    </SortableGroup>
                  ))}
                </ol>
              </SortableContext>
            </DndContext>
            <NewGroupForm locale={locale} run={run} busy={busy} />
          </>
        )}
      </div>
    </section>
  );
}

function SortableGroup({
  group,
  editing,
  onEdit,
  disabled,
  children,
}: {
  group: ManagedGroup;
  editing: boolean;
  onEdit(): void;
  disabled: boolean;
  children: ReactNode;
}) {
  const t = useTranslations("TaskGroups");
  const id = useId();
  const sortable = useSortable({ id: group.id, disabled, attributes: { roleDescription: t("handleRole") } });
  const { setNodeRef, transform, transition, isDragging } = sortable;
  return (
    <li
      ref={setNodeRef}
      className="group-manager-item"
      data-dragging={isDragging || undefined}
      style={{ transform: CSS.Translate.toString(transform), transition }}
    >
      <div className="group-manager-row">
        <DragHandle sortable={sortable} className="group-handle" label={t("dragHandle", { name: group.name })} />
        <span className="group-manager-name" dir="auto">
          {group.name}
        </span>
        {group.archived && <span className="group-badge">{t("archivedBadge")}</span>}
        <button
          type="button"
          className="group-edit-toggle"
          aria-expanded={editing}
          aria-controls={editing ? `${id}-editor` : undefined}
          onClick={onEdit}
        >
          {t("edit")}
          <span className="visually-hidden"> {group.name}</span>
        </button>
      </div>
      {editing && <div id={`${id}-editor`}>{children}</div>}
    </li>
  );
}

function NewGroupForm({
  locale,
  run,
  busy,
}: {
  locale: Locale;
  run(change: () => Promise<Outcome>): Promise<void>;
  busy: boolean;
}) {
  const t = useTranslations("TaskGroups");
  const id = useId();
  const [error, setError] = useState("");
  const input = useRef<HTMLInputElement>(null);

  function add(form: HTMLFormElement) {
    const name = String(new FormData(form).get("name") ?? "").trim();
    if (!name) return setError(t("errorNewName"));
    setError("");
    return run(async () => {
      const answer = await api
        .POST("/api/v1/groups", { params: { query: { lang: locale } }, body: { names: { [locale]: name } } })
        .catch(() => null);
      if (answer?.ok) {
        form.reset();
        input.current?.focus();
        return { status: t("added", { name }) };
      }
      const reason = answer?.status === 400 ? t("errorNewName") : answer?.status === 409 ? t("errorTooMany") : null;
      if (reason) setError(reason);
      return { error: reason ?? failureMessage(t, answer) };
    });
  }

  return (
    <form
      className="group-new"
      noValidate
      aria-label={t("newLabel")}
      onSubmit={(event) => {
        event.preventDefault();
        void add(event.currentTarget);
      }}
    >
      <label htmlFor={`${id}-name`}>{t("newLabel")}</label>
      <input
        ref={input}
        id={`${id}-name`}
        name="name"
        type="text"
        dir="auto"
        maxLength={100}
        autoComplete="off"
        required
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
      />
      {error && (
        <p id={`${id}-error`} className="group-error">
          {error}
        </p>
      )}
      <button className="button primary group-button" type="submit" disabled={busy}>
        {t("newButton")}
      </button>
    </form>
  );
}

/**
 * What screen readers hear while a group is dragged, in the page's language: its name and its place ("position
 * 2 of 9") instead of dnd-kit's English defaults that name items by their ids.
 */
function useGroupAccessibility(groups: RefObject<readonly ManagedGroup[]>): {
  announcements: Announcements;
  screenReaderInstructions: ScreenReaderInstructions;
} {
  const t = useTranslations("TaskGroups");
  return useMemo(() => {
    const place = (groupId: unknown) => {
      const index = groups.current.findIndex((group) => group.id === groupId);
      return { name: groups.current[index]?.name ?? "", position: index + 1, count: groups.current.length };
    };
    // The place the group was last over: where it lands when dropped (the list may have been reordered by the
    // time the drop is announced).
    let over: ReturnType<typeof place> | null = null;
    return {
      announcements: {
        onDragStart: ({ active }) => {
          over = place(active.id);
          return t("pickedUp", over);
        },
        onDragOver: ({ active, over: target }) => {
          if (!target) return undefined;
          const next = { ...place(target.id), name: place(active.id).name };
          // Right after the pick-up dnd-kit reports the group over itself: that was said already.
          if (next.position === over?.position) return undefined;
          over = next;
          return t("movedOver", over);
        },
        onDragEnd: ({ active }) => t("dropped", over ?? place(active.id)),
        onDragCancel: ({ active }) => t("cancelled", place(active.id)),
      },
      screenReaderInstructions: { draggable: t("dragInstructions") },
    };
  }, [groups, t]);
}
