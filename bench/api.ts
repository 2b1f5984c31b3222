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
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon, { type Result } from "autocannon";
import { Redis } from "ioredis";
import pg from "pg";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const FLOOR_TARGET = 0.5;
/** The line server.ts logs once it accepts requests (bench/floor-server.ts logs its own). */
const SERVER_READY = "Spolu is listening";
const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
/** Above this share of a core used by other processes or stolen during a measurement, the run says so. */
const BUSY_MACHINE_PERCENT = 20;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

interface Settings {
  duration: number;
  warmup: number;
  /** At most this many seconds to wait for a quiet machine before each measurement. */
  quietWait: number;
  connections: number;
  postgresUrl: string;
  redisUrl: string;
}

interface Measurement {
  label: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  cpu: CpuShare;
  /** Lines the server wrote to stderr (warnings and errors) during the warm-up and the measurement. */
  serverErrors: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: string;
  /** Share of the floor's requests per second. */
  ofFloor?: number;
  /** PostgreSQL and Redis run beside the server: their CPU shows under "other". */
  backingServices: boolean;
  /** Why the figures do not count (the server died during the run). */
  invalid?: string;
}

/**
 * CPU time used during a measurement, in per cent of one core (the machine's total is cores × 100 %). The
 * server's, the machine's and the stolen share come from /proc (Linux only; null elsewhere).
 */
interface CpuShare {
  server: number | null;
  bench: number;
  /** Everything else on the machine: PostgreSQL and Redis, and whatever else is running. */
  other: number | null;
  /** Time the hypervisor gave to other guests while this machine wanted to run. */
  stolen: number | null;
}

interface CpuSample {
  at: number;
  machine: { busyMs: number; stolenMs: number } | null;
  benchMs: number;
  serverMs: number | null;
}

interface Child {
  name: string;
  url: string;
  process: ChildProcess;
  /** What the child wrote to stderr (warnings and errors), kept for the report. */
  stderr: string[];
  /** Set when the child exited without being asked to (by `stopChild`): how it ended. */
  diedUnasked?: string;
  /** `stopChild` has asked it to stop. */
  stopping: boolean;
}

const children = new Set<Child>();
const tempDirs = new Set<string>();
let benchDatabase: { adminUrl: string; name: string } | null = null;

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function progress(message: string) {
  process.stderr.write(`· ${message}\n`);
}

function readSettings(): Settings {
  const { values } = parseArgs({
    options: {
      duration: { type: "string" },
      warmup: { type: "string" },
      "quiet-wait": { type: "string" },
      connections: { type: "string" },
      postgres: { type: "string" },
      redis: { type: "string" },
    },
  });
  const env = process.env;
  const settings: Settings = {
    duration: positive("duration", values.duration ?? env.BENCH_DURATION ?? "10"),
    warmup: positive("warmup", values.warmup ?? env.BENCH_WARMUP ?? "2", true),
    quietWait: positive("quiet-wait", values["quiet-wait"] ?? env.BENCH_QUIET_WAIT ?? "60", true),
    connections: positive("connections", values.connections ?? env.BENCH_CONNECTIONS ?? "50"),
    postgresUrl: values.postgres ?? env.BENCH_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/postgres",
    redisUrl: values.redis ?? env.BENCH_REDIS_URL ?? "redis://127.0.0.1:6379",
  };
  for (const url of [settings.postgresUrl, settings.redisUrl]) {
    if (!LOOPBACK.has(new URL(url).hostname)) throw new Error(`The benchmark only talks to this machine, not ${url}`);
  }
  return settings;
}

function positive(name: string, value: string, zeroAllowed = false): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < (zeroAllowed ? 0 : 1)) {
    throw new Error(`--${name} must be a whole number${zeroAllowed ? "" : " above 0"}, got ${value}`);
  }
  return number;
}

/**
 * The V8 flag `npm start` runs server.ts with (package.json): a 64 MiB young generation, so that the
 * garbage collector scavenges far less often under load. The floor runs with it too, to compare alike.
 */
const NODE_FLAGS = ["--max-semi-space-size=64"];

/**
 * Starts `node --import tsx <script>` and resolves once it prints the JSON line `{msg: ready, url}`. Notes when
 * the child ends without `stopChild` asking it to, and by which signal when server.ts logs one.
 */
