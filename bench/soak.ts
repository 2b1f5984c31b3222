/**
 * The memory soak: `npm run bench:soak` (docs/performance.md, "Memory", reads the figures).
 *
 * For each database (PostgreSQL + Redis, then the embedded PGlite), server.ts is started as `npm start` starts it,
 * every setting at its default (pages served, jobs on, the access log on), on a fresh database:
 *   1. idle: it settles for --settle seconds after listening (its jobs' first runs included), then its resident
 *      memory (RSS, from /proc) is sampled for 10 s; the median is the idle figure;
 *   2. mixed load for --minutes (10) at --connections (10): the task list (cache hits and misses), single tasks,
 *      creating and changing tasks, /auth/me, the groups, and the task list page, over --users users, every
 *      answer's status checked and a sample of bodies parsed; RSS sampled every 5 s;
 *   3. idle again for --settle seconds after the load.
 * It prints the RSS curve and, per database, idle RSS, the peak, the RSS at the middle and at the end of the
 * load, and the growth over the load's second half (targets: idle at most 250 MB on PostgreSQL and 400 MB
 * embedded; growth over the second half under 5 %).
 *
 * Flags, or the environment variable in brackets:
 *   --minutes      (BENCH_SOAK_MINUTES)   minutes of load, 10
 *   --settle       (BENCH_SOAK_SETTLE)    seconds of idle before and after, 45
 *   --users        (BENCH_SOAK_USERS)     users sharing the load, 20
 *   --databases    (BENCH_DATABASES)      postgres+redis,pglite
 *   --connections  (BENCH_CONNECTIONS)    10
 *   --postgres     (BENCH_POSTGRES_URL)   an admin URL, postgres://postgres@127.0.0.1:5432/postgres
 *   --redis        (BENCH_REDIS_URL)      redis://127.0.0.1:6379
 */
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { SESSION_COOKIE } from "../lib/auth/actor";
import {
  BENCH_OPTIONS,
  bearer,
  createBenchDatabase,
  deleteRedisKeys,
  dropBenchDatabase,
  expectJson,
  makeTempDir,
  positive,
  printMachine,
  progress,
  reachable,
  readSettings,
  removeTempDir,
  reportStderr,
  runBench,
  SERVER_READY,
  settingsOrExit,
  START_TIMEOUT_MS,
  startChild,
  stopChild,
  type Child,
} from "./harness";

const DATABASES = ["postgres+redis", "pglite"] as const;
type Database = (typeof DATABASES)[number];
const IDLE_TARGET_MB: Record<Database, number> = { "postgres+redis": 250, pglite: 400 };
const GROWTH_TARGET = 0.05;
const SAMPLE_EVERY_MS = 5000;

interface SoakSettings {
  minutes: number;
  settle: number;
  users: number;
  connections: number;
  databases: Database[];
  postgresUrl: string;
  redisUrl: string;
}

function readSoakSettings(): SoakSettings {
  const { values } = parseArgs({
    options: {
      ...BENCH_OPTIONS,
      minutes: { type: "string" },
      settle: { type: "string" },
      users: { type: "string" },
      databases: { type: "string" },
    },
  });
  const env = process.env;
  const base = readSettings({ ...values, connections: values.connections ?? env.BENCH_CONNECTIONS ?? "10" });
  const databases = (values.databases ?? env.BENCH_DATABASES ?? DATABASES.join(",")).split(",").map((name) => name.trim());
  for (const name of databases) {
    if (!(DATABASES as readonly string[]).includes(name))
      throw new Error(`--databases takes ${DATABASES.join(", ")}, not ${name}`);
  }
  return {
    minutes: positive("minutes", values.minutes ?? env.BENCH_SOAK_MINUTES ?? "10"),
    settle: positive("settle", values.settle ?? env.BENCH_SOAK_SETTLE ?? "45"),
    users: positive("users", values.users ?? env.BENCH_SOAK_USERS ?? "20"),
    connections: base.connections,
    databases: databases as Database[],
    postgresUrl: base.postgresUrl,
    redisUrl: base.redisUrl,
  };
}

/** The resident memory of a process in MB (VmRSS). */
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

interface Seeded {
  token: string;
  taskIds: string[];
}

