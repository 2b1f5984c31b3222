"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useState, useTransition } from "react";
import type { LiveState } from "@/components/realtime/use-live-events";
import type { Locale } from "@/lib/i18n/locales";
import type { QuickAddLists } from "@/lib/quick-add/parse";
import { clearedFilters, listHref, narrowingFilterCount, type TaskFilters } from "./filters";
import { QUICK_ADD_INPUT_ID, QuickAdd, writeFailure } from "./quick-add";
import { TaskFiltersForm } from "./task-filters-form";
import { TaskRow } from "./task-row";
import { useTaskList, type ListTask, type TaskPage } from "./use-task-list";

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
}

/**
 * The task list page's interactive part: heading and live state, quick add, filters, the list with "Load more",
 * and the empty states (a first run, an empty group, nothing matching the filters).
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
}: Props) {
  const t = useTranslations("TaskList");
  const router = useRouter();
  const [navigating, startNavigation] = useTransition();
  const [message, setMessage] = useState<string>();
  const list = useTaskList({ initial, queryString, renderedAt: now, userId, defaultGroupId });

  const groupNames = new Map(groups.map((group) => [group.id, group.name]));
  const shownGroup = filters.groupId ? groupNames.get(filters.groupId) : undefined;
  const targetGroup = groupNames.get(filters.groupId ?? defaultGroupId) ?? "";

  async function toggle(task: ListTask, done: boolean) {
    setMessage(undefined);
    const result = await list.setStatus(task, done ? "done" : "todo");
    if (result.ok) return;
    if (result.answer?.status === 404) return setMessage(t("errorGone", { title: task.title }));
    setMessage(t("errorUpdate", { title: task.title, reason: writeFailure(t, result) }));
  }

  async function loadMore() {
    setMessage(undefined);
    if (!(await list.loadMore())) setMessage(t("errorLoadMore"));
  }

  return (
    <div className="tasks-main">
      <header className="tasks-header">
        <h1 id="tasks-title" dir="auto">
          {shownGroup ?? t("allTasks")}
        </h1>
        <LiveIndicator state={list.live} />
      </header>
      <QuickAdd
        locale={locale}
        timeZone={timeZone}
        groupName={targetGroup}
        lists={lists}
        listNames={listNames}
        onAdd={(task) => list.addTask(task.groupId || !filters.groupId ? task : { ...task, groupId: filters.groupId })}
      />
      <TaskFiltersForm
        locale={locale}
        filters={filters}
        groups={groups}
        onNavigate={(href) => startNavigation(() => router.push(href, { scroll: false }))}
      />
      <p className="tasks-error" role="alert">
        {message}
      </p>
      {list.rows.length > 0 ? (
        <ul className="task-list" aria-labelledby="tasks-title" aria-busy={navigating || undefined}>
          {list.rows.map(({ task, draft }) => (
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
          ))}
        </ul>
      ) : (
        <EmptyState locale={locale} filters={filters} groupName={shownGroup} />
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
