/**
 * The API benchmark: `npm run bench` (docs/performance.md reads the figures).
 *
 * In one run it measures, with autocannon, against servers started as child processes (so that the load
 * generator does not share their event loop):
 *   1. the floor: bench/floor-server.ts, a bare node:http server replaying server.ts's own answer to
 *      GET /healthz, headers and body (captured first, so that both send the same bytes);
 *   2. GET /healthz through server.ts on PGlite, against the floor (target: at least 50 % of it);
 *   3. GET /auth/me with a valid token, server.ts on PGlite (its share of the /healthz floor);
 *   4. one GET per route family on server.ts on PostgreSQL and Redis, in a fresh database dropped afterwards
 *      (skipped when PostgreSQL does not answer), each right after its own floor: one floor process replaying,
 *      by request path, the answer server.ts gave to that very request (captured uncompressed, as autocannon asks):
 *        auth           GET /auth/me
 *        tasks          GET /api/v1/tasks?limit=50, a cache hit (target: at least 50 % of its floor)
 *        subtasks       GET /api/v1/tasks/{id}/subtasks
 *        board          GET /api/v1/board (cached as the task list is: a hit too)
 *        goals          GET /api/v1/goals
 *        notifications  GET /api/v1/notifications
 *        sync           GET /api/v1/sync?cursor=… , "what changed since" the last complete sync: nothing
 *      The socket half of the sync family (events on /ws) is bench/socket.ts's (`npm run bench:socket`).
 *      Before them the bench writes through the API: 5 tasks, 3 subtasks on the first, a goal with 2 of the tasks
 *      linked, 2 notifications (another user asks the bench user to collaborate on 2 tasks of theirs), and a sync
 *      from scratch whose cursor the sync row sends.
 *
 * Every answer of a family's rows is checked: the answer is captured before the rows and its body compared with
 * what the bench wrote (ids, titles, order where the route promises one); each measured answer, the floor's
 * and the server's, must be a 200 of that many bytes; the task list's answers must say `X-Cache: HIT` (all but
 * 1 %: a cached answer lives 30 s); the answer is checked again after the row. A row that fails a check is
 * printed INVALID. Per family the run prints its share of its floor's requests per second, the server's CPU per
 * request and PostgreSQL's (the CPU time of the bench database's client backends over the measured seconds, per
 * answer); targets: PASS, FAIL, or INVALID when a checked row failed its checks.
 *
 * Flags, or the environment variable in brackets:
 *   --duration      (BENCH_DURATION)      seconds measured per row, 10
 *   --warmup        (BENCH_WARMUP)        seconds of unmeasured load before each row, 2
 *   --connections   (BENCH_CONNECTIONS)   concurrent keep-alive connections, 50
 *   --quiet-wait    (BENCH_QUIET_WAIT)    seconds to wait at most for other processes to go quiet before each
 *                                         row, 60 (0: do not wait)
 *   --postgres      (BENCH_POSTGRES_URL)  an admin URL, postgres://postgres@127.0.0.1:5432/postgres
 *   --redis         (BENCH_REDIS_URL)     redis://127.0.0.1:6379
 * Every server and database is on this machine. Children, the temporary data directory and the database are
 * removed on exit, on error and on Ctrl-C; the server's rate-limit keys in Redis after its run (they also
 * expire within minutes).
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { RequestSpec } from "autocannon";
import pg from "pg";
import {
  backendMsBetween,
  backendTimes,
  bearer,
  BENCH_OPTIONS,
  benchDatabaseName,
  captureAnswer,
  createBenchDatabase,
  deleteRedisKeys,
  dropBenchDatabase,
  expectJson,
  invalidate,
  makeTempDir,
  measure,
  messageOf,
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
  startChild,
  startFloor,
  startFloorByPath,
  stopChild,
  type Answer,
  type Child,
  type Measurement,
  type Settings,
} from "./harness";

const FLOOR_TARGET = 0.5;
/** The issue's target for the task list's cache hit on PostgreSQL + Redis: at least this share of its floor. */
const TASK_HIT_TARGET = 0.5;

