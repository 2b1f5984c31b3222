/**
 * The board benchmark: `npm run bench:board` (docs/performance.md, "Board and single reads", reads the figures).
 *
 * server.ts on a fresh PostgreSQL database, one user with a 50-task board (20 to do, 15 in progress, 10 done,
 * 5 cancelled, each with a due date) and another user whose tasks fill the table: first 100 of them, then
 * --others (100,000), written by one `INSERT … SELECT … FROM generate_series` (the triggers that keep
 * `tasks.answer` run per row; a few seconds), followed by VACUUM ANALYZE. At each size, at 10 connections:
 *   1. GET /board: the user's board, as a client asking for it again gets it (a cache hit: boards per second, CPU
 *      per board);
 *   1b. GET /board, cache miss: right after a change to one of the user's cards (a move to where it is, which drops
 *      the user's cached boards), 400 requests, each with another `limit` of 21 to 420 (the same cards: no column
 *      holds more than 20); each answer must say `X-Cache: MISS`;
 *   2. GET /tasks?limit=50, cache miss (a new `dueBefore` far in the future on every request, as bench:tasks
 *      does): a page of 50 tasks, the reference for the single read;
 *   3. GET /tasks/{id}: one of the user's tasks;
 *   4. the other single reads: GET /goals/{id}, /groups/{id} and /projects/{id} (the user's own), and
 *      GET /notifications/unread-count; each is held to the page's CPU as the task is.
 * CPU per request is the server's (from /proc) and PostgreSQL's: the CPU time of the backends connected to the
 * bench database (client backends only: their pids from pg_stat_activity, their time from /proc), over the measured
 * seconds; the bench's own connection and autovacuum are left out (the table is vacuumed after each insert).
 * With --baseline <checkout> (another working copy with its node_modules, e.g. the main branch) its server.ts runs
 * beside this one on the same database and every row is measured on both, one after the other.
 *
 * Every answer is checked: each row's answers must all be 200 and all of the same size as a checked answer taken
 * right before the row, whose body is compared with what the bench wrote (the column totals, the cards' titles,
 * ids and statuses in board order; the page's 50 tasks; the task's id and title), and again right after.
 *
 * Flags, or the environment variable in brackets:
 *   --others        (BENCH_OTHERS)        other people's tasks in the table for the second size, 100000
 *   --baseline      (BENCH_BASELINE)      a checkout whose server.ts to measure beside this one (optional)
 *   --duration      (BENCH_DURATION)      seconds measured per row, 10
 *   --warmup        (BENCH_WARMUP)        seconds of unmeasured load before each row, 2
 *   --quiet-wait    (BENCH_QUIET_WAIT)    seconds to wait at most for a quiet machine before each row, 60
 *   --postgres      (BENCH_POSTGRES_URL)  an admin URL, postgres://postgres@127.0.0.1:5432/postgres
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import type { RequestSpec } from "autocannon";
import pg from "pg";
import {
  backendMsBetween,
  backendTimes,
  bearer,
  BENCH_OPTIONS,
  benchDatabaseName,
  createBenchDatabase,
  expectJson,
  invalidate,
  measure,
  positive,
  printMachine,
  printNotes,
  printTable,
  progress,
  readSettings,
  registerUser,
  reportStderr,
  runBench,
  SERVER_READY,
  serverEnv,
  settingsOrExit,
  START_TIMEOUT_MS,
  startChild,
  stopChild,
  type Child,
  type Load,
  type Measurement,
  type Settings,
} from "./harness";

const CONNECTIONS = 10;
const FIRST_SIZE = 100;
/** The user's board: tasks per status, in the order they are created (each goes to the end of the board). */
const BOARD = { todo: 20, in_progress: 15, done: 10, cancelled: 5 } as const;
const STATUSES = Object.keys(BOARD) as (keyof typeof BOARD)[];
/** Every status, so that the page holds all 50 of the user's tasks. */
const PAGE = "/api/v1/tasks?limit=50&status=todo,in_progress,done,cancelled";
const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);
/** The board within this share between the two sizes; the single read at most the page's CPU. */
const FLAT_TARGET = 0.1;

