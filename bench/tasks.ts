/**
 * The task-list benchmark: `npm run bench:tasks` (docs/performance.md, "Task list", reads the figures).
 *
 * For each database (PGlite, PostgreSQL, PostgreSQL + Redis), against server.ts started as a child process on
 * a fresh database, with one user whose list it fills:
 *   1. POST /tasks: creates the user's --tasks tasks (10,000) with autocannon at 10 connections, varied as
 *      people write them (titles, descriptions, due dates, tags, statuses, priorities); then pages through
 *      the list to check the user has exactly that many;
 *   2. GET /tasks?limit=50 on a cache miss, at 10 connections: every request carries a different dueBefore
 *      far in the future (a new cache key that selects the same tasks), and every answer must say
 *      `X-Cache: MISS` (target: p99 under 20 ms on PostgreSQL);
 *   3. the floor: bench/floor-server.ts replaying server.ts's cache-hit answer to GET /tasks?limit=50 (status,
 *      headers and body, the same bytes), at --connections;
 *   4. GET /tasks?limit=50 on a cache hit, at --connections, checked to say `X-Cache: HIT` just before and
 *      after the measured seconds (target: at least 50 % of the floor's requests per second).
 *
 * Flags, or the environment variable in brackets:
 *   --tasks         (BENCH_TASKS)         tasks the user gets, 10000
 *   --databases     (BENCH_DATABASES)     which to run, pglite,postgres,postgres+redis
 *   --duration      (BENCH_DURATION)      seconds measured for the GET rows and the floor, 10
 *   --warmup        (BENCH_WARMUP)        seconds of unmeasured load before each row, 2
 *   --connections   (BENCH_CONNECTIONS)   connections of the cache-hit row and its floor, 50
 *   --quiet-wait    (BENCH_QUIET_WAIT)    seconds to wait at most for a quiet machine before each row, 60
 *   --postgres      (BENCH_POSTGRES_URL)  an admin URL, postgres://postgres@127.0.0.1:5432/postgres
 *   --redis         (BENCH_REDIS_URL)     redis://127.0.0.1:6379
 * PostgreSQL rows are skipped, with the reason printed, when PostgreSQL (or Redis) does not answer. Children,
 * the data directory, the database and the server's Redis keys are removed on exit, on error and on Ctrl-C.
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { RequestSpec } from "autocannon";
import {
  BENCH_OPTIONS,
  benchDatabaseName,
  bearer,
  captureAnswer,
  createBenchDatabase,
  deleteRedisKeys,
  dropBenchDatabase,
  expectJson,
  invalidate,
  makeTempDir,
  measure,
  messageOf,
  positive,
  printMachine,
  printNotes,
  printTable,
  progress,
  reachable,
  readSettings,
  registerUser,
  removeTempDir,
  reportStderr,
  runBench,
  SERVER_READY,
  serverEnv,
  settingsOrExit,
  START_TIMEOUT_MS,
  startFloor,
  startChild,
  stopChild,
  type Child,
  type Load,
  type Measurement,
  type Settings,
} from "./harness";

const PAGE = "/tasks?limit=50";
/** The cache-miss target is stated at this many connections; the writes run at as many. */
const MISS_CONNECTIONS = 10;
const WRITE_CONNECTIONS = 10;
const MISS_P99_TARGET_MS = 20;
const FLOOR_TARGET = 0.5;
const STATUSES = "todo,in_progress,done,cancelled";
/** Cache-miss requests ask for tasks due before this instant plus a millisecond more each time. */
const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);

const DATABASES = ["pglite", "postgres", "postgres+redis"] as const;
type Database = (typeof DATABASES)[number];
const DATABASE_LABEL: Record<Database, string> = {
  pglite: "PGlite",
  postgres: "PostgreSQL",
  "postgres+redis": "PostgreSQL + Redis",
};

interface TaskSettings extends Settings {
  tasks: number;
  databases: Database[];
}

/** One database's rows and what the checks found. */
interface DatabaseRun {
  database: Database;
  write: Measurement;
  miss: Measurement;
  floor: Measurement;
  hit: Measurement;
  /** Items on a cache-miss page (a full page is 50). */
  missPageItems: number;
}

function readTaskSettings(): TaskSettings {
  const { values } = parseArgs({
    options: { ...BENCH_OPTIONS, tasks: { type: "string" }, databases: { type: "string" } },
  });
  const databases = (values.databases ?? process.env.BENCH_DATABASES ?? DATABASES.join(",")).split(",");
  for (const name of databases) {
    if (!(DATABASES as readonly string[]).includes(name)) {
      throw new Error(`--databases takes a comma list of ${DATABASES.join(", ")}; got ${name}`);
    }
  }
  return {
    ...readSettings(values),
    tasks: positive("tasks", values.tasks ?? process.env.BENCH_TASKS ?? "10000"),
    databases: databases as Database[],
  };
}

