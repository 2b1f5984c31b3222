"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api, type ApiAnswer } from "@/lib/api-client/client";
import { useLiveEvents, type LiveEvent, type LiveState } from "@/components/realtime/use-live-events";
import type { TaskOutput } from "@/lib/tasks/schema";
import type { TaskStatus } from "@/lib/tasks/vocabulary";

/*
 * The task list's data in the browser: the server-rendered first page, then "Load more", quick add, inline
 * completion and other people's changes from /ws.
 *
 * - Own changes are optimistic: a new task shows at once (a draft until the API answers), a ticked box at once
 *   (an override until the API answers); a failure takes them back and the caller says why.
 * - Other changes arrive as events. An event that carries a task newer than the row updates the row at once;
 *   then, a little later and once per burst, the shown part of the list is fetched again through the API (same
 *   query), which brings new tasks in, drops those that no longer match the filters and keeps the order right.
 *   An event already reflected here (the answer of this tab's own write came first) changes nothing.
 * - While a write of this tab is under way the refetch waits for it: a list read before the write commits
 *   would briefly undo the optimistic change or show a new task twice.
 */

const API = "/api/v1/tasks" as const;
/** Events of one burst (a subtask ticked off completing its task...) lead to one refetch. */
const REFETCH_DELAY_MS = 250;
/** The API's largest page (LIST_LIMIT_MAX): a refetch covers at most this many rows. */
const REFETCH_MAX = 200;
const DRAFT_PREFIX = "draft-";

/** Events after which the list may have changed; the rest (reminders, notifications...) do not touch it. */
const LIST_EVENTS = /^(task\.|project\.member_|family\.member_)/;
const QUIET_TASK_EVENTS = new Set(["task.reminded"]);

/**
 * A task as the list shows it: everything but the description, which may be long and is not shown (the first
 * page goes into the page's HTML). Answers of the API, with descriptions, are used as they come.
 */
export type ListTask = Omit<TaskOutput, "description">;

export interface TaskPage {
  items: ListTask[];
  nextCursor: string | null;
}

interface ListState {
  /** The server render this state started from: a new one (other filters, a refresh) starts over. */
  renderedAt: string;
  items: ListTask[];
  nextCursor: string | null;
  /** Tasks added here since the page was rendered, newest first (drafts until the API answers). */
  added: ListTask[];
  /** Optimistic changes whose PATCH is under way, by task id, each with the token of its request. */
  overrides: Record<string, { token: number; patch: Partial<ListTask> }>;
}

export interface ListRow {
  task: ListTask;
  /** Not yet saved: quick add is waiting for the API. */
  draft: boolean;
}

export type WriteResult = { ok: true } | { ok: false; answer: ApiAnswer<unknown, unknown> | null };

/** What quick add creates: the fields `POST /tasks` takes (without a group: the user's first). */
export type NewListTask = Pick<ListTask, "title" | "tags"> &
  Partial<Pick<ListTask, "priority" | "groupId">> & {
    dueAt?: string;
    startDate?: string;
    recurrence?: NonNullable<ListTask["recurrence"]>;
    projectId?: string;
  };

interface Options {
  initial: TaskPage;
  /** `GET /api/v1/tasks` query string of these filters (with sort and the page size). */
  queryString: string;
  /** When the server rendered this page (ISO): a new value means new filters or fresh data. */
  renderedAt: string;
  userId: string;
  /** Where quick add puts a task without a group of its own (the draft shows it there until the answer). */
  defaultGroupId: string;
}

const fresh = (initial: TaskPage, renderedAt: string): ListState => ({
  renderedAt,
  items: initial.items,
  nextCursor: initial.nextCursor,
  added: [],
  overrides: {},
});

/** The newer of two copies of a task (updatedAt is an ISO instant: text order is time order). */
const newer = (a: ListTask, b: ListTask) => (b.updatedAt > a.updatedAt ? b : a);

function replaceTask(list: ListTask[], task: ListTask): ListTask[] {
  return list.some((item) => item.id === task.id) ? list.map((item) => (item.id === task.id ? newer(item, task) : item)) : list;
}

function withTask(state: ListState, task: ListTask): ListState {
  return { ...state, items: replaceTask(state.items, task), added: replaceTask(state.added, task) };
}

