/**
 * The embedded database's thread: `npm run bench:embedded` (docs/performance.md, "The embedded database's thread").
 *
 * Whether requests that need no database stay fast while PGlite is busy. Against server.ts on PGlite (a fresh data
 * directory, one user with --tasks tasks written through POST /tasks), and with --baseline <checkout> (another
 * working copy with its node_modules, e.g. a `git archive` of the commit before PGlite had its own thread) against
 * that checkout's server.ts too, in the same run:
 *   1. at rest: probes only, for --duration seconds;
 *   2. under load: GET /tasks?limit=50 on a cache miss at 10 connections (every request a new dueBefore far in the
 *      future: a new cache key selecting the same tasks; every answer must say `X-Cache: MISS`), and meanwhile the
 *      same probes.
 * The probes: one keep-alive connection sends GET /healthz and another GET /tasks?limit=50 on a cache hit (checked
 * to say `X-Cache: HIT`), each one request every 10 ms (the next at once when an answer came late); the latency of
 * each is taken from sending the request to the answer's last byte. Target: p99 under 10 ms for both probes under
 * load. The miss row gives the server's CPU per miss (its process, every thread, from /proc).
 *
 * First, in this process, the cost of the thread itself: --round-trips statements one after another (`select $1::int`,
 * and 50 rows of 500 characters, about 25 KB) on a PGlite of this thread and on one behind lib/db/pglite-thread.ts,
 * each timed for its wall time, the process's CPU (every thread) and the main thread's busy time (its event loop
 * utilisation) per statement.
 *
 * Flags, or the environment variable in brackets:
 *   --round-trips   (BENCH_ROUND_TRIPS)   statements of each kind in the first part, 3000
 *   --tasks         (BENCH_TASKS)         tasks the user gets, 2000
 *   --baseline      (BENCH_BASELINE)      a checkout whose server.ts to measure beside this one (optional)
 *   --duration      (BENCH_DURATION)      seconds measured per row, 10
 *   --warmup        (BENCH_WARMUP)        seconds of unmeasured load before the loaded row, 2
 *   --quiet-wait    (BENCH_QUIET_WAIT)    seconds to wait at most for a quiet machine before each row, 60
 */
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { Agent, request as httpRequest } from "node:http";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { PGlite } from "@electric-sql/pglite";
import type { RequestSpec } from "autocannon";
import { startPgliteThread } from "../lib/db/pglite-thread";
import {
  BENCH_OPTIONS,
  bearer,
  expectJson,
  invalidate,
  makeTempDir,
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
  startChild,
  stopChild,
  type Child,
  type Measurement,
  type Settings,
} from "./harness";

const PAGE = "/tasks?limit=50";
const MISS_CONNECTIONS = 10;
const PROBE_EVERY_MS = 10;
const P99_TARGET_MS = 10;
const FAR_FUTURE_MS = Date.UTC(2100, 0, 1);
const WRITE_CONCURRENCY = 10;

interface EmbeddedSettings extends Settings {
  tasks: number;
  roundTrips: number;
  baseline: string | null;
}

function readEmbeddedSettings(): EmbeddedSettings {
  const { values } = parseArgs({
    options: { ...BENCH_OPTIONS, tasks: { type: "string" }, baseline: { type: "string" }, "round-trips": { type: "string" } },
  });
  const baseline = values.baseline ?? process.env.BENCH_BASELINE ?? null;
  if (baseline && !existsSync(path.join(baseline, "server.ts"))) throw new Error(`--baseline ${baseline} has no server.ts`);
  return {
    ...readSettings(values),
    tasks: positive("tasks", values.tasks ?? process.env.BENCH_TASKS ?? "2000"),
    roundTrips: positive("round-trips", values["round-trips"] ?? process.env.BENCH_ROUND_TRIPS ?? "3000"),
    baseline: baseline ? path.resolve(baseline) : null,
  };
}

const settings = settingsOrExit(readEmbeddedSettings);

/** Latencies of one probe, in ms, and the answers that were not as expected. */
interface Probe {
  latencies: number[];
  wrong: number;
}

function percentile(values: number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)] ?? NaN;
}

/** One GET over `agent`'s single connection: the time to the answer's last byte, and whether `check` liked it. */
function timedGet(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  check: (status: number, cache?: string) => boolean,
) {
  return new Promise<{ ms: number; ok: boolean }>((resolve, reject) => {
    const started = performance.now();
    const req = httpRequest(url, { agent, headers }, (res) => {
      res.resume();
      res.on("end", () =>
        resolve({
          ms: performance.now() - started,
          ok: check(res.statusCode ?? 0, res.headers["x-cache"] as string | undefined),
        }),
      );
    });
    req.on("error", reject);
    req.end();
  });
}

