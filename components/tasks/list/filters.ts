import { LIST_SORTS, TASK_STATUSES, TASK_VIEWS, type TaskStatus } from "@/lib/tasks/vocabulary";

/*
 * The task list's filters as the page's URL carries them (`/en/tasks?status=todo&status=done&q=milk`): shareable,
 * kept by the back button, read by the server to render the first page. Plain code without zod, so that the
 * filter form in the browser writes URLs the same way the server reads them.
 */

/** The sort orders the page offers, the first being the default (new tasks from quick add come first). */
export type ListSort = (typeof LIST_SORTS)[number];
export const DEFAULT_SORT: ListSort = LIST_SORTS[0];

/**
 * Views of the list besides the filtered one: Today (open tasks overdue or due today) and Upcoming (open tasks due
 * in the next 14 days, by day). A view sets the status, due dates and order itself; group, assignee, tag and
 * search still narrow it.
 */
export type TaskView = (typeof TASK_VIEWS)[number];

export interface TaskFilters {
  view?: TaskView;
  statuses: TaskStatus[];
  groupId?: string;
  /** Only tasks the signed-in user is assigned to; otherwise anyone's. */
  assignedToMe: boolean;
  /** Local calendar days (YYYY-MM-DD) in the user's time zone, both included. */
  dueFrom?: string;
  dueUntil?: string;
  tag?: string;
  q?: string;
  sort: ListSort;
}

/** The URL's search parameters, as Next hands them to a page or `URLSearchParams` holds them. */
export type SearchParams = Record<string, string | string[] | undefined>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
// The API's own limits (lib/tasks/schema.ts): a longer value would be refused there.
const TAG_MAX = 50;
const QUERY_MAX = 200;

const all = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
const first = (value: string | string[] | undefined): string | undefined => all(value)[0]?.trim() || undefined;

function isDay(value: string | undefined): value is string {
  if (!value || !DAY.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(value);
}

/**
 * The filters of a URL. Values the API would refuse are dropped rather than answered with an error: a
 * hand-edited or outdated link still shows a list. `groupIds` are the user's groups; any other group is ignored.
 */
export function parseFilters(params: SearchParams, groupIds: readonly string[]): TaskFilters {
  const statuses = TASK_STATUSES.filter((status) =>
    all(params.status)
      .flatMap((value) => value.split(","))
      .includes(status),
  );
  const groupId = first(params.group);
  const tag = first(params.tag);
  const q = first(params.q);
  const sort = LIST_SORTS.find((value) => value === first(params.sort)) ?? DEFAULT_SORT;
  const dueFrom = first(params.from);
  const dueUntil = first(params.until);
  const view = TASK_VIEWS.find((value) => value === first(params.view));
  const common = {
    groupId: groupId && UUID.test(groupId) && groupIds.includes(groupId) ? groupId : undefined,
    assignedToMe: first(params.assignee) === "me",
    tag: tag && tag.length <= TAG_MAX && !tag.includes(",") ? tag : undefined,
    q: q && q.length <= QUERY_MAX ? q : undefined,
  };
  if (view) return { view, statuses: [], ...common, sort: "dueAt" };
  return {
    statuses,
    ...common,
    dueFrom: isDay(dueFrom) ? dueFrom : undefined,
    dueUntil: isDay(dueUntil) ? dueUntil : undefined,
    sort,
  };
}

/** The search parameters of a filtered list, in a fixed order and without defaults (the canonical URL). */
export function filtersToSearch(filters: TaskFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.view) search.set("view", filters.view);
  for (const status of filters.statuses) search.append("status", status);
  if (filters.groupId) search.set("group", filters.groupId);
  if (filters.assignedToMe) search.set("assignee", "me");
  if (filters.dueFrom) search.set("from", filters.dueFrom);
  if (filters.dueUntil) search.set("until", filters.dueUntil);
  if (filters.tag) search.set("tag", filters.tag);
  if (filters.q) search.set("q", filters.q);
  if (filters.sort !== DEFAULT_SORT && !filters.view) search.set("sort", filters.sort);
  return search;
}

/** The list page's path for these filters. */
export function listHref(locale: string, filters: TaskFilters): string {
  const search = filtersToSearch(filters).toString();
  return `/${locale}/tasks${search ? `?${search}` : ""}`;
}

/** A view of all the user's tasks, without other filters: what the sidebar's view links lead to. */
export function viewFilters(view: TaskView | undefined): TaskFilters {
  return view
    ? { view, statuses: [], assignedToMe: false, sort: "dueAt" }
    : { statuses: [], assignedToMe: false, sort: DEFAULT_SORT };
}

/**
 * Whether done tasks leave the list for the "Completed" section below it: unless the status filter asks for done
 * tasks alone (then they are the list). A view shows open tasks only, and no such section.
 */
export function completedApart(filters: TaskFilters): boolean {
  return !(filters.statuses.length === 1 && filters.statuses[0] === "done");
}

/** How many filters narrow the list, the group and the sort not counted (they are choices of view). */
export function narrowingFilterCount(filters: TaskFilters): number {
  return [filters.statuses.length > 0, filters.assignedToMe, filters.dueFrom, filters.dueUntil, filters.tag, filters.q].filter(
    Boolean,
  ).length;
}

/** The same view (group and sort) without the filters that narrow it: what "Clear filters" leads to. */
export function clearedFilters(filters: TaskFilters): TaskFilters {
  return { view: filters.view, statuses: [], assignedToMe: false, groupId: filters.groupId, sort: filters.sort };
}
