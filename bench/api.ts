/**
 * The API benchmark: `npm run bench` (docs/performance.md reads the figures).
 *
 * In one run it measures, with autocannon, against servers started as child processes (so that the load
 * generator does not share their event loop):
 *   1. the floor: bench/floor-server.ts, a bare node:http server replaying server.ts's own answer to
 *      GET /healthz, headers and body (captured first, so that both send the same bytes);
 *   2. GET /healthz through server.ts on PGlite, against the floor (target: at least 50 % of it);
 *   3. GET /auth/me with a valid token, server.ts on PGlite;
 *   4. GET /auth/me, server.ts on PostgreSQL and Redis, in a fresh database dropped afterwards
 *      (skipped when PostgreSQL does not answer).
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
import {
  BENCH_OPTIONS,
  benchDatabaseName,
  bearer,
  captureAnswer,
  createBenchDatabase,
  deleteRedisKeys,
  dropBenchDatabase,
  expectJson,
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
  stopChild,
  type Child,
  type Measurement,
  type Settings,
} from "./harness";

const FLOOR_TARGET = 0.5;

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

/** The /auth/me measurement on PostgreSQL (and Redis when it answers), or a reason to skip it. */
async function benchPostgres(): Promise<Measurement | string> {
  let databaseUrl: string;
  try {
    databaseUrl = await createBenchDatabase(settings.postgresUrl);
  } catch (error) {
    return `PostgreSQL at ${settings.postgresUrl} is unreachable (${messageOf(error)})`;
  }
  try {
    const redis = await reachable(settings.redisUrl, 6379);
    const redisPrefix = `spolu-bench-${Date.now()}:`;
    const label = `GET /auth/me, server.ts (PostgreSQL${redis ? " + Redis" : ""})`;
    if (!redis) progress(`Redis at ${settings.redisUrl} does not answer: measuring PostgreSQL alone`);
    progress(`starting server.ts on PostgreSQL database ${benchDatabaseName()}`);
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
      return await measure(label, server, settings, load("/auth/me", bearer(token)), { backingServices: true });
    } finally {
      await stopChild(server);
      reportStderr(server);
      if (redis) await deleteRedisKeys(settings.redisUrl, redisPrefix);
    }
  } finally {
    await dropBenchDatabase();
  }
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
  const rows = [floor, health, me, ...(typeof postgres === "string" ? [] : [postgres])];
  for (const row of rows.slice(1)) row.ofFloor = row.requestsPerSecond / floor.requestsPerSecond;

  process.stdout.write("\n");
  printTable(rows);
  const ratio = health.requestsPerSecond / floor.requestsPerSecond;
  process.stdout.write(
    `\n/healthz through server.ts: ${(ratio * 100).toFixed(1)} % of the floor ` +
      `(target at least ${FLOOR_TARGET * 100} %): ${ratio >= FLOOR_TARGET ? "PASS" : "FAIL"}\n`,
  );
  if (typeof postgres === "string") process.stdout.write(`PostgreSQL measurement skipped: ${postgres}\n`);
  printNotes(rows);
}

const settings: Settings = settingsOrExit(() => readSettings(parseArgs({ options: BENCH_OPTIONS }).values));
runBench(main, 4 * (settings.quietWait + settings.warmup + settings.duration + 15) * 1000 + 3 * START_TIMEOUT_MS);