function withoutTask(state: ListState, taskId: string): ListState {
  return {
    ...state,
    items: state.items.filter((task) => task.id !== taskId),
    added: state.added.filter((task) => task.id !== taskId),
  };
}

/** A refetched page in place of the shown one, except rows this tab knows in a newer version. */
function reconcile(shown: ListTask[], fetched: ListTask[]): ListTask[] {
  const known = new Map(shown.map((task) => [task.id, task]));
  return fetched.map((task) => {
    const local = known.get(task.id);
    return local ? newer(task, local) : task;
  });
}

function withLimit(queryString: string, limit: number, cursor?: string): string {
  const query = new URLSearchParams(queryString);
  query.set("limit", String(limit));
  if (cursor) query.set("cursor", cursor);
  return query.toString();
}

function draftTask(id: string, task: NewListTask, groupId: string, ownerId: string): ListTask {
  const now = new Date().toISOString();
  return {
    id,
    ownerId,
    groupId,
    projectId: task.projectId ?? null,
    userGroupId: null,
    title: task.title,
    status: "todo",
    priority: task.priority ?? "normal",
    dueAt: task.dueAt ?? null,
    startDate: task.startDate ?? null,
    tags: task.tags,
    assigneeIds: [],
    collaboratorIds: [],
    position: "",
    recurrence: task.recurrence ?? null,
    seriesId: null,
    occurrence: null,
    subtasks: { total: 0, done: 0 },
    completedAt: null,
    createdAt: now,
    updatedAt: now,
  };
}

