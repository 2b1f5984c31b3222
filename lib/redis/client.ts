import { Redis, type RedisOptions } from "ioredis";
import { config } from "../config";
import { errorText, log } from "../log";

/*
 * Redis, when REDIS_URL is set: shared rate limits, caches, socket.io's adapter and the module switches' channel.
 *
 * Redis is handled like PostgreSQL: every connection has its error handling and reconnects by itself, every wait
 * is bounded, and nothing needs it to answer a request. Commands go through one connection that never queues:
 * while Redis is down (or silent) a command fails at once (or after REDIS_COMMAND_TIMEOUT_MS), and each use falls
 * back to what is right for it (docs/operations.md, "When Redis or PostgreSQL is down"). Subscriptions have connections of
 * their own that wait for Redis and subscribe again when it returns. An outage is logged once per process: when
 * the first connection fails, and when every connection is back.
 */

const REDIS = Symbol.for("spolu.redis");
interface State {
  commands: Redis | null;
  /** Every connection of this process, by purpose, and the ones that are down now. */
  connections: Map<string, Redis>;
  down: Set<string>;
}
type Holder = { [REDIS]?: State };
const holder = globalThis as Holder;

function state(): State {
  return (holder[REDIS] ??= { commands: null, connections: new Map(), down: new Set() });
}

function baseOptions(): RedisOptions {
  const settings = config();
  return {
    connectTimeout: settings.REDIS_CONNECT_TIMEOUT_MS,
    // Reconnect for ever, at most every 2 s: the process waits for Redis instead of giving up on it.
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt, 5), 2000),
    lazyConnect: false,
  };
}

/**
 * Watches a connection: errors are logged once per outage, and it is counted down until it is ready again. Every
 * command's failure is also seen here (`onFailure`), which marks it handled: libraries such as socket.io's adapter
 * send commands without waiting for their answer, and a connection closing under them must not become an
 * unhandled rejection. Callers that wait for an answer still get the failure.
 */
function watch(purpose: string, client: Redis, onFailure: (error: unknown) => void = () => {}): Redis {
  const { connections, down } = state();
  connections.set(purpose, client);
  const send = client.sendCommand.bind(client);
  client.sendCommand = ((...args: Parameters<Redis["sendCommand"]>) => {
    const answer = send(...args) as Promise<unknown>;
    answer.then(undefined, onFailure);
    return answer;
  }) as Redis["sendCommand"];
  const fail = (error: Error) => {
    if (down.size === 0) {
      log.warn("Redis is unavailable: serving without it (rate limits per process, caches bypassed) until it returns", {
        connection: purpose,
        error: error.message,
      });
    } else if (!down.has(purpose)) {
      log.debug("Redis connection down", { connection: purpose, error: error.message });
    }
    down.add(purpose);
  };
  client.on("error", fail);
  client.on("close", () => {
    if (connections.get(purpose) === client && client.status !== "end") fail(new Error("connection closed"));
  });
  client.on("ready", () => {
    if (!down.delete(purpose) || down.size > 0) return;
    log.info("Redis is available again", { connection: purpose });
  });
  return client;
}

/**
 * The connection for commands, when REDIS_URL is set; null means "keep it in this process's memory". It never
 * queues a command: while disconnected a command fails at once, and one without an answer within
 * REDIS_COMMAND_TIMEOUT_MS fails then (and the connection is dropped and made again, so that a silent server
 * costs one timeout, not one per request).
 */
export function redis(): Redis | null {
  const current = state();
  if (current.commands === null && config().REDIS_URL) {
    const client = new Redis(config().REDIS_URL!, {
      ...baseOptions(),
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: config().REDIS_COMMAND_TIMEOUT_MS,
    });
    // A command without an answer in time means the connection is stuck (a silent server): made again, so that
    // the commands after it fail at once while it reconnects instead of each waiting out its own timeout.
    current.commands = watch("commands", client, noteRedisFailure);
  }
  return current.commands;
}

/**
 * Waits (at most `timeoutMs`) until the command connection is ready; resolves at once without REDIS_URL. At start,
 * so that the first requests are counted in Redis rather than in the process's memory while it connects (commands
 * never queue); with Redis down the process starts all the same after the wait, and reports not ready.
 */
