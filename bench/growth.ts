/**
 * The data-growth benchmark: `npm run bench:growth` (docs/performance.md, "Data growth", reads the figures).
 *
 * Issue 24's last target: list, board, single-read and write figures flat within 20 % as the table grows from
 * 1,000 to 100,000 tasks. server.ts as users run it (background jobs on) on a fresh PostgreSQL database, with Redis
 * when it answers; 10 users, the first of them the measured one, and a project of --members (50) members: the 10
 * and 40 more who own no tasks. The measured user creates the project through the API; the others join it by
 * direct SQL (`project_members`), since the API invites rather than adds someone one has never worked with. At each
 * of --sizes (1,000, 10,000, 100,000 tasks) every one of the 10 users owns size / 10 tasks, of which every 20th is
 * in the project (5 %: 5,000 shared tasks at 100,000, 500 at 10,000, 50 at 1,000). The tasks are written straight
 * into the database by one `INSERT … SELECT … FROM generate_series` per size (the triggers that keep `tasks.answer`
 * run for each row), followed by VACUUM ANALYZE; the measured user then sees its own size / 10 tasks and the other
 * nine users' project tasks. At each size, at 10 connections, for the measured user:
 *   1. GET /tasks?limit=50, cache miss: a new `dueBefore` far in the future on each request (as bench:tasks does);
 *   2. GET /board, cache miss: `limit=50.0000000000000000<n>` with a new n on each request: answers are cached per
 *      query string as sent, so each is a miss, and each is the same board of 50 cards per column, since the
 *      number parses as exactly 50 (bench:board varies the limit itself, which here would change the answer; an
 *      earlier version added a leading zero per request, and its URLs grew past what the server accepts, 431);
 *   3. GET /tasks/{id}: one of the user's own tasks (the first in board order);
 *   4. GET /projects/{id}: the project with its member count and its task counts;
 *   5. GET /tasks?projectId=…&limit=50, cache miss (a new `dueBefore` each time): the project's first page;
 *   6. POST /tasks: a new task with a fresh title (the tasks written are deleted after the row, so that the next
 *      size starts with the same number of tasks per user).
 * Before the first size's rows, every row runs once unmeasured for --server-warmup seconds (the fresh server's code
 * and its prepared statements warmed up, as they are for the later sizes). Each row: requests per second and CPU
 * per request, the server's (from /proc) and PostgreSQL's (the client backends connected to the bench database,
 * bench/harness.ts `measureWithBackends`). The verdict per request kind: the total CPU per request at the largest
 * size within 20 % of that at the smallest.
 *
 * Every answer is checked. Before each row one answer is taken (through a fresh cache key) and compared with what
 * the database holds, read by the bench's own SQL: the page's 50 ids in order (`position`, `id`), each column's total
 * and its first 50 ids, the task's id, title and owner, the project's name, member count and task counts; during the
 * row every answer must be a 200 of exactly that answer's size (and, for the misses, not say `X-Cache: HIT`); one
 * more checked answer is taken after the row. Each write must answer 201 with the title sent and the user as owner,
 * and the user's tasks must grow by the number of 201s (plus at most one request per connection at each end).
 *
 * Flags, or the environment variable in brackets:
 *   --sizes         (BENCH_SIZES)         tasks in the table, ascending, each a multiple of 200, 1000,10000,100000
 *   --members       (BENCH_MEMBERS)       the project's members (the 10 users and more), 50
 *   --server-warmup (BENCH_SERVER_WARMUP) seconds of each row, unmeasured, before the first size's rows, 3
 *   --duration      (BENCH_DURATION)      seconds measured per row, 8
 *   --warmup        (BENCH_WARMUP)        seconds of unmeasured load before each row, 2
 *   --quiet-wait    (BENCH_QUIET_WAIT)    seconds to wait at most for a quiet machine before each row, 10
 *   --postgres      (BENCH_POSTGRES_URL)  an admin URL, postgres://postgres@127.0.0.1:5432/postgres
 *   --redis         (BENCH_REDIS_URL)     redis://127.0.0.1:6379
 */
