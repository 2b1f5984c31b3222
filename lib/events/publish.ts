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

const CONSUMERS = Symbol.for("spolu.eventConsumers");
const WAKE = Symbol.for("spolu.eventConsumers.wake");
type Holder = { [CONSUMERS]?: Map<string, EventConsumer>; [WAKE]?: Set<() => void> };
const holder = globalThis as Holder;
const consumers = (holder[CONSUMERS] ??= new Map());
const wakers = (holder[WAKE] ??= new Set());

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

/** Calls `wake` after every commit that published events in this process; the answer stops it. */
export function onPublished(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}

/**
 * Records domain events in the transaction of the change they describe (they exist exactly when the change
 * does) and, once it commits, wakes this process's consumers; the ones of other processes find them when they
 * next look. This is the one call every module makes.
 */
export async function publish(database: Executor, ...events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  await insertEvents(events, nowDate(), database);
  afterCommit(database, () => wakers.forEach((wake) => wake()));
}
