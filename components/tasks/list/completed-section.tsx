"use client";

import { useTranslations } from "next-intl";
import { useId, useState, type ReactNode } from "react";
import type { ListTask } from "./use-task-list";

interface Props {
  count: number;
  /** Not loaded yet: null. */
  items: ListTask[] | null;
  nextCursor: string | null;
  loading: boolean;
  /** Reads the next page of done tasks; false when it failed. */
  load(): Promise<boolean>;
  renderRow(task: ListTask): ReactNode;
}

/**
 * "Completed (n)" under the open tasks: closed at first, its done tasks read when it is opened, with "Load more"
 * past the first page. Unticking a task there reopens it (it moves up to the list).
 */
export function CompletedSection({ count, items, nextCursor, loading, load, renderRow }: Props) {
  const t = useTranslations("TaskList");
  const id = useId();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);

  async function loadPage() {
    setFailed(!(await load()));
  }

  async function toggle() {
    setOpen(!open);
    if (!open && !items) await loadPage();
  }

  if (count === 0 && !items?.length) return null;
  return (
    <section className="tasks-completed" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="tasks-completed-title">
        <button type="button" aria-expanded={open} aria-controls={`${id}-list`} onClick={toggle}>
          <span className="tasks-completed-chevron" aria-hidden="true" />
          {t("completedSection", { count })}
        </button>
      </h2>
      <div id={`${id}-list`} hidden={!open} aria-busy={loading || undefined}>
        {failed && (
          <p className="tasks-error" role="alert">
            {t("errorLoadMore")}
          </p>
        )}
        {items && items.length > 0 && <ul className="task-list task-list-completed">{items.map(renderRow)}</ul>}
        {loading && !items && <p className="tasks-completed-loading">{t("loadingMore")}</p>}
        {items && nextCursor && (
          <button
            className="button tasks-more"
            type="button"
            onClick={loadPage}
            disabled={loading}
            aria-busy={loading || undefined}
          >
            {loading ? t("loadingMore") : t("loadMore")}
          </button>
        )}
      </div>
    </section>
  );
}
