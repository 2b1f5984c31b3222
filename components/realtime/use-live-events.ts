"use client";

import { useEffect, useRef, useState } from "react";
import type { SocketEvent } from "@/lib/realtime/events";
import { subscribeToLiveEvents, type LiveState } from "./live-connection";

export type LiveEvent = SocketEvent;
export type { LiveState };

interface Handlers {
  /** One domain event for the signed-in user (task.created, task.updated, task.moved...), oldest first. */
  onEvent(event: LiveEvent): void;
  /**
   * The page may have missed changes and should fetch its data again: the server asked for it (too many missed
   * events), or the socket came back before any event gave it a cursor to replay from.
   */
  onResync?(): void;
}

/**
 * The signed-in user's live events from `/ws`, through the page's one shared connection
 * (components/realtime/live-connection.ts): the bell and the page each call this hook, the browser holds one
 * socket. Returns the connection state for a "live" indicator.
 */
export function useLiveEvents(handlers: Handlers): LiveState {
  const latest = useRef(handlers);
  const [state, setState] = useState<LiveState>("connecting");

  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(
    () =>
      subscribeToLiveEvents({
        onEvent: (event) => latest.current.onEvent(event),
        onResync: () => latest.current.onResync?.(),
        onState: setState,
      }),
    [],
  );

  return state;
}
