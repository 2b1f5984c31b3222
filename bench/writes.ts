/**
 * The write benchmark: `npm run bench:writes` (docs/performance.md, "Writes", reads the figures).
 *
 * `POST /tasks` through server.ts against a floor that does the least a correct server must: bench/write-floor.ts,
 * a bare node:http server inserting the same row into the same table with one `INSERT … RETURNING` (through `pg`
 * on PostgreSQL, through PGlite on the embedded database). Both take `{"title": …}` with a fresh title per request,
 * at 10 connections, in --rounds interleaved rounds (floor, server, floor, server, …), on:
 *   1. PostgreSQL (a fresh database), with Redis when it answers: the floor up throughout, server.ts started for its
 *      rows alone, with the defaults users run (background jobs on: the event log's consumers, whose leases it then
 *      holds, do their share of every write in its process);
 *   2. PGlite (a fresh data directory), which one process opens at a time: server.ts and the floor take turns.
 * CPU per write is the process's (from /proc) plus, on PostgreSQL, the CPU of every backend connected to the bench
 * database over the measured seconds (the jobs' and the floor's idle connections included).
 * Targets: server.ts's writes per second at least 50 % of the floor's on PostgreSQL, 30 % on PGlite.
 * With --baseline <checkout> (another working copy with its node_modules, e.g. a `git archive` of an earlier commit)
 * its server.ts writes too, in the same rounds, as another user: a change is compared with what it replaced in one run.
 *
 * Every answer is checked: 201, JSON whose `title` is the one sent and whose `ownerId` is the writer's; after each
 * row the owner's tasks in the table must have grown by the number of 201s (none lost), plus at most one request per
 * connection at each end of the row (autocannon stops with requests under way, which the server still completes).
 *
 * Flags, or the environment variable in brackets:
 *   --rounds        (BENCH_ROUNDS)        interleaved rounds per database, 3
 *   --baseline      (BENCH_BASELINE)      a checkout whose server.ts to measure beside this one (optional)
 *   --duration      (BENCH_DURATION)      seconds measured per row, 10
 *   --warmup        (BENCH_WARMUP)        seconds of unmeasured load before each row, 2
 *   --quiet-wait    (BENCH_QUIET_WAIT)    seconds to wait at most for a quiet machine before each row, 60
 *   --postgres      (BENCH_POSTGRES_URL)  an admin URL, postgres://postgres@127.0.0.1:5432/postgres
 *   --redis         (BENCH_REDIS_URL)     redis://127.0.0.1:6379
 */
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
  deleteRedisKeys,
  dropBenchDatabase,
  expectJson,
  invalidate,
  makeTempDir,
  measure,
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
  type Load,
  type Measurement,
  type Settings,
} from "./harness";

const CONNECTIONS = 10;
const TARGETS = { postgres: 0.5, pglite: 0.3 } as const;
type Database = keyof typeof TARGETS;

interface WriteSettings extends Settings {
  rounds: number;
  baseline: string | null;
}

function readWriteSettings(): WriteSettings {
  const { values } = parseArgs({ options: { ...BENCH_OPTIONS, rounds: { type: "string" }, baseline: { type: "string" } } });
  const baseline = values.baseline ?? process.env.BENCH_BASELINE ?? null;
  if (baseline && !existsSync(path.join(baseline, "server.ts"))) throw new Error(`--baseline ${baseline} has no server.ts`);
  return {
    ...readSettings(values),
    rounds: positive("rounds", values.rounds ?? process.env.BENCH_ROUNDS ?? "3"),
    baseline: baseline ? path.resolve(baseline) : null,
  };
}

interface Row {
  measurement: Measurement;
  database: Database;
  side: "floor" | "server" | "baseline";
  /** Process CPU per write, and the PostgreSQL backends' (0 on PGlite, which runs in the process). */
  processMs: number;
  databaseMs: number;
}

/** Who writes: the user whose token server.ts takes, or the floor's owner and group. */
interface Writer {
  child: Child;
  side: Row["side"];
  ownerId: string;
  token?: string;
}

let titles = 0;

/**
 * Whether a table that grew by `grown` tasks during a row holds what its `created` answers say: all of them, and
 * beyond them at most the requests cut off at the row's two ends (one per connection at each).
 */
function holdsEveryAnswer(grown: number, created: number): boolean {
  return grown >= created && grown <= created + 2 * CONNECTIONS;
}