function startChild(name: string, script: string, env: Record<string, string>, ready: string): Promise<Child> {
  const child = spawn(process.execPath, [...NODE_FLAGS, "--import", "tsx", script], {
    cwd: ROOT,
    // A clean environment: the caller's DATABASE_URL and the like must not leak into the measured servers.
    env: { PATH: process.env.PATH ?? "", HOME: os.homedir(), TMPDIR: os.tmpdir(), ...env, NODE_ENV: "production" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const entry: Child = { name, url: "", process: child, stderr: [], stopping: false };
  children.add(entry);
  createInterface({ input: child.stderr }).on("line", (line) => entry.stderr.push(line));

  return new Promise<Child>((resolve, reject) => {
    let shutdownSignal = "";
    const timer = setTimeout(() => fail(`did not start within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS);
    function fail(reason: string) {
      clearTimeout(timer);
      reject(new Error(`${name} ${reason}\n${entry.stderr.slice(-20).join("\n")}`));
    }
    createInterface({ input: child.stdout }).on("line", (line) => {
      const message = parseJson(line);
      if (message?.msg === "Shutting down") shutdownSignal = String(message.signal);
      if (entry.url || message?.msg !== ready || typeof message.url !== "string") return;
      clearTimeout(timer);
      entry.url = message.url;
      resolve(entry);
    });
    child.once("error", (error) => fail(error.message));
    // "close" comes after the child's output is read, so the shutdown line is in by then.
    child.once("close", (code, signal) => {
      if (entry.stopping) return;
      entry.diedUnasked = shutdownSignal ? `${shutdownSignal}, not sent by the bench` : (signal ?? `exit code ${code}`);
      if (!entry.url) fail(`exited before it was ready (${entry.diedUnasked})`);
    });
  });
}

function parseJson(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === "object" && value !== null ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** SIGTERM (server.ts drains and closes its database), SIGKILL if it takes too long. */
async function stopChild(child: Child): Promise<void> {
  children.delete(child);
  child.stopping = true;
  const { process: proc } = child;
  if (proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => proc.once("exit", () => resolve()));
  proc.kill("SIGTERM");
  const timer = setTimeout(() => proc.kill("SIGKILL"), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function serverEnv(extra: Record<string, string>): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    PORT: "0",
    SERVE_PAGES: "false",
    RUN_JOBS: "false",
    // "info" only adds the start and stop lines (the ready signal); requests are not logged.
    LOG_LEVEL: "info",
    RATE_LIMIT_POINTS: "100000000",
    ...extra,
  };
}

function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

async function expectJson(response: Response, status: number, what: string): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Checks the server answers as the measurements assume, and returns a valid session token. */
async function preflight(server: Child): Promise<string> {
  const health = await expectJson(await fetch(`${server.url}/healthz`), 200, `${server.name} GET /healthz`);
  if (JSON.stringify(health) !== JSON.stringify({ status: "ok" })) {
    throw new Error(`${server.name}: unexpected /healthz body ${JSON.stringify(health)}`);
  }
  const registered = await fetch(`${server.url}/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: `bench-${Date.now()}@example.com`,
      password: randomBytes(18).toString("base64url"),
      name: "Bench",
    }),
  });
  const { token } = (await expectJson(registered, 201, `${server.name} POST /auth/register`)) as { token: string };
  const me = await fetch(`${server.url}/auth/me`, { headers: bearer(token) });
  await expectJson(me, 200, `${server.name} GET /auth/me`);
  return token;
}

/** Linux counts CPU time in /proc in clock ticks, nearly always 100 a second. */
const MS_PER_TICK = 10;

/** CPU time so far: the machine's (all cores), this process's and the server's. */
function sampleCpu(serverPid: number | undefined): CpuSample {
  const { user, system } = process.cpuUsage();
  return { at: performance.now(), machine: machineCpuMs(), benchMs: (user + system) / 1000, serverMs: processCpuMs(serverPid) };
}

/** From the first line of /proc/stat: user nice system idle iowait irq softirq steal ... */
function machineCpuMs(): CpuSample["machine"] {
  try {
    const ticks = readFileSync("/proc/stat", "utf8").split("\n", 1)[0]!.trim().split(/\s+/).slice(1).map(Number);
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = ticks;
    return { busyMs: (user + nice + system + irq + softirq) * MS_PER_TICK, stolenMs: steal * MS_PER_TICK };
  } catch {
    return null;
  }
}

/** utime + stime of a process, from /proc/<pid>/stat. */
function processCpuMs(pid: number | undefined): number | null {
  if (pid === undefined) return null;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
  } catch {
    return null;
  }
}

function cpuShare(before: CpuSample, after: CpuSample): CpuShare {
  const wallMs = after.at - before.at;
  const percent = (ms: number) => (100 * ms) / wallMs;
  const server = before.serverMs === null || after.serverMs === null ? null : percent(after.serverMs - before.serverMs);
  const bench = percent(after.benchMs - before.benchMs);
  if (!before.machine || !after.machine) return { server, bench, other: null, stolen: null };
  const machine = percent(after.machine.busyMs - before.machine.busyMs);
  return {
    server,
    bench,
    other: Math.max(0, machine - bench - (server ?? 0)),
    stolen: percent(after.machine.stolenMs - before.machine.stolenMs),
  };
}

/**
 * Waits (up to `maxSeconds`) until the machine has been quiet for two seconds in a row, so that a build or a
 * test run elsewhere does not land in a measurement. The servers are idle meanwhile.
 */
async function awaitQuietMachine(label: string, maxSeconds: number): Promise<void> {
  const deadline = performance.now() + maxSeconds * 1000;
  let quietSeconds = 0;
  let said = false;
  let previous = machineCpuMs();
  while (previous && quietSeconds < 2 && performance.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const current = machineCpuMs();
    if (!current) return;
    const busy = (current.busyMs - previous.busyMs + current.stolenMs - previous.stolenMs) / 10;
    previous = current;
    quietSeconds = busy < BUSY_MACHINE_PERCENT ? quietSeconds + 1 : 0;
    if (quietSeconds === 0 && !said) {
      progress(`${label}: other processes keep ${busy.toFixed(0)} % of a core busy, waiting up to ${maxSeconds} s`);
      said = true;
    }
  }
  if (quietSeconds < 2 && said) progress(`${label}: the machine is still busy, measuring anyway`);
}

async function measure(
  label: string,
  server: Child,
  urlPath: string,
  settings: Settings,
  { headers = {}, backingServices = false }: { headers?: Record<string, string>; backingServices?: boolean } = {},
): Promise<Measurement> {
  const options = { url: `${server.url}${urlPath}`, headers, connections: settings.connections };
  const stderrBefore = server.stderr.length;
  await awaitQuietMachine(label, settings.quietWait);
  if (settings.warmup) {
    progress(`${label}: ${settings.warmup} s warm-up`);
    await autocannon({ ...options, duration: settings.warmup });
  }
  progress(`${label}: ${settings.duration} s at ${settings.connections} connections`);
  const before = sampleCpu(server.process.pid);
  const result: Result = await autocannon({ ...options, duration: settings.duration });
  const cpu = cpuShare(before, sampleCpu(server.process.pid));
  return {
    label,
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpu,
    backingServices,
    serverErrors: server.stderr.length - stderrBefore,
    ...(server.diedUnasked ? { invalid: `${server.name} exited during the run (${server.diedUnasked})` } : {}),
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    statusCodes: Object.entries(result.statusCodeStats)
      .map(([code, { count }]) => `${code}×${count}`)
      .join(" "),
  };
}

/** Resolves whether something accepts TCP connections at the URL's host and port within a second. */
function reachable(url: string, defaultPort: number): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const host = hostname.replace(/^\[|\]$/g, "");
    const socket = connect({ host, port: Number(port || defaultPort), timeout: 1000 });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once("connect", () => done(true));
    socket.once("timeout", () => done(false));
    socket.once("error", () => done(false));
  });
}