interface BoardSettings extends Settings {
  others: number;
  baseline: string | null;
}

function readBoardSettings(): BoardSettings {
  const { values } = parseArgs({ options: { ...BENCH_OPTIONS, others: { type: "string" }, baseline: { type: "string" } } });
  const baseline = values.baseline ?? process.env.BENCH_BASELINE ?? null;
  if (baseline && !existsSync(path.join(baseline, "server.ts"))) throw new Error(`--baseline ${baseline} has no server.ts`);
  const others = positive("others", values.others ?? process.env.BENCH_OTHERS ?? "100000");
  if (others <= FIRST_SIZE) throw new Error(`--others must be above ${FIRST_SIZE}`);
  return { ...readSettings(values), others, baseline: baseline ? path.resolve(baseline) : null };
}

interface Created {
  id: string;
  title: string;
  status: string;
}

/** The single reads besides the task's, with what their answer must be. */
const OTHER_READS = ["goal", "group", "project", "unread"] as const;
type Kind = "board" | "boardMiss" | "page" | "task" | (typeof OTHER_READS)[number];

/** One measured row with the CPU per request on both sides. */
interface Row {
  measurement: Measurement;
  kind: Kind;
  server: string;
  others: number;
  serverMsPerRequest: number;
  postgresMsPerRequest: number;
  /** Rows of `tasks` read per request by sequential scans. */
  seqRowsPerRequest: number;
}

let missKeys = 0;
/** Requests of the board's cache-miss row: each a `limit` of its own, so that none is a hit on another's answer. */
const BOARD_MISSES = 400;
const BOARD_MISS_FIRST_LIMIT = 21;
let boardMissKeys = 0;

/** Rows of `tasks` read so far by sequential scans and through indexes (the statistics lag up to a second). */
async function tableReads(admin: pg.Client): Promise<{ seq: number; index: number }> {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const { rows } = await admin.query<{ seq: string; index: string }>(
    "select seq_tup_read as seq, coalesce(idx_tup_fetch, 0) as index from pg_stat_user_tables where relname = 'tasks'",
  );
  return { seq: Number(rows[0]!.seq), index: Number(rows[0]!.index) };
}