/**
 * Measures one row of writes, each answer checked. `count` answers the owner's tasks in the table: compared before
 * and after the row when given; otherwise the caller compares them later with the row's `created`.
 */
async function measureWrites(
  database: Database,
  writer: Writer,
  round: number,
  count: (() => Promise<number>) | null,
  admin: pg.Client | null,
): Promise<Row & { createdInAll: number }> {
  // `createdInAll` counts the warm-up's writes too (the same requests); the rest only the measured ones.
  const tally = { created: 0, createdInAll: 0, wrong: 0, notCreated: 0, example: "" };
  // autocannon hands each connection's `context` to both callbacks: the title sent is checked in the answer.
  const request: RequestSpec = {
    setupRequest: (spec, context) => {
      context.title = `Write ${++titles}`;
      return { ...spec, body: JSON.stringify({ title: context.title }) };
    },
    onResponse: (status, body, context) => {
      if (status !== 201) {
        tally.notCreated++;
        tally.example ||= `${status} ${body.slice(0, 200)}`;
        return;
      }
      tally.created++;
      tally.createdInAll++;
      const task = JSON.parse(body) as { title?: string; ownerId?: string };
      if (task.ownerId !== writer.ownerId || task.title !== context.title) {
        tally.wrong++;
        tally.example ||= `answered ${body.slice(0, 200)} to ${String(context.title)}`;
      }
    },
  };
  const load: Load = {
    path: writer.side === "floor" ? "/" : "/api/v1/tasks",
    method: "POST",
    headers: { "Content-Type": "application/json", ...(writer.token ? bearer(writer.token) : {}) },
    connections: CONNECTIONS,
    requests: [request],
  };
  const who = { floor: "floor (one INSERT)", server: "server.ts", baseline: "baseline's server.ts" }[writer.side];
  const label = `POST /tasks, ${who}, ${database}, round ${round}`;
  let tasksBefore = 0;
  let backendsBefore = new Map<number, number>();
  const measurement = await measure(label, writer.child, settings, load, {
    backingServices: true,
    beforeMeasured: async () => {
      tally.created = tally.wrong = tally.notCreated = 0;
      if (count) tasksBefore = await count();
      if (admin) backendsBefore = await backendTimes(admin, benchDatabaseName()!);
    },
  });
  const databaseMs = admin ? backendMsBetween(backendsBefore, await backendTimes(admin, benchDatabaseName()!)) : 0;
  const requests = tally.created + tally.notCreated;
  if (tally.notCreated || tally.wrong) {
    invalidate(measurement, `${tally.notCreated} answers not 201, ${tally.wrong} not the task sent (${tally.example})`);
  }
  if (count) {
    const grown = (await count()) - tasksBefore;
    if (!holdsEveryAnswer(grown, tally.created)) {
      invalidate(measurement, `the owner's tasks grew by ${grown} for ${tally.created} 201s`);
    }
  }
  progress(`${label}: ${tally.created} writes checked`);
  return {
    measurement,
    database,
    side: writer.side,
    processMs: ((measurement.cpu.server ?? 0) * 10) / measurement.requestsPerSecond,
    databaseMs: databaseMs / Math.max(1, requests),
    createdInAll: tally.createdInAll,
  };
}

async function me(server: Child, token: string): Promise<{ id: string; groupId: string }> {
  const user = (await expectJson(await fetch(`${server.url}/auth/me`, { headers: bearer(token) }), 200, "GET /auth/me")) as {
    id: string;
  };
  const groups = (await expectJson(await fetch(`${server.url}/groups`, { headers: bearer(token) }), 200, "GET /groups")) as {
    items: { id: string }[];
  };
  return { id: user.id, groupId: groups.items[0]!.id };
}

function startWriteFloor(env: Record<string, string>): Promise<Child> {
  return startChild("floor", "bench/write-floor.ts", env, "Floor is listening");
}

async function floorCount(floor: Child, ownerId: string): Promise<number> {
  const answer = (await expectJson(await fetch(`${floor.url}/count?owner=${ownerId}`), 200, "floor GET /count")) as {
    tasks: number;
  };
  return answer.tasks;
}

/** Who takes turns writing through a server.ts: this checkout's, and the baseline's when one is given. */
function serverSides(): { side: "server" | "baseline"; cwd?: string }[] {
  return settings.baseline ? [{ side: "server" }, { side: "baseline", cwd: settings.baseline }] : [{ side: "server" }];
}