/** Starts both probes; `stop()` ends them and answers what they measured. */
function startProbes(server: Child, token: string): () => Promise<{ health: Probe; hit: Probe }> {
  let running = true;
  const run = async (url: string, headers: Record<string, string>, check: (status: number, cache?: string) => boolean) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const probe: Probe = { latencies: [], wrong: 0 };
    while (running) {
      const next = performance.now() + PROBE_EVERY_MS;
      const { ms, ok } = await timedGet(agent, url, headers, check);
      probe.latencies.push(ms);
      if (!ok) probe.wrong++;
      const wait = next - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    }
    agent.destroy();
    return probe;
  };
  const health = run(`${server.url}/healthz`, {}, (status) => status === 200);
  const hit = run(`${server.url}${PAGE}`, bearer(token), (status, cache) => status === 200 && cache === "HIT");
  return async () => {
    running = false;
    return { health: await health, hit: await hit };
  };
}

/** Writes the user's tasks through the API, WRITE_CONCURRENCY at a time. */
async function writeTasks(server: Child, token: string) {
  let next = 0;
  const writer = async () => {
    while (next < settings.tasks) {
      const n = next++;
      // Every task due within the next 60 days, so that a miss (due before 2100) selects a full page of 50.
      const body = JSON.stringify({
        title: `Task ${n} of the bench`,
        description: "Written by bench/embedded-thread.ts",
        dueAt: new Date(Date.now() + ((n * 7919) % 60) * 86_400_000 + 3_600_000).toISOString(),
      });
      await expectJson(
        await fetch(`${server.url}/tasks`, {
          method: "POST",
          headers: { ...bearer(token), "Content-Type": "application/json" },
          body,
        }),
        201,
        `${server.name} POST /tasks`,
      );
    }
  };
  await Promise.all(Array.from({ length: WRITE_CONCURRENCY }, writer));
}

let missKeys = 0;

/** GET /tasks?limit=50&dueBefore=…: a cache key never asked before on every request. */
function missPath(): string {
  return `${PAGE}&dueBefore=${new Date(FAR_FUTURE_MS + missKeys++).toISOString()}`;
}

/** The misses' load; each answer must say MISS and be at least `minBytes` long (a full page, not an empty one). */
function missLoad(token: string, minBytes: number) {
  const tally = { MISS: 0, other: 0 };
  const request: RequestSpec = {
    setupRequest: (spec) => ({ ...spec, path: missPath() }),
    onResponse: (status, body, _context, headers) => {
      const full = status === 200 && body.length >= minBytes;
      if (full && (headers["x-cache"] ?? headers["X-Cache"]) === "MISS") tally.MISS++;
      else tally.other++;
    },
  };
  return { load: { path: PAGE, headers: bearer(token), connections: MISS_CONNECTIONS, requests: [request] }, tally };
}

interface SideRun {
  name: string;
  rest: { health: Probe; hit: Probe };
  loaded: { health: Probe; hit: Probe };
  miss: Measurement;
}

async function benchSide(name: string, cwd?: string): Promise<SideRun> {
  const dataDir = makeTempDir();
  progress(`starting ${name} on PGlite (a fresh data directory takes 10-15 s)`);
  const server = await startChild(
    name,
    "server.ts",
    serverEnv({ AUTH_RATE_LIMIT_POINTS: "1000", DATA_DIR: dataDir }),
    SERVER_READY,
    cwd,
  );
  try {
    const token = await registerUser(server);
    progress(`${name}: writing ${settings.tasks} tasks`);
    await writeTasks(server, token);
    const page = (await expectJson(
      await fetch(`${server.url}${PAGE}`, { headers: bearer(token) }),
      200,
      `${name} GET ${PAGE}`,
    )) as {
      items: unknown[];
    };
    if (page.items.length !== Math.min(50, settings.tasks)) throw new Error(`${name}: a page of ${page.items.length} tasks`);

    progress(`${name}: probes at rest, ${settings.duration} s`);
    let stop = startProbes(server, token);
    await new Promise((resolve) => setTimeout(resolve, settings.duration * 1000));
    const rest = await stop();

    const reference = await fetch(`${server.url}${missPath()}`, { headers: bearer(token) });
    const referenceBody = await reference.text();
    const referenceItems = (JSON.parse(referenceBody) as { items: unknown[] }).items.length;
    if (reference.status !== 200 || referenceItems !== Math.min(50, settings.tasks)) {
      throw new Error(`${name}: a miss answered ${reference.status} with ${referenceItems} tasks`);
    }
    const { load, tally } = missLoad(token, Math.floor(referenceBody.length * 0.9));
    const miss = await measure(`GET ${PAGE} cache miss, ${name}`, server, settings, load, {
      beforeMeasured: async () => {
        tally.MISS = tally.other = 0;
        stop = startProbes(server, token);
      },
    });
    const loaded = await stop();
    if (tally.other > 0) invalidate(miss, `${tally.other} answers were not a full page saying X-Cache: MISS`);
    // A cached answer lives 30 s: the hit probe may see one miss when it expires, not more.
    for (const [phase, probes] of Object.entries({ rest, loaded })) {
      if (probes.health.wrong > 0) invalidate(miss, `${probes.health.wrong} /healthz answers ${phase} were not 200`);
      if (probes.hit.wrong > Math.max(1, probes.hit.latencies.length / 100)) {
        invalidate(miss, `${probes.hit.wrong} cache-hit probe answers ${phase} were not 200 with X-Cache: HIT`);
      }
    }
    reportStderr(server);
    return { name, rest, loaded, miss };
  } finally {
    await stopChild(server);
  }
}