export async function redisReady(timeoutMs: number): Promise<boolean> {
  const client = redis();
  if (!client) return true;
  if (client.status === "ready") return true;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    timer.unref();
    const onReady = () => done(true);
    function done(ready: boolean) {
      clearTimeout(timer);
      client!.off("ready", onReady);
      resolve(ready);
    }
    client.on("ready", onReady);
  });
}

/** After a command failed: one that timed out makes the connection be made again (see `redis()`). */
function noteRedisFailure(error: unknown): void {
  const client = state().commands;
  if (client && error instanceof Error && error.message === "Command timed out" && client.status === "ready") {
    client.disconnect(true);
  }
}

/**
 * A connection of its own for subscribing (socket.io's adapter, the module switches): its commands wait while it
 * reconnects, and ioredis subscribes it again after every reconnection. `purpose` names it in the log.
 */
export function subscriberConnection(purpose: string): Redis | null {
  const url = config().REDIS_URL;
  if (!url) return null;
  return watch(purpose, new Redis(url, { ...baseOptions(), enableOfflineQueue: true, maxRetriesPerRequest: null }));
}

/**
 * A connection of its own for publishing on behalf of a library (socket.io's adapter publishes without waiting for
 * the answer): while Redis is down a publish fails at once, and is lost (see `watch`).
 */
export function publisherConnection(purpose: string): Redis | null {
  const url = config().REDIS_URL;
  if (!url) return null;
  return watch(purpose, new Redis(url, { ...baseOptions(), enableOfflineQueue: false, maxRetriesPerRequest: 0 }), (error) =>
    log.debug("A Redis command was lost", { connection: purpose, error: errorText(error) }),
  );
}

/**
 * A Redis channel's name: REDIS_PREFIX, then the database number of REDIS_URL, because pub/sub channels are shared
 * by every database of a server (keys are not): deployments on databases 0 and 5 must not hear each other.
 */
export function redisChannel(name: string): string {
  const url = config().REDIS_URL;
  const database = url ? Number(new URL(url).pathname.slice(1) || 0) : 0;
  return `${config().REDIS_PREFIX}${database}:${name}`;
}

/**
 * Whether Redis answers, for /readyz: false when REDIS_URL is set and any connection is down or a PING gets no
 * answer within `timeoutMs`. Answers null when Redis is not configured.
 */
export async function redisHealth(timeoutMs: number): Promise<{ ok: boolean; detail?: string } | null> {
  const client = redis();
  if (!client) return null;
  const { down } = state();
  if ((client.status === "connecting" || client.status === "connect") && !down.has("commands")) {
    await firstConnection(client, timeoutMs);
  }
  if (client.status !== "ready") return { ok: false, detail: `not connected (${client.status})` };
  if (down.size > 0) return { ok: false, detail: `reconnecting: ${[...down].join(", ")}` };
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.ping(),
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no answer to PING")), timeoutMs))),
    ]);
    return { ok: true };
  } catch (error) {
    if (client.status === "ready") client.disconnect(true);
    return { ok: false, detail: errorText(error) };
  } finally {
    clearTimeout(timer);
  }
}

/** Waits (at most `timeoutMs`) for a connection that is still being made for the first time. */
function firstConnection(client: Redis, timeoutMs: number): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      client.off("ready", done);
      client.off("error", done);
      resolve();
    };
    const timer = setTimeout(done, timeoutMs);
    client.once("ready", done);
    client.once("error", done);
  });
}

/** Closes every connection (at shutdown), waiting at most `timeoutMs` for them to say goodbye. */
export async function closeRedis(timeoutMs = 1000): Promise<void> {
  const current = holder[REDIS];
  if (!current) return;
  delete holder[REDIS];
  const clients = [...current.connections.values()];
  current.connections.clear();
  await Promise.race([
    Promise.allSettled(clients.map((client) => client.quit())),
    new Promise((resolve) => setTimeout(resolve, timeoutMs).unref()),
  ]);
  clients.forEach((client) => client.disconnect());
}
