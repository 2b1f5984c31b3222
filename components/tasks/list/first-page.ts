import { dayIn } from "@/components/tasks/local-day";
import type { Actor } from "@/lib/auth/actor";
import { listTasksQuery, type TaskOutput } from "@/lib/tasks/schema";
import { cachedAnswer } from "@/lib/api/cached-get";
import { taskListAnswers } from "@/lib/tasks/answers";
import { countTasks } from "@/lib/tasks/service";
import { TASK_STATUSES } from "@/lib/tasks/vocabulary";
import { startOfDay, viewFilter } from "@/lib/tasks/views";
import { completedApart, type TaskFilters, type TaskView } from "./filters";
import type { TaskPage } from "./use-task-list";

/*
 * Server side of the task list page: the `GET /tasks` query of a filtered list or a view, its counts, and its first
 * page read through
 * the tasks service with the same cache the API uses (the browser's later refetches of the same query string
 * hit the answer stored here, and any write to a task the user sees drops it).
 */

/** Tasks per page, the first rendered on the server and each "Load more". */
export const PAGE_SIZE = 50;

/** The `GET /tasks` filters of a view, from the start of the user's day (`today` is YYYY-MM-DD in their zone). */
function viewQuery(query: URLSearchParams, view: TaskView, today: string, timeZone: string): void {
  const { status, dueAfter, dueBefore } = viewFilter(view, today, timeZone);
  query.set("status", status.join(","));
  if (dueAfter) query.set("dueAfter", dueAfter);
  query.set("dueBefore", dueBefore);
}

/**
 * The query string of `GET /api/v1/tasks` for the filters, as the browser sends it too (the cache is keyed by
 * the exact string). The due days are whole days in the user's time zone: `dueAfter` is inclusive and
 * `dueBefore` exclusive, so "until the 5th" asks for tasks due before the 6th begins. Done tasks are left out
 * when they have a section of their own (`completedApart`); `completed` asks for that section's tasks instead.
 */
export function taskListQueryString(
  filters: TaskFilters,
  viewer: Pick<Actor, "userId" | "timeZone">,
  now: Date,
  completed = false,
): string {
  const query = new URLSearchParams();
  if (filters.view) viewQuery(query, filters.view, dayIn(now, viewer.timeZone), viewer.timeZone);
  else if (completed) query.set("status", "done");
  else {
    const statuses = filters.statuses.length ? filters.statuses : TASK_STATUSES;
    const shown = completedApart(filters) ? statuses.filter((status) => status !== "done") : statuses;
    query.set("status", shown.join(","));
  }
  if (filters.groupId) query.set("groupId", filters.groupId);
  if (filters.assignedToMe) query.set("assigneeId", viewer.userId);
  if (filters.dueFrom) query.set("dueAfter", startOfDay(filters.dueFrom, viewer.timeZone));
  if (filters.dueUntil) query.set("dueBefore", startOfDay(filters.dueUntil, viewer.timeZone, 1));
  if (filters.tag) query.set("tag", filters.tag);
  if (filters.q) query.set("q", filters.q);
  query.set("sort", completed ? "-updatedAt" : filters.sort);
  query.set("limit", String(PAGE_SIZE));
  return query.toString();
}

/** Whether the list of these filters has a "Completed" section below it. */
export function hasCompletedSection(filters: TaskFilters): boolean {
  return !filters.view && completedApart(filters) && (filters.statuses.length === 0 || filters.statuses.includes("done"));
}

/** How many tasks `GET /api/v1/tasks?<queryString>` finds, over all its pages. */
export async function countMatching(actor: Actor, queryString: string): Promise<number> {
  return countTasks(actor, listTasksQuery.parse(Object.fromEntries(new URLSearchParams(queryString))));
}

type TaskListOutput = { items: TaskOutput[]; nextCursor: string | null };

/** The first page of the list as `GET /api/v1/tasks?<queryString>` answers it, without the descriptions. */
export async function loadFirstPage(actor: Actor, queryString: string): Promise<TaskPage> {
  const body = await cachedAnswer(taskListAnswers, actor, queryString);
  const page = JSON.parse(body.toString("utf8")) as TaskListOutput;
  return { items: page.items.map(({ description: _, ...task }) => task), nextCursor: page.nextCursor };
}