function startServer(database: string, env: Record<string, string>, { side, cwd }: ReturnType<typeof serverSides>[number]) {
  return startChild(
    `${side === "server" ? "server.ts" : "baseline"} (${database})`,
    "server.ts",
    env,
    SERVER_READY,
    ...(cwd ? [cwd] : []),
  );
}

/**
 * PostgreSQL: the floor stays up; each server.ts runs alone during its rows (started for them, stopped after), so
 * that it holds every lease of the event log's consumers and its CPU includes their work on its writes.
 */
async function benchPostgres(rows: Row[]) {
  const databaseUrl = await createBenchDatabase(settings.postgresUrl);
  const redis = await reachable(settings.redisUrl, 6379);
  const redisPrefix = `spolu-bench-${Date.now()}:`;
  if (!redis) progress(`Redis at ${settings.redisUrl} does not answer: PostgreSQL alone`);
  const env = serverEnv({
    DATABASE_URL: databaseUrl,
    JWT_SECRET: randomBytes(32).toString("base64url"),
    ...(redis ? { REDIS_URL: settings.redisUrl, REDIS_PREFIX: redisPrefix } : {}),
  });
  const adminUrl = new URL(settings.postgresUrl);
  adminUrl.pathname = `/${benchDatabaseName()}`;
  const admin = new pg.Client({ connectionString: adminUrl.toString() });
  await admin.connect();
  let floor: Child | null = null;
  try {
    const sides = serverSides();
    const users = await registerWriters(await startServer("PostgreSQL", env, sides[0]!), sides.length);
    floor = await startWriteFloor({ DATABASE_URL: databaseUrl, OWNER_ID: users.floor.id, GROUP_ID: users.floor.groupId });
    const countOf = (ownerId: string) => async () =>
      (await admin.query<{ n: number }>("select count(*)::int as n from tasks where owner_id = $1", [ownerId])).rows[0]!.n;
    for (let round = 1; round <= settings.rounds; round++) {
      const floorWriter = { child: floor, side: "floor", ownerId: users.floor.id } as const;
      rows.push(await measureWrites("postgres", floorWriter, round, countOf(users.floor.id), admin));
      for (const [index, each] of sides.entries()) {
        const server = await startServer("PostgreSQL", env, each);
        try {
          const { ownerId, token } = users.servers[index]!;
          const writer = { child: server, side: each.side, ownerId, token };
          rows.push(await measureWrites("postgres", writer, round, countOf(ownerId), admin));
        } finally {
          await stopChild(server);
          reportStderr(server);
        }
      }
    }
  } finally {
    await admin.end();
    if (floor) await stopChild(floor);
    if (redis) await deleteRedisKeys(settings.redisUrl, redisPrefix);
    await dropBenchDatabase();
  }
}

/** Registers a user per server side and one for the floor through `server`, then stops it. */
async function registerWriters(server: Child, sides: number) {
  try {
    const servers: { ownerId: string; token: string; written: number }[] = [];
    for (let index = 0; index < sides; index++) {
      const token = await registerUser(server);
      servers.push({ ownerId: (await me(server, token)).id, token, written: 0 });
    }
    return { servers, floor: await me(server, await registerUser(server, "Floor")) };
  } finally {
    await stopChild(server);
    reportStderr(server);
  }
}

/**
 * PGlite: one process at a time opens the data directory, so each server.ts and the floor take turns; the floor counts
 * the tasks each server wrote in its turn (the warm-up's and the measured row's), since nothing else can read them then.
 */
