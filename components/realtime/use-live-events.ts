"use client";

import { useEffect, useRef, useState } from "react";
import type { Socket } from "socket.io-client";
import type { SocketEvent } from "@/lib/realtime/events";

export type LiveEvent = SocketEvent;
export type LiveState = "connecting" | "live" | "offline";

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
 * The signed-in user's live events from `/ws` (socket.io, authenticated by the session cookie). After a lost
 * connection the socket reconnects by itself and sends the id of the last event it applied, so the server
 * replays what happened meanwhile. Returns the connection state for a "live" indicator.
 * socket.io-client is loaded after the page has hydrated, so its 40 KB do not delay the first usable paint.
 */
export function useLiveEvents(handlers: Handlers): LiveState {
  const latest = useRef(handlers);
  const [state, setState] = useState<LiveState>("connecting");

  useEffect(() => {
    latest.current = handlers;
  });

  useEffect(() => {
    let cursor: number | undefined;
    let connectedBefore = false;
    let socket: Socket | undefined;
    let unmounted = false;
    void import("socket.io-client").then(
      ({ io }) => {
        if (unmounted) return;
        socket = io({
          path: "/ws",
          transports: ["websocket"],
          withCredentials: true,
          auth: (send) => send(cursor === undefined ? {} : { cursor }),
        });
        socket.on("connect", () => {
          setState("live");
          if (connectedBefore && cursor === undefined) latest.current.onResync?.();
          connectedBefore = true;
        });
        socket.on("disconnect", () => setState("offline"));
        socket.on("connect_error", () => setState("offline"));
        socket.on("event", (event: LiveEvent) => {
          cursor = Math.max(cursor ?? 0, event.id);
          latest.current.onEvent(event);
        });
        socket.on("caught-up", ({ cursor: newest }: { cursor: number }) => {
          cursor = Math.max(cursor ?? 0, newest);
        });
        socket.on("resync", () => {
          cursor = undefined;
          latest.current.onResync?.();
        });
      },
      () => setState("offline"),
    );
    return () => {
      unmounted = true;
      socket?.disconnect();
    };
  }, []);

  return state;
}