async function getJson(server: Child, token: string, urlPath: string): Promise<{ body: unknown; bytes: number }> {
  const response = await fetch(`${server.url}${urlPath}`, { headers: bearer(token) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`${server.name} GET ${urlPath}: ${response.status} ${text}`);
  return { body: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

/** The board as the bench wrote it: each column's total and cards (titles, ids, statuses in board order). */
function checkBoard(body: unknown, created: Created[], userId: string): string | null {
  const columns = (body as { columns?: { status: string; total: number; tasks: (Created & { ownerId: string })[] }[] }).columns;
  if (!Array.isArray(columns) || columns.map((column) => column.status).join() !== STATUSES.join()) {
    return "the columns are not the four statuses in order";
  }
  for (const column of columns) {
    const expected = created.filter((task) => task.status === column.status);
    if (column.total !== expected.length) return `${column.status} has total ${column.total}, not ${expected.length}`;
    const got = column.tasks.map((task) => `${task.id} ${task.title} ${task.status} ${task.ownerId}`).join("\n");
    const want = expected.map((task) => `${task.id} ${task.title} ${task.status} ${userId}`).join("\n");
    if (got !== want) return `${column.status}'s cards are not the user's in board order`;
  }
  return null;
}

/** The rows of one request on one server: checked before and after, every answer 200 and of the checked size. */
async function measureRow(
  kind: Row["kind"],
  server: Child,
  token: string,
  others: number,
  admin: pg.Client,
  expect: {
    path: () => string;
    check: (body: unknown) => string | null;
    /** Exactly this many requests rather than for the row's duration. */
    amount?: number;
    /** The warm-up's path, when the measured requests must not be warmed up themselves. */
    warmupPath?: string;
    /** Runs right before the measured requests (after the warm-up). */
    beforeMeasured?: () => Promise<void>;
    /** Every answer must be a cache miss (`X-Cache` not HIT). */
    mustMiss?: boolean;
  },
): Promise<Row> {
  const database = benchDatabaseName()!;
  const checked = await getJson(server, token, expect.path());
  const problem = expect.check(checked.body);
  if (problem) throw new Error(`${server.name} GET ${expect.path()}: ${problem}`);
  const tally = { ok: 0, otherSize: 0, notOk: 0, hits: 0 };
  const request: RequestSpec = {
    setupRequest: (spec) => ({ ...spec, path: expect.path() }),
    onResponse: (status, body, _context, headers) => {
      if (expect.mustMiss && (headers["x-cache"] ?? headers["X-Cache"]) === "HIT") tally.hits++;
      if (status !== 200) tally.notOk++;
      else if (Buffer.byteLength(body) !== checked.bytes) tally.otherSize++;
      else tally.ok++;
    },
  };
  const load: Load = {
    path: expect.path(),
    headers: bearer(token),
    connections: CONNECTIONS,
    requests: [request],
    ...(expect.amount ? { amount: expect.amount } : {}),
  };
  const label = {
    board: "GET /board (cache hit)",
    boardMiss: "GET /board (cache miss)",
    page: "GET /tasks?limit=50 (cache miss)",
    task: "GET /tasks/{id}",
    goal: "GET /goals/{id}",
    group: "GET /groups/{id}",
    project: "GET /projects/{id}",
    unread: "GET /notifications/unread-count",
  }[kind];
  let before = new Map<number, number>();
  let readsBefore = { seq: 0, index: 0 };
  const measurement = await measure(
    `${label}, ${others.toLocaleString("en")} other tasks (${server.name})`,
    server,
    settings,
    load,
    {
      backingServices: true,
      ...(expect.warmupPath ? { warmup: { path: expect.warmupPath, headers: bearer(token), connections: CONNECTIONS } } : {}),
      beforeMeasured: async () => {
        await expect.beforeMeasured?.();
        tally.ok = tally.otherSize = tally.notOk = tally.hits = 0;
        readsBefore = await tableReads(admin);
        before = await backendTimes(admin, database);
      },
    },
  );
  const postgresMs = backendMsBetween(before, await backendTimes(admin, database));
  const readsAfter = await tableReads(admin);
  const after = await getJson(server, token, expect.path());
  const afterProblem = expect.check(after.body);
  if (afterProblem) invalidate(measurement, `after the row: ${afterProblem}`);
  if (tally.notOk || tally.otherSize) {
    invalidate(measurement, `${tally.notOk} answers not 200, ${tally.otherSize} of another size than the checked one`);
  }
  if (tally.hits) invalidate(measurement, `${tally.hits} answers were cache hits`);
  const requests = tally.ok + tally.otherSize + tally.notOk;
  progress(`${measurement.label}: ${tally.ok} answers checked (200, ${checked.bytes} bytes)`);
  return {
    measurement,
    kind,
    server: server.name,
    others,
    serverMsPerRequest: ((measurement.cpu.server ?? 0) * 10) / measurement.requestsPerSecond,
    // The backends' time from right before the measured requests to right after the last one's answer.
    postgresMsPerRequest: postgresMs / Math.max(1, requests),
    seqRowsPerRequest: (readsAfter.seq - readsBefore.seq) / Math.max(1, requests),
  };
}

async function insertOthers(admin: pg.Client, ownerId: string, groupId: string, from: number, to: number) {
  const started = performance.now();
  await admin.query(
    `insert into tasks (owner_id, group_id, title, status, position, due_at)
     select $1, $2, 'Someone else''s task ' || n, (array['todo','in_progress','done','cancelled'])[1 + n % 4],
            'b' || lpad(n::text, 7, '0'), now() + (n % 90) * interval '1 day'
     from generate_series($3::int, $4::int) as n`,
    [ownerId, groupId, from, to],
  );
  // Vacuumed and analysed now, so that autovacuum does not work on the new rows during the measured seconds.
  await admin.query("vacuum analyze tasks");
  const { rows } = await admin.query<{ count: number }>("select count(*)::int as count from tasks");
  progress(
    `the table holds ${rows[0]!.count} tasks (${to - from + 1} inserted in ${Math.round(performance.now() - started)} ms)`,
  );
  return rows[0]!.count;
}

/** The checkout's commit, or its directory's name when it is not a git working copy (a `git archive` of one). */
function commitOf(checkout: string): string {
  try {
    return execFileSync("git", ["-C", checkout, "rev-parse", "--short", "HEAD"], { encoding: "utf8", stdio: "pipe" }).trim();
  } catch {
    return path.basename(checkout);
  }
}

async function main() {
  const baselineCommit = settings.baseline ? commitOf(settings.baseline) : null;
  printMachine(
    `autocannon at ${CONNECTIONS} connections; ${settings.warmup} s warm-up + ${settings.duration} s per row, each after ` +
      `up to ${settings.quietWait} s of waiting for a quiet machine; PostgreSQL` +
      (baselineCommit ? `; baseline: ${settings.baseline} at ${baselineCommit}` : ""),
  );
  const databaseUrl = await createBenchDatabase(settings.postgresUrl);
  const adminUrl = new URL(settings.postgresUrl);
  adminUrl.pathname = `/${benchDatabaseName()}`;
  const env = serverEnv({
    AUTH_RATE_LIMIT_POINTS: "1000",
    // Two servers share the database: background jobs off, so that each row measures the requests alone.
    RUN_JOBS: "false",
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString("base64url"),
  });
  progress(`starting server.ts on database ${benchDatabaseName()}`);
  const servers = [await startChild("this checkout", "server.ts", env, SERVER_READY)];
  if (settings.baseline) {
    progress(`starting the baseline's server.ts (${settings.baseline})`);
    servers.push(await startChild(`baseline ${baselineCommit}`, "server.ts", env, SERVER_READY, settings.baseline));
  }
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  const rows: Row[] = [];
  try {
    const server = servers[0]!;
    const token = await registerUser(server);
    const me = (await expectJson(await fetch(`${server.url}/auth/me`, { headers: bearer(token) }), 200, "GET /auth/me")) as {
      id: string;
    };
    const otherToken = await registerUser(server, "Someone else");
    const other = (await expectJson(
      await fetch(`${server.url}/auth/me`, { headers: bearer(otherToken) }),
      200,
      "GET /auth/me",
    )) as { id: string };
    const groups = (await expectJson(
      await fetch(`${server.url}/groups`, { headers: bearer(otherToken) }),
      200,
      "GET /groups",
    )) as {
      items: { id: string }[];
    };
    const created: Created[] = [];
    for (const status of STATUSES) {
      for (let index = 0; index < BOARD[status]; index++) {
        const title = `Card ${created.length + 1}: ${status.replace("_", " ")}`;
        const dueAt = new Date(Date.UTC(2026, 11, 1 + created.length)).toISOString();
        const response = await fetch(`${server.url}/tasks`, {
          method: "POST",
          headers: { ...bearer(token), "Content-Type": "application/json" },
          body: JSON.stringify({ title, status, dueAt }),
        });
        const task = (await expectJson(response, 201, "POST /tasks")) as Created;
        created.push({ id: task.id, title, status });
      }
    }
    const sample = created[7]!;
    const post = async (urlPath: string, body: unknown, what: string) =>
      (await expectJson(
        await fetch(`${server.url}${urlPath}`, {
          method: "POST",
          headers: { ...bearer(token), "Content-Type": "application/json" },
          body: JSON.stringify(body),
        }),
        201,
        what,
      )) as { id: string };
    const goal = await post("/api/v1/goals", { title: "Learn Czech", progress: 35 }, "POST /goals");
    const project = await post("/api/v1/projects", { name: "The garden" }, "POST /projects");
    const myGroups = (await expectJson(await fetch(`${server.url}/groups`, { headers: bearer(token) }), 200, "GET /groups")) as {
      items: { id: string }[];
    };
    const group = myGroups.items[0]!;
    // Whatever the user has unread by now (sign-up and the tasks above may notify); nothing changes it during the run.
    const unreadAtStart = (await expectJson(
      await fetch(`${server.url}/api/v1/notifications/unread-count`, { headers: bearer(token) }),
      200,
      "GET /notifications/unread-count",
    )) as { unread: number };
    /** A single read whose answer must carry this id (and, for the goal and project, what the bench wrote). */
    const single = (urlPath: string, expected: Record<string, unknown>) => ({
      path: () => urlPath,
      check: (body: unknown) => {
        const answer = body as Record<string, unknown>;
        const wrong = Object.entries(expected).find(([name, value]) => answer[name] !== value);
        return wrong ? `${wrong[0]} is ${JSON.stringify(answer[wrong[0]])}, not ${JSON.stringify(wrong[1])}` : null;
      },
    });
    // A change to one of the user's cards: a move to where it already is (its `updatedAt` changes, its size does not).
    const touchCard = async (each: Child) => {
      const response = await fetch(`${each.url}/api/v1/tasks/${created[0]!.id}/move`, {
        method: "POST",
        headers: { ...bearer(token), "Content-Type": "application/json" },
        body: JSON.stringify({ status: created[0]!.status }),
      });
      await expectJson(response, 200, "POST /tasks/{id}/move");
    };
    const checks = {
      board: { path: () => "/api/v1/board", check: (body: unknown) => checkBoard(body, created, me.id) },
      boardMiss: (each: Child) => ({
        path: () => `/api/v1/board?limit=${BOARD_MISS_FIRST_LIMIT + (boardMissKeys++ % BOARD_MISSES)}`,
        check: (body: unknown) => checkBoard(body, created, me.id),
        amount: BOARD_MISSES,
        warmupPath: "/api/v1/board",
        beforeMeasured: () => touchCard(each),
        mustMiss: true,
      }),
      page: {
        path: () => `${PAGE}&dueBefore=${new Date(FAR_FUTURE_MS + missKeys++).toISOString()}`,
        check: (body: unknown) => {
          const items = (body as { items?: Created[] }).items ?? [];
          return items.map((task) => `${task.id} ${task.title}`).join() ===
            created.map((task) => `${task.id} ${task.title}`).join()
            ? null
            : `the page holds ${items.length} tasks, not the user's ${created.length} in board order`;
        },
      },
      goal: single(`/api/v1/goals/${goal.id}`, { id: goal.id, title: "Learn Czech", progress: 35 }),
      group: single(`/api/v1/groups/${group.id}`, { id: group.id }),
      project: single(`/api/v1/projects/${project.id}`, { id: project.id, name: "The garden" }),
      unread: single("/api/v1/notifications/unread-count", { unread: unreadAtStart.unread }),
      task: {
        path: () => `/api/v1/tasks/${sample.id}`,
        check: (body: unknown) => {
          const task = body as Created & { ownerId: string };
          return task.id === sample.id && task.title === sample.title && task.ownerId === me.id ? null : "not the task written";
        },
      },
    };

    let from = 1;
    for (const size of [FIRST_SIZE, settings.others]) {
      await insertOthers(admin, other.id, groups.items[0]!.id, from, size);
      from = size + 1;
      for (const kind of ["board", "boardMiss", "page", "task", ...OTHER_READS] as const) {
        for (const each of servers) {
          const expect = kind === "boardMiss" ? checks.boardMiss(each) : checks[kind];
          rows.push(await measureRow(kind, each, token, size, admin, expect));
        }
      }
    }
  } finally {
    await admin.end();
    for (const each of servers) {
      await stopChild(each);
      reportStderr(each);
    }
  }
  const measurements = rows.map((row) => row.measurement);
  process.stdout.write("\n");
  printTable(measurements);
  process.stdout.write("\n");
  printCpuTable(rows);
  process.stdout.write("\n");
  printTargets(rows);
  printNotes(measurements);
}

function printCpuTable(rows: Row[]) {
  process.stdout.write(
    "| Request | other tasks | server | req/s | server CPU/req ms | PostgreSQL CPU/req ms | total ms | of the page's total | rows seq-scanned/req |\n",
  );
  process.stdout.write("|---|---:|---|---:|---:|---:|---:|---:|---:|\n");
  for (const row of rows) {
    const page = rows.find((each) => each.kind === "page" && each.server === row.server && each.others === row.others);
    const total = row.serverMsPerRequest + row.postgresMsPerRequest;
    const pageTotal = page ? page.serverMsPerRequest + page.postgresMsPerRequest : NaN;
    const label = row.measurement.label.split(",")[0]!;
    process.stdout.write(
      `| ${label}${row.measurement.invalid ? " (INVALID)" : ""} | ${row.others.toLocaleString("en")} | ${row.server} | ` +
        `${Math.round(row.measurement.requestsPerSecond)} | ${row.serverMsPerRequest.toFixed(2)} | ` +
        `${row.postgresMsPerRequest.toFixed(2)} | ${total.toFixed(2)} | ${((total / pageTotal) * 100).toFixed(0)} % | ${Math.round(row.seqRowsPerRequest)} |\n`,
    );
  }
}

function printTargets(rows: Row[]) {
  const find = (kind: Row["kind"], server: string, others: number) =>
    rows.find((row) => row.kind === kind && row.server === server && row.others === others);
  const total = (row: Row) => row.serverMsPerRequest + row.postgresMsPerRequest;
  const verdict = (ok: boolean) => (ok ? "PASS" : "FAIL");
  const servers = [...new Set(rows.map((row) => row.server))];
  for (const server of servers) {
    for (const kind of ["board", "boardMiss"] as const) {
      const small = find(kind, server, FIRST_SIZE);
      const large = find(kind, server, settings.others);
      if (!small || !large) continue;
      const rate = large.measurement.requestsPerSecond / small.measurement.requestsPerSecond - 1;
      const cpu = total(large) / total(small) - 1;
      process.stdout.write(
        `Board (${kind === "board" ? "cache hit" : "cache miss"}), ${server}: with ${settings.others.toLocaleString("en")} ` +
          `other tasks ${signed(rate)} boards/s and ${signed(cpu)} CPU per board against ${FIRST_SIZE} ` +
          `(target within ${FLAT_TARGET * 100} %): ${verdict(Math.abs(rate) <= FLAT_TARGET && Math.abs(cpu) <= FLAT_TARGET)}\n`,
      );
    }
    for (const others of [FIRST_SIZE, settings.others]) {
      const page = find("page", server, others);
      for (const kind of ["task", ...OTHER_READS] as const) {
        const read = find(kind, server, others);
        if (!read || !page) continue;
        process.stdout.write(
          `Single read, ${server}, ${others.toLocaleString("en")} other tasks: ${read.measurement.label.split(",")[0]} ` +
            `${total(read).toFixed(2)} ms of CPU against ${total(page).toFixed(2)} ms for a page (target at most the page's): ` +
            `${verdict(total(read) <= total(page))}\n`,
        );
      }
    }
  }
  if (servers.length === 2) {
    // Like against like: hits against the baseline's hits, misses against its misses (a baseline from before boards
    // were cached answers both from the database).
    for (const others of [FIRST_SIZE, settings.others]) {
      for (const kind of ["board", "boardMiss"] as const) {
        const now = find(kind, servers[0]!, others);
        const before = find(kind, servers[1]!, others);
        if (!now || !before) continue;
        const ratio = now.measurement.requestsPerSecond / before.measurement.requestsPerSecond;
        process.stdout.write(
          `Board (${kind === "board" ? "cache hit" : "cache miss"}) against the baseline's, ${others.toLocaleString("en")} ` +
            `other tasks: ${ratio.toFixed(1)}× the boards/s, ${(total(before) / total(now)).toFixed(1)}× less CPU per board ` +
            `(target at least 10× the boards/s): ${verdict(ratio >= 10)}\n`,
        );
      }
    }
  }
}

function signed(share: number): string {
  return `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)} %`;
}

const settings: BoardSettings = settingsOrExit(readBoardSettings);
const rowCount = 2 * (4 + OTHER_READS.length) * (settings.baseline ? 2 : 1);
runBench(main, 2 * START_TIMEOUT_MS + (rowCount * (settings.quietWait + settings.warmup + settings.duration + 15) + 120) * 1000);
