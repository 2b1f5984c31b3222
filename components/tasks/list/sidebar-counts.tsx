"use client";

import { createContext, useCallback, useContext, useEffect, useMemo, useRef, useState, type ReactNode } from "react";
import { api } from "@/lib/api-client/client";
import { useLiveEvents, type LiveEvent } from "@/components/realtime/use-live-events";
import type { TaskView } from "./filters";

/*
 * The sidebar's numbers of open tasks (per view and per group), live. The server renders the first ones; after this
 * tab's own changes (quick add, a ticked box) and after the live events that may change them (any change to a task
 * the user sees, someone joining or leaving a project or the family), they are read again through the API:
 * `GET /tasks/view-counts` and `GET /groups?counts=true`, side by side. Reads are coalesced: a burst of events and
 * writes within REFRESH_DELAY_MS makes one read, and a read asked for while one is on its way follows it once it
 * ends (its answer may predate the change). A /ws resync reads them again too.
 */

export interface SidebarCounts {
  /** Open tasks in each view. */
  views: Record<TaskView, number>;
  /** Open tasks in each of the sidebar's groups, by id. */
  groups: Readonly<Record<string, number>>;
}

/** Events of one burst (a task moved, then its subtasks...) lead to one read. */
const REFRESH_DELAY_MS = 300;
/** Events after which the counts may have changed (as for the list: components/tasks/list/use-task-list.ts). */
const COUNT_EVENTS = /^(task\.|project\.member_|family\.member_)/;
const QUIET_TASK_EVENTS = new Set(["task.reminded"]);

interface CountsContext {
  counts: SidebarCounts;
  /** Reads the counts again soon (after one of this tab's changes). */
  refresh(): void;
}

const Context = createContext<CountsContext | null>(null);

/** Reads both counts through the API; null when either could not be read. */
async function readCounts(): Promise<SidebarCounts | null> {
  const [views, groups] = await Promise.all([
    api.GET("/api/v1/tasks/view-counts").catch(() => null),
    api.GET("/api/v1/groups", { params: { query: { counts: true } } }).catch(() => null),
  ]);
  if (!views?.ok || !groups?.ok) return null;
  return {
    views: { today: views.body.today, upcoming: views.body.upcoming },
    groups: Object.fromEntries(groups.body.items.map((group) => [group.id, group.openTasks ?? 0])),
  };
}

interface ProviderProps {
  initial: SidebarCounts;
  /** When the server rendered these counts (ISO): a new render starts over from its numbers. */
  renderedAt: string;
  children: ReactNode;
}

export function SidebarCountsProvider({ initial, renderedAt, children }: ProviderProps) {
  const [state, setState] = useState({ renderedAt, counts: initial });
  if (state.renderedAt !== renderedAt) setState({ renderedAt, counts: initial });

  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const reading = useRef(false);
  const again = useRef(false);
  const latestRender = useRef(renderedAt);
  useEffect(() => {
    latestRender.current = renderedAt;
  });

  const read = useCallback(async () => {
    if (reading.current) {
      again.current = true;
      return;
    }
    reading.current = true;
    const render = latestRender.current;
    try {
      const counts = await readCounts();
      // Groups the sidebar does not list (archived meanwhile, new elsewhere) keep their place as rendered.
      if (counts && latestRender.current === render) {
        setState((current) =>
          current.renderedAt === render
            ? { renderedAt: render, counts: { views: counts.views, groups: { ...current.counts.groups, ...counts.groups } } }
            : current,
        );
      }
    } finally {
      reading.current = false;
      if (again.current) {
        again.current = false;
        void read();
      }
    }
  }, []);

  const refresh = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void read(), REFRESH_DELAY_MS);
  }, [read]);

  useEffect(() => () => clearTimeout(timer.current), []);

  const onEvent = useCallback(
    (event: LiveEvent) => {
      if (COUNT_EVENTS.test(event.type) && !QUIET_TASK_EVENTS.has(event.type)) refresh();
    },
    [refresh],
  );
  const live = useLiveEvents({ onEvent, onResync: refresh });
  // Changes between the server render and the socket's first connection reach no event: catch up once.
  const caughtUp = useRef(false);
  useEffect(() => {
    if (live !== "live" || caughtUp.current) return;
    caughtUp.current = true;
    refresh();
  }, [live, refresh]);

  const value = useMemo(() => ({ counts: state.counts, refresh }), [state.counts, refresh]);
  return <Context.Provider value={value}>{children}</Context.Provider>;
}

/** The live counts; outside a provider, those given (a sidebar rendered on its own). */
export function useSidebarCounts(fallback: SidebarCounts): SidebarCounts {
  return useContext(Context)?.counts ?? fallback;
}

/** Asks for fresh counts after one of this tab's changes; does nothing outside a provider. */
export function useRefreshSidebarCounts(): () => void {
  const context = useContext(Context);
  return context?.refresh ?? noop;
}

function noop() {}
