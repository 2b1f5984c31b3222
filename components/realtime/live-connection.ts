import type { Socket } from "socket.io-client";
import type { SocketEvent } from "@/lib/realtime/events";

/*
 * The page's one connection to `/ws` (socket.io, authenticated by the session cookie), shared by everything on the
 * page that follows live events: the bell in the header and the page's own list, board or task. The first
 * subscriber opens it, the last one to leave closes it; each subscriber gets every event and the connection's
 * state. After a lost connection the socket reconnects by itself and sends the id of the last event it received,
 * so the server replays what happened meanwhile; when it cannot (too far behind, or no event gave a cursor yet),
 * every subscriber is told to read its data again (`onResync`).
 * socket.io-client is loaded when the first subscriber arrives (after hydration), so its 40 KB do not delay the
 * first usable paint.
 */

export type LiveState = "connecting" | "live" | "offline";

export interface LiveSubscriber {
  /** One domain event for the signed-in user (task.created, task.updated, comment.created...), oldest first. */
  onEvent(event: SocketEvent): void;
  /** The subscriber may have missed changes and should fetch its data again. */
  onResync?(): void;
  /** The connection's state changed (also called once on subscribing, with the state then). */
  onState(state: LiveState): void;
}

class LiveConnection {
  private readonly subscribers = new Set<LiveSubscriber>();
  private socket: Socket | undefined;
  private state: LiveState = "connecting";
  private cursor: number | undefined;
  private connectedBefore = false;
  private closed = false;

  constructor(private readonly onClosed: () => void) {
    void import("socket.io-client").then(
      ({ io }) => {
        if (this.closed) return;
        const socket = io({
          path: "/ws",
          transports: ["websocket"],
          withCredentials: true,
          auth: (send) => send(this.cursor === undefined ? {} : { cursor: this.cursor }),
        });
        this.socket = socket;
        socket.on("connect", () => {
          this.setState("live");
          if (this.connectedBefore && this.cursor === undefined) this.resync();
          this.connectedBefore = true;
        });
        socket.on("disconnect", () => this.setState("offline"));
        socket.on("connect_error", () => this.setState("offline"));
        socket.on("event", (event: SocketEvent) => {
          this.cursor = Math.max(this.cursor ?? 0, event.id);
          for (const subscriber of [...this.subscribers]) subscriber.onEvent(event);
        });
        socket.on("caught-up", ({ cursor }: { cursor: number }) => {
          this.cursor = Math.max(this.cursor ?? 0, cursor);
        });
        socket.on("resync", () => {
          this.cursor = undefined;
          this.resync();
        });
      },
      () => this.setState("offline"),
    );
  }

  subscribe(subscriber: LiveSubscriber): () => void {
    this.subscribers.add(subscriber);
    subscriber.onState(this.state);
    return () => {
      this.subscribers.delete(subscriber);
      // A page swapping one subscriber for another (a client-side navigation) keeps the connection: it closes only
      // if nobody has subscribed again by the next task.
      setTimeout(() => {
        if (this.subscribers.size === 0) this.close();
      }, 0);
    };
  }

  private close() {
    if (this.closed) return;
    this.closed = true;
    this.socket?.disconnect();
    this.onClosed();
  }

  private setState(state: LiveState) {
    this.state = state;
    for (const subscriber of [...this.subscribers]) subscriber.onState(state);
  }

  private resync() {
    for (const subscriber of [...this.subscribers]) subscriber.onResync?.();
  }
}

let shared: LiveConnection | null = null;

/** Follows the page's live events: opens the shared connection if none is open; answers the unsubscribe. */
export function subscribeToLiveEvents(subscriber: LiveSubscriber): () => void {
  const connection = (shared ??= new LiveConnection(() => {
    if (shared === connection) shared = null;
  }));
  return connection.subscribe(subscriber);
}
