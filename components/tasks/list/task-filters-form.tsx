"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { useEffect, useId, useRef, useState } from "react";
import { LIST_SORTS, TASK_STATUSES } from "@/lib/tasks/vocabulary";
import { clearedFilters, listHref, narrowingFilterCount, type ListSort, type TaskFilters } from "./filters";

/** How long the form waits after a change before it shows the new list: typing and date entry come in bursts. */
const DELAY_MS = { choice: 250, typing: 450 } as const;

const SORT_LABELS = {
  "-createdAt": "sortNewest",
  dueAt: "sortDue",
  "-priority": "sortPriority",
  "-updatedAt": "sortUpdated",
  position: "sortBoard",
} as const satisfies Record<ListSort, string>;

/** How many of the filters behind "More filters" are set (all that narrow the list but the search). */
const moreFilterCount = (filters: TaskFilters) => narrowingFilterCount(filters) - (filters.q ? 1 : 0);

interface Props {
  locale: string;
  filters: TaskFilters;
  groups: readonly { id: string; name: string }[];
  /** Shows the list at this URL (a history entry, so that the back button returns to the previous filters). */
  onNavigate(href: string): void;
}

/**
 * The list's filters: a GET form on the list's own URL (it works without JavaScript through "Apply"); with it,
 * every change shows the new list after a short pause. The form keeps what is being typed while the URL follows
 * it, and takes the URL's filters when they come from elsewhere (the back button, a sidebar or tag link); then
 * "Apply" is hidden. On a phone the whole form folds behind "Filters" (open while any filter is set), so that the list starts near
 * the top; on wide screens it is one row, always open (task-list.css), with the rarer ones under "More filters".
 */
