/**
 * The socket fan-out benchmark: `npm run bench:socket` (docs/performance.md, "Socket fan-out", reads the figures).
 *
 * server.ts runs as a child process on a fresh PGlite data directory. The bench registers --clients users (1,000),
 * puts them all in one user group, creates a task assigned to that group, and connects one socket.io client per
 * user to /ws (websocket transport). Then, --updates times (50), the group's owner changes the task's title through
 * PATCH /tasks/{id}, one change every --interval ms (200); every client records when the task.updated event with
 * that title reaches it. The delivery latency of one event at one client is the time from just before the PATCH is
 * sent to its arrival: it covers the HTTP request, the transaction, the event's fan-out to 1,000 rooms and the
 * client's parsing. The bench checks that every client received every change exactly once.
 * Target: p99 under 250 ms on this 2-core machine. The clients run in the bench's own process, on the same two
 * cores as the server: their CPU is counted and printed.
 *
 * Flags, or the environment variable in brackets:
 *   --clients   (BENCH_CLIENTS)    socket clients, one user each, 1000
 *   --updates   (BENCH_UPDATES)    changes measured, 50 (after 5 unmeasured)
 *   --interval  (BENCH_INTERVAL)   milliseconds between changes, 200
 */
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { io, type Socket } from "socket.io-client";
import {
  bearer,
  expectJson,
  makeTempDir,
  positive,
  printMachine,
  progress,
  registerUser,
  reportStderr,
  runBench,
  SERVER_READY,
  serverEnv,
  settingsOrExit,
  startChild,
  stopChild,
  type Child,
} from "./harness";

const TARGET_P99_MS = 250;
const WARMUP_UPDATES = 5;
const REGISTER_CONCURRENCY = 8;

const settings = settingsOrExit(() => {
  const { values } = parseArgs({
    options: { clients: { type: "string" }, updates: { type: "string" }, interval: { type: "string" } },
  });
  const env = process.env;
  return {
    clients: positive("clients", values.clients ?? env.BENCH_CLIENTS ?? "1000"),
    updates: positive("updates", values.updates ?? env.BENCH_UPDATES ?? "50"),
    interval: positive("interval", values.interval ?? env.BENCH_INTERVAL ?? "200"),
  };
});

async function api(server: Child, token: string, method: string, path: string, body: unknown, status: number): Promise<any> {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: { ...bearer(token), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return expectJson(response, status, `${method} ${path}`);
}

/** Runs `work` over `items`, `limit` at a time. */
async function inBatches<T, R>(items: T[], limit: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const index = next++;
        results[index] = await work(items[index]!);
      }
    }),
  );
  return results;
}

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))] ?? Number.NaN;
}

