import type { Server, Socket } from "socket.io";
import { nowDate } from "../clock";
import { eventsFor } from "../events/repo";
import { onEvent } from "../events/publish";
import type { StoredDomainEvent } from "../events/types";
import { log } from "../log";
import { userRoom } from "./rooms";

/** What a client receives for each event: never the audience (other users' ids). */
export interface SocketEvent {
  id: number;
  type: string;
  taskId: string | null;
  actorId: string | null;
  data: Record<string, unknown>;
  createdAt: string;
}

function toSocketEvent(event: StoredDomainEvent): SocketEvent {
  return {
    id: event.id,
    type: event.type,
    taskId: event.taskId ?? null,
    actorId: event.actorId,
    data: event.data,
    createdAt: event.createdAt.toISOString(),
  };
}

let current: Server | null = null;

/**
 * Closes every socket of a user, in every process (through the Redis adapter), for when their sessions end: the
 * account is deleted, the password changed, or they signed out everywhere. A client with a new token reconnects.
 */
export function disconnectUser(userId: string): void {
  current?.in(userRoom(userId)).disconnectSockets(true);
}

/** At most this many missed events are replayed; a client further behind is told to reload (`resync`). */
export const REPLAY_LIMIT = 1000;

/**
 * The `socket` consumer of the event log: sends every committed event to the rooms of its audience, from the one
 * process running the consumers (with REDIS_URL, the Redis adapter carries it to the sockets of the other
 * processes). An event may come twice (after a crash before the consumer's cursor moved): clients apply each id
 * once. The audience is decided when the event is published, from who may see the task then: someone removed from
 * a share is not in the next event's audience.
 */
export function deliverEventsToSockets(io: Server): () => void {
  current = io;
  return onEvent("socket", (event) => {
    if (event.audience.length === 0) return;
    io.to(event.audience.map(userRoom)).emit("event", toSocketEvent(event));
  });
}

/**
 * Events are numbered when written, but two transactions may commit in the other order: the replay also sends
 * the events of the last seconds at or below the cursor, so that one committed late is not lost.
 */
const LATE_COMMIT_MS = 5000;

/**
 * Replays what a reconnecting client missed: the events for its user after the cursor it sends
 * (`auth.cursor`, the id of the last event it applied), oldest first, then `caught-up` with the newest id.
 * An event may come twice (live while the replay runs, or in the late-commit overlap): clients apply each id once.
 */
export async function replayMissedEvents(socket: Socket, userId: string, cursor: unknown): Promise<void> {
  if (cursor === undefined || cursor === null) return;
  const after = Number(cursor);
  if (!Number.isSafeInteger(after) || after < 0) {
    socket.emit("resync", { reason: "invalid cursor" });
    return;
  }
  try {
    const missed = await eventsFor(userId, after, REPLAY_LIMIT + 1, new Date(nowDate().getTime() - LATE_COMMIT_MS));
    if (missed.length > REPLAY_LIMIT) {
      socket.emit("resync", { reason: "too many missed events: reload" });
      return;
    }
    for (const event of missed) socket.emit("event", toSocketEvent(event));
    socket.emit("caught-up", { cursor: missed.at(-1)?.id ?? after });
  } catch (error) {
    log.error("Replaying missed events failed", { error: String(error) });
    socket.emit("resync", { reason: "replay failed" });
  }
}
