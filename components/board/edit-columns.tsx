"use client";

import { useTranslations } from "next-intl";
import { useId, useRef, useState, type FormEvent } from "react";
import { api, type Schemas } from "@/lib/api-client/client";
import { TASK_STATUSES, type TaskStatus } from "@/lib/tasks/vocabulary";
import { columnLabel } from "./column-label";

/** Whose columns: a project's (`/projects/{id}/board-columns`) or a team's (`/user-groups/{id}/board-columns`). */
export interface ColumnsScope {
  kind: "project" | "team";
  id: string;
}

type Column = Schemas["BoardColumn"];

/**
 * "Edit columns": a dialog for the owners and admins of a project or team to add, rename, re-map (status), reorder
 * (buttons) and delete (choosing where the cards go) the board's columns. Each change is sent at once; the board
 * reloads after it (`onChanged`), and the other members' boards on the live event.
 */
export function EditColumns({ scope, onChanged }: { scope: ColumnsScope; onChanged(): void }) {
  const t = useTranslations("Board");
  const fields = useTranslations("TaskFields");
  const dialog = useRef<HTMLDialogElement>(null);
  const opener = useRef<HTMLButtonElement>(null);
  const titleId = useId();
  const [columns, setColumns] = useState<{ custom: boolean; items: Column[] } | null>(null);
  const [message, setMessage] = useState("");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);
  const [deleting, setDeleting] = useState<string | null>(null);

  const path =
    scope.kind === "project"
      ? ("/api/v1/projects/{id}/board-columns" as const)
      : ("/api/v1/user-groups/{id}/board-columns" as const);
  const one =
    scope.kind === "project"
      ? ("/api/v1/projects/{id}/board-columns/{columnId}" as const)
      : ("/api/v1/user-groups/{id}/board-columns/{columnId}" as const);

  async function load() {
    const answer = await api.GET(path, { params: { path: { id: scope.id } } }).catch(() => null);
    if (answer?.ok) setColumns(answer.body);
    else setError(t("columnsFailed"));
  }

  function open() {
    setError("");
    setMessage("");
    setDeleting(null);
    dialog.current?.showModal();
    void load();
  }

  /** Sends one change; then the list and the board are loaded again. */
  async function change(send: () => Promise<{ ok: boolean; status: number } | null>, done: string) {
    setBusy(true);
    setError("");
    setMessage("");
    try {
      const answer = await send().catch(() => null);
      if (!answer?.ok) {
        setError(answer?.status === 409 ? t("columnsLastOfStatus") : t("columnsFailed"));
        return;
      }
      setMessage(done);
      setDeleting(null);
      await load();
      onChanged();
    } finally {
      setBusy(false);
    }
  }

  function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get("name") ?? "").trim();
    const status = String(data.get("status")) as TaskStatus;
    if (!name) return setError(t("columnNameRequired"));
    void change(
      async () => {
        const answer = await api.POST(path, { params: { path: { id: scope.id } }, body: { name, status } });
        if (answer.ok) form.reset();
        return answer;
      },
      t("columnAdded", { column: name }),
    );
  }

  function save(column: Column, event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const typed = String(data.get("name") ?? "").trim();
    const status = String(data.get("status")) as TaskStatus;
    const name = typed === "" ? null : typed;
    void change(
      () => api.PATCH(one, { params: { path: { id: scope.id, columnId: column.id! } }, body: { name, status } }),
      t("columnSaved", { column: name ?? fields(`status.${status}`) }),
    );
  }

  function shift(column: Column, by: -1 | 1) {
    void change(
      () =>
        api.PATCH(one, {
          params: { path: { id: scope.id, columnId: column.id! } },
          body: { position: Math.max(0, column.position + by) },
        }),
      t("columnMoved", { column: columnLabel(column, fields), position: column.position + by + 1 }),
    );
    // The button may be gone at the ends: keep the focus on the column's row.
    requestAnimationFrame(() => document.getElementById(`board-column-row-${column.id}`)?.focus());
  }

  function remove(column: Column, event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const moveTo = String(new FormData(event.currentTarget).get("moveTo") ?? "");
    void change(
      () =>
        api.DELETE(one, {
          params: { path: { id: scope.id, columnId: column.id! }, query: moveTo ? { moveTo } : {} },
        }),
      t("columnDeleted", { column: columnLabel(column, fields) }),
    );
  }

  const items = columns?.items ?? [];
  const statusOptions = TASK_STATUSES.map((status) => (
    <option key={status} value={status}>
      {fields(`status.${status}`)}
    </option>
  ));

  return (
    <>
      <button ref={opener} type="button" className="button board-edit-columns" onClick={open}>
        {t("editColumns")}
      </button>
      <dialog ref={dialog} className="board-columns-dialog" aria-labelledby={titleId} onClose={() => opener.current?.focus()}>
        <div className="board-columns-dialog-head">
          <h2 id={titleId}>{t("columnsTitle")}</h2>
          <button type="button" className="button" onClick={() => dialog.current?.close()}>
            {t("close")}
          </button>
        </div>
        <p className="board-columns-lead">{columns && !columns.custom ? t("columnsDefault") : t("columnsLead")}</p>
        <p className="board-error" role="alert">
          {error}
        </p>
        <p className="board-visually-hidden" role="status">
          {message}
        </p>
        {columns === null && !error && <p>{t("columnsLoading")}</p>}
        <ol className="board-columns-list">
          {items.map((column, index) => {
            const label = columnLabel(column, fields);
            if (!column.id) {
              return (
                <li key={column.status} className="board-columns-row">
                  <span>{label}</span>
                </li>
              );
            }
            const sameStatus = items.filter((other) => other.status === column.status && other.id !== column.id);
            return (
              <li key={column.id} id={`board-column-row-${column.id}`} tabIndex={-1} className="board-columns-row">
                <form className="board-columns-edit" onSubmit={(event) => save(column, event)}>
                  <label>
                    <span className="board-visually-hidden">{t("columnNameOf", { column: label })}</span>
                    <input
                      name="name"
                      defaultValue={column.name ?? ""}
                      placeholder={fields(`status.${column.status}`)}
                      maxLength={60}
                    />
                  </label>
                  <label>
                    <span className="board-visually-hidden">{t("columnStatusOf", { column: label })}</span>
                    <select name="status" defaultValue={column.status}>
                      {statusOptions}
                    </select>
                  </label>
                  <button type="submit" className="button" disabled={busy} aria-label={t("saveColumnOf", { column: label })}>
                    {t("saveColumn")}
                  </button>
                </form>
                <div className="board-columns-actions">
                  <button
                    type="button"
                    className="button"
                    disabled={busy || index === 0}
                    aria-label={t("moveColumnUp", { column: label })}
                    onClick={() => shift(column, -1)}
                  >
                    ↑
                  </button>
                  <button
                    type="button"
                    className="button"
                    disabled={busy || index === items.length - 1}
                    aria-label={t("moveColumnDown", { column: label })}
                    onClick={() => shift(column, 1)}
                  >
                    ↓
                  </button>
                  <button
                    type="button"
                    className="button"
                    disabled={busy || sameStatus.length === 0}
                    aria-expanded={deleting === column.id}
                    aria-label={t("deleteColumnOf", { column: label })}
                    title={sameStatus.length === 0 ? t("columnsLastOfStatus") : undefined}
                    onClick={() => setDeleting(deleting === column.id ? null : column.id)}
                  >
                    {t("deleteColumn")}
                  </button>
                </div>
                {deleting === column.id && (
                  <form className="board-columns-delete" onSubmit={(event) => remove(column, event)}>
                    <label>
                      {t("deleteColumnMoveTo")}
                      <select name="moveTo" defaultValue={sameStatus[0]?.id ?? ""}>
                        {sameStatus.map((other) => (
                          <option key={other.id} value={other.id!}>
                            {columnLabel(other, fields)}
                          </option>
                        ))}
                      </select>
                    </label>
                    <button type="submit" className="button" disabled={busy}>
                      {t("confirmDeleteColumn", { column: label })}
                    </button>
                  </form>
                )}
              </li>
            );
          })}
        </ol>
        <form className="board-columns-add" onSubmit={add}>
          <label>
            {t("newColumnName")}
            <input name="name" maxLength={60} required />
          </label>
          <label>
            {t("newColumnStatus")}
            <select name="status" defaultValue="in_progress">
              {statusOptions}
            </select>
          </label>
          <button type="submit" className="button primary" disabled={busy || columns === null}>
            {t("addColumn")}
          </button>
        </form>
      </dialog>
    </>
  );
}