async function main() {
  printMachine(
    `${settings.clients} socket.io clients (one user each) in the bench process; ${settings.updates} changes of one task ` +
      `shared with all through a user group, one every ${settings.interval} ms`,
  );
  const dataDir = makeTempDir();
  const server = await startChild(
    "server.ts (PGlite)",
    "server.ts",
    serverEnv({ DATA_DIR: dataDir, AUTH_RATE_LIMIT_POINTS: "100000000" }),
    SERVER_READY,
  );

  progress(`registering ${settings.clients} users`);
  const tokens = await inBatches(
    Array.from({ length: settings.clients }, (_, index) => index),
    REGISTER_CONCURRENCY,
    () => registerUser(server),
  );
  const owner = tokens[0]!;
  const users = await inBatches(
    tokens,
    REGISTER_CONCURRENCY,
    async (token) => ((await api(server, token, "GET", "/auth/me", undefined, 200)) as { id: string }).id,
  );
  const group = (await api(server, owner, "POST", "/api/v1/user-groups", { name: "Everyone" }, 201)) as { id: string };
  progress("adding them to one user group (each accepts the invitation)");
  await inBatches(
    users.slice(1).map((userId, index) => ({ userId, token: tokens[index + 1]! })),
    REGISTER_CONCURRENCY,
    async ({ userId, token }) => {
      const invited = (await api(server, owner, "POST", `/api/v1/user-groups/${group.id}/members`, { userId }, 202)) as {
        invitation: { id: string };
      };
      await api(server, token, "POST", `/api/v1/invitations/${invited.invitation.id}/accept`, undefined, 200);
    },
  );
  const task = (await api(server, owner, "POST", "/tasks", { title: "Shared by all", userGroupId: group.id }, 201)) as {
    id: string;
  };

  progress(`connecting ${settings.clients} sockets`);
  const arrivals = new Map<string, number[]>();
  const sockets: Socket[] = await inBatches(tokens, 50, async (token) => {
    const socket = io(server.url, {
      path: "/ws",
      transports: ["websocket"],
      auth: { token },
      reconnection: false,
      timeout: 30_000,
    });
    socket.on("event", (event: { type: string; data: { task?: { title?: string } } }) => {
      const title = event.data.task?.title;
      if (event.type !== "task.updated" || !title) return;
      const at = performance.now();
      const list = arrivals.get(title);
      if (list) list.push(at);
      else arrivals.set(title, [at]);
    });
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", () => resolve());
      socket.once("connect_error", (error) => reject(new Error(`socket: ${error.message}`)));
    });
    return socket;
  });

  progress(`${WARMUP_UPDATES} unmeasured changes, then ${settings.updates} measured`);
  const sent: { title: string; at: number }[] = [];
  const cpuBefore = process.cpuUsage();
  const startedAt = performance.now();
  for (let round = 0; round < WARMUP_UPDATES + settings.updates; round++) {
    const title = `Change ${round}`;
    const at = performance.now();
    await api(server, owner, "PATCH", `/tasks/${task.id}`, { title }, 200);
    if (round >= WARMUP_UPDATES) sent.push({ title, at });
    const wait = settings.interval - (performance.now() - at);
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  }
  // Let the last events arrive.
  const deadline = performance.now() + 10_000;
  while (performance.now() < deadline && sent.some(({ title }) => (arrivals.get(title)?.length ?? 0) < settings.clients)) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  const elapsedMs = performance.now() - startedAt;
  const cpu = process.cpuUsage(cpuBefore);

  const latencies: number[] = [];
  let missing = 0;
  let duplicated = 0;
  for (const { title, at } of sent) {
    const received = arrivals.get(title) ?? [];
    missing += Math.max(0, settings.clients - received.length);
    duplicated += Math.max(0, received.length - settings.clients);
    for (const arrival of received) latencies.push(arrival - at);
  }
  latencies.sort((a, b) => a - b);
  sockets.forEach((socket) => socket.disconnect());
  reportStderr(server);
  await stopChild(server);

  const p50 = percentile(latencies, 0.5);
  const p99 = percentile(latencies, 0.99);
  const rows = [
    "| Measurement | clients | events | p50 ms | p90 ms | p99 ms | max ms | missing | duplicated | bench CPU |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    `| task.updated to every member of a ${settings.clients}-user group (PGlite) | ${settings.clients} | ${latencies.length} | ` +
      `${p50.toFixed(0)} | ${percentile(latencies, 0.9).toFixed(0)} | ${p99.toFixed(0)} | ${(latencies.at(-1) ?? Number.NaN).toFixed(0)} | ` +
      `${missing} | ${duplicated} | ${(((cpu.user + cpu.system) / 1000 / elapsedMs) * 100).toFixed(0)} % |`,
  ];
  process.stdout.write(`${rows.join("\n")}\n`);
  process.stdout.write(
    "bench CPU: the clients' share of one core over the measured changes (they run in the bench process).\n\n",
  );
  const verdict = p99 < TARGET_P99_MS && missing === 0 && duplicated === 0 ? "PASS" : "FAIL";
  process.stdout.write(
    `Delivery, ${settings.clients} clients: p99 ${p99.toFixed(0)} ms (target under ${TARGET_P99_MS} ms), ` +
      `${missing} missing, ${duplicated} duplicated: ${verdict}\n`,
  );
  if (verdict === "FAIL") process.exitCode = 1;
}

runBench(main, 15 * 60 * 1000);