export function TaskFiltersForm({ locale, filters, groups, onNavigate }: Props) {
  const t = useTranslations("TaskList");
  const fields = useTranslations("TaskFields");
  const id = useId();
  const [values, setValues] = useState(filters);
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  const [foldOpen, setFoldOpen] = useState(narrowingFilterCount(filters) > 0);
  const [moreOpen, setMoreOpen] = useState(moreFilterCount(filters) > 0);
  const [shown, setShown] = useState(listHref(locale, filters));
  /** URLs this form asked for whose list has not come yet, oldest first. */
  const [requested, setRequested] = useState<string[]>([]);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const current = listHref(locale, filters);
  const currentRef = useRef(current);
  useEffect(() => {
    currentRef.current = current;
  });
  if (current !== shown) {
    setShown(current);
    const index = requested.indexOf(current);
    if (index === -1) setValues(filters);
    setRequested(index === -1 ? [] : requested.slice(index + 1));
  }

  function go(next: TaskFilters) {
    clearTimeout(timer.current);
    const href = listHref(locale, { ...next, q: next.q?.trim() || undefined, tag: next.tag?.trim() || undefined });
    if (href === currentRef.current) return;
    setRequested((pending) => [...pending, href]);
    onNavigate(href);
  }

  function change(patch: Partial<TaskFilters>, delay: number = DELAY_MS.choice) {
    const next = { ...values, ...patch };
    setValues(next);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => go(next), delay);
  }

  const moreCount = moreFilterCount(values);
  const count = narrowingFilterCount(values);

  return (
    <form
      className="task-filters"
      method="get"
      action={`/${locale}/tasks`}
      aria-label={t("filtersLabel")}
      onSubmit={(event) => {
        event.preventDefault();
        go(values);
      }}
    >
      <details className="task-filters-fold" open={foldOpen} onToggle={(event) => setFoldOpen(event.currentTarget.open)}>
        <summary className="task-filters-toggle">{count > 0 ? t("filtersActive", { count }) : t("filtersLabel")}</summary>
        <div className="task-filters-body">
          <div className="task-filters-main">
            <div className="task-filter task-filter-search">
              <label htmlFor={`${id}-q`}>{t("searchLabel")}</label>
              <input
                id={`${id}-q`}
                name="q"
                type="search"
                dir="auto"
                maxLength={200}
                placeholder={t("searchPlaceholder")}
                value={values.q ?? ""}
                onChange={(event) => change({ q: event.currentTarget.value || undefined }, DELAY_MS.typing)}
              />
            </div>
            <div className="task-filter task-filter-group">
              <label htmlFor={`${id}-group`}>{t("groupLabel")}</label>
              <select
                id={`${id}-group`}
                name="group"
                value={values.groupId ?? ""}
                onChange={(event) => change({ groupId: event.currentTarget.value || undefined })}
              >
                <option value="">{t("allTasks")}</option>
                {groups.map((group) => (
                  <option key={group.id} value={group.id}>
                    {group.name}
                  </option>
                ))}
              </select>
            </div>
            <div className="task-filter">
              <label htmlFor={`${id}-sort`}>{t("sortLabel")}</label>
              <select
                id={`${id}-sort`}
                name="sort"
                value={values.sort}
                onChange={(event) => change({ sort: event.currentTarget.value as ListSort })}
              >
                {LIST_SORTS.map((sort) => (
                  <option key={sort} value={sort}>
                    {t(SORT_LABELS[sort])}
                  </option>
                ))}
              </select>
            </div>
          </div>
          <div className="task-filters-actions">
            {/* Without JavaScript only: with it, every change shows its list by itself (and Enter at once). */}
            <button className="button" type="submit" hidden={hydrated}>
              {t("applyFilters")}
            </button>
            {count > 0 && (
              <Link
                className="task-filters-clear"
                href={listHref(locale, clearedFilters(filters))}
                prefetch={false}
                scroll={false}
                onClick={() => clearTimeout(timer.current)}
              >
                {t("clearFilters")}
              </Link>
            )}
          </div>
          <details className="task-filters-more" open={moreOpen} onToggle={(event) => setMoreOpen(event.currentTarget.open)}>
            <summary>{moreCount > 0 ? t("moreFiltersActive", { count: moreCount }) : t("moreFilters")}</summary>
            <div className="task-filters-grid">
              <fieldset className="task-filter task-filter-statuses">
                <legend>{t("statusLegend")}</legend>
                {TASK_STATUSES.map((status) => (
                  <label key={status}>
                    <input
                      type="checkbox"
                      name="status"
                      value={status}
                      checked={values.statuses.includes(status)}
                      onChange={(event) => {
                        const checked = event.currentTarget.checked;
                        change({
                          statuses: TASK_STATUSES.filter((value) =>
                            value === status ? checked : values.statuses.includes(value),
                          ),
                        });
                      }}
                    />{" "}
                    {fields(`status.${status}`)}
                  </label>
                ))}
              </fieldset>
              <div className="task-filter">
                <label htmlFor={`${id}-assignee`}>{t("assigneeLabel")}</label>
                <select
                  id={`${id}-assignee`}
                  name="assignee"
                  value={values.assignedToMe ? "me" : ""}
                  onChange={(event) => change({ assignedToMe: event.currentTarget.value === "me" })}
                >
                  <option value="">{t("assigneeAnyone")}</option>
                  <option value="me">{t("assigneeMe")}</option>
                </select>
              </div>
              <div className="task-filter">
                <label htmlFor={`${id}-from`}>{t("dueFromLabel")}</label>
                <input
                  id={`${id}-from`}
                  name="from"
                  type="date"
                  value={values.dueFrom ?? ""}
                  max={values.dueUntil}
                  onChange={(event) => change({ dueFrom: event.currentTarget.value || undefined }, DELAY_MS.typing)}
                />
              </div>
              <div className="task-filter">
                <label htmlFor={`${id}-until`}>{t("dueUntilLabel")}</label>
                <input
                  id={`${id}-until`}
                  name="until"
                  type="date"
                  value={values.dueUntil ?? ""}
                  min={values.dueFrom}
                  onChange={(event) => change({ dueUntil: event.currentTarget.value || undefined }, DELAY_MS.typing)}
                />
              </div>
              <div className="task-filter">
                <label htmlFor={`${id}-tag`}>{t("tagLabel")}</label>
                <input
                  id={`${id}-tag`}
                  name="tag"
                  type="text"
                  dir="auto"
                  maxLength={50}
                  value={values.tag ?? ""}
                  onChange={(event) =>
                    change({ tag: event.currentTarget.value.replaceAll(",", "") || undefined }, DELAY_MS.typing)
                  }
                />
              </div>
            </div>
          </details>
        </div>
      </details>
    </form>
  );
}