/** Checks the server answers as the measurements assume, and returns a valid session token. */
async function preflight(server: Child): Promise<string> {
  const health = await expectJson(await fetch(`${server.url}/healthz`), 200, `${server.name} GET /healthz`);
  if (JSON.stringify(health) !== JSON.stringify({ status: "ok" })) {
    throw new Error(`${server.name}: unexpected /healthz body ${JSON.stringify(health)}`);
  }
  const token = await registerUser(server);
  const me = await fetch(`${server.url}/auth/me`, { headers: bearer(token) });
  await expectJson(me, 200, `${server.name} GET /auth/me`);
  return token;
}

/** One row's requests: `path` with the settings' connections. */
function load(path: string, headers: Record<string, string> = {}) {
  return { path, headers, connections: settings.connections };
}

/** Runs the two PGlite measurements on one server.ts with a temporary data directory. */
async function benchPglite() {
  const dataDir = makeTempDir();
  progress("starting server.ts on PGlite (a fresh data directory takes 10-15 s)");
  const server = await startChild("server.ts (PGlite)", "server.ts", serverEnv({ DATA_DIR: dataDir }), SERVER_READY);
  try {
    const token = await preflight(server);
    const healthAnswer = await captureAnswer(`${server.url}/healthz`);
    const health = await measure("GET /healthz, server.ts (PGlite)", server, settings, load("/healthz"));
    const me = await measure("GET /auth/me, server.ts (PGlite)", server, settings, load("/auth/me", bearer(token)));
    return { health, me, healthAnswer };
  } finally {
    await stopChild(server);
    reportStderr(server);
    removeTempDir(dataDir);
  }
}

/** The bench user and what the seed wrote for it, to check the answers against. */
interface Seeded {
  me: { id: string; email: string };
  taskIds: string[];
  taskTitles: string[];
  subtaskTitles: string[];
  goalId: string;
  linkedTaskIds: string[];
  /** Notifications the seed caused (collaboration requests from another user). */
  notifications: number;
  /** The `cursor` of a complete sync from scratch, after the seed. */
  syncCursor: string;
}

/** One GET of a route family, measured against its own floor on PostgreSQL + Redis. */
interface Family {
  family: string;
  path: string;
  /** The path as the tables show it, ids left out. */
  shown: string;
  /** What is wrong with the answer's body, or null. */
  check: (body: unknown) => string | null;
  /** A task list cache hit: the target applies, and almost every answer must say `X-Cache: HIT`. */
  cacheHit?: boolean;
}

interface FamilyRun {
  family: Family;
  floor: Measurement;
  row: Measurement;
  bytes: number;
  checked: number;
  /** X-Cache values the measured answers carried. */
  xCache: { HIT: number; MISS: number; none: number };
  serverMsPerRequest: number | null;
  postgresMsPerRequest: number;
}

const TASKS = 5;
const SUBTASKS = 3;
const LINKED = 2;
const REQUESTS = 2;
/** A cache hit row must have at least this share of answers saying HIT (the cached answer lives 30 s). */
const HIT_SHARE = 0.99;
/** Due dates years ahead, so that no reminder or daily summary adds a notification during the run. */
const DUE_FROM_MS = Date.UTC(2030, 0, 1, 9);