// The tasks: varied as a household's or a small team's list, the same on every run (a fixed pseudo-random
// sequence), so that runs compare.

const VERBS = [
  "Call",
  "Email",
  "Buy",
  "Fix",
  "Plan",
  "Review",
  "Book",
  "Pay",
  "Clean",
  "Write",
  "Check",
  "Order",
  "Prepare",
  "Return",
];
const OBJECTS = [
  "the dentist",
  "groceries for the week",
  "the quarterly report",
  "the kitchen tap",
  "Anna's birthday party",
  "the insurance renewal",
  "the car service",
  "school trip forms",
  "the garden fence",
  "flights to Prague",
  "the electricity bill",
  "slides for Monday's meeting",
  "the landlord about the heating",
  "new running shoes",
  "the library books",
  "a present for grandma",
  "the tax return",
  "the team retrospective",
  "winter tyres",
];
const DETAILS = [
  "Ask about the Saturday opening hours.",
  "The receipt is in the blue folder on the shelf; keep a copy for the tax return.",
  "Compare at least three offers before deciding, and check what the old contract says about notice periods.",
  "See the thread from last week for the numbers. Pavel has the latest version of the spreadsheet.",
];
const TAGS = ["home", "work", "family", "errands", "health", "finance", "garden", "school", "car", "travel"];
const STATUS_WEIGHTS: [string, number][] = [
  ["todo", 70],
  ["in_progress", 15],
  ["done", 12],
  ["cancelled", 3],
];
const PRIORITY_WEIGHTS: [string, number][] = [
  ["normal", 60],
  ["low", 15],
  ["high", 20],
  ["urgent", 5],
];
const DAY_MS = 24 * 3600 * 1000;

/** mulberry32: a small, fast pseudo-random sequence from a seed. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function weighted(next: () => number, weights: [string, number][]): string {
  let roll = next() * weights.reduce((sum, [, weight]) => sum + weight, 0);
  for (const [value, weight] of weights) {
    if ((roll -= weight) < 0) return value;
  }
  return weights[0]![0];
}

function pick<T>(next: () => number, values: readonly T[]): T {
  return values[Math.floor(next() * values.length)]!;
}

/**
 * The n-th task's body: most have a due date (spread from a month ago to three months ahead), some a start
 * date, a description and up to three tags.
 */
function taskBody(n: number, today: number): string {
  const next = random(n + 1);
  const task: Record<string, unknown> = {
    title: `${pick(next, VERBS)} ${pick(next, OBJECTS)}${next() < 0.3 ? ` (${n})` : ""}`,
    status: weighted(next, STATUS_WEIGHTS),
    priority: weighted(next, PRIORITY_WEIGHTS),
  };
  const detail = next();
  if (detail < 0.5) task.description = detail < 0.2 ? `${pick(next, DETAILS)} ${pick(next, DETAILS)}` : pick(next, DETAILS);
  if (next() < 0.8) {
    const due = today + Math.floor(next() * 120 - 30) * DAY_MS + (8 + Math.floor(next() * 12)) * 3600 * 1000;
    task.dueAt = new Date(due).toISOString();
    if (next() < 0.25) task.startDate = new Date(due - Math.floor(next() * 7) * DAY_MS).toISOString().slice(0, 10);
  }
  const tagCount = Math.floor(next() * 4);
  if (tagCount) task.tags = Array.from({ length: tagCount }, () => pick(next, TAGS));
  return JSON.stringify(task);
}

/** POST /tasks, a new task body each request, numbered from `first`. */
function writeLoad(token: string, first: number, amount?: number): Load {
  const today = Math.floor(Date.now() / DAY_MS) * DAY_MS;
  let n = first;
  return {
    path: "/tasks",
    method: "POST",
    headers: { ...bearer(token), "Content-Type": "application/json" },
    connections: WRITE_CONNECTIONS,
    requests: [{ setupRequest: (request) => ({ ...request, body: taskBody(n++, today) }) }],
    ...(amount ? { amount } : {}),
  };
}

/** Counts the X-Cache values of the answers to a load. */
interface CacheTally {
  HIT: number;
  MISS: number;
  other: number;
}

let missKeys = 0;

/** `GET /tasks?limit=50&dueBefore=…`, a cache key never asked before on every request. */
function missLoad(token: string): { load: Load; tally: CacheTally } {
  const tally: CacheTally = { HIT: 0, MISS: 0, other: 0 };
  const request: RequestSpec = {
    setupRequest: (spec) => ({ ...spec, path: missPath(missKeys++) }),
    onResponse: (_status, _body, _context, headers) => {
      const value = headers["x-cache"] ?? headers["X-Cache"];
      if (value === "HIT" || value === "MISS") tally[value]++;
      else tally.other++;
    },
  };
  return { load: { path: PAGE, headers: bearer(token), connections: MISS_CONNECTIONS, requests: [request] }, tally };
}

