"use client";

import Link from "next/link";
import { useTranslations } from "next-intl";
import { DueDate, PriorityBadge, StatusBadge } from "@/components/tasks/task-fields";
import { CheckIcon, PersonIcon, TeamIcon } from "@/components/ui/icons";
import { listHref, type TaskFilters } from "./filters";
import type { ListTask } from "./use-task-list";

interface Props {
  task: ListTask;
  /** Quick add is still waiting for the API: no link, no checkbox to tick yet. */
  draft: boolean;
  locale: string;
  now: string;
  timeZone: string;
  filters: TaskFilters;
  /** The task's group, shown when the list is not already one group's. */
  groupName?: string;
  onToggle(task: ListTask, done: boolean): void;
}

/**
 * One task of the list: a checkbox that completes or reopens it, its title (a link to its page), then what
 * matters at a glance: status when it is neither open nor done, priority, due date, subtask progress, assignees,
 * group and tags (each tag a link to the list filtered by it). The data-task-* attributes are what the keyboard
 * shortcuts act on (components/shortcuts/task-rows.ts).
 */
export function TaskRow({ task, draft, locale, now, timeZone, filters, groupName, onToggle }: Props) {
  const t = useTranslations("TaskList");
  const done = task.status === "done";
  const finished = done || task.status === "cancelled";
  const assignees = task.assigneeIds.length;
  return (
    <li className={`task-row${finished ? " task-row-finished" : ""}`} aria-busy={draft || undefined} data-task-row={task.id}>
      <input
        type="checkbox"
        className="task-row-check"
        data-task-toggle
        checked={done}
        disabled={draft}
        onChange={(event) => onToggle(task, event.currentTarget.checked)}
        aria-label={t("doneLabel", { title: task.title })}
      />
      <div className="task-row-body">
        {draft ? (
          <span className="task-row-title" dir="auto">
            {task.title}
          </span>
        ) : (
          <Link className="task-row-title" href={`/${locale}/tasks/${task.id}`} prefetch={false} dir="auto" data-task-open>
            {task.title}
          </Link>
        )}
        <div className="task-row-meta">
          {draft && <span className="task-row-saving">{t("adding")}</span>}
          {(task.status === "in_progress" || task.status === "cancelled") && <StatusBadge status={task.status} />}
          <PriorityBadge priority={task.priority} />
          {task.dueAt && <DueDate dueAt={task.dueAt} now={now} timeZone={timeZone} finished={finished} />}
          {task.subtasks.total > 0 && (
            <span className="task-row-fact">
              <CheckIcon size={14} />
              <span aria-hidden="true">
                {task.subtasks.done}/{task.subtasks.total}
              </span>
              <span className="visually-hidden">{t("subtasks", { done: task.subtasks.done, total: task.subtasks.total })}</span>
            </span>
          )}
          {assignees > 0 && (
            <span className="task-row-fact">
              {assignees === 1 ? <PersonIcon size={14} /> : <TeamIcon size={14} />}
              <span aria-hidden="true">{assignees}</span>
              <span className="visually-hidden">{t("assignees", { count: assignees })}</span>
            </span>
          )}
          {groupName && <span className="task-row-group">{groupName}</span>}
          {task.tags.map((tag) => (
            <Link
              key={tag}
              className="task-row-tag"
              href={listHref(locale, { ...filters, tag })}
              title={t("tagLink", { tag })}
              prefetch={false}
              scroll={false}
              dir="auto"
            >
              #{tag}
            </Link>
          ))}
        </div>
      </div>
    </li>
  );
}
