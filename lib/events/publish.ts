import { afterCommit, type Executor } from "../db/client";
import { nowDate } from "../clock";
import { log } from "../log";
import { isModuleEnabled, type ModuleId } from "../modules/registry";
import { insertEvents } from "./repo";
import type { DomainEvent, StoredDomainEvent } from "./types";

/** Something that reacts to events once they are committed: the socket, notifications, webhooks. */
export type EventHandler = (event: StoredDomainEvent) => void | Promise<void>;

const HANDLERS = Symbol.for("spolu.eventHandlers");
interface Registered {
  handler: EventHandler;
  /** The feature module the handler belongs to: it is not called while that module is switched off. */
  module?: ModuleId;
}
type Holder = { [HANDLERS]?: Map<string, Registered> };
const handlers = ((globalThis as Holder)[HANDLERS] ??= new Map());

/**
 * Registers a handler under a name (registering the same name again replaces it). Each event reaches every
 * handler once, in the process that committed it, right after the commit; with several processes, the socket's
 * Redis adapter carries what the socket handler sends to the others.
 */
export function onEvent(name: string, handler: EventHandler, options: { module?: ModuleId } = {}): () => void {
  const registered: Registered = { handler, module: options.module };
  handlers.set(name, registered);
  return () => {
    if (handlers.get(name) === registered) handlers.delete(name);
  };
}

function dispatch(event: StoredDomainEvent): void {
  for (const [name, { handler, module }] of handlers) {
    if (module && !isModuleEnabled(module)) continue;
    Promise.resolve()
      .then(() => handler(event))
      .catch((error: unknown) =>
        log.error("An event handler failed", {
          handler: name,
          type: event.type,
          eventId: event.id,
          error: error instanceof Error ? error.message : String(error),
        }),
      );
  }
}

/**
 * Records domain events in the transaction of the change they describe (they exist exactly when the change
 * does, numbered in the order they were written) and hands them to the handlers once it commits. This is the
 * one call every module makes.
 */
export async function publish(database: Executor, ...events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const createdAt = nowDate();
  const ids = await insertEvents(events, createdAt, database);
  const stored = events.map((event, index): StoredDomainEvent => ({
    ...event,
    taskId: event.taskId ?? null,
    id: ids[index]!,
    createdAt,
  }));
  afterCommit(database, () => stored.forEach(dispatch));
}
