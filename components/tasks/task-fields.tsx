import { useFormatter, useTranslations } from "next-intl";
import type { Priority, TaskStatus } from "@/lib/tasks/vocabulary";
import { dayIn } from "./local-day";
import "./task-fields.css";

/*
 * How a task's status, priority and due date read on every page (list, detail, board). They render the same on
 * the server and in the browser: the caller passes `now` and the user's time zone, so "today" cannot differ
 * between the first paint and hydration.
 */

export function StatusBadge({ status }: { status: TaskStatus }) {
  const t = useTranslations("TaskFields");
  return <span className={`task-status task-status-${status}`}>{t(`status.${status}`)}</span>;
}

/** Normal priority is the default and is not shown. */
export function PriorityBadge({ priority }: { priority: Priority }) {
  const t = useTranslations("TaskFields");
  if (priority === "normal") return null;
  return (
    <span className={`task-priority task-priority-${priority}`}>
      {t("priorityLabel", { priority: t(`priority.${priority}`) })}
    </span>
  );
}

interface DueDateProps {
  dueAt: string;
  /** The moment the page was rendered (ISO), the same on the server and in the browser. */
  now: string;
  timeZone: string;
  /** A finished task is never overdue. */
  finished?: boolean;
}

export function DueDate({ dueAt, now, timeZone, finished = false }: DueDateProps) {
  const t = useTranslations("TaskFields");
  const format = useFormatter();
  const due = new Date(dueAt);
  const current = new Date(now);
  const time = () => format.dateTime(due, { timeZone, hour: "numeric", minute: "2-digit" });
  const date = () => format.dateTime(due, { timeZone, day: "numeric", month: "short", hour: "numeric", minute: "2-digit" });
  const dueDay = dayIn(due, timeZone);

  let text: string;
  let state: "overdue" | "today" | "later";
  if (!finished && due < current) [text, state] = [t("overdue", { date: date() }), "overdue"];
  else if (dueDay === dayIn(current, timeZone)) [text, state] = [t("dueToday", { time: time() }), "today"];
  else if (dueDay === dayIn(new Date(current.getTime() + 24 * 3600 * 1000), timeZone))
    [text, state] = [t("dueTomorrow", { time: time() }), "later"];
  else [text, state] = [t("due", { date: date() }), "later"];

  return (
    <time dateTime={dueAt} className={`task-due task-due-${state}`}>
      {text}
    </time>
  );
}
