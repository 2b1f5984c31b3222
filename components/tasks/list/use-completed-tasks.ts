"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import { api } from "@/lib/api-client/client";
import type { ListTask } from "./use-task-list";

/*
 * The "Completed" section's data: its count comes with the page; its tasks are read through the API when it is
 * first opened (most visits never open it). Tasks done or reopened on this page move in and out of it at once.
 */

interface CompletedState {
  /** The page render (filters) this state belongs to: a new one starts over. */
  queryString: string;
  count: number;
  /** Not loaded yet: null. */
  items: ListTask[] | null;
  nextCursor: string | null;
}

const API = "/api/v1/tasks" as const;

const fresh = (queryString: string, count: number): CompletedState => ({ queryString, count, items: null, nextCursor: null });

export function useCompletedTasks(queryString: string, count: number) {
  const [state, setState] = useState(() => fresh(queryString, count));
  if (state.queryString !== queryString) setState(fresh(queryString, count));
  const [loading, setLoading] = useState(false);
  const latest = useRef(state);
  useEffect(() => {
    latest.current = state;
  });

  /** Reads the next page (the first when nothing is loaded); false when the API could not answer. */
  const load = useCallback(async (): Promise<boolean> => {
    const { queryString: query, items, nextCursor } = latest.current;
    if (items && !nextCursor) return true;
    setLoading(true);
    try {
      const search = new URLSearchParams(query);
      if (items && nextCursor) search.set("cursor", nextCursor);
      const answer = await api.GET(API, { querySerializer: () => search.toString() }).catch(() => null);
      if (!answer?.ok) return false;
      const page = answer.body;
      setState((current) => {
        if (current.queryString !== query) return current;
        const known = new Set((current.items ?? []).map((task) => task.id));
        return {
          ...current,
          items: [...(current.items ?? []), ...page.items.filter((task) => !known.has(task.id))],
          nextCursor: page.nextCursor,
        };
      });
      return true;
    } finally {
      setLoading(false);
    }
  }, []);

  /** A task was done on this page: it joins the section. */
  const added = useCallback((task: ListTask) => {
    setState((current) => ({
      ...current,
      count: current.count + 1,
      items: current.items && [task, ...current.items.filter((item) => item.id !== task.id)],
    }));
  }, []);

  /** A task of the section was reopened on this page: it leaves. */
  const removed = useCallback((taskId: string) => {
    setState((current) => ({
      ...current,
      count: Math.max(0, current.count - 1),
      items: current.items && current.items.filter((item) => item.id !== taskId),
    }));
  }, []);

  return { count: state.count, items: state.items, nextCursor: state.nextCursor, loading, load, added, removed };
}