import { randomBytes } from "node:crypto";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  bearer,
  BENCH_OPTIONS,
  benchDatabaseName,
  checkedRequest,
  createBenchDatabase,
  deleteRedisKeys,
  expectJson,
  invalidate,
  measureWithBackends,
  positive,
  printMachine,
  printNotes,
  printTable,
  progress,
  reachable,
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
  type CheckedRequestSpec,
  type CostedMeasurement,
  type Load,
  type Settings,
  type Timing,
} from "./harness";

const CONNECTIONS = 10;
const USERS = 10;
/** Every this many tasks of each user, one is in the project. */
const SHARED_EVERY = 20;
const STATUSES = ["todo", "in_progress", "done", "cancelled"] as const;
const EVERY_STATUS = `status=${STATUSES.join(",")}`;
const PAGE_SIZE = 50;
const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);
/** CPU per request at the largest size within this share of the smallest's. */
const FLAT_TARGET = 0.2;
const API = "/api/v1";

interface GrowthSettings extends Settings {
  sizes: number[];
  members: number;
  /** Seconds of each row's requests, unmeasured, before the first size's measured rows (0: none). */
  serverWarmup: number;
}

function readGrowthSettings(): GrowthSettings {
  const { values } = parseArgs({
    options: { ...BENCH_OPTIONS, sizes: { type: "string" }, members: { type: "string" }, "server-warmup": { type: "string" } },
  });
  const env = process.env;
  const sizes = (values.sizes ?? env.BENCH_SIZES ?? "1000,10000,100000").split(",").map((size) => positive("sizes", size));
  const unit = USERS * SHARED_EVERY;
  if (sizes.some((size, index) => size % unit !== 0 || (index > 0 && size <= sizes[index - 1]!))) {
    throw new Error(`--sizes must be ascending multiples of ${unit}, got ${sizes.join(",")}`);
  }
  const members = positive("members", values.members ?? env.BENCH_MEMBERS ?? "50");
  if (members < USERS) throw new Error(`--members must be at least ${USERS} (the users who own tasks)`);
  const settings = readSettings({
    ...values,
    // Shorter than the other benches' defaults: 18 rows in about ten minutes.
    duration: values.duration ?? env.BENCH_DURATION ?? "8",
    "quiet-wait": values["quiet-wait"] ?? env.BENCH_QUIET_WAIT ?? "10",
  });
  const serverWarmup = positive("server-warmup", values["server-warmup"] ?? env.BENCH_SERVER_WARMUP ?? "3", true);
  return { ...settings, sizes, members, serverWarmup };
}

const KINDS = ["page", "board", "task", "project", "projectPage", "write"] as const;
type Kind = (typeof KINDS)[number];
const LABELS: Record<Kind, string> = {
  page: "GET /tasks?limit=50 (cache miss)",
  board: "GET /board (cache miss)",
  task: "GET /tasks/{id}",
  project: "GET /projects/{id}",
  projectPage: "GET /tasks?projectId=…&limit=50 (cache miss)",
  write: "POST /tasks",
};

interface Row extends CostedMeasurement {
  kind: Kind;
  size: number;
  /** Tasks in the table, and those the measured user sees, when the row ran. */
  tableTasks: number;
  visibleTasks: number;
  /** The size of each answer (the checked one's, which every answer had); 0 for the writes, whose titles differ. */
  bytes: number;
}

/** A read row: its paths, and what its checked answer must hold (read from the database when the row starts). */
interface Read {
  path: () => string;
  mustMiss?: boolean;
  expect: () => Promise<(body: unknown) => string | null>;
}

interface User {
  token: string;
  id: string;
  groupId: string;
}

async function getJson(server: Child, token: string, urlPath: string): Promise<{ body: unknown; bytes: number }> {
  const response = await fetch(`${server.url}${urlPath}`, { headers: bearer(token) });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`GET ${urlPath}: ${response.status} ${text}`);
  return { body: JSON.parse(text), bytes: Buffer.byteLength(text) };
}

async function signUp(server: Child, name: string): Promise<User> {
  const token = await registerUser(server, name);
  const me = (await getJson(server, token, "/auth/me")).body as { id: string };
  const groups = (await getJson(server, token, "/groups")).body as { items: { id: string }[] };
  return { token, id: me.id, groupId: groups.items[0]!.id };
}