async function withAdmin<T>(adminUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: adminUrl, connectionTimeoutMillis: 3000 });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

async function createBenchDatabase(adminUrl: string): Promise<string> {
  const name = `spolu_bench_${Date.now()}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  benchDatabase = { adminUrl, name };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function dropBenchDatabase(): Promise<void> {
  if (!benchDatabase) return;
  const { adminUrl, name } = benchDatabase;
  benchDatabase = null;
  await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Runs the two PGlite measurements on one server.ts with a temporary data directory. */
/** An answer as bench/floor-server.ts replays it (FLOOR_RESPONSE). */
interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

async function captureAnswer(url: string): Promise<Answer> {
  const response = await fetch(url);
  return { status: response.status, headers: [...response.headers], body: await response.text() };
}

async function benchPglite(settings: Settings): Promise<{ health: Measurement; me: Measurement; healthAnswer: Answer }> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), "spolu-bench-"));
  tempDirs.add(dataDir);
  progress("starting server.ts on PGlite (a fresh data directory takes 10-15 s)");
  const server = await startChild("server.ts (PGlite)", "server.ts", serverEnv({ DATA_DIR: dataDir }), SERVER_READY);
  try {
    const token = await preflight(server);
    const healthAnswer = await captureAnswer(`${server.url}/healthz`);
    const health = await measure("GET /healthz, server.ts (PGlite)", server, "/healthz", settings);
    const me = await measure("GET /auth/me, server.ts (PGlite)", server, "/auth/me", settings, {
      headers: bearer(token),
    });
    return { health, me, healthAnswer };
  } finally {
    await stopChild(server);
    reportStderr(server);
    rmSync(dataDir, { recursive: true, force: true });
    tempDirs.delete(dataDir);
  }
}

/** The /auth/me measurement on PostgreSQL (and Redis when it answers), or a reason to skip it. */
async function benchPostgres(settings: Settings): Promise<Measurement | string> {
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
    progress(`starting server.ts on PostgreSQL database ${benchDatabase?.name}`);
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
      return await measure(label, server, "/auth/me", settings, { headers: bearer(token), backingServices: true });
    } finally {
      await stopChild(server);
      reportStderr(server);
      if (redis) await deleteRedisKeys(settings.redisUrl, redisPrefix);
    }
  } finally {
    await dropBenchDatabase();
  }
}

/** Removes the rate-limit counters the server left in Redis (they would expire within minutes anyway). */
async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    for await (const keys of client.scanStream({ match: `${prefix}*`, count: 100 }) as AsyncIterable<string[]>) {
      if (keys.length) await client.del(...keys);
    }
  } catch (error) {
    progress(`could not remove the bench's Redis keys ${prefix}*: ${messageOf(error)}`);
  } finally {
    client.disconnect();
  }
}

