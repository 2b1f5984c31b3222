/**
 * The server's CPU per page: `npm run bench:page-cpu` (docs/performance.md, "Pages on the server", reads the
 * figures). Build first: `npx next build`.
 *
 * server.ts as users run it (production build, pages served, jobs on) on PGlite in a temporary directory, then on a
 * fresh PostgreSQL database with Redis. On each, one user (Europe/Prague, English) with --tasks tasks (every one
 * due, statuses and priorities varied as bench/page-user.ts writes them) and a goal with two of them linked. At 10
 * connections, with the user's session cookie, as a browser asks for a page:
 *   - /en: the home page, the shell every page pays for (header, fonts, React's payload) with little on it;
 *   - /en/tasks, list cached: the first page of 50 tasks as a person reloading it gets it (the list's first page is
 *     in the 30-second cache the page shares with the API);
 *   - /en/tasks, list read: the same page with a new far-future due date bound on every request (every task
 *     still matches), so that the list and its counts are read from the database each time;
 *   - /en/board, /en/tasks/{id} (a task with a description and tags) and /en/goals.
 * CPU per page is server.ts's (from /proc) plus, on PostgreSQL, the CPU of the bench database's backends over the
 * measured seconds (bench/harness.ts `backendTimes`); Redis's is left out (a few commands per page).
 *
 * Every answer is checked: status 200 and, in its HTML, what that page must show (the 50 titles of the list's first
 * page, the board's first cards, the task's title, the goal's title), and a checked answer is taken right before
 * and right after each row. Target (issue 24): the task list page at most 10 ms of server CPU for 50 tasks, list
 * cached and read.
 *
 * Flags, or the environment variable in brackets (and the common ones of bench/harness.ts: --duration, --warmup,
 * --quiet-wait, --connections, --postgres, --redis):
 *   --tasks     (BENCH_TASKS)     tasks the user gets, 200
 *   --database  (BENCH_DATABASE)  pglite, postgres or both, both
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import type { RequestSpec } from "autocannon";
import pg from "pg";
import {
  backendMsBetween,
  backendTimes,
  BENCH_OPTIONS,
  benchDatabaseName,
  createBenchDatabase,
  deleteRedisKeys,
  dropBenchDatabase,
  invalidate,
  makeTempDir,
  measure,
  positive,
  printMachine,
  printNotes,
  printTable,
  progress,
  readSettings,
  reportStderr,
  runBench,
  SERVER_READY,
  serverEnv,
  settingsOrExit,
  startChild,
  stopChild,
  type Child,
  type Measurement,
  type Settings,
} from "./harness";
import { dueAt, registerPageUser, seedTasks, send, taskBody } from "./page-user";
import { SESSION_COOKIE } from "../lib/auth/actor";

const CONNECTIONS = 10;
const LIST_PAGE = 50;
const TARGET_MS = 10;
const REDIS_PREFIX = "spolu-bench-pages:";
const DATABASES = ["pglite", "postgres"] as const;
type Database = (typeof DATABASES)[number];

interface PageSettings extends Settings {
  tasks: number;
  databases: Database[];
}

function readPageSettings(): PageSettings {
  const { values } = parseArgs({
    options: { ...BENCH_OPTIONS, tasks: { type: "string" }, database: { type: "string" } },
    strict: true,
  });
  const database = values.database ?? process.env.BENCH_DATABASE ?? "both";
  if (database !== "both" && !(DATABASES as readonly string[]).includes(database)) {
    throw new Error(`--database must be pglite, postgres or both, got ${database}`);
  }
  return {
    ...readSettings(values),
    connections: CONNECTIONS,
    tasks: positive("tasks", values.tasks ?? process.env.BENCH_TASKS ?? "200"),
    databases: database === "both" ? [...DATABASES] : [database as Database],
  };
}

/** One page measured: where, and what its HTML must hold. */
interface Page {
  label: string;
  /** A path per request (a new one each time for the list read from the database). */
  path: () => string;
  mustShow: string[];
  /** The target applies to this row. */
  target: boolean;
}

interface Row {
  measurement: Measurement;
  database: Database;
  page: Page;
  serverMs: number;
  postgresMs: number;
}

