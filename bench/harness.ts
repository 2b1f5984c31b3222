/**
 * What the benchmarks share (bench/api.ts, bench/tasks.ts, bench/board.ts, bench/writes.ts, bench/growth.ts): servers
 * started as child processes and stopped on exit, error and Ctrl-C; CPU shares read from /proc, PostgreSQL's backends'
 * included; waiting for a quiet machine; one autocannon measurement with its CPU and error counts, and one whose
 * every answer is checked, with its CPU per request on both sides; a fresh
 * PostgreSQL database, the bench's Redis keys; the
 * machine's description and the Markdown table that docs/performance.md takes as printed.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { connect } from "node:net";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import autocannon, { type Options, type RequestSpec, type Result } from "autocannon";
import { Redis } from "ioredis";
import pg from "pg";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
/** The line server.ts logs once it accepts requests (bench/floor-server.ts logs its own). */
export const SERVER_READY = "Spolu is listening";
export const START_TIMEOUT_MS = 90_000;
const STOP_TIMEOUT_MS = 15_000;
/** Above this share of a core used by other processes or stolen during a measurement, the run says so. */
export const BUSY_MACHINE_PERCENT = 20;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"]);

/** How long each measurement runs, and how long it waits for a quiet machine first. */
export interface Timing {
  duration: number;
  warmup: number;
  /** At most this many seconds to wait for a quiet machine before each measurement. */
  quietWait: number;
}

/** The flags every benchmark takes (`BENCH_OPTIONS`). */
export interface Settings extends Timing {
  connections: number;
  postgresUrl: string;
  redisUrl: string;
}

