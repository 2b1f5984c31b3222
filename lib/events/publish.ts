import { afterCommit, type Executor } from "../db/client";
import { nowDate } from "../clock";
import type { ModuleId } from "../modules/registry";
import { insertEvents } from "./repo";
import type { DomainEvent, StoredDomainEvent } from "./types";

/**
 * Something that reacts to committed events: the socket, notifications, webhooks, gamification. It is called at
 * least once per event (again after a crash before its cursor moved on), so it must be idempotent by event id.
 */
export type EventHandler = (event: StoredDomainEvent) => void | Promise<void>;

export interface EventConsumer {
  /** Also the name of its cursor in event_cursors. */
  name: string;
  handler: EventHandler;
  /** The feature module the consumer belongs to: while that module is off, its events pass it by. */
  module?: ModuleId;
}

/**
 * Something the committing process does with its own events right after the commit, before the change is
 * acknowledged: for what must hold when the writer gets its answer and may be lost with the process (dropping the
 * cached task lists of everyone who sees a changed task: a cached list expires on its own within 30 seconds).
 */
export type CommitListener = (events: readonly DomainEvent[]) => void | Promise<void>;

const CONSUMERS = Symbol.for("spolu.eventConsumers");
const WAKE = Symbol.for("spolu.eventConsumers.wake");
const COMMITTED = Symbol.for("spolu.eventCommitListeners");
type Holder = {
  [CONSUMERS]?: Map<string, EventConsumer>;
  [WAKE]?: Set<() => void>;
  [COMMITTED]?: Map<string, CommitListener>;
};
const holder = globalThis as Holder;
const consumers = (holder[CONSUMERS] ??= new Map());
const wakers = (holder[WAKE] ??= new Set());
const commitListeners = (holder[COMMITTED] ??= new Map());

/**
 * Registers a durable consumer of the event log under a name (registering the same name again replaces it). The
 * consumers run in the one process that holds their lease (lib/events/consumers.ts): each reads every committed
 * event through its own cursor, whichever process committed it.
 */
export function onEvent(name: string, handler: EventHandler, options: { module?: ModuleId } = {}): () => void {
  const consumer: EventConsumer = { name, handler, module: options.module };
  consumers.set(name, consumer);
  return () => {
    if (consumers.get(name) === consumer) consumers.delete(name);
  };
}

/** The consumers registered in this process, by name. */
export function registeredConsumers(): EventConsumer[] {
  return [...consumers.values()];
}

/**
 * Registers, under a name (registering it again replaces it), a listener called in this process with the events
 * each of its transactions published, once that transaction has committed and before it resolves.
 */
export function onCommitted(name: string, listener: CommitListener): void {
  commitListeners.set(name, listener);
}

/** Calls `wake` after every commit that published events in this process; the answer stops it. */
export function onPublished(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/**
 * Records domain events in the transaction of the change they describe (they exist exactly when the change
 * does) and, once it commits, hands them to this process's commit listeners and wakes its consumers; the
 * consumers of other processes find them when they next look. This is the one call every module makes.
 */
export async function publish(database: Executor, ...events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await insertEvents(events, nowDate(), database);
  await afterCommit(database, async () => {
    wakers.forEach((wake) => wake());
    await Promise.all([...commitListeners.values()].map((listener) => listener(events)));
  });
}