async function benchPglite(rows: Row[]) {
  const dataDir = makeTempDir();
  const env = serverEnv({ DATA_DIR: dataDir, JWT_SECRET: randomBytes(32).toString("base64url") });
  const sides = serverSides();
  const users = await registerWriters(await startServer("PGlite", env, sides[0]!), sides.length);
  const floorEnv = { PGLITE_DIR: path.join(dataDir, "pglite"), OWNER_ID: users.floor.id, GROUP_ID: users.floor.groupId };
  for (let round = 1; round <= settings.rounds; round++) {
    const measured: { row: Awaited<ReturnType<typeof measureWrites>>; user: (typeof users.servers)[number] }[] = [];
    for (const [index, each] of sides.entries()) {
      const server = await startServer("PGlite", env, each);
      try {
        const user = users.servers[index]!;
        const row = await measureWrites("pglite", { child: server, side: each.side, ...user }, round, null, null);
        rows.push(row);
        measured.push({ row, user });
      } finally {
        await stopChild(server);
        reportStderr(server);
      }
    }
    const floor = await startWriteFloor(floorEnv);
    try {
      for (const { row, user } of measured) {
        const written = await floorCount(floor, user.ownerId);
        if (!holdsEveryAnswer(written - user.written, row.createdInAll)) {
          invalidate(row.measurement, `the user's tasks grew by ${written - user.written} for ${row.createdInAll} 201s`);
        }
        user.written = written;
      }
      const floorWriter = { child: floor, side: "floor", ownerId: users.floor.id } as const;
      rows.push(await measureWrites("pglite", floorWriter, round, () => floorCount(floor, users.floor.id), null));
    } finally {
      await stopChild(floor);
    }
  }
}

async function main() {
  printMachine(
    `autocannon at ${CONNECTIONS} connections; ${settings.rounds} interleaved rounds per database; ${settings.warmup} s ` +
      `warm-up + ${settings.duration} s per row, each after up to ${settings.quietWait} s of waiting for a quiet machine`,
  );
  const rows: Row[] = [];
  if (await reachable(settings.postgresUrl, 5432)) await benchPostgres(rows);
  else progress(`PostgreSQL at ${settings.postgresUrl} does not answer: PGlite only`);
  await benchPglite(rows);
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
  process.stdout.write("| Writer | database | round | writes/s | process CPU/write ms | PostgreSQL CPU/write ms | total ms |\n");
  process.stdout.write("|---|---|---:|---:|---:|---:|---:|\n");
  for (const row of rows) {
    const round = row.measurement.label.split("round ")[1];
    process.stdout.write(
      `| ${row.side}${row.measurement.invalid ? " (INVALID)" : ""} | ${row.database} | ${round} | ` +
        `${Math.round(row.measurement.requestsPerSecond)} | ${row.processMs.toFixed(2)} | ${row.databaseMs.toFixed(2)} | ` +
        `${(row.processMs + row.databaseMs).toFixed(2)} |\n`,
    );
  }
}

function printTargets(rows: Row[]) {
  const mean = (list: Row[], value: (row: Row) => number) => list.reduce((sum, row) => sum + value(row), 0) / list.length;
  const rate = (row: Row) => row.measurement.requestsPerSecond;
  const cpu = (row: Row) => row.processMs + row.databaseMs;
  for (const database of Object.keys(TARGETS) as Database[]) {
    const of = (side: Row["side"]) => rows.filter((row) => row.database === database && row.side === side);
    const floor = of("floor");
    if (!floor.length) continue;
    for (const side of ["server", "baseline"] as const) {
      const server = of(side);
      if (!server.length) continue;
      const share = mean(server, rate) / mean(floor, rate);
      const invalid = [...floor, ...server].some((row) => row.measurement.invalid);
      process.stdout.write(
        `Writes, ${database}, ${side === "server" ? "server.ts" : "the baseline's server.ts"}: ${mean(server, rate).toFixed(0)} ` +
          `writes/s against the floor's ${mean(floor, rate).toFixed(0)} (${(share * 100).toFixed(1)} %; target at least ` +
          `${TARGETS[database] * 100} %), ${mean(server, cpu).toFixed(2)} ms of CPU per write against ${mean(floor, cpu).toFixed(2)} ms: ` +
          `${invalid ? "INVALID" : share >= TARGETS[database] ? "PASS" : "FAIL"}\n`,
      );
    }
    const [now, before] = [of("server"), of("baseline")];
    if (now.length && before.length) {
      process.stdout.write(
        `Writes, ${database}, against the baseline: ${(mean(now, rate) / mean(before, rate)).toFixed(2)}× the writes/s, ` +
          `${(mean(before, cpu) / mean(now, cpu)).toFixed(2)}× less CPU per write\n`,
      );
    }
  }
}

const settings: WriteSettings = settingsOrExit(readWriteSettings);
const rowCount = 4 * settings.rounds;
runBench(
  main,
  (4 + 2 * settings.rounds) * START_TIMEOUT_MS +
    rowCount * (settings.quietWait + settings.warmup + settings.duration + 15) * 1000,
);
