import { createHash } from "node:crypto";
import type { AnswerCache, CacheLookup } from "../api/cached-get";
import { now } from "../clock";
import { config } from "../config";
import { onCommitted } from "../events/publish";
import type { DomainEventType } from "../events/types";
import { redis } from "../redis/client";

/** How long a user's task list answer is reused (the interface spec's 30 seconds). */
export const TASK_LIST_TTL_MS = 30_000;

/**
 * The cached answers of `GET /tasks`, per user and exact query.
 *
 * Each user has a generation number; a write to a task raises it for everyone who can see the task, and an
 * answer stored under an older generation is never served again. A reader notes the generation before it
 * queries the database, so an answer computed while a write happened is stored under the old generation and
 * is dead on arrival: a user never sees their own write go missing.
 *
 * Answers are kept as encoded bytes, so that a hit is written out as it is. One process keeps everything in memory; with REDIS_URL every process shares Redis, so that a write
 * through one process is seen by the lists the others serve.
 */
export type { CacheLookup };

export interface Store {
  get(userId: string, query: string): Promise<CacheLookup>;
  set(userId: string, query: string, generation: number, body: Buffer): Promise<void>;
  invalidate(userIds: string[]): Promise<void>;
}

/**
 * The memory cache keeps answers' bytes in one ring of TASK_LIST_CACHE_MB, allocated once: its byte limit. Answers
 * stored as Buffers of their own made V8 run a full garbage collection every few hundred milliseconds under load
 * (each retained Buffer counts as new external memory), pausing every request for 5-15 ms.
 */
const ringBytesSetting = () => config().TASK_LIST_CACHE_MB * 1024 * 1024;

interface StoredAnswer {
  offset: number;
  length: number;
  generation: number;
  expiresAt: number;
}

/**
 * Every answer lives the same 30 seconds, so the oldest stored is the first to expire: answers are written one
 * after another around the ring, listed in one map in the order they were stored, and whatever is expired or
 * about to be overwritten leaves from the map's front. A hit answers a copy: the ring's bytes may be overwritten
 * while a slow client is still being sent the answer.
 */
export function memoryStore(ringBytes = ringBytesSetting()): Store {
  const generations = new Map<string, number>();
  const answers = new Map<string, StoredAnswer>();
  let ring: Buffer | undefined;
  let head = 0;
  const keyOf = (userId: string, query: string) => `${userId} ${query}`;
  return {
    async get(userId, query) {
      const generation = generations.get(userId) ?? 0;
      const answer = answers.get(keyOf(userId, query));
      if (answer && answer.generation === generation && answer.expiresAt > now()) {
        return { hit: true, body: Buffer.from(ring!.subarray(answer.offset, answer.offset + answer.length)) };
      }
      return { hit: false, generation };
    },
    async set(userId, query, generation, body) {
      if ((generations.get(userId) ?? 0) !== generation || body.length > ringBytes) return;
      ring ??= Buffer.allocUnsafeSlow(ringBytes);
      const time = now();
      const key = keyOf(userId, query);
      answers.delete(key);
      if (head + body.length > ringBytes) {
        // The ring's end is too short: what is stored there (the oldest answers left) goes, and writing restarts at 0.
        for (const [oldestKey, oldest] of answers) {
          if (oldest.offset < head) break;
          answers.delete(oldestKey);
        }
        head = 0;
      }
      const end = head + body.length;
      for (const [oldestKey, oldest] of answers) {
        const overwritten = oldest.offset < end && oldest.offset + oldest.length > head;
        if (!overwritten && oldest.expiresAt > time) break;
        answers.delete(oldestKey);
      }
      body.copy(ring, head);
      answers.set(key, { offset: head, length: body.length, generation, expiresAt: time + TASK_LIST_TTL_MS });
      head = end;
    },
    async invalidate(userIds) {
      // Older answers stay until they reach the front; their generation no longer matches, so none is served.
      for (const userId of userIds) generations.set(userId, (generations.get(userId) ?? 0) + 1);
    },
  };
}

