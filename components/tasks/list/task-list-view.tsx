"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useLocale, useTranslations } from "next-intl";
import { useCallback, useRef, useState, useTransition } from "react";
import { dayHeading, dayIn } from "@/components/tasks/local-day";
import type { LiveState } from "@/components/realtime/use-live-events";
import type { Locale } from "@/lib/i18n/locales";
import type { QuickAddLists } from "@/lib/quick-add/parse";
import type { TaskStatus } from "@/lib/tasks/vocabulary";
import { CompletedSection } from "./completed-section";
import { clearedFilters, completedApart, listHref, narrowingFilterCount, type TaskFilters } from "./filters";
import { QuickAdd, writeFailure } from "./quick-add";
import { QUICK_ADD_INPUT_ID } from "./quick-add-id";
import { useRefreshSidebarCounts } from "./sidebar-counts";
import { TaskFiltersForm } from "./task-filters-form";
import { TaskRow } from "./task-row";
import { UndoNotice, type UndoableCompletion } from "./undo-notice";
import { useCompletedTasks } from "./use-completed-tasks";
import { useTaskList, type ListRow, type ListTask, type TaskPage } from "./use-task-list";

interface Props {
  locale: Locale;
  userId: string;
  timeZone: string;
  /** When the server rendered the page (ISO): due dates read "today" from it on the server and in the browser. */
  now: string;
  filters: TaskFilters;
  /** The user's groups in the page's language, in their order; the first of their own takes quick adds. */
  groups: readonly { id: string; name: string }[];
  defaultGroupId: string;
  /** Quick add's `+name`: the groups and projects the user may add tasks to, by every name they have. */
  lists: QuickAddLists;
  /** Those groups' and projects' names in the page's language, by id. */
  listNames: Readonly<Record<string, string>>;
  /** `GET /api/v1/tasks` query string of the filters. */
  queryString: string;
  initial: TaskPage;
  /** The "Completed" section below the list: the `GET /api/v1/tasks` query of its tasks, and how many there are. */
  completed?: { queryString: string; count: number };
}

/** Upcoming's rows by the day they are due in the user's zone, in the list's order (by due date). */
function byDay(rows: readonly ListRow[], timeZone: string): { day: string; rows: ListRow[] }[] {
  const days: { day: string; rows: ListRow[] }[] = [];
  for (const row of rows) {
    const day = row.task.dueAt ? dayIn(new Date(row.task.dueAt), timeZone) : "";
    const last = days.at(-1);
    if (last?.day === day) last.rows.push(row);
    else days.push({ day, rows: [row] });
  }
  return days;
}

/**
 * The task list page's interactive part: heading and live state, quick add, filters, the list with "Load more"
 * (in Upcoming, under a heading per day), the "Completed" section, the notice that undoes a completion, and the
 * empty states (a first run, an empty group or view, nothing matching the filters).
 */
