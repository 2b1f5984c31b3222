"use client";

import { useTranslations } from "next-intl";
import { useState } from "react";
import { DEFAULT_SORT, type TaskFilters } from "@/components/tasks/list/filters";
import { writeFailure } from "@/components/tasks/list/quick-add";
import { TaskRow } from "@/components/tasks/list/task-row";
import { useTaskList, type ListTask, type TaskPage } from "@/components/tasks/list/use-task-list";

interface Props {
  locale: string;
  userId: string;
  timeZone: string;
  now: string;
  /** `GET /api/v1/tasks` query string of the team's or project's tasks. */
  queryString: string;
  initial: TaskPage;
  labelledBy: string;
  /** The names of the user's groups by id, shown on each task. */
  groupNames: Readonly<Record<string, string>>;
}

const NO_FILTERS: TaskFilters = { statuses: [], assignedToMe: false, sort: DEFAULT_SORT };

/**
 * A team's or project's tasks, as the task list shows them (the same rows, completion box, live updates and
 * "Load more"), read from `GET /tasks?userGroupId=` or `?projectId=`.
 */
export function CircleTasks({ locale, userId, timeZone, now, queryString, initial, labelledBy, groupNames }: Props) {
  const t = useTranslations("TaskList");
  const teams = useTranslations("Teams");
  const [message, setMessage] = useState<string>();
  const list = useTaskList({ initial, queryString, renderedAt: now, userId, defaultGroupId: "" });

  async function toggle(task: ListTask, done: boolean) {
    setMessage(undefined);
    const result = await list.setStatus(task, done ? "done" : "todo");
    if (result.ok) return;
    if (result.answer?.status === 404) return setMessage(t("errorGone", { title: task.title }));
    setMessage(t("errorUpdate", { title: task.title, reason: writeFailure(t, result) }));
  }

  return (
    <div className="circle-tasks">
      <p className="tasks-error" role="alert">
        {message}
      </p>
      {list.rows.length > 0 ? (
        <ul className="task-list" aria-labelledby={labelledBy}>
          {list.rows.map(({ task, draft }) => (
            <TaskRow
              key={task.id}
              task={task}
              draft={draft}
              locale={locale}
              now={now}
              timeZone={timeZone}
              filters={NO_FILTERS}
              groupName={groupNames[task.groupId]}
              onToggle={toggle}
            />
          ))}
        </ul>
      ) : (
        <p className="circle-empty">{teams("noTasks")}</p>
      )}
      {list.nextCursor && (
        <button
          className="button tasks-more"
          type="button"
          onClick={async () => {
            setMessage(undefined);
            if (!(await list.loadMore())) setMessage(t("errorLoadMore"));
          }}
          disabled={list.loadingMore}
          aria-busy={list.loadingMore || undefined}
        >
          {list.loadingMore ? t("loadingMore") : t("loadMore")}
        </button>
      )}
    </div>
  );
}
