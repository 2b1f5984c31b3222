/*
 * The board's filter as it travels in the page's URL (`/en/board?groupId=…&projectId=…&userGroupId=…`): read on the server
 * for the first paint, written by the filter form, and passed on to `GET /board` when the board reloads.
 */

export interface BoardFilter {
  groupId?: string;
  projectId?: string;
  /** A team (user group): its board. */
  userGroupId?: string;
}

type SearchParams = Record<string, string | string[] | undefined>;

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** The filter a page's search params ask for, not yet checked against the visitor's groups and projects. */
export function requestedFilter(params: SearchParams): BoardFilter {
  const groupId = first(params.groupId);
  const projectId = first(params.projectId);
  const userGroupId = first(params.userGroupId);
  return { ...(groupId ? { groupId } : {}), ...(projectId ? { projectId } : {}), ...(userGroupId ? { userGroupId } : {}) };
}

/**
 * The part of a requested filter the visitor can use: only ids among their own groups and projects count, so
 * that anything else (a stale link, a typo) shows the whole board rather than an error or an empty board.
 */
export function usableFilter(
  filter: BoardFilter,
  groupIds: readonly string[],
  projectIds: readonly string[],
  teamIds: readonly string[],
): BoardFilter {
  const { groupId, projectId, userGroupId } = filter;
  return {
    ...(groupId && groupIds.includes(groupId) ? { groupId } : {}),
    ...(projectId && projectIds.includes(projectId) ? { projectId } : {}),
    ...(userGroupId && teamIds.includes(userGroupId) ? { userGroupId } : {}),
  };
}

/** The query string of a filter (`?groupId=…`), or "" for the whole board. */
export function boardSearch(filter: BoardFilter): string {
  const params = new URLSearchParams();
  if (filter.groupId) params.set("groupId", filter.groupId);
  if (filter.projectId) params.set("projectId", filter.projectId);
  if (filter.userGroupId) params.set("userGroupId", filter.userGroupId);
  const query = params.toString();
  return query ? `?${query}` : "";
}

/** Whether a task belongs on a board with this filter. */
export function matchesFilter(
  task: { groupId: string; projectId: string | null; userGroupId: string | null },
  filter: BoardFilter,
): boolean {
  return (
    (!filter.groupId || task.groupId === filter.groupId) &&
    (!filter.projectId || task.projectId === filter.projectId) &&
    (!filter.userGroupId || task.userGroupId === filter.userGroupId)
  );
}