export interface Measurement {
  label: string;
  connections: number;
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
  /** This row is the floor the others are compared with. */
  isFloor?: boolean;
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
export interface CpuShare {
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

export interface Child {
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

/** An answer as bench/floor-server.ts replays it (FLOOR_RESPONSE). */
export interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

const children = new Set<Child>();
const tempDirs = new Set<string>();
let benchDatabase: { adminUrl: string; name: string } | null = null;

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function progress(message: string) {
  process.stderr.write(`· ${message}\n`);
}

/** `parseArgs` options for the flags of `Settings`; a benchmark adds its own. */
export const BENCH_OPTIONS = {
  duration: { type: "string" },
  warmup: { type: "string" },
  "quiet-wait": { type: "string" },
  connections: { type: "string" },
  postgres: { type: "string" },
  redis: { type: "string" },
} as const;

type BenchFlags = Partial<Record<keyof typeof BENCH_OPTIONS, string>>;

/** The common settings from the parsed flags, else the BENCH_* variables, else the defaults. */
export function readSettings(values: BenchFlags): Settings {
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

export function positive(name: string, value: string, zeroAllowed = false): number {
  const number = Number(value);
  if (!Number.isInteger(number) || number < (zeroAllowed ? 0 : 1)) {
    throw new Error(`--${name} must be a whole number${zeroAllowed ? "" : " above 0"}, got ${value}`);
  }
  return number;
}

/**
 * The Node flags `npm start` runs server.ts with, read from package.json so that the two cannot drift apart. The
 * floor runs with them too, to compare alike.
 */
const NODE_FLAGS = nodeFlagsOfStart();

function nodeFlagsOfStart(): string[] {
  const script: string = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8")).scripts.start;
  const words = script
    .trim()
    .split(/\s+/)
    .filter((word) => !word.includes("="));
  const node = words.indexOf("node");
  return words
    .slice(node + 1)
    .filter((word, index, all) => word.startsWith("--") && word !== "--import" && all[index - 1] !== "--import");
}

/**
 * Starts `node --import tsx <script>` and resolves once it prints the JSON line `{msg: ready, url}`. Notes when
 * the child ends without `stopChild` asking it to, and by which signal when server.ts logs one. `cwd` is the
 * checkout it runs from (another one's server.ts, to compare two commits in one run); by default this one.
 */
export function startChild(name: string, script: string, env: Record<string, string>, ready: string, cwd = ROOT): Promise<Child> {
  const child = spawn(process.execPath, [...NODE_FLAGS, "--import", "tsx", script], {
    cwd,
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
export async function stopChild(child: Child): Promise<void> {
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

/** Starts the floor (bench/floor-server.ts) replaying `answer`. */
export function startFloor(answer: Answer): Promise<Child> {
  return startChild("floor", "bench/floor-server.ts", { FLOOR_RESPONSE: JSON.stringify(answer) }, "Floor is listening");
}

/** The most an environment variable may hold on Linux is 128 KiB; the answers go in one. */
const FLOOR_ANSWERS_MAX_CHARS = 120_000;

/** Starts one floor replaying several answers, each for its own request path (bench/floor-server.ts, FLOOR_ANSWERS). */
export function startFloorByPath(answers: Record<string, Answer>): Promise<Child> {
  const json = JSON.stringify(answers);
  if (json.length > FLOOR_ANSWERS_MAX_CHARS) {
    throw new Error(`The floor's answers take ${json.length} characters, more than an environment variable holds`);
  }
  return startChild("floor", "bench/floor-server.ts", { FLOOR_ANSWERS: json }, "Floor is listening");
}

/**
 * The environment server.ts runs with in every benchmark, plus `extra` (the database, mostly): the defaults users
 * run (jobs on, the access log on at `info`), but for the pages (the API benchmarks measure the API) and the rate
 * limit, which still counts every request but never refuses one.
 */
export function serverEnv(extra: Record<string, string>): Record<string, string> {
  return {
    HOST: "127.0.0.1",
    PORT: "0",
    SERVE_PAGES: "false",
    RATE_LIMIT_POINTS: "100000000",
    ...extra,
  };
}

/** A temporary directory (a PGlite data directory) removed when the benchmark ends, whatever happens. */
export function makeTempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), "spolu-bench-"));
  tempDirs.add(dir);
  return dir;
}

export function removeTempDir(dir: string) {
  rmSync(dir, { recursive: true, force: true });
  tempDirs.delete(dir);
}

export function bearer(token: string): Record<string, string> {
  return { Authorization: `Bearer ${token}` };
}

export async function expectJson(response: Response, status: number, what: string): Promise<unknown> {
  const text = await response.text();
  if (response.status !== status) throw new Error(`${what}: expected ${status}, got ${response.status} ${text}`);
  return JSON.parse(text);
}

/** Registers a fresh user and returns its session token. */
export async function registerUser(server: Child, name = "Bench"): Promise<string> {
  const registered = await fetch(`${server.url}/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: `bench-${Date.now()}-${randomBytes(4).toString("hex")}@example.com`,
      password: randomBytes(18).toString("base64url"),
      name,
    }),
  });
  const { token } = (await expectJson(registered, 201, `${server.name} POST /auth/register`)) as { token: string };
  return token;
}

/** An answer with its status, headers (as received, in order) and body, for the floor to replay. */
export async function captureAnswer(url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url, { headers });
  return { status: response.status, headers: [...response.headers], body: await response.text() };
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

/** The requests of one measurement. */
export interface Load {
  /** Path and query, appended to the server's URL. */
  path: string;
  connections: number;
  method?: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string;
  /** Requests made one by one (a fresh path or body each), as autocannon's `requests`. */
  requests?: RequestSpec[];
  /**
   * Send exactly this many requests rather than load for `duration` seconds. Requests per second are then
   * the count over the time until the last answer, and CPU is measured over that time too.
   */
  amount?: number;
}

export interface MeasureOptions {
  /** The warm-up's requests, when they must differ from the measured ones (default: the same). */
  warmup?: Load;
  /** PostgreSQL and Redis run beside the server (their CPU is not "other processes"). */
  backingServices?: boolean;
  /** Runs after the warm-up, right before the measured requests (a check that the warm-up did its work). */
  beforeMeasured?: () => Promise<void>;
}

function autocannonOptions(server: Child, load: Load): Omit<Options, "duration"> {
  const { path: urlPath, connections, method, headers = {}, body, requests } = load;
  return {
    url: `${server.url}${urlPath}`,
    connections,
    headers,
    ...(method ? { method } : {}),
    ...(body ? { body } : {}),
    ...(requests ? { requests } : {}),
  };
}

/**
 * Measures one load against a server: waits for a quiet machine, warms up for `timing.warmup` seconds, then
 * measures for `timing.duration` seconds (or `load.amount` requests), with the CPU shares of that time.
 */
export async function measure(
  label: string,
  server: Child,
  timing: Timing,
  load: Load,
  { warmup = load, backingServices = false, beforeMeasured }: MeasureOptions = {},
): Promise<Measurement> {
  const stderrBefore = server.stderr.length;
  await awaitQuietMachine(label, timing.quietWait);
  if (timing.warmup) {
    progress(`${label}: ${timing.warmup} s warm-up`);
    await autocannon({ ...autocannonOptions(server, warmup), duration: timing.warmup });
  }
  await beforeMeasured?.();
  const amount = load.amount;
  progress(`${label}: ${amount ? `${amount} requests` : `${timing.duration} s`} at ${load.connections} connections`);
  const before = sampleCpu(server.process.pid);
  const run = autocannon({ ...autocannonOptions(server, load), duration: timing.duration, ...(amount ? { amount } : {}) });
  // With `amount`, autocannon ends at its next one-second tick after the last answer: time and CPU are
  // taken at the last answer instead, so that the idle tail does not count.
  let answered = 0;
  let last: CpuSample | undefined;
  if (amount) {
    run.on("response", () => {
      if (++answered === amount) last = sampleCpu(server.process.pid);
    });
  }
  const result: Result = await run;
  const after = last ?? sampleCpu(server.process.pid);
  const cpu = cpuShare(before, after);
  return {
    label,
    connections: load.connections,
    requestsPerSecond: amount ? (result.requests.total / (after.at - before.at)) * 1000 : result.requests.average,
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

/**
 * CPU time (ms) of every client backend connected to `database`, by pid (the caller's own connection left out),
 * from /proc: PostgreSQL's share of a measurement is what these backends used between two calls.
 */
export async function backendTimes(admin: pg.Client, database: string): Promise<Map<number, number>> {
  const { rows } = await admin.query<{ pid: number }>(
    "select pid from pg_stat_activity where datname = $1 and backend_type = 'client backend' and pid <> pg_backend_pid()",
    [database],
  );
  const times = new Map<number, number>();
  for (const { pid } of rows) {
    const ms = processCpuMs(pid);
    // null: the backend ended in between.
    if (ms !== null) times.set(pid, ms);
  }
  return times;
}

export function backendMsBetween(before: Map<number, number>, after: Map<number, number>): number {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** How a row's answers fared, as its check judged them. */
export interface AnswerTally {
  right: number;
  wrong: number;
  /** Answers saying `X-Cache: HIT` where each must be a miss (counted apart from `wrong`). */
  hits: number;
  /** The first wrong answer, for the report. */
  example: string;
}

/** What a checked row sends and how it judges each answer (`checkedRequest`). */
export interface CheckedRequestSpec {
  /** Each request's path and query (a fresh cache key each time, say). */
  path: () => string;
  /** Each request's body, given the connection's context (which `check` sees too), for a POST. */
  body?: (context: Record<string, unknown>) => string;
  /** What is wrong with an answer, or null when it is right. */
  check: (status: number, body: string, context: Record<string, unknown>) => string | null;
  /** Every answer must be a cache miss: one saying `X-Cache: HIT` is counted in `hits`. */
  mustMiss?: boolean;
}

/**
 * autocannon's request for a row whose every answer is checked: a fresh path (and body) per request, each answer
 * judged by `spec.check` into `tally`; `reset()` empties the tally (right before the measured requests).
 */
export function checkedRequest(spec: CheckedRequestSpec): { request: RequestSpec; tally: AnswerTally; reset: () => void } {
  const tally: AnswerTally = { right: 0, wrong: 0, hits: 0, example: "" };
  const request: RequestSpec = {
    setupRequest: (request, context) => ({
      ...request,
      path: spec.path(),
      ...(spec.body ? { body: spec.body(context) } : {}),
    }),
    onResponse: (status, body, context, headers) => {
      if (spec.mustMiss && (headers["x-cache"] ?? headers["X-Cache"]) === "HIT") tally.hits++;
      const problem = spec.check(status, body, context);
      if (problem === null) {
        tally.right++;
        return;
      }
      tally.wrong++;
      tally.example ||= problem;
    },
  };
  const reset = () => {
    tally.right = tally.wrong = tally.hits = 0;
    tally.example = "";
  };
  return { request, tally, reset };
}

/** A measurement with its CPU per request: the server's (from /proc) and the bench database's backends'. */
export interface CostedMeasurement {
  measurement: Measurement;
  serverMsPerRequest: number;
  postgresMsPerRequest: number;
}

/**
 * `measure` on PostgreSQL, with the CPU per request on both sides: the server's share over the measured seconds
 * per request, and the CPU time of the client backends connected to `database` (`backendTimes`, the admin's own
 * connection left out) from right before the measured requests to right after, over `answered()` (the answers
 * counted over the measured requests, e.g. a tally reset in `beforeMeasured`).
 */
export async function measureWithBackends(
  label: string,
  server: Child,
  timing: Timing,
  load: Load,
  database: { admin: pg.Client; name: string; answered: () => number },
  options: MeasureOptions = {},
): Promise<CostedMeasurement> {
  let before = new Map<number, number>();
  const measurement = await measure(label, server, timing, load, {
    ...options,
    backingServices: true,
    beforeMeasured: async () => {
      await options.beforeMeasured?.();
      before = await backendTimes(database.admin, database.name);
    },
  });
  const postgresMs = backendMsBetween(before, await backendTimes(database.admin, database.name));
  return {
    measurement,
    serverMsPerRequest: ((measurement.cpu.server ?? 0) * 10) / measurement.requestsPerSecond,
    postgresMsPerRequest: postgresMs / Math.max(1, database.answered()),
  };
}

/** Marks a measurement as not counting, with the reason (added to any reason it already has). */
export function invalidate(row: Measurement, reason: string) {
  row.invalid = row.invalid ? `${row.invalid}; ${reason}` : reason;
}

/** Resolves whether something accepts TCP connections at the URL's host and port within a second. */
export function reachable(url: string, defaultPort: number): Promise<boolean> {
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

/** Creates the database `spolu_bench_<timestamp>` (one at a time) and returns its URL. */
export async function createBenchDatabase(adminUrl: string): Promise<string> {
  if (benchDatabase) throw new Error(`The bench database ${benchDatabase.name} is still there`);
  const name = `spolu_bench_${Date.now()}`;
  await withAdmin(adminUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  benchDatabase = { adminUrl, name };
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export function benchDatabaseName(): string | undefined {
  return benchDatabase?.name;
}

export async function dropBenchDatabase(): Promise<void> {
  if (!benchDatabase) return;
  const { adminUrl, name } = benchDatabase;
  benchDatabase = null;
  await withAdmin(adminUrl, (client) => client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/** Removes the keys the server left in Redis under `prefix` (rate-limit counters expire within minutes anyway). */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
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
export function reportStderr(child: Child) {
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

/** The machine and the load, first in the output. */
export function printMachine(load: string) {
  const cpus = os.cpus();
  const lines = [
    `Date:       ${new Date().toISOString()}`,
    `CPU:        ${cpus[0]?.model ?? "unknown"}, ${cpus.length} cores`,
    `Memory:     ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
    `OS:         ${os.type()} ${os.release()} (${os.arch()})`,
    `Node:       ${process.version}`,
    `Load avg:   ${os
      .loadavg()
      .map((average) => average.toFixed(2))
      .join(" ")} (1, 5, 15 min) at the start`,
    `Load:       ${load}`,
  ];
  process.stdout.write(`${lines.join("\n")}\n\n`);
}

function percentOf(value: number | null | undefined): string {
  return value === null || value === undefined ? "–" : `${value.toFixed(0)} %`;
}

function ofFloor(row: Measurement): string {
  if (row.isFloor) return "100 %";
  return row.ofFloor === undefined ? "–" : `${(row.ofFloor * 100).toFixed(1)} %`;
}

/**
 * A Markdown table, so that docs/performance.md can take it as printed. `withConnections` adds a column for
 * benchmarks whose rows run at different numbers of connections.
 */
export function printTable(rows: Measurement[], { withConnections = false } = {}) {
  type Column = [title: string, cell: (row: Measurement) => string];
  const connections: Column[] = withConnections ? [["conn", (row) => row.connections.toString()]] : [];
  const columns: Column[] = [
    ["Measurement", (row) => row.label],
    ...connections,
    ["req/s", (row) => Math.round(row.requestsPerSecond).toString()],
    ["p50 ms", (row) => row.p50.toFixed(0)],
    ["p99 ms", (row) => row.p99.toFixed(0)],
    ["of floor", ofFloor],
    ["server CPU", (row) => percentOf(row.cpu.server)],
    ["bench CPU", (row) => percentOf(row.cpu.bench)],
    ["other CPU", (row) => percentOf(row.cpu.other)],
    ["stolen", (row) => percentOf(row.cpu.stolen)],
    ["non-2xx", (row) => row.non2xx.toString()],
    ["errors", (row) => (row.timeouts ? `${row.errors} (${row.timeouts} timeouts)` : row.errors.toString())],
    ["server errors", (row) => row.serverErrors.toString()],
    ["status codes", (row) => row.statusCodes],
  ];
  const header = columns.map(([title]) => title);
  const leftAligned = new Set([0, header.length - 1]);
  const cells = rows.map((row) => columns.map(([, cell]) => cell(row)));
  const widths = header.map((title, column) => Math.max(title.length, ...cells.map((cell) => cell[column]?.length ?? 0)));
  const pad = (value: string, column: number) =>
    leftAligned.has(column) ? value.padEnd(widths[column] ?? 0) : value.padStart(widths[column] ?? 0);
  const line = (values: string[]) => `| ${values.map(pad).join(" | ")} |`;
  const rule = `|${widths.map((width, column) => "-".repeat(width + 1) + (leftAligned.has(column) ? "-" : ":")).join("|")}|`;
  process.stdout.write(`${[line(header), rule, ...cells.map(line)].join("\n")}\n`);
  process.stdout.write(`CPU: per cent of one core over the measured seconds; the machine has ${os.cpus().length} cores.\n`);
}

/** INVALID rows, rows with failed requests or server errors, and a busy machine, after the table. */
export function printNotes(rows: Measurement[]) {
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

/**
 * Runs a benchmark's `main` with the clean-up installed: children, temporary directories and the bench
 * database go on success, on error, on Ctrl-C and SIGTERM, and when the run takes longer than `budgetMs`.
 */
export function runBench(main: () => Promise<void>, budgetMs: number) {
  process.on("exit", cleanUpNow);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      progress(`${signal}: stopping`);
      void cleanUp().finally(() => process.exit(130));
    });
  }
  // Bounded in time: every phase has its own limit; this one catches whatever hangs anyway.
  setTimeout(() => {
    progress(`the benchmark took longer than ${Math.round(budgetMs / 1000)} s: stopping`);
    void cleanUp().finally(() => process.exit(1));
  }, budgetMs).unref();

  main()
    .then(cleanUp)
    .catch(async (error: unknown) => {
      process.stderr.write(`Benchmark failed: ${messageOf(error)}\n`);
      await cleanUp();
      process.exitCode = 1;
    });
}

/** Parses the flags, or says what is wrong with them and exits with status 2. */
export function settingsOrExit<T>(read: () => T): T {
  try {
    return read();
  } catch (error) {
    process.stderr.write(`${messageOf(error)}\n`);
    process.exit(2);
  }
}