function missPath(n: number): string {
  return `${PAGE}&dueBefore=${new Date(FAR_FUTURE_MS + n).toISOString()}`;
}

/** Pages through every task of the user (all statuses), 200 at a time, and counts them. */
async function countTasks(server: Child, token: string): Promise<number> {
  let count = 0;
  let cursor: string | null = null;
  do {
    const query: string = `/tasks?limit=200&status=${STATUSES}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
    const page = (await expectJson(
      await fetch(`${server.url}${query}`, { headers: bearer(token) }),
      200,
      `${server.name} GET ${query}`,
    )) as { items: unknown[]; nextCursor: string | null };
    count += page.items.length;
    cursor = page.nextCursor;
  } while (cursor);
  return count;
}

/** The X-Cache values of `times` requests for `path`, one after another. */
async function sampleCache(server: Child, token: string, path: string, times: number): Promise<string[]> {
  const values: string[] = [];
  for (let i = 0; i < times; i++) {
    const response = await fetch(`${server.url}${path}`, { headers: bearer(token) });
    await response.arrayBuffer();
    values.push(`${response.status} ${response.headers.get("x-cache") ?? "no X-Cache"}`);
  }
  return values;
}

/** Starts server.ts on a fresh database of the kind, or returns why it cannot. */
async function startTaskServer(database: Database, redisPrefix: string): Promise<{ server: Child; dataDir?: string } | string> {
  const name = `server.ts (${DATABASE_LABEL[database]})`;
  // Registration has a strict rate limit of its own; the bench registers two users per server.
  const limits = { AUTH_RATE_LIMIT_POINTS: "1000" };
  if (database === "pglite") {
    const dataDir = makeTempDir();
    progress("starting server.ts on PGlite (a fresh data directory takes 10-15 s)");
    const server = await startChild(name, "server.ts", serverEnv({ ...limits, DATA_DIR: dataDir }), SERVER_READY);
    return { server, dataDir };
  }
  if (database === "postgres+redis" && !(await reachable(settings.redisUrl, 6379))) {
    return `Redis at ${settings.redisUrl} does not answer`;
  }
  let databaseUrl: string;
  try {
    databaseUrl = await createBenchDatabase(settings.postgresUrl);
  } catch (error) {
    return `PostgreSQL at ${settings.postgresUrl} is unreachable (${messageOf(error)})`;
  }
  progress(`starting ${name} on database ${benchDatabaseName()}`);
  const env = serverEnv({
    ...limits,
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString("base64url"),
    ...(database === "postgres+redis" ? { REDIS_URL: settings.redisUrl, REDIS_PREFIX: redisPrefix } : {}),
  });
  return { server: await startChild(name, "server.ts", env, SERVER_READY) };
}

/** The four rows on one database, or the reason they were skipped. */
async function benchDatabase(database: Database): Promise<DatabaseRun | string> {
  const redisPrefix = `spolu-bench-${Date.now()}:`;
  const label = DATABASE_LABEL[database];
  const started = await startTaskServer(database, redisPrefix);
  if (typeof started === "string") return started;
  const { server, dataDir } = started;
  const backingServices = database !== "pglite";
  try {
    const token = await registerUser(server);
    // The warm-up writes go to another user, so that the measured user ends with exactly --tasks tasks.
    const warmupToken = await registerUser(server, "Bench warm-up");

    const write = await measure(
      `POST /tasks, ${settings.tasks} tasks (${label})`,
      server,
      settings,
      writeLoad(token, 0, settings.tasks),
      { warmup: writeLoad(warmupToken, 1_000_000), backingServices },
    );
    const count = await countTasks(server, token);
    progress(`${server.name}: the user has ${count} tasks`);
    if (count !== settings.tasks) invalidate(write, `the user has ${count} tasks, not ${settings.tasks}`);

    const missPage = (await expectJson(
      await fetch(`${server.url}${missPath(missKeys++)}`, { headers: bearer(token) }),
      200,
      `${server.name} GET ${PAGE}&dueBefore=…`,
    )) as { items: unknown[] };
    const measured = missLoad(token);
    const miss = await measure(`GET ${PAGE}, cache miss (${label})`, server, settings, measured.load, {
      warmup: missLoad(token).load,
      backingServices,
    });
    const { tally } = measured;
    progress(`${miss.label}: X-Cache ${tally.MISS} MISS, ${tally.HIT} HIT, ${tally.other} without`);
    if (tally.HIT > 0 || tally.other > 0) invalidate(miss, `${tally.HIT} answers said HIT, ${tally.other} had no X-Cache`);

    // The cache-hit answer, for the floor to replay: the second request of a quiet cache.
    await sampleCache(server, token, PAGE, 1);
    const answer = await captureAnswer(`${server.url}${PAGE}`, bearer(token));
    const answerCache = answer.headers.find(([name]) => name.toLowerCase() === "x-cache")?.[1];
    if (answer.status !== 200 || answerCache !== "HIT") {
      throw new Error(`${server.name} GET ${PAGE}: expected 200 with X-Cache: HIT, got ${answer.status} ${answerCache}`);
    }
    progress(`starting the floor, replaying the ${label} cache-hit answer (${Buffer.byteLength(answer.body)} bytes of body)`);
    const floorServer = await startFloor(answer);
    let floor: Measurement;
    try {
      floor = await measure(`floor: bare node:http, same bytes as the hit (${label})`, floorServer, settings, {
        path: PAGE,
        connections: settings.connections,
      });
      floor.isFloor = true;
    } finally {
      await stopChild(floorServer);
    }

    const hitLoad = { path: PAGE, headers: bearer(token), connections: settings.connections };
    let before: string[] = [];
    const hit = await measure(`GET ${PAGE}, cache hit (${label})`, server, settings, hitLoad, {
      backingServices,
      beforeMeasured: async () => {
        before = await sampleCache(server, token, PAGE, 3);
      },
    });
    const after = await sampleCache(server, token, PAGE, 3);
    progress(`${hit.label}: X-Cache before ${before.join(", ")}; after ${after.join(", ")}`);
    if (![...before, ...after].every((value) => value === "200 HIT")) {
      invalidate(hit, `not every sampled answer was a 200 HIT (before: ${before.join(", ")}; after: ${after.join(", ")})`);
    }
    hit.ofFloor = hit.requestsPerSecond / floor.requestsPerSecond;
    if (server.diedUnasked) invalidate(hit, `${server.name} exited (${server.diedUnasked})`);
    return { database, write, miss, floor, hit, missPageItems: missPage.items.length };
  } finally {
    await stopChild(server);
    reportStderr(server);
    if (dataDir) removeTempDir(dataDir);
    await dropBenchDatabase();
    if (database === "postgres+redis") await deleteRedisKeys(settings.redisUrl, redisPrefix);
  }
}

function printTargets(runs: DatabaseRun[]) {
  for (const run of runs) {
    const label = DATABASE_LABEL[run.database];
    const ratio = run.hit.ofFloor ?? 0;
    process.stdout.write(
      `Cache hit, ${label}: ${(ratio * 100).toFixed(1)} % of the floor ` +
        `(target at least ${FLOOR_TARGET * 100} %): ${ratio >= FLOOR_TARGET ? "PASS" : "FAIL"}\n`,
    );
    const p99 = run.miss.p99;
    // The latency target is PostgreSQL's; PGlite and the Redis cache are reported against it for information.
    const verdict = p99 < MISS_P99_TARGET_MS ? "PASS" : "FAIL";
    process.stdout.write(
      `Cache miss, ${label}: p99 ${p99} ms at ${run.miss.connections} connections ` +
        `(target under ${MISS_P99_TARGET_MS} ms on PostgreSQL): ${run.database === "postgres" ? verdict : `${verdict}, for information`}\n`,
    );
    if (run.missPageItems !== 50) {
      process.stdout.write(`Note: a cache-miss page held ${run.missPageItems} tasks, not 50\n`);
    }
  }
}

async function main() {
  printMachine(
    `autocannon; ${settings.tasks} tasks written at ${WRITE_CONNECTIONS} connections, cache misses at ` +
      `${MISS_CONNECTIONS}, the cache hit and its floor at ${settings.connections}; ${settings.warmup} s warm-up + ` +
      `${settings.duration} s per GET row, each after up to ${settings.quietWait} s of waiting for a quiet machine`,
  );
  const runs: DatabaseRun[] = [];
  const skipped: string[] = [];
  for (const database of settings.databases) {
    const run = await benchDatabase(database);
    if (typeof run === "string") skipped.push(`${DATABASE_LABEL[database]} skipped: ${run}`);
    else runs.push(run);
  }
  const rows = runs.flatMap((run) => [run.write, run.miss, run.floor, run.hit]);
  process.stdout.write("\n");
  printTable(rows, { withConnections: true });
  process.stdout.write("\n");
  printTargets(runs);
  for (const line of skipped) process.stdout.write(`${line}\n`);
  printNotes(rows);
}

const settings: TaskSettings = settingsOrExit(readTaskSettings);
// Per database: a start, four rows, and the writes at no less than 20 a second.
const perDatabaseMs =
  START_TIMEOUT_MS + (4 * (settings.quietWait + settings.warmup + settings.duration + 15) + settings.tasks / 20) * 1000;
runBench(main, settings.databases.length * perDatabaseMs);