export function useTaskList({ initial, queryString, renderedAt, userId, defaultGroupId }: Options) {
  const [state, setState] = useState(() => fresh(initial, renderedAt));
  if (state.renderedAt !== renderedAt) setState(fresh(initial, renderedAt));
  const [loadingMore, setLoadingMore] = useState(false);

  // What async work reads when it finishes: the query it belongs to may have been left meanwhile.
  const latest = useRef({ state, queryString });
  useEffect(() => {
    latest.current = { state, queryString };
  });
  const writes = useRef(0);
  const refetchWanted = useRef(false);
  const refetchTimer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const tokens = useRef(0);

  const refetch = useCallback(async () => {
    if (writes.current > 0) {
      refetchWanted.current = true;
      return;
    }
    const { queryString: query, state: shown } = latest.current;
    const limit = Math.min(REFETCH_MAX, Math.max(Number(new URLSearchParams(query).get("limit")), shown.items.length));
    const answer = await api.GET(API, { querySerializer: () => withLimit(query, limit) }).catch(() => null);
    if (!answer?.ok || latest.current.queryString !== query) return;
    if (writes.current > 0) {
      refetchWanted.current = true;
      return;
    }
    const page = answer.body;
    setState((current) => {
      // A new render (other filters) came meanwhile: this page belongs to the list it replaced.
      if (current.renderedAt !== shown.renderedAt) return current;
      const merged = reconcile([...current.items, ...current.added], page.items);
      // "Load more" answered while this was on its way: the rows past the refetched ones stay, and so does the
      // cursor that follows them.
      if (current.items.length <= limit) return { ...current, items: merged, nextCursor: page.nextCursor };
      const fetched = new Set(merged.map((task) => task.id));
      return { ...current, items: [...merged, ...current.items.slice(limit).filter((task) => !fetched.has(task.id))] };
    });
  }, []);

  const requestRefetch = useCallback(() => {
    clearTimeout(refetchTimer.current);
    refetchTimer.current = setTimeout(() => void refetch(), REFETCH_DELAY_MS);
  }, [refetch]);

  useEffect(() => () => clearTimeout(refetchTimer.current), []);

  /** Runs one of this tab's writes; a refetch asked for meanwhile runs after the last one ends. */
  const write = useCallback(
    async <T>(call: () => Promise<ApiAnswer<T>>): Promise<ApiAnswer<T> | null> => {
      writes.current += 1;
      try {
        return await call();
      } catch {
        return null;
      } finally {
        writes.current -= 1;
        if (writes.current === 0 && refetchWanted.current) {
          refetchWanted.current = false;
          requestRefetch();
        }
      }
    },
    [requestRefetch],
  );

  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (!LIST_EVENTS.test(event.type) || QUIET_TASK_EVENTS.has(event.type)) return;
      if ((event.type === "task.deleted" || event.type === "task.unshared") && event.taskId) {
        const taskId = event.taskId;
        setState((current) => withoutTask(current, taskId));
        return;
      }
      const task = (event.data as { task?: ListTask }).task;
      if (task) {
        const { items, added } = latest.current.state;
        const local = [...added, ...items].find((item) => item.id === task.id);
        if (local && local.updatedAt >= task.updatedAt) return;
        if (local) setState((current) => withTask(current, task));
      }
      requestRefetch();
    },
    [requestRefetch],
  );

  const live: LiveState = useLiveEvents({ onEvent, onResync: requestRefetch });
  // Changes between the server render and the socket's first connection reach no event: catch up once.
  const caughtUp = useRef(false);
  useEffect(() => {
    if (live !== "live" || caughtUp.current) return;
    caughtUp.current = true;
    requestRefetch();
  }, [live, requestRefetch]);

  const loadMore = useCallback(async (): Promise<boolean> => {
    const { queryString: query, state: shown } = latest.current;
    const cursor = shown.nextCursor;
    if (!cursor) return true;
    setLoadingMore(true);
    try {
      const limit = Number(new URLSearchParams(query).get("limit"));
      const answer = await api.GET(API, { querySerializer: () => withLimit(query, limit, cursor) }).catch(() => null);
      if (!answer?.ok) return false;
      const page = answer.body;
      setState((current) => {
        // A refetch replaced the rows meanwhile: this page no longer follows them.
        if (latest.current.queryString !== query || current.nextCursor !== cursor) return current;
        const ids = new Set(current.items.map((task) => task.id));
        return {
          ...current,
          items: [...current.items, ...page.items.filter((task) => !ids.has(task.id))],
          nextCursor: page.nextCursor,
        };
      });
      return true;
    } finally {
      setLoadingMore(false);
    }
  }, []);

  const addTask = useCallback(
    async (task: NewListTask): Promise<WriteResult> => {
      const draftId = `${DRAFT_PREFIX}${(tokens.current += 1)}`;
      setState((current) => ({
        ...current,
        added: [draftTask(draftId, task, task.groupId ?? defaultGroupId, userId), ...current.added],
      }));
      const answer = await write(() => api.POST(API, { body: task }));
      if (answer?.ok) {
        const task = answer.body;
        setState((current) => ({ ...current, added: current.added.map((item) => (item.id === draftId ? task : item)) }));
        return { ok: true };
      }
      setState((current) => ({ ...current, added: current.added.filter((item) => item.id !== draftId) }));
      return { ok: false, answer };
    },
    [defaultGroupId, userId, write],
  );

  const setStatus = useCallback(
    async (task: ListTask, status: TaskStatus): Promise<WriteResult> => {
      const token = (tokens.current += 1);
      const patch: Partial<ListTask> = { status, completedAt: status === "done" ? new Date().toISOString() : null };
      setState((current) => ({ ...current, overrides: { ...current.overrides, [task.id]: { token, patch } } }));
      const answer = await write(() => api.PATCH(`${API}/{id}`, { params: { path: { id: task.id } }, body: { status } }));
      // A task done or reopened may leave or join the list (done tasks have a section of their own).
      if (answer?.ok) requestRefetch();
      setState((current) => {
        const overrides = { ...current.overrides };
        if (overrides[task.id]?.token === token) delete overrides[task.id];
        const next = { ...current, overrides };
        if (answer?.ok) return withTask(next, answer.body);
        return answer?.status === 404 ? withoutTask(next, task.id) : next;
      });
      return answer?.ok ? { ok: true } : { ok: false, answer };
    },
    [requestRefetch, write],
  );

  const addedIds = new Set(state.added.map((task) => task.id));
  const rows: ListRow[] = [...state.added, ...state.items.filter((task) => !addedIds.has(task.id))].map((task) => ({
    task: state.overrides[task.id] ? { ...task, ...state.overrides[task.id]!.patch } : task,
    draft: task.id.startsWith(DRAFT_PREFIX),
  }));

  return { rows, nextCursor: state.nextCursor, loadingMore, loadMore, addTask, setStatus, live };
}