/**
 * Redis unreachable: a lookup is a miss that must not be stored (generation -1), storing and invalidating do
 * nothing. Every list then comes from the database, so nobody sees a stale one; what a partitioned process could not
 * invalidate expires within TASK_LIST_TTL_MS.
 */
const UNSTORABLE = -1;

function redisStore(): Store {
  const prefix = `${config().REDIS_PREFIX}tasks:`;
  const generationKey = (userId: string) => `${prefix}gen:${userId}`;
  const answerKey = (userId: string, query: string) =>
    `${prefix}list:${userId}:${createHash("sha1").update(query).digest("base64url")}`;
  return {
    async get(userId, query) {
      const found = await redis()!
        .mgetBuffer(generationKey(userId), answerKey(userId, query))
        .catch(() => null);
      if (!found) return { hit: false, generation: UNSTORABLE };
      const [generationBytes, stored] = found;
      const generation = Number(generationBytes?.toString() ?? 0);
      if (stored) {
        // "<generation> <expires at ms> <body>": expiry is decided by our clock, Redis's TTL only collects garbage.
        const first = stored.indexOf(" ");
        const second = stored.indexOf(" ", first + 1);
        if (
          Number(stored.toString("latin1", 0, first)) === generation &&
          Number(stored.toString("latin1", first + 1, second)) > now()
        ) {
          return { hit: true, body: stored.subarray(second + 1) };
        }
      }
      return { hit: false, generation };
    },
    async set(userId, query, generation, body) {
      if (generation === UNSTORABLE) return;
      const value = Buffer.concat([Buffer.from(`${generation} ${now() + TASK_LIST_TTL_MS} `), body]);
      await redis()!
        .set(answerKey(userId, query), value, "PX", TASK_LIST_TTL_MS)
        .catch(() => null);
    },
    async invalidate(userIds) {
      if (userIds.length === 0) return;
      const pipeline = redis()!.pipeline();
      for (const userId of userIds) pipeline.incr(generationKey(userId)).pexpire(generationKey(userId), 24 * 3600 * 1000);
      await pipeline.exec().catch(() => null);
    },
  };
}

const STORE = Symbol.for("spolu.taskListCache");
type Holder = { [STORE]?: Store };

function store(): Store {
  return ((globalThis as Holder)[STORE] ??= redis() ? redisStore() : memoryStore());
}

export function lookupTaskList(userId: string, query: string): Promise<CacheLookup> {
  return store().get(userId, query);
}

export function storeTaskList(userId: string, query: string, generation: number, body: Buffer): Promise<void> {
  return store().set(userId, query, generation, body);
}

/** The answers of the cacheable task routes (`GET /tasks`, `GET /board`: lib/tasks/answers.ts) live here. */
export const taskAnswerCache: AnswerCache = { get: lookupTaskList, set: storeTaskList };

/**
 * Drops the cached lists of these users. A change that publishes task events needs no call: their audiences'
 * lists are dropped when it commits (below). Call it for a change that alters what someone's list holds without
 * a task event (joining a team or a project brings its tasks in).
 */
export function invalidateTaskLists(userIds: Iterable<string>): Promise<void> {
  const unique = [...new Set(userIds)];
  return unique.length ? store().invalidate(unique) : Promise.resolve();
}

/** The events after which a task list may hold something else: what it shows of a task, or whether it shows it. */
const LIST_EVENTS: ReadonlySet<DomainEventType> = new Set([
  "task.created",
  "task.updated",
  "task.completed",
  "task.moved",
  "task.deleted",
  "task.unshared",
  // A board's columns: every member's cached board of the project or team has others.
  "board.columns_changed",
]);

// Registered when the cache is loaded: every process that serves cached lists or changes tasks has loaded it.
onCommitted("task-lists", (events) =>
  invalidateTaskLists(events.filter((event) => LIST_EVENTS.has(event.type)).flatMap((event) => event.audience)),
);