async function apiCall(server: Child, token: string, method: string, urlPath: string, status: number, body?: unknown) {
  const response = await fetch(`${server.url}${urlPath}`, {
    method,
    headers: { ...bearer(token), ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return expectJson(response, status, `${server.name} ${method} ${urlPath}`);
}

/**
 * Writes through the API what the answers should show: tasks with subtasks on the first, a goal with two linked
 * tasks, notifications (another user asks the bench user to collaborate on tasks of theirs), then a sync from scratch.
 */
async function seed(server: Child, token: string): Promise<Seeded> {
  const me = (await apiCall(server, token, "GET", "/auth/me", 200)) as Seeded["me"];
  const taskTitles = Array.from({ length: TASKS }, (_, i) => `Bench task ${i + 1}`);
  const taskIds: string[] = [];
  for (const [i, title] of taskTitles.entries()) {
    const dueAt = new Date(DUE_FROM_MS + i * 86_400_000).toISOString();
    taskIds.push(((await apiCall(server, token, "POST", "/api/v1/tasks", 201, { title, dueAt })) as { id: string }).id);
  }
  const subtaskTitles = Array.from({ length: SUBTASKS }, (_, i) => `Bench subtask ${i + 1}`);
  for (const title of subtaskTitles) await apiCall(server, token, "POST", `/api/v1/tasks/${taskIds[0]}/subtasks`, 201, { title });
  const goal = (await apiCall(server, token, "POST", "/api/v1/goals", 201, { title: "Bench goal" })) as { id: string };
  const linkedTaskIds = taskIds.slice(0, LINKED);
  for (const id of linkedTaskIds) await apiCall(server, token, "PUT", `/api/v1/goals/${goal.id}/tasks/${id}`, 200);

  const colleague = await registerUser(server, "Bench colleague");
  for (let i = 1; i <= REQUESTS; i++) {
    const task = (await apiCall(server, colleague, "POST", "/api/v1/tasks", 201, { title: `Colleague's task ${i}` })) as {
      id: string;
    };
    await apiCall(server, colleague, "POST", `/api/v1/tasks/${task.id}/collaboration-requests`, 201, {
      kind: "collaborate",
      userId: me.id,
    });
  }
  // Notifications are written by an event consumer, after the commit.
  const deadline = performance.now() + 15_000;
  let notifications = 0;
  while (notifications < REQUESTS && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 250));
    notifications = ((await apiCall(server, token, "GET", "/api/v1/notifications", 200)) as { items: unknown[] }).items.length;
  }
  if (notifications !== REQUESTS) throw new Error(`${server.name}: ${notifications} notifications, not ${REQUESTS}, after 15 s`);

  let syncCursor: string | null = null;
  let next: string | null = null;
  do {
    const page = (await apiCall(server, token, "GET", `/api/v1/sync?limit=500${next ? `&cursor=${next}` : ""}`, 200)) as {
      next: string | null;
      cursor: string | null;
    };
    next = page.next;
    syncCursor = page.cursor;
  } while (next);
  if (!syncCursor) throw new Error(`${server.name}: a complete sync answered no cursor`);
  progress(`seeded ${TASKS} tasks, ${SUBTASKS} subtasks, a goal with ${LINKED} tasks, ${REQUESTS} notifications`);
  return { me, taskIds, taskTitles, subtaskTitles, goalId: goal.id, linkedTaskIds, notifications, syncCursor };
}

const same = (got: unknown[], want: unknown[]) => JSON.stringify(got) === JSON.stringify(want);
const sorted = (values: string[]) => [...values].sort();

/** One GET per family, each with what its answer must hold. */
function families(seeded: Seeded): Family[] {
  const { me, taskIds, taskTitles, subtaskTitles, goalId, linkedTaskIds, syncCursor } = seeded;
  type Task = { id: string; title: string };
  return [
    {
      family: "auth",
      path: "/auth/me",
      shown: "/auth/me",
      check: (body) => {
        const user = body as { id?: string; email?: string };
        return user.id === me.id && user.email === me.email ? null : "not the bench user";
      },
    },
    {
      family: "tasks",
      path: "/api/v1/tasks?limit=50",
      shown: "/api/v1/tasks?limit=50",
      cacheHit: true,
      check: (body) => {
        const items = (body as { items?: Task[] }).items ?? [];
        if (!same(sorted(items.map((task) => task.id)), sorted(taskIds))) return `${items.length} tasks, not the ${TASKS} seeded`;
        return same(sorted(items.map((task) => task.title)), sorted(taskTitles)) ? null : "not the seeded titles";
      },
    },
    {
      family: "subtasks",
      path: `/api/v1/tasks/${taskIds[0]}/subtasks`,
      shown: "/api/v1/tasks/{id}/subtasks",
      check: (body) => {
        const subtasks = body as { taskId: string; title: string }[];
        if (!Array.isArray(subtasks)) return "not a list";
        if (subtasks.some((subtask) => subtask.taskId !== taskIds[0])) return "a subtask of another task";
        return same(
          subtasks.map((subtask) => subtask.title),
          subtaskTitles,
        )
          ? null
          : "not the seeded subtasks in order";
      },
    },
    {
      family: "board",
      path: "/api/v1/board",
      shown: "/api/v1/board",
      check: (body) => {
        const columns = (body as { columns?: { status: string; total: number; tasks: Task[] }[] }).columns ?? [];
        const todo = columns.find((column) => column.status === "todo");
        if (!todo || todo.total !== TASKS) return `the to-do column holds ${todo?.total} tasks, not ${TASKS}`;
        const others = columns.filter((column) => column !== todo).reduce((sum, column) => sum + column.total, 0);
        if (others !== 0) return `${others} tasks outside the to-do column`;
        return same(sorted(todo.tasks.map((task) => task.id)), sorted(taskIds)) ? null : "not the seeded tasks";
      },
    },
    {
      family: "goals",
      path: "/api/v1/goals",
      shown: "/api/v1/goals",
      check: (body) => {
        const items = (body as { items?: { id: string; linkedTasks: { id: string }[] }[] }).items ?? [];
        if (items.length !== 1 || items[0]!.id !== goalId) return `${items.length} goals, not the seeded one`;
        return same(
          items[0]!.linkedTasks.map((task) => task.id),
          linkedTaskIds,
        )
          ? null
          : "not the linked tasks";
      },
    },
    {
      family: "notifications",
      path: "/api/v1/notifications",
      shown: "/api/v1/notifications",
      check: (body) => {
        const items = (body as { items?: { kind: string; read: boolean }[] }).items ?? [];
        if (items.length !== seeded.notifications) return `${items.length} notifications, not ${seeded.notifications}`;
        return items.every((item) => item.kind === "collaboration.requested" && !item.read) ? null : "not the unread requests";
      },
    },
    {
      family: "sync",
      // What changed since the last complete sync: nothing, so the same cursor and no items.
      path: `/api/v1/sync?cursor=${syncCursor}`,
      shown: "/api/v1/sync?cursor={cursor}",
      check: (body) => {
        const page = body as { items?: unknown[]; next?: string | null; cursor?: string };
        return page.items?.length === 0 && page.next === null && page.cursor === syncCursor ? null : "not an empty sync";
      },
    },
  ];
}

const IDENTITY = { "Accept-Encoding": "identity" };

/**
 * The answer as the floor will replay it (uncompressed, as autocannon asks), checked; a cache hit where the family
 * is one, unless `anyCache` (after a row, the cached answer may have just expired: the row's own answers were tallied).
 */
async function checkedAnswer(server: Child, token: string, family: Family, anyCache = false): Promise<Answer> {
  const answer = await captureAnswer(`${server.url}${family.path}`, { ...bearer(token), ...IDENTITY });
  const what = `${server.name} GET ${family.path}`;
  if (answer.status !== 200) throw new Error(`${what}: ${answer.status} ${answer.body}`);
  const problem = family.check(JSON.parse(answer.body));
  if (problem) throw new Error(`${what}: ${problem}`);
  const cache = answer.headers.find(([name]) => name.toLowerCase() === "x-cache")?.[1];
  if (family.cacheHit && !anyCache && cache !== "HIT") throw new Error(`${what}: expected X-Cache: HIT, got ${cache}`);
  return answer;
}

/** A load whose every answer is tallied: 200 and of the checked size, and its X-Cache. */
function checkedLoad(urlPath: string, headers: Record<string, string>, bytes: number) {
  const tally = { ok: 0, wrong: 0, xCache: { HIT: 0, MISS: 0, none: 0 } };
  const request: RequestSpec = {
    path: urlPath,
    onResponse: (status, body, _context, answerHeaders) => {
      if (status === 200 && Buffer.byteLength(body) === bytes) tally.ok++;
      else tally.wrong++;
      const cache = answerHeaders["x-cache"] ?? answerHeaders["X-Cache"];
      if (cache === "HIT" || cache === "MISS") tally.xCache[cache]++;
      else tally.xCache.none++;
    },
  };
  const reset = () => {
    tally.ok = tally.wrong = 0;
    tally.xCache = { HIT: 0, MISS: 0, none: 0 };
  };
  return { load: { path: urlPath, headers, connections: settings.connections, requests: [request] }, tally, reset };
}

/** One family's two rows: its floor, then server.ts, each answer checked; PostgreSQL's backends' CPU read around the row. */
async function benchFamily(
  server: Child,
  floorServer: Child,
  token: string,
  family: Family,
  answer: Answer,
  admin: pg.Client,
  database: string,
  label: string,
): Promise<FamilyRun> {
  const bytes = Buffer.byteLength(answer.body);
  const request = `GET ${family.shown}`;

  const onFloor = checkedLoad(family.path, {}, bytes);
  const floor = await measure(`floor: same bytes as ${request}`, floorServer, settings, onFloor.load, {
    beforeMeasured: async () => onFloor.reset(),
  });
  floor.isFloor = true;
  if (onFloor.tally.wrong) invalidate(floor, `${onFloor.tally.wrong} answers not 200 or not ${bytes} bytes`);

  const onServer = checkedLoad(family.path, bearer(token), bytes);
  let before = new Map<number, number>();
  const row = await measure(`${request}${family.cacheHit ? " (cache hit)" : ""}, ${label}`, server, settings, onServer.load, {
    backingServices: true,
    beforeMeasured: async () => {
      onServer.reset();
      before = await backendTimes(admin, database);
    },
  });
  const postgresMs = backendMsBetween(before, await backendTimes(admin, database));
  const { tally } = onServer;
  if (tally.wrong) invalidate(row, `${tally.wrong} answers not 200 or not ${bytes} bytes`);
  const answered = tally.ok + tally.wrong;
  if (family.cacheHit && tally.xCache.HIT < HIT_SHARE * answered) {
    invalidate(row, `only ${tally.xCache.HIT} of ${answered} answers said X-Cache: HIT`);
  }
  // The same answer after the row: nothing changed it meanwhile.
  try {
    const after = await checkedAnswer(server, token, family, true);
    if (Buffer.byteLength(after.body) !== bytes)
      invalidate(row, `after the row the answer has ${Buffer.byteLength(after.body)} bytes`);
  } catch (error) {
    invalidate(row, `after the row: ${messageOf(error)}`);
  }
  row.ofFloor = row.requestsPerSecond / floor.requestsPerSecond;
  progress(`${row.label}: ${tally.ok} of ${answered} answers checked (200, ${bytes} bytes)`);
  return {
    family,
    floor,
    row,
    bytes,
    checked: tally.ok,
    xCache: tally.xCache,
    serverMsPerRequest: row.cpu.server === null ? null : (row.cpu.server * 10) / row.requestsPerSecond,
    postgresMsPerRequest: postgresMs / Math.max(1, answered),
  };
}

/** The families on PostgreSQL (and Redis when it answers), each against its own floor, or a reason to skip them. */
async function benchPostgres(): Promise<{ runs: FamilyRun[]; label: string } | string> {
  let databaseUrl: string;
  try {
    databaseUrl = await createBenchDatabase(settings.postgresUrl);
  } catch (error) {
    return `PostgreSQL at ${settings.postgresUrl} is unreachable (${messageOf(error)})`;
  }
  const database = benchDatabaseName()!;
  const admin = new pg.Client({ connectionString: databaseUrl });
  try {
    await admin.connect();
    const redis = await reachable(settings.redisUrl, 6379);
    const redisPrefix = `spolu-bench-${Date.now()}:`;
    const label = `server.ts (PostgreSQL${redis ? " + Redis" : ""})`;
    if (!redis) progress(`Redis at ${settings.redisUrl} does not answer: measuring PostgreSQL alone`);
    progress(`starting server.ts on PostgreSQL database ${database}`);
    const server = await startChild(
      "server.ts (PostgreSQL)",
      "server.ts",
      serverEnv({
        DATABASE_URL: databaseUrl,
        JWT_SECRET: randomBytes(32).toString("base64url"),
        ...(redis ? { REDIS_URL: settings.redisUrl, REDIS_PREFIX: redisPrefix } : {}),
      }),
      SERVER_READY,
    );
    try {
      const token = await preflight(server);
      const list = families(await seed(server, token));
      const answers: Record<string, Answer> = {};
      for (const family of list) {
        // A first request fills the cache of the cached GETs, so that the captured answer is the hit.
        await (await fetch(`${server.url}${family.path}`, { headers: { ...bearer(token), ...IDENTITY } })).arrayBuffer();
        answers[family.path] = await checkedAnswer(server, token, family);
      }
      progress("starting the floor (bench/floor-server.ts), replaying each family's answer by its path");
      const floorServer = await startFloorByPath(answers);
      try {
        const runs: FamilyRun[] = [];
        for (const family of list) {
          runs.push(await benchFamily(server, floorServer, token, family, answers[family.path]!, admin, database, label));
        }
        return { runs, label };
      } finally {
        await stopChild(floorServer);
      }
    } finally {
      await stopChild(server);
      reportStderr(server);
      if (redis) await deleteRedisKeys(settings.redisUrl, redisPrefix);
    }
  } finally {
    await admin.end().catch(() => undefined);
    await dropBenchDatabase();
  }
}

function formatMs(ms: number | null): string {
  return ms === null ? "–" : ms.toFixed(3);
}

/** Per family: its share of its own floor, CPU per request, what was checked, and the target where there is one. */
function printFamilies(runs: FamilyRun[]) {
  process.stdout.write(
    "\n| Family | Request | req/s | its floor req/s | of its floor | server CPU ms/req | PostgreSQL CPU ms/req | answers checked | X-Cache HIT/MISS | target |\n" +
      "|---|---|---:|---:|---:|---:|---:|---:|---|---|\n",
  );
  for (const run of runs) {
    const { family, floor, row } = run;
    const share = row.ofFloor ?? 0;
    const target = family.cacheHit
      ? `≥ ${TASK_HIT_TARGET * 100} %: ${verdict(share >= TASK_HIT_TARGET, row, floor)}`
      : "none stated";
    const xCache = run.xCache.HIT + run.xCache.MISS ? `${run.xCache.HIT}/${run.xCache.MISS}` : "–";
    const cells = [
      family.family,
      `GET ${family.shown}`,
      Math.round(row.requestsPerSecond).toString(),
      Math.round(floor.requestsPerSecond).toString(),
      `${(share * 100).toFixed(1)} %`,
      formatMs(run.serverMsPerRequest),
      formatMs(run.postgresMsPerRequest),
      `${run.checked} × ${run.bytes} B`,
      xCache,
      target,
    ];
    process.stdout.write(`| ${cells.join(" | ")} |\n`);
  }
}

/** PASS or FAIL; INVALID when the row or its floor failed a check (or its server died). */
function verdict(met: boolean, ...rows: Measurement[]): string {
  if (rows.some((row) => row.invalid)) return "INVALID";
  return met ? "PASS" : "FAIL";
}

async function main() {
  printMachine(
    `autocannon, ${settings.connections} connections, ${settings.warmup} s warm-up + ${settings.duration} s per ` +
      `measurement, each after up to ${settings.quietWait} s of waiting for a quiet machine`,
  );

  const { health, me, healthAnswer } = await benchPglite();
  progress("starting the floor (bench/floor-server.ts), replaying the answer of GET /healthz");
  const floorServer = await startFloor(healthAnswer);
  let floor: Measurement;
  try {
    floor = await measure("floor: bare node:http, same bytes", floorServer, settings, load("/healthz"));
    floor.isFloor = true;
  } finally {
    await stopChild(floorServer);
  }
  const postgres = await benchPostgres();
  const pgliteRows = [floor, health, me];
  for (const row of pgliteRows.slice(1)) row.ofFloor = row.requestsPerSecond / floor.requestsPerSecond;
  const familyRuns = typeof postgres === "string" ? [] : postgres.runs;
  const rows = [...pgliteRows, ...familyRuns.flatMap((run) => [run.floor, run.row])];

  process.stdout.write("\n");
  printTable(rows);
  if (familyRuns.length) printFamilies(familyRuns);
  const ratio = health.requestsPerSecond / floor.requestsPerSecond;
  process.stdout.write(
    `\n/healthz through server.ts (PGlite): ${(ratio * 100).toFixed(1)} % of the floor ` +
      `(target at least ${FLOOR_TARGET * 100} %): ${verdict(ratio >= FLOOR_TARGET, health, floor)}\n`,
  );
  for (const run of familyRuns.filter((each) => each.family.cacheHit)) {
    const share = run.row.ofFloor ?? 0;
    process.stdout.write(
      `${run.row.label}: ${(share * 100).toFixed(1)} % of its floor ` +
        `(target at least ${TASK_HIT_TARGET * 100} %): ${verdict(share >= TASK_HIT_TARGET, run.row, run.floor)}\n`,
    );
  }
  if (typeof postgres === "string") process.stdout.write(`PostgreSQL measurements skipped: ${postgres}\n`);
  printNotes(rows);
}

const settings: Settings = settingsOrExit(() => readSettings(parseArgs({ options: BENCH_OPTIONS }).values));
// 3 rows on PGlite and its floor, 2 per family on PostgreSQL; PGlite, PostgreSQL and two floors to start.
const ROWS = 3 + 2 * 7;
runBench(main, ROWS * (settings.quietWait + settings.warmup + settings.duration + 15) * 1000 + 4 * START_TIMEOUT_MS);