/** Users with a few dozen tasks each, as a small team's installation has. */
async function seed(server: Child, users: number): Promise<Seeded[]> {
  const seeded: Seeded[] = [];
  for (let index = 0; index < users; index++) {
    const registered = await fetch(`${server.url}/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: `soak-${index}-${randomBytes(4).toString("hex")}@example.com`,
        password: randomBytes(18).toString("base64url"),
        name: `Soak ${index}`,
      }),
    });
    const { token } = (await expectJson(registered, 201, "POST /auth/register")) as { token: string };
    const taskIds: string[] = [];
    for (let task = 0; task < 40; task++) {
      const created = await fetch(`${server.url}/tasks`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...bearer(token) },
        body: JSON.stringify({
          title: `Seeded task ${task}`,
          priority: ["low", "normal", "high"][task % 3],
          tags: [`t${task % 5}`],
        }),
      });
      taskIds.push(((await expectJson(created, 201, "POST /tasks")) as { id: string }).id);
    }
    seeded.push({ token, taskIds });
  }
  return seeded;
}

type Operation = { method: "GET" | "POST" | "PATCH"; path: string; body?: string; check?: (body: string) => void };

/** One request of the mix, for a random user: what a day of use looks like, pages included. */
function nextOperation(users: Seeded[], counter: number): Operation & { token: string } {
  const user = users[counter % users.length]!;
  const task = user.taskIds[counter % user.taskIds.length]!;
  const roll = counter % 20;
  const op: Operation =
    roll < 6
      ? { method: "GET", path: "/tasks?limit=50", check: (body) => void (JSON.parse(body) as { items: unknown[] }).items.length }
      : roll < 8
        ? { method: "GET", path: `/tasks?limit=20&sort=dueAt&q=seeded${counter % 7}` }
        : roll < 12
          ? { method: "GET", path: `/tasks/${task}`, check: (body) => void (JSON.parse(body) as { id: string }).id }
          : roll < 14
            ? { method: "POST", path: "/tasks", body: JSON.stringify({ title: `Soak ${counter}`, tags: ["soak"] }) }
            : roll < 16
              ? {
                  method: "PATCH",
                  path: `/tasks/${task}`,
                  body: JSON.stringify({ title: `Renamed ${counter}`, status: counter % 2 ? "done" : "todo" }),
                }
              : roll < 17
                ? { method: "GET", path: "/auth/me" }
                : roll < 18
                  ? { method: "GET", path: "/groups?lang=cs" }
                  : { method: "GET", path: "/en/tasks" };
  return { ...op, token: user.token };
}

interface Curve {
  database: Database;
  idle: number;
  samples: { at: number; rss: number }[];
  after: number;
  requests: number;
  failures: string[];
}

async function soakOne(database: Database, settings: SoakSettings): Promise<Curve> {
  const dataDir = makeTempDir();
  // The defaults, but for the rate limit, which still counts every request but never refuses one of the load's.
  const env: Record<string, string> = {
    HOST: "127.0.0.1",
    PORT: "0",
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString("hex"),
    RATE_LIMIT_POINTS: "100000000",
  };
  const prefix = `spolu-soak-${Date.now()}:`;
  if (database === "postgres+redis") {
    Object.assign(env, {
      DATABASE_URL: await createBenchDatabase(settings.postgresUrl),
      REDIS_URL: settings.redisUrl,
      REDIS_PREFIX: prefix,
    });
  }
  progress(`${database}: starting server.ts as npm start does`);
  const server = await startChild(`server (${database})`, "server.ts", env, SERVER_READY);
  const pid = server.process.pid!;
  try {
    progress(`${database}: settling for ${settings.settle} s, then 10 s of idle samples`);
    await sleep(settings.settle * 1000);
    const idleSamples: number[] = [];
    for (let index = 0; index < 10; index++) {
      idleSamples.push(rssMb(pid));
      await sleep(1000);
    }
    const idle = median(idleSamples);
    progress(`${database}: idle RSS ${idle.toFixed(0)} MB; seeding ${settings.users} users`);
    const users = await seed(server, settings.users);

    const samples: { at: number; rss: number }[] = [];
    const started = Date.now();
    const sampler = setInterval(() => samples.push({ at: (Date.now() - started) / 1000, rss: rssMb(pid) }), SAMPLE_EVERY_MS);
    const failures: string[] = [];
    let counter = 0;
    let checked = 0;
    progress(`${database}: ${settings.minutes} min of mixed load at ${settings.connections} connections`);
    const result = await autocannon({
      url: server.url,
      connections: settings.connections,
      duration: settings.minutes * 60,
      requests: [
        {
          setupRequest: (request, context) => {
            const op = nextOperation(users, counter++);
            context.op = op;
            return {
              ...request,
              method: op.method,
              path: op.path,
              // The pages read the session cookie, the API the bearer token: both carry the same token.
              headers: {
                ...bearer(op.token),
                Cookie: `${SESSION_COOKIE}=${op.token}`,
                ...(op.body ? { "Content-Type": "application/json" } : {}),
              },
              ...(op.body ? { body: op.body } : {}),
            };
          },
          onResponse: (status, body, context) => {
            const op = context.op as Operation;
            try {
              if (status >= 400) throw new Error(`${status}: ${body.slice(0, 200)}`);
              op.check?.(body);
            } catch (error) {
              if (failures.length < 20)
                failures.push(`${op.method} ${op.path}: ${error instanceof Error ? error.message : String(error)}`);
            }
          },
        },
      ],
    });
    clearInterval(sampler);
    // A sample of bodies, read back outside the load: the mix's answers were real.
    for (const user of users.slice(0, 5)) {
      const list = (await expectJson(
        await fetch(`${server.url}/tasks?limit=50`, { headers: bearer(user.token) }),
        200,
        "GET /tasks",
      )) as {
        items: { id: string }[];
      };
      if (list.items.length === 0) failures.push("a seeded user's list came back empty");
      checked++;
    }
    if (result.non2xx > 0) failures.push(`${result.non2xx} non-2xx answers (${JSON.stringify(result.statusCodeStats)})`);
    if (result.errors > 0) failures.push(`${result.errors} connection errors`);
    progress(`${database}: ${result.requests.total} requests, ${checked} lists read back; idle again for ${settings.settle} s`);
    await sleep(settings.settle * 1000);
    const after = rssMb(pid);
    reportStderr(server);
    return { database, idle, samples, after, requests: result.requests.total, failures };
  } finally {
    await stopChild(server);
    if (database === "postgres+redis") {
      await dropBenchDatabase();
      await deleteRedisKeys(settings.redisUrl, prefix);
    }
    removeTempDir(dataDir);
  }
}

function report(curves: Curve[]) {
  process.stdout.write("\nRSS over the load (MB), every 5 s:\n");
  for (const curve of curves) {
    process.stdout.write(`  ${curve.database}: ${curve.samples.map((sample) => sample.rss.toFixed(0)).join(" ")}\n`);
  }
  process.stdout.write(
    "\n| Database | idle RSS | target | peak | middle of load | end of load | growth, 2nd half | after load, idle | requests | checks |\n" +
      "|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n",
  );
  for (const curve of curves) {
    const rss = curve.samples.map((sample) => sample.rss);
    const middle = rss[Math.floor(rss.length / 2)] ?? 0;
    const end = rss.at(-1) ?? 0;
    const growth = middle ? (end - middle) / middle : 0;
    const idleOk = curve.idle <= IDLE_TARGET_MB[curve.database];
    const growthOk = growth < GROWTH_TARGET;
    process.stdout.write(
      `| ${curve.database} | ${curve.idle.toFixed(0)} MB ${idleOk ? "PASS" : "FAIL"} | ≤ ${IDLE_TARGET_MB[curve.database]} MB | ` +
        `${Math.max(...rss).toFixed(0)} MB | ${middle.toFixed(0)} MB | ${end.toFixed(0)} MB | ${(growth * 100).toFixed(1)} % ` +
        `${growthOk ? "PASS" : "FAIL"} | ${curve.after.toFixed(0)} MB | ${curve.requests} | ${curve.failures.length ? curve.failures.join("; ") : "all answers as expected"} |\n`,
    );
  }
}

async function main() {
  printMachine(`server.ts with every default (pages, jobs, access log), ${settings.minutes} min of mixed load per database`);
  if (!existsSync(path.join(".next", "BUILD_ID"))) {
    progress("no production build: running next build first (the pages are part of the load)");
    const build = spawnSync(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "build"], {
      stdio: "inherit",
    });
    if (build.status !== 0) throw new Error("next build failed");
  }
  const curves: Curve[] = [];
  for (const database of settings.databases) {
    if (
      database === "postgres+redis" &&
      !((await reachable(settings.postgresUrl, 5432)) && (await reachable(settings.redisUrl, 6379)))
    ) {
      progress("postgres+redis: skipped, PostgreSQL or Redis does not answer");
      continue;
    }
    curves.push(await soakOne(database, settings));
  }
  report(curves);
  if (curves.some((curve) => curve.failures.length)) process.exitCode = 1;
}

const settings = settingsOrExit(readSoakSettings);
runBench(
  main,
  settings.databases.length *
    (START_TIMEOUT_MS + (settings.minutes * 60 + 2 * settings.settle + 20 + settings.users * 10) * 1000) +
    600_000,
);