/** HTML escapes the characters a title may hold; the bench's titles hold none but `#`. */
const inHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** Far-future local days, a new one per request: `dueUntil` bounds that every task meets. */
function farDays(): () => string {
  let day = 0;
  return () => {
    day = (day + 1) % 36_000;
    return new Date(Date.UTC(2100, 0, 1) + day * 24 * 3600 * 1000).toISOString().slice(0, 10);
  };
}

interface Seeded {
  cookie: string;
  /** The titles of the list's first page (newest first: the default sort). */
  firstPage: string[];
  /** The first card of each column of the board. */
  firstCards: string[];
  task: { id: string; title: string };
  goal: { title: string };
}

/** Task `n`: as bench/page-user.ts writes it, but always due (the list read bounds the due date). */
function pageTask(n: number, now: number): Record<string, unknown> {
  return { ...taskBody(n, now), dueAt: dueAt(n, now) };
}

async function api(url: string, token: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await send(`${url}/api/v1${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} /api/v1${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

async function seed(server: Child, tasks: number): Promise<Seeded> {
  const token = await registerPageUser(server.url);
  progress(`creating ${tasks} tasks`);
  await seedTasks(server.url, token, tasks, pageTask);
  // The page's own query: every status but done (those wait in the "Completed" section), newest first.
  const list = (await api(
    server.url,
    token,
    "GET",
    `/tasks?status=todo,in_progress,cancelled&sort=-createdAt&limit=${LIST_PAGE}`,
  )) as {
    items: { id: string; title: string; description: string }[];
  };
  const described = list.items.find((task) => task.description) ?? list.items[0]!;
  const goal = (await api(server.url, token, "POST", "/goals", { title: "Run a half marathon in spring" })) as {
    id: string;
    title: string;
  };
  const board = (await api(server.url, token, "GET", "/board")) as { columns: { tasks: { title: string }[] }[] };
  for (const task of list.items.slice(0, 2)) await api(server.url, token, "PUT", `/goals/${goal.id}/tasks/${task.id}`);
  return {
    cookie: `${SESSION_COOKIE}=${token}`,
    firstPage: list.items.map((task) => task.title),
    firstCards: board.columns.flatMap((column) => column.tasks.slice(0, 1).map((task) => task.title)),
    task: { id: described.id, title: described.title },
    goal: { title: goal.title },
  };
}

function pagesOf(seeded: Seeded): Page[] {
  const nextDay = farDays();
  return [
    { label: "/en (home page)", path: () => "/en", mustShow: ["Spolu"], target: false },
    { label: "/en/tasks, list cached", path: () => "/en/tasks", mustShow: seeded.firstPage, target: true },
    {
      label: "/en/tasks, list read",
      path: () => `/en/tasks?dueUntil=${nextDay()}`,
      mustShow: seeded.firstPage,
      target: true,
    },
    { label: "/en/board", path: () => "/en/board", mustShow: seeded.firstCards, target: false },
    { label: "/en/tasks/{id}", path: () => `/en/tasks/${seeded.task.id}`, mustShow: [seeded.task.title], target: false },
    { label: "/en/goals", path: () => "/en/goals", mustShow: [seeded.goal.title], target: false },
  ];
}

/** What is wrong with an answer, or null. */
function problemOf(page: Page, status: number, body: string): string | null {
  if (status !== 200) return `status ${status}`;
  const missing = page.mustShow.find((text) => !body.includes(inHtml(text)));
  return missing === undefined ? null : `"${missing}" is not on the page`;
}

async function checkedAnswer(server: Child, cookie: string, page: Page): Promise<string | null> {
  const response = await fetch(`${server.url}${page.path()}`, { headers: { Cookie: cookie } });
  return problemOf(page, response.status, await response.text());
}

async function measurePage(
  database: Database,
  server: Child,
  seeded: Seeded,
  page: Page,
  settings: PageSettings,
  admin: pg.Client | null,
): Promise<Row> {
  const before = await checkedAnswer(server, seeded.cookie, page);
  if (before) throw new Error(`${database} GET ${page.path()}: ${before}`);
  const tally = { ok: 0, wrong: 0, first: "" };
  const request: RequestSpec = {
    setupRequest: (spec) => ({ ...spec, path: page.path() }),
    onResponse: (status, body) => {
      const problem = problemOf(page, status, body);
      if (!problem) tally.ok++;
      else if (tally.wrong++ === 0) tally.first = problem;
    },
  };
  const headers = { Cookie: seeded.cookie };
  let backendsBefore = new Map<number, number>();
  const measurement = await measure(
    `${page.label} (${database})`,
    server,
    settings,
    { path: page.path(), headers, connections: CONNECTIONS, requests: [request] },
    {
      backingServices: database === "postgres",
      beforeMeasured: async () => {
        tally.ok = tally.wrong = 0;
        if (admin) backendsBefore = await backendTimes(admin, benchDatabaseName()!);
      },
    },
  );
  const postgresMs = admin ? backendMsBetween(backendsBefore, await backendTimes(admin, benchDatabaseName()!)) : 0;
  const after = await checkedAnswer(server, seeded.cookie, page);
  if (after) invalidate(measurement, `after the row: ${after}`);
  if (tally.wrong) invalidate(measurement, `${tally.wrong} answers wrong, the first: ${tally.first}`);
  progress(`${measurement.label}: ${tally.ok} answers checked`);
  const pages = tally.ok + tally.wrong;
  return {
    measurement,
    database,
    page,
    serverMs: ((measurement.cpu.server ?? 0) * 10) / measurement.requestsPerSecond,
    postgresMs: pages ? postgresMs / pages : 0,
  };
}

async function runOn(database: Database, settings: PageSettings): Promise<Row[]> {
  let admin: pg.Client | null = null;
  const env: Record<string, string> = { SERVE_PAGES: "true" };
  if (database === "pglite") env.DATA_DIR = makeTempDir();
  else {
    env.DATABASE_URL = await createBenchDatabase(settings.postgresUrl);
    env.REDIS_URL = settings.redisUrl;
    env.REDIS_PREFIX = REDIS_PREFIX;
    // Several processes could share this database: the server wants the key they would all sign sessions with.
    env.JWT_SECRET = randomBytes(32).toString("base64url");
    admin = new pg.Client({ connectionString: settings.postgresUrl });
    await admin.connect();
  }
  const server = await startChild(database, "server.ts", serverEnv(env), SERVER_READY);
  try {
    const seeded = await seed(server, settings.tasks);
    const rows: Row[] = [];
    for (const page of pagesOf(seeded)) rows.push(await measurePage(database, server, seeded, page, settings, admin));
    return rows;
  } finally {
    reportStderr(server);
    await stopChild(server);
    await admin?.end();
    if (database === "postgres") {
      await dropBenchDatabase();
      await deleteRedisKeys(settings.redisUrl, REDIS_PREFIX);
    }
  }
}

function report(rows: Row[]) {
  const measurements = rows.map((row) => row.measurement);
  printTable(measurements);
  printNotes(measurements);
  const lines = [
    "",
    "| Page | database | pages/s | server ms CPU/page | PostgreSQL ms CPU/page | total ms CPU/page |",
    "|---|---|---:|---:|---:|---:|",
    ...rows.map(
      (row) =>
        `| ${row.page.label} | ${row.database} | ${row.measurement.requestsPerSecond.toFixed(0)} | ` +
        `${row.serverMs.toFixed(2)} | ${row.database === "postgres" ? row.postgresMs.toFixed(2) : "–"} | ` +
        `${(row.serverMs + row.postgresMs).toFixed(2)} |`,
    ),
    "",
  ];
  for (const row of rows.filter((each) => each.page.target)) {
    const total = row.serverMs + row.postgresMs;
    const verdict = row.measurement.invalid ? "INVALID" : total <= TARGET_MS ? "PASS" : "FAIL";
    lines.push(
      `Target: ${row.page.label} on ${row.database} at most ${TARGET_MS} ms of server CPU: ${verdict} (${total.toFixed(2)} ms)`,
    );
  }
  process.stdout.write(`${lines.join("\n")}\n`);
}

async function main(settings: PageSettings) {
  printMachine(
    `pages at ${CONNECTIONS} connections, a user with ${settings.tasks} tasks, on ${settings.databases.join(" and ")}`,
  );
  const rows: Row[] = [];
  for (const database of settings.databases) rows.push(...(await runOn(database, settings)));
  report(rows);
}

const settings = settingsOrExit(readPageSettings);
runBench(() => main(settings), 30 * 60 * 1000);