function commitOf(checkout: string): string {
  try {
    return execFileSync("git", ["-C", checkout, "rev-parse", "--short", "HEAD"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return "not a git checkout";
  }
}

function probeCells(probe: Probe): string {
  return `${probe.latencies.length} | ${percentile(probe.latencies, 0.5).toFixed(1)} | ${percentile(probe.latencies, 0.99).toFixed(1)} | ${Math.max(...probe.latencies).toFixed(1)}`;
}

type Queryable = Pick<PGlite, "query">;

/** Wall time, the process's CPU and the main thread's busy time per statement, in ms. */
async function roundTrips(client: Queryable, sql: string, params: unknown[]) {
  for (let i = 0; i < 200; i++) await client.query(sql, params);
  const cpu = process.cpuUsage();
  const loop = performance.eventLoopUtilization();
  const started = performance.now();
  for (let i = 0; i < settings.roundTrips; i++) await client.query(sql, params);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const busy = performance.eventLoopUtilization(loop);
  const per = (ms: number) => (ms / settings.roundTrips).toFixed(3);
  return [per(wall), per((used.user + used.system) / 1000), per(busy.active)];
}

/** The thread's own cost: the same statements on a PGlite of this thread and on one behind the thread. */
async function benchRoundTrips() {
  const statements: [string, string, unknown[]][] = [
    ["select $1::int", "select $1::int as n", [7]],
    ["50 rows, about 25 KB", "select g, repeat('x', 500) as text from generate_series(1, $1::int) g", [50]],
  ];
  const here = new PGlite();
  await here.waitReady;
  const thread = await startPgliteThread({});
  process.stdout.write("| Statement | PGlite on | wall ms | CPU ms (process) | main thread busy ms |\n|---|---|--:|--:|--:|\n");
  try {
    for (const [label, sql, params] of statements) {
      for (const [where, client] of [
        ["the main thread", here],
        ["its own thread", thread],
      ] as const) {
        progress(`round trips: ${label} on ${where}`);
        const cells = await roundTrips(client, sql, params);
        process.stdout.write(`| ${label} | ${where} | ${cells.join(" | ")} |\n`);
      }
    }
  } finally {
    await Promise.all([here.close(), thread.close()]);
  }
  process.stdout.write("\n");
}

async function main() {
  printMachine(
    `server.ts on PGlite with ${settings.tasks} tasks; ${MISS_CONNECTIONS} connections of list misses; probes every ` +
      `${PROBE_EVERY_MS} ms` +
      (settings.baseline ? `; baseline: ${settings.baseline} (${commitOf(settings.baseline)})` : ""),
  );
  await benchRoundTrips();
  const sides = [await benchSide(`server.ts ${commitOf(".")}`)];
  if (settings.baseline) sides.push(await benchSide(`baseline server.ts`, settings.baseline));

  const misses = sides.map((side) => side.miss);
  printTable(misses);
  printNotes(misses);
  process.stdout.write(
    "\n| Server | Probe | Load | samples | p50 ms | p99 ms | max ms | target p99 < 10 ms |\n|---|---|---|--:|--:|--:|--:|---|\n",
  );
  for (const side of sides) {
    for (const [phase, probes] of [
      ["at rest", side.rest],
      [`${MISS_CONNECTIONS} conn. of misses`, side.loaded],
    ] as const) {
      for (const [what, probe] of [
        ["GET /healthz", probes.health],
        [`GET ${PAGE} (cache hit)`, probes.hit],
      ] as const) {
        const verdict = phase === "at rest" ? "" : percentile(probe.latencies, 0.99) < P99_TARGET_MS ? "PASS" : "FAIL";
        process.stdout.write(`| ${side.name} | ${what} | ${phase} | ${probeCells(probe)} | ${verdict} |\n`);
      }
    }
  }
  process.stdout.write("\n");
  for (const side of sides) {
    const { miss } = side;
    const perMiss = miss.cpu.server === null ? null : (miss.cpu.server * 10) / miss.requestsPerSecond;
    process.stdout.write(
      `${side.name}: ${miss.requestsPerSecond.toFixed(0)} misses/s, server CPU ${perMiss === null ? "–" : perMiss.toFixed(2)} ms per miss` +
        `${miss.invalid ? ` (INVALID: ${miss.invalid})` : ""}\n`,
    );
  }
}

runBench(main, 30 * 60_000);
