import { createHash } from "node:crypto";
import { now } from "../clock";
import { config } from "../config";
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
export type CacheLookup = { hit: true; body: Buffer } | { hit: false; generation: number };

interface Store {
  get(userId: string, query: string): Promise<CacheLookup>;
  set(userId: string, query: string, generation: number, body: Buffer): Promise<void>;
  invalidate(userIds: string[]): Promise<void>;
}

/** At most this many cached answers in memory; the oldest users' answers go first. */
const MEMORY_MAX_ENTRIES = 20_000;
const PRUNE_EVERY_MS = 5_000;

function memoryStore(): Store {
  const users = new Map<
    string,
    { generation: number; prunedAt: number; answers: Map<string, { body: Buffer; expiresAt: number }> }
  >();
  let entries = 0;
  const userState = (userId: string) => {
    let state = users.get(userId);
    if (!state) users.set(userId, (state = { generation: 0, prunedAt: now(), answers: new Map() }));
    return state;
  };
  return {
    async get(userId, query) {
      const state = users.get(userId);
      const answer = state?.answers.get(query);
      if (answer && answer.expiresAt > now()) return { hit: true, body: answer.body };
      return { hit: false, generation: state?.generation ?? 0 };
    },
    async set(userId, query, generation, body) {
      const state = userState(userId);
      if (state.generation !== generation) return;
      const time = now();
      // Expired answers go at most every few seconds (a scan on every store would cost more the more a user asks).
      if (time - state.prunedAt > PRUNE_EVERY_MS) {
        state.prunedAt = time;
        for (const [key, answer] of state.answers) {
          if (answer.expiresAt <= time) {
            state.answers.delete(key);
            entries--;
          }
        }
      }
      while (entries >= MEMORY_MAX_ENTRIES) {
        const [oldestUser, oldest] = users.entries().next().value!;
        entries -= oldest.answers.size;
        oldest.answers.clear();
        if (oldestUser === userId) break;
        users.delete(oldestUser);
      }
      if (!state.answers.has(query)) entries++;
      state.answers.set(query, { body, expiresAt: time + TASK_LIST_TTL_MS });
    },
    async invalidate(userIds) {
      for (const userId of userIds) {
        const state = userState(userId);
        state.generation++;
        entries -= state.answers.size;
        state.answers.clear();
      }
    },
  };
}

function redisStore(): Store {
  const prefix = `${config().REDIS_PREFIX}tasks:`;
  const generationKey = (userId: string) => `${prefix}gen:${userId}`;
  const answerKey = (userId: string, query: string) =>
    `${prefix}list:${userId}:${createHash("sha1").update(query).digest("base64url")}`;
  return {
    async get(userId, query) {
      const [generationBytes, stored] = await redis()!.mgetBuffer(generationKey(userId), answerKey(userId, query));
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
      const value = Buffer.concat([Buffer.from(`${generation} ${now() + TASK_LIST_TTL_MS} `), body]);
      await redis()!.set(answerKey(userId, query), value, "PX", TASK_LIST_TTL_MS);
    },
    async invalidate(userIds) {
      if (userIds.length === 0) return;
      const pipeline = redis()!.pipeline();
      for (const userId of userIds) pipeline.incr(generationKey(userId)).pexpire(generationKey(userId), 24 * 3600 * 1000);
      await pipeline.exec();
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

/** Drops the cached lists of these users: call it after any change to a task they can see. */
export function invalidateTaskLists(userIds: Iterable<string>): Promise<void> {
  return store().invalidate([...new Set(userIds)]);
}