export function TaskListView({
  locale,
  userId,
  timeZone,
  now,
  filters,
  groups,
  defaultGroupId,
  lists,
  listNames,
  queryString,
  initial,
  completed,
}: Props) {
  const t = useTranslations("TaskList");
  const localeTag = useLocale();
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const [message, setMessage] = useState<string>();
  const list = useTaskList({ initial, queryString, renderedAt: now, userId, defaultGroupId });
  const done = useCompletedTasks(completed?.queryString ?? "", completed?.count ?? 0);
  const [undoable, setUndoable] = useState<UndoableCompletion>();
  const closeUndo = useCallback(() => setUndoable(undefined), []);
  const completions = useRef(0);
  // The sidebar's counts follow this tab's changes too (without waiting for their events over /ws).
  const refreshCounts = useRefreshSidebarCounts();

  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const shownGroup = filters.groupId ? groupNames.get(filters.groupId) : undefined;
  const title = filters.view ? t(`views.${filters.view}`) : (shownGroup ?? t("allTasks"));
  // Done tasks leave the list at once (for the "Completed" section, or out of a view) unless they are the list.
  const rows = completedApart(filters) ? list.rows.filter(({ task }) => task.status !== "done") : list.rows;
  const targetGroup = groupNames.get(filters.groupId ?? defaultGroupId) ?? "";

  /** Sets a task's status; says so when it failed. */
  async function changeStatus(task: ListTask, status: TaskStatus): Promise<boolean> {
    setMessage(undefined);
    const result = await list.setStatus(task, status);
    if (result.ok) {
      refreshCounts();
      return true;
    }
    if (result.answer?.status === 404) setMessage(t("errorGone", { title: task.title }));
    else setMessage(t("errorUpdate", { title: task.title, reason: writeFailure(t, result) }));
    return false;
  }

  async function toggle(task: ListTask, checked: boolean) {
    if (!checked) {
      // Reopened: it leaves the "Completed" section at once, and comes back there if that failed.
      done.removed(task.id);
      if (!(await changeStatus(task, "todo"))) done.added(task);
      return;
    }
    const previous = task.status;
    if (!(await changeStatus(task, "done"))) return;
    done.added({ ...task, status: "done" });
    const key = (completions.current += 1);
    setUndoable({
      key,
      title: task.title,
      undo: () => {
        setUndoable(undefined);
        void changeStatus({ ...task, status: "done" }, previous).then((ok) => ok && done.removed(task.id));
      },
    });
  }

  const renderRow = (task: ListTask, draft = false) => (
    <TaskRow
      key={task.id}
      task={task}
      draft={draft}
      locale={locale}
      now={now}
      timeZone={timeZone}
      filters={filters}
      groupName={filters.groupId ? undefined : groupNames.get(task.groupId)}
      onToggle={toggle}
    />
  );

  async function loadMore() {
    setMessage(undefined);
    if (!(await list.loadMore())) setMessage(t("errorLoadMore"));
  }

  return (
    <div className="tasks-main">
      <header className="tasks-header">
        <h1 id="tasks-title" dir="auto">
          {title}
        </h1>
        <LiveIndicator state={list.live} />
      </header>
      <QuickAdd
        locale={locale}
        timeZone={timeZone}
        groupName={targetGroup}
        lists={lists}
        listNames={listNames}
        onAdd={async (task) => {
          const result = await list.addTask(task.groupId || !filters.groupId ? task : { ...task, groupId: filters.groupId });
          if (result.ok) refreshCounts();
          return result;
        }}
      />
      {!filters.view && (
        <TaskFiltersForm
          locale={locale}
          filters={filters}
          groups={groups}
          onNavigate={(href) => startNavigation(() => router.push(href, { scroll: false }))}
        />
      )}
      <p className="tasks-error" role="alert">
        {message}
      </p>
      {rows.length === 0 ? (
        <EmptyState locale={locale} filters={filters} groupName={shownGroup} />
      ) : filters.view === "upcoming" ? (
        byDay(rows, timeZone).map(({ day, rows: dayRows }) => (
          <section key={day} className="task-day" aria-labelledby={`day-${day}`}>
            <h2 id={`day-${day}`} className="task-day-heading">
              {day ? dayHeading(new Date(dayRows[0]!.task.dueAt!), localeTag, timeZone) : t("views.noDate")}
            </h2>
            <ul className="task-list" aria-busy={navigating || undefined}>
              {dayRows.map(({ task, draft }) => renderRow(task, draft))}
            </ul>
          </section>
        ))
      ) : (
        <ul className="task-list" aria-labelledby="tasks-title" aria-busy={navigating || undefined}>
          {rows.map(({ task, draft }) => renderRow(task, draft))}
        </ul>
      )}
      {list.nextCursor && (
        <button
          className="button tasks-more"
          type="button"
          onClick={loadMore}
          disabled={list.loadingMore}
          aria-busy={list.loadingMore || undefined}
        >
          {list.loadingMore ? t("loadingMore") : t("loadMore")}
        </button>
      )}
      {completed && (
        <CompletedSection
          count={done.count}
          items={done.items}
          nextCursor={done.nextCursor}
          loading={done.loading}
          load={done.load}
          renderRow={(task) => renderRow(task)}
        />
      )}
      <UndoNotice completion={undoable} onClose={closeUndo} />
    </div>
  );
}

function LiveIndicator({ state }: { state: LiveState }) {
  const t = useTranslations("TaskList");
  return (
    <p className={`tasks-live tasks-live-${state}`} role="status" aria-live="polite">
      <span className="tasks-live-dot" aria-hidden="true" />
      {t(`live.${state}`)}
    </p>
  );
}

function EmptyState({ locale, filters, groupName }: { locale: string; filters: TaskFilters; groupName?: string }) {
  const t = useTranslations("TaskList");
  if (filters.view && narrowingFilterCount(filters) === 0) {
    return (
      <div className="tasks-empty">
        <h2>{t(`views.${filters.view}Empty`)}</h2>
        <p>{t("views.emptyBody")}</p>
      </div>
    );
  }
  if (narrowingFilterCount(filters) > 0) {
    return (
      <div className="tasks-empty">
        <h2>{t("noMatchTitle")}</h2>
        <p>{t("noMatchBody")}</p>
        <Link href={listHref(locale, clearedFilters(filters))} prefetch={false} scroll={false}>
          {t("clearFilters")}
        </Link>
      </div>
    );
  }
  return (
    <div className="tasks-empty">
      <h2 dir="auto">{groupName ? t("emptyGroupTitle", { group: groupName }) : t("emptyTitle")}</h2>
      <p>{t("emptyBody")}</p>
      <button className="button primary" type="button" onClick={() => document.getElementById(QUICK_ADD_INPUT_ID)?.focus()}>
        {t("emptyAction")}
      </button>
    </div>
  );
}