/**
 * Each of the users' tasks numbered `from` to `to`: every 20th in the project, the four statuses in turn (shifted by
 * one every 20 tasks, so that the project's tasks have all four too), due 30 to 119 days from now (no reminder falls
 * due during the run), positions that the API's own keys follow.
 */
async function insertTasks(admin: pg.Client, users: User[], projectId: string, from: number, to: number) {
  const started = performance.now();
  await admin.query(
    `insert into tasks (owner_id, group_id, project_id, title, status, position, due_at)
     select u.id, u.group_id, case when n % ${SHARED_EVERY} = 0 then $3::uuid end, 'Task ' || n || ' of user ' || u.k,
            (array['todo','in_progress','done','cancelled'])[1 + (n + n / ${SHARED_EVERY}) % 4],
            'a0' || lpad(n::text, 6, '0') || 'V', now() + (30 + n % 90) * interval '1 day'
     from unnest($1::uuid[], $2::uuid[]) with ordinality as u(id, group_id, k), generate_series($4::int, $5::int) as n`,
    [users.map((user) => user.id), users.map((user) => user.groupId), projectId, from, to],
  );
  // Vacuumed and analysed now, so that autovacuum does not work on the new rows during the measured seconds.
  await admin.query("vacuum analyze tasks");
  progress(`${users.length * (to - from + 1)} tasks inserted in ${Math.round(performance.now() - started)} ms`);
}

async function countOf(admin: pg.Client, where: string, values: unknown[]): Promise<number> {
  const { rows } = await admin.query<{ n: number }>(`select count(*)::int as n from tasks where ${where}`, values);
  return rows[0]!.n;
}

/** What the database says a first page holds: ids in board order (position, then id). */
async function expectedIds(admin: pg.Client, where: string, values: unknown[]): Promise<string[]> {
  const { rows } = await admin.query<{ id: string }>(
    `select id from tasks where ${where} order by position, id limit ${PAGE_SIZE}`,
    values,
  );
  return rows.map((row) => row.id);
}

function samePage(body: unknown, ids: string[]): string | null {
  const items = (body as { items?: { id: string }[] }).items ?? [];
  const got = items.map((task) => task.id);
  if (got.join() === ids.join()) return null;
  const at = got.findIndex((id, index) => id !== ids[index]);
  return `the page holds ${got.length} tasks, not the ${ids.length} the database has first (first difference at ${at})`;
}

