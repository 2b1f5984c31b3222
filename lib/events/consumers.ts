import { hostname } from "node:os";
import { config } from "../config";
import { errorText, log } from "../log";
import { isModuleEnabled } from "../modules/registry";
import { onPublished, registeredConsumers, type EventConsumer } from "./publish";
import {
  claimConsumers,
  consumerLags,
  createMissingCursors,
  moveCursors,
  releaseConsumers,
  settledEventsAfter,
  type ConsumerLag,
  type LogPosition,
} from "./repo";
import type { StoredDomainEvent } from "./types";

/*
 * The durable event consumers: notifications, gamification, webhooks, the socket fan-out and the reminder settings
 * of new occurrences each read the committed event log through their own cursor (event_cursors), so that a crash
 * between a commit and its side effects loses nothing: the next process to hold the consumer's lease goes on from
 * its cursor. Delivery is at least once (a crash after a side effect and before the cursor moved repeats it), so
 * each consumer is idempotent by event id.
 *
 * Reading in order. Event ids come from a sequence when the row is inserted, but transactions commit in any order:
 * a cursor "id > last" would step over an event with a lower id whose transaction commits later. So each event
 * records the transaction that wrote it (`pg_current_xact_id()`, an xid8), and a consumer reads only events whose
 * transaction is older than the oldest one still running (`pg_snapshot_xmin(pg_current_snapshot())`): such a
 * transaction has ended, every event it wrote is visible, and no transaction that could still commit has a lower
 * id. Read in (transaction, id) order with the cursor at the last (transaction, id), nothing is skipped or read
 * out of place. The price: an event waits for transactions older than its own to end (requests are short; the
 * pool ends idle transactions). PgQ (Skype's queue in PostgreSQL) cuts its batches the same way, by transaction
 * snapshots; xid8 and pg_current_snapshot() exist on PostgreSQL 13 and later and on PGlite.
 *
 * Where. Every process with RUN_EVENT_CONSUMERS (the default, whatever RUN_JOBS says) registers the consumers and
 * competes for their leases; one process holds each consumer at a time and renews it while alive. It is woken right after this process commits events (low
 * latency for the socket) and otherwise looks every EVENT_CONSUMER_POLL_MS for events other processes committed.
 * The socket consumer emits through socket.io's Redis adapter, which carries the emit to every process's sockets.
 */

/** This process's name in event_cursors.lease_owner. */
const OWNER = `${hostname()}:${process.pid}:events`;
/** Events read per look; more are read right after. */
const BATCH = 200;
/** A consumer retries an event that fails; after this many failures over at least GIVE_UP_MS it moves past it. */
const GIVE_UP_ATTEMPTS = 10;
const GIVE_UP_MS = 60_000;

export interface EventConsumers {
  /** Stops looking, waits for the batch being handled, and lets go of the leases for another process. */
  stop(): Promise<void>;
}

const before = (a: LogPosition, b: LogPosition) => {
  const ta = BigInt(a.txId);
  const tb = BigInt(b.txId);
  return ta < tb || (ta === tb && a.eventId < b.eventId);
};

interface Failure {
  eventId: number;
  count: number;
  since: number;
}

/** Starts this process's share of the consumers (server.ts, where RUN_EVENT_CONSUMERS is on). */
export function startEventConsumers(owner = OWNER): EventConsumers {
  const { EVENT_CONSUMER_POLL_MS: pollMs, EVENT_CONSUMER_LEASE_MS: leaseMs } = config();
  let held = new Map<string, LogPosition>();
  let claimedAt = Number.NEGATIVE_INFINITY;
  let claimedNames = "";
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  let failing = false;
  const failures = new Map<string, Failure>();

  /** Takes or renews the leases (every third of a lease, and when a consumer is registered): which this process holds. */
  const claim = async () => {
    const started = Date.now();
    const names = registeredConsumers().map((consumer) => consumer.name);
    if (started - claimedAt < leaseMs / 3 && names.join() === claimedNames) return;
    await createMissingCursors(names);
    held = await claimConsumers(names, owner, leaseMs);
    claimedAt = started;
    claimedNames = names.join();
  };

  /** Whether the consumer should go on past an event its handler failed on (logged either way). */
  const giveUp = (consumer: EventConsumer, event: StoredDomainEvent, error: unknown): boolean => {
    const now = Date.now();
    const previous = failures.get(consumer.name);
    const failure =
      previous?.eventId === event.id ? { ...previous, count: previous.count + 1 } : { eventId: event.id, count: 1, since: now };
    failures.set(consumer.name, failure);
    const done = failure.count >= GIVE_UP_ATTEMPTS && now - failure.since >= GIVE_UP_MS;
    log.error(done ? "An event consumer gave up on an event" : "An event consumer failed: it tries again", {
      consumer: consumer.name,
      type: event.type,
      eventId: event.id,
      attempts: failure.count,
      error: errorText(error),
    });
    if (done) failures.delete(consumer.name);
    return done;
  };

  /** Hands one consumer the events after its position; answers the position of the last one it handled. */
  const consume = async (
    name: string,
    position: LogPosition,
    events: readonly (StoredDomainEvent & { txId: string })[],
  ): Promise<LogPosition> => {
    const consumer = registeredConsumers().find((candidate) => candidate.name === name);
    if (!consumer) return position;
    let reached = position;
    for (const event of events) {
      const at = { txId: event.txId, eventId: event.id };
      if (!before(position, at)) continue;
      if (!consumer.module || isModuleEnabled(consumer.module)) {
        try {
          await consumer.handler(event);
          failures.delete(name);
        } catch (error) {
          if (!giveUp(consumer, event, error)) break;
        }
      }
      reached = at;
    }
    return reached;
  };

  /** One look: answers whether there may be more to read at once. */
  const look = async (): Promise<boolean> => {
    await claim();
    if (held.size === 0) return false;
    const from = [...held.values()].reduce((a, b) => (before(b, a) ? b : a));
    const events = await settledEventsAfter(from, BATCH);
    if (events.length === 0) return false;
    const moves = new Map<string, LogPosition>();
    await Promise.all(
      [...held].map(async ([name, position]) => {
        const reached = await consume(name, position, events);
        if (reached !== position) moves.set(name, reached);
      }),
    );
    // Every cursor that moved, in one statement.
    const moved = await moveCursors(owner, moves);
    for (const [name, reached] of moves) {
      if (moved.has(name)) held.set(name, reached);
      else held.delete(name); // another process took the lease over (this one stalled): it goes on from there
    }
    return events.length === BATCH;
  };

  const run = () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        try {
          while (!stopped && (await look()));
          failing = false;
        } catch (error) {
          // The database is down or slow: the next look tries again. Said once per outage.
          if (!failing) log.warn("The event consumers could not read the log", { error: errorText(error) });
          failing = true;
        }
      } while (again && !stopped);
    })().finally(() => (running = null));
  };

  const stopWaking = onPublished(run);
  const poll = setInterval(run, pollMs);
  poll.unref();
  run();

  return {
    async stop() {
      stopped = true;
      clearInterval(poll);
      stopWaking();
      await running;
      await releaseConsumers(owner).catch((error: unknown) =>
        log.warn("Could not release the event consumers' leases", { error: errorText(error) }),
      );
    },
  };
}

/** How far behind the log each consumer is, for administrators (GET /admin/jobs) and GET /metrics. */
export function eventConsumerLags(): Promise<ConsumerLag[]> {
  return consumerLags();
}