/** What a server wrote to stderr over its life, one line per distinct message with its count. */
function reportStderr(child: Child) {
  if (child.stderr.length === 0) return;
  const counts = new Map<string, number>();
  for (const line of child.stderr) {
    const entry = parseJson(line);
    const key = entry ? [entry.level, entry.msg, entry.error].filter((part) => part !== undefined).join(" · ") : line;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  progress(`${child.name} wrote ${child.stderr.length} line(s) to stderr:`);
  for (const [message, count] of counts) process.stderr.write(`    ${count}× ${message}\n`);
}

function printMachine(settings: Settings) {
  const cpus = os.cpus();
  const lines = [
    `Date:       ${new Date().toISOString()}`,
    `CPU:        ${cpus[0]?.model ?? "unknown"}, ${cpus.length} cores`,
    `Memory:     ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `OS:         ${os.type()} ${os.release()} (${os.arch()})`,
    `Node:       ${process.version}`,
    `Load avg:   ${os.loadavg().map((load) => load.toFixed(2)).join(" ")} (1, 5, 15 min) at the start`,
    `Load:       autocannon, ${settings.connections} connections, ` +
      `${settings.warmup} s warm-up + ${settings.duration} s per measurement, each after up to ${settings.quietWait} s of waiting for a quiet machine`,
  ];
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

function percentOf(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${value.toFixed(0)} %`;
}

/** A Markdown table, so that docs/performance.md can take it as printed. */
function printTable(rows: Measurement[]) {
  const header = [
    "Measurement", "req/s", "p50 ms", "p99 ms", "of floor", "server CPU", "bench CPU", "other CPU", "stolen",
    "non-2xx", "errors", "server errors", "status codes",
  ];
  const leftAligned = new Set([0, header.length - 1]);
  const cells = rows.map((row) => [
    row.label,
    Math.round(row.requestsPerSecond).toString(),
    row.p50.toFixed(0),
    row.p99.toFixed(0),
    row.ofFloor === undefined ? "100 %" : `${(row.ofFloor * 100).toFixed(1)} %`,
    percentOf(row.cpu.server),
    percentOf(row.cpu.bench),
    percentOf(row.cpu.other),
    percentOf(row.cpu.stolen),
    row.non2xx.toString(),
    row.timeouts ? `${row.errors} (${row.timeouts} timeouts)` : row.errors.toString(),
    row.serverErrors.toString(),
    row.statusCodes,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...cells.map((cell) => cell[column]?.length ?? 0)),
  );
  const pad = (value: string, column: number) =>
    leftAligned.has(column) ? value.padEnd(widths[column] ?? 0) : value.padStart(widths[column] ?? 0);
  const line = (values: string[]) => `| ${values.map(pad).join(" | ")} |`;
  const rule = `|${widths.map((width, column) => "-".repeat(width + 1) + (leftAligned.has(column) ? "-" : ":")).join("|")}|`;
  process.stdout.write(`${[line(header), rule, ...cells.map(line)].join("\n")}\n`);
  process.stdout.write(`CPU: per cent of one core over the measured seconds; the machine has ${os.cpus().length} cores.\n`);
}

async function main(settings: Settings) {
  printMachine(settings);

  const { health, me, healthAnswer } = await benchPglite(settings);
  progress("starting the floor (bench/floor-server.ts), replaying the answer of GET /healthz");
  const floorServer = await startChild(
    "floor",
    "bench/floor-server.ts",
    { FLOOR_RESPONSE: JSON.stringify(healthAnswer) },
    "Floor is listening",
  );
  let floor: Measurement;
  try {
    floor = await measure("floor: bare node:http, same bytes", floorServer, "/healthz", settings);
  } finally {
    await stopChild(floorServer);
  }
  const postgres = await benchPostgres(settings);
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
  for (const row of rows.filter((each) => each.invalid)) process.stdout.write(`INVALID: ${row.label}: ${row.invalid}\n`);
  for (const row of rows.filter((each) => each.non2xx > 0 || each.errors > 0 || each.serverErrors > 0)) {
    process.stdout.write(
      `Note: ${row.label}: ${row.non2xx} non-2xx answers, ${row.errors} connection errors, ` +
        `${row.serverErrors} lines on the server's stderr\n`,
    );
  }
  const busiest = Math.max(0, ...rows.filter((row) => !row.backingServices).map((row) => row.cpu.other ?? 0));
  const stolen = Math.max(0, ...rows.map((row) => row.cpu.stolen ?? 0));
  if (busiest > BUSY_MACHINE_PERCENT || stolen > BUSY_MACHINE_PERCENT) {
    process.stdout.write(
      `Note: a busy machine: other processes used up to ${busiest.toFixed(0)} % of a core during a measurement, ` +
        `the hypervisor took up to ${stolen.toFixed(0)} %; the figures are lower than on a quiet machine.\n`,
    );
  }
}

/** Last resort on any exit, synchronous: no child process or temporary directory outlives the benchmark. */
function cleanUpNow() {
  for (const child of children) child.process.kill("SIGKILL");
  children.clear();
  for (const dir of tempDirs) rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
}

/** Stops the children gently and drops the bench database (on success, on error, on a signal). */
async function cleanUp() {
  await Promise.allSettled([...children].map(stopChild));
  await dropBenchDatabase().catch((error: unknown) => progress(`could not drop the bench database: ${messageOf(error)}`));
  cleanUpNow();
}

process.on("exit", cleanUpNow);
for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    progress(`${signal}: stopping`);
    void cleanUp().finally(() => process.exit(130));
  });
}

let settings: Settings;
try {
  settings = readSettings();
} catch (error) {
  process.stderr.write(`${messageOf(error)}\n`);
  process.exit(2);
}

// Bounded in time: every phase has its own limit; this one catches whatever hangs anyway.
const budgetMs = 4 * (settings.quietWait + settings.warmup + settings.duration + 15) * 1000 + 3 * START_TIMEOUT_MS;
setTimeout(() => {
  progress(`the benchmark took longer than ${Math.round(budgetMs / 1000)} s: stopping`);
  void cleanUp().finally(() => process.exit(1));
}, budgetMs).unref();

main(settings)
  .then(cleanUp)
  .catch(async (error: unknown) => {
    process.stderr.write(`Benchmark failed: ${messageOf(error)}\n`);
    await cleanUp();
    process.exitCode = 1;
  });