async function main() {
  printMachine(
    `autocannon at ${CONNECTIONS} connections; ${settings.warmup} s warm-up + ${settings.duration} s per row, each after up ` +
      `to ${settings.quietWait} s of waiting for a quiet machine; sizes ${settings.sizes.join(", ")} tasks; ${USERS} users, ` +
      `a project of ${settings.members} members`,
  );
  const databaseUrl = await createBenchDatabase(settings.postgresUrl);
  const database = benchDatabaseName()!;
  const redis = await reachable(settings.redisUrl, 6379);
  const redisPrefix = `spolu-bench-${Date.now()}:`;
  if (!redis) progress(`Redis at ${settings.redisUrl} does not answer: PostgreSQL alone`);
  const env = serverEnv({
    AUTH_RATE_LIMIT_POINTS: "1000",
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString("base64url"),
    ...(redis ? { REDIS_URL: settings.redisUrl, REDIS_PREFIX: redisPrefix } : {}),
  });
  progress(`starting server.ts on database ${database}${redis ? " with Redis" : ""} (jobs on)`);
  const server = await startChild("server.ts", "server.ts", env, SERVER_READY);
  const adminUrl = new URL(settings.postgresUrl);
  adminUrl.pathname = `/${database}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  // On Ctrl-C the clean-up drops the database WITH (FORCE), which ends this connection: not an error worth a crash.
  admin.on("error", (error) => progress(`the bench's own connection ended: ${error.message}`));
  await admin.connect();
  const rows: Row[] = [];
  try {
    progress(`registering ${settings.members} users`);
    const users: User[] = [];
    for (let index = 0; index < USERS; index++) users.push(await signUp(server, `User ${index + 1}`));
    const others: string[] = [];
    for (let index = USERS; index < settings.members; index++) others.push((await signUp(server, `Member ${index + 1}`)).id);
    const me = users[0]!;
    const projectName = "The shared project";
    const created = await fetch(`${server.url}${API}/projects`, {
      method: "POST",
      headers: { ...bearer(me.token), "Content-Type": "application/json" },
      body: JSON.stringify({ name: projectName }),
    });
    const project = (await expectJson(created, 201, "POST /projects")) as { id: string };
    await admin.query("insert into project_members (project_id, user_id, role) select $1, unnest($2::uuid[]), 'member'", [
      project.id,
      [...users.slice(1).map((user) => user.id), ...others],
    ]);
    const visible = "(owner_id = $1 or project_id = $2)";
    const inProject = "project_id = $1";

    let perUser = 0;
    for (const size of settings.sizes) {
      await insertTasks(admin, users, project.id, perUser + 1, size / USERS);
      perUser = size / USERS;
      const tableTasks = await countOf(admin, "true", []);
      const visibleTasks = await countOf(admin, visible, [me.id, project.id]);
      const shared = await countOf(admin, inProject, [project.id]);
      progress(`${tableTasks} tasks in the table; the measured user sees ${visibleTasks}, ${shared} of them in the project`);
      const first = (
        await admin.query<{ id: string; title: string }>(
          "select id, title from tasks where owner_id = $1 order by position, id limit 1",
          [me.id],
        )
      ).rows[0]!;
      let keys = 0;
      const missKey = () => new Date(FAR_FUTURE_MS + keys++).toISOString();
      let boardKeys = 0;

      /** Each kind: its paths, what its checked answer must hold (read from the database when the row starts). */
      const reads: Record<Exclude<Kind, "write">, Read> = {
        page: {
          path: () => `${API}/tasks?limit=${PAGE_SIZE}&${EVERY_STATUS}&dueBefore=${missKey()}`,
          mustMiss: true,
          expect: async () => {
            const ids = await expectedIds(admin, visible, [me.id, project.id]);
            return (body) => samePage(body, ids);
          },
        },
        projectPage: {
          path: () => `${API}/tasks?projectId=${project.id}&limit=${PAGE_SIZE}&${EVERY_STATUS}&dueBefore=${missKey()}`,
          mustMiss: true,
          expect: async () => {
            const ids = await expectedIds(admin, inProject, [project.id]);
            return (body) => samePage(body, ids);
          },
        },
        board: {
          // 50 followed by 16 zeros and a counter: a new query string each time that parses as exactly 50 (the counter
          // adds less than 1e-16, below a double's precision at 50).
          path: () => `${API}/board?limit=${PAGE_SIZE}.${"0".repeat(16)}${++boardKeys}`,
          mustMiss: true,
          expect: async () => {
            // One after the other: the admin connection runs one statement at a time.
            const columns: { total: number; ids: string[] }[] = [];
            for (const status of STATUSES) {
              const where = `${visible} and status = $3`;
              const values = [me.id, project.id, status];
              columns.push({ total: await countOf(admin, where, values), ids: await expectedIds(admin, where, values) });
            }
            return (body) => {
              const got = (body as { columns?: { status: string; total: number; tasks: { id: string }[] }[] }).columns ?? [];
              if (got.map((column) => column.status).join() !== STATUSES.join()) return "the columns are not the four statuses";
              for (const [index, column] of got.entries()) {
                const want = columns[index]!;
                if (column.total !== want.total) return `${column.status} has total ${column.total}, not ${want.total}`;
                if (column.tasks.map((task) => task.id).join() !== want.ids.join()) {
                  return `${column.status}'s cards are not the database's first ${want.ids.length} in board order`;
                }
              }
              return null;
            };
          },
        },
        task: {
          path: () => `${API}/tasks/${first.id}`,
          expect: async () => (body) => {
            const task = body as { id?: string; title?: string; ownerId?: string };
            return task.id === first.id && task.title === first.title && task.ownerId === me.id
              ? null
              : "not the task in the database";
          },
        },
        project: {
          path: () => `${API}/projects/${project.id}`,
          expect: async () => {
            const total = await countOf(admin, inProject, [project.id]);
            const open = await countOf(admin, `${inProject} and status in ('todo', 'in_progress')`, [project.id]);
            return (body) => {
              const answer = body as {
                id?: string;
                name?: string;
                memberCount?: number;
                tasks?: { total: number; open: number };
              };
              const got = `${answer.id} ${answer.name} ${answer.memberCount} ${answer.tasks?.total} ${answer.tasks?.open}`;
              const want = `${project.id} ${projectName} ${settings.members} ${total} ${open}`;
              return got === want ? null : `answered ${got}, the database holds ${want}`;
            };
          },
        },
      };

      // At the first size, one unmeasured pass of every row first: the fresh server's code and its connections'
      // prepared statements warmed up as they are for the later sizes (a first run showed the first rows dearer).
      const passes = size === settings.sizes[0] && settings.serverWarmup ? ["warm-up", "measured"] : ["measured"];
      for (const pass of passes) {
        const timing = pass === "measured" ? settings : { duration: settings.serverWarmup, warmup: 0, quietWait: 0 };
        for (const kind of KINDS) {
          const label = `${LABELS[kind]}, ${size.toLocaleString("en")} tasks${pass === "measured" ? "" : " (server warm-up)"}`;
          const row =
            kind === "write"
              ? { ...(await measureWrites(server, me, admin, label, timing)), bytes: 0 }
              : await measureRead(reads[kind], label, timing);
          if (pass === "measured") rows.push({ ...row, kind, size, tableTasks, visibleTasks });
        }
      }
    }

    /** One read's row: its answer checked against the database before and after, every answer during it. */
    async function measureRead(read: Read, label: string, timing: Timing): Promise<CostedMeasurement & { bytes: number }> {
      const check = await read.expect();
      const checked = await getJson(server, me.token, read.path());
      const problem = check(checked.body);
      if (problem) throw new Error(`${label}: ${problem}`);
      const spec: CheckedRequestSpec = {
        path: read.path,
        mustMiss: read.mustMiss ?? false,
        check: (status, body) =>
          status !== 200
            ? `${status} ${body.slice(0, 200)}`
            : Buffer.byteLength(body) !== checked.bytes
              ? `${Buffer.byteLength(body)} bytes, not the checked answer's ${checked.bytes}`
              : null,
      };
      const { request, tally, reset } = checkedRequest(spec);
      const load: Load = { path: read.path(), headers: bearer(me.token), connections: CONNECTIONS, requests: [request] };
      const row = await measureWithBackends(
        label,
        server,
        timing,
        load,
        { admin, name: database, answered: () => tally.right + tally.wrong },
        { beforeMeasured: async () => reset() },
      );
      const after = check((await getJson(server, me.token, read.path())).body);
      if (after) invalidate(row.measurement, `after the row: ${after}`);
      if (tally.wrong) invalidate(row.measurement, `${tally.wrong} wrong answers (${tally.example})`);
      if (tally.hits) invalidate(row.measurement, `${tally.hits} answers were cache hits`);
      progress(`${label}: ${tally.right} answers checked (200, ${checked.bytes} bytes)`);
      return { ...row, bytes: checked.bytes };
    }
  } finally {
    await admin.end();
    await stopChild(server);
    reportStderr(server);
    if (redis) await deleteRedisKeys(settings.redisUrl, redisPrefix);
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

let titles = 0;

/** POST /tasks as the measured user, every answer checked; the tasks written are deleted after the row. */
async function measureWrites(
  server: Child,
  me: User,
  admin: pg.Client,
  label: string,
  timing: Timing,
): Promise<CostedMeasurement> {
  const prefix = `Written ${Date.now()} `;
  const { request, tally, reset } = checkedRequest({
    path: () => `${API}/tasks`,
    body: (context) => {
      context.title = `${prefix}${++titles}`;
      return JSON.stringify({ title: context.title });
    },
    check: (status, body, context) => {
      if (status !== 201) return `${status} ${body.slice(0, 200)}`;
      const task = JSON.parse(body) as { title?: string; ownerId?: string };
      return task.title === context.title && task.ownerId === me.id
        ? null
        : `answered ${body.slice(0, 200)} to ${String(context.title)}`;
    },
  });
  const load: Load = {
    path: `${API}/tasks`,
    method: "POST",
    headers: { ...bearer(me.token), "Content-Type": "application/json" },
    connections: CONNECTIONS,
    requests: [request],
  };
  const mine = () => countOf(admin, "owner_id = $1", [me.id]);
  let before = 0;
  const row = await measureWithBackends(
    label,
    server,
    timing,
    load,
    { admin, name: benchDatabaseName()!, answered: () => tally.right + tally.wrong },
    {
      beforeMeasured: async () => {
        reset();
        before = await mine();
      },
    },
  );
  const grown = (await mine()) - before;
  if (tally.wrong) invalidate(row.measurement, `${tally.wrong} wrong answers (${tally.example})`);
  if (grown < tally.right || grown > tally.right + 2 * CONNECTIONS) {
    invalidate(row.measurement, `the user's tasks grew by ${grown} for ${tally.right} 201s`);
  }
  progress(`${label}: ${tally.right} writes checked`);
  // Let the last writes' consumers finish, then take the written tasks out again (the warm-up's too).
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const { rowCount } = await admin.query("delete from tasks where owner_id = $1 and title like $2", [me.id, `${prefix}%`]);
  progress(`${rowCount} written tasks deleted`);
  return row;
}

function printCpuTable(rows: Row[]) {
  process.stdout.write(
    "| Request | tasks in the table | the user sees | answer bytes | req/s | server CPU/req ms | PostgreSQL CPU/req ms | total ms |\n",
  );
  process.stdout.write("|---|---:|---:|---:|---:|---:|---:|---:|\n");
  for (const row of rows) {
    process.stdout.write(
      `| ${LABELS[row.kind]}${row.measurement.invalid ? " (INVALID)" : ""} | ${row.tableTasks.toLocaleString("en")} | ` +
        `${row.visibleTasks.toLocaleString("en")} | ${row.bytes ? row.bytes.toLocaleString("en") : "–"} | ` +
        `${Math.round(row.measurement.requestsPerSecond)} | ` +
        `${row.serverMsPerRequest.toFixed(2)} | ${row.postgresMsPerRequest.toFixed(2)} | ` +
        `${(row.serverMsPerRequest + row.postgresMsPerRequest).toFixed(2)} |\n`,
    );
  }
}

/**
 * The verdict per kind: the total CPU per request at the largest size against the smallest. The steps in between
 * are printed too: at the smallest size the user may see fewer tasks than a page or a board holds (145 at 1,000,
 * about 36 per column), so the step between the two larger sizes compares answers of the same size.
 */
function printTargets(rows: Row[]) {
  const smallest = settings.sizes[0]!;
  const largest = settings.sizes.at(-1)!;
  const total = (row: Row) => row.serverMsPerRequest + row.postgresMsPerRequest;
  for (const kind of KINDS) {
    const of = rows.filter((row) => row.kind === kind);
    const small = of.find((row) => row.size === smallest);
    const large = of.find((row) => row.size === largest);
    if (!small || !large) continue;
    const cpu = total(large) / total(small) - 1;
    const rate = large.measurement.requestsPerSecond / small.measurement.requestsPerSecond - 1;
    const invalid = of.some((row) => row.measurement.invalid);
    const steps = of
      .slice(1)
      .map((row, index) => `${signed(total(row) / total(of[index]!) - 1)} to ${row.size.toLocaleString("en")}`)
      .join(", ");
    process.stdout.write(
      `${LABELS[kind]}: ${total(small).toFixed(2)} → ${total(large).toFixed(2)} ms of CPU per request from ` +
        `${smallest.toLocaleString("en")} to ${largest.toLocaleString("en")} tasks (${signed(cpu)}; step by step ${steps}; ` +
        `${signed(rate)} requests/s); target within ${FLAT_TARGET * 100} %: ` +
        `${invalid ? "INVALID" : Math.abs(cpu) <= FLAT_TARGET ? "PASS" : "FAIL"}\n`,
    );
  }
}

function signed(share: number): string {
  return `${share >= 0 ? "+" : ""}${(share * 100).toFixed(1)} %`;
}

const settings: GrowthSettings = settingsOrExit(readGrowthSettings);
const rowCount = settings.sizes.length * KINDS.length;
runBench(
  main,
  START_TIMEOUT_MS +
    (rowCount * (settings.quietWait + settings.warmup + settings.duration + 20) +
      KINDS.length * (settings.serverWarmup + 10) +
      settings.members * 5 +
      settings.sizes.at(-1)! / 500) *
      1000,
);
