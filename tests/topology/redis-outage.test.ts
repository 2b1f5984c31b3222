/**
 * Redis stopped and started again under two running processes, and a process started while Redis is down.
 * While Redis is down the processes report not ready (503) at once and keep answering requests from the
 * database (docs/operations.md, "When Redis or PostgreSQL is down"); when it returns they recover without a restart.
 */
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { call, clusterEnv, createDatabase, killAll, register, startProcess, waitFor, type ServerProcess } from "./cluster";
import { ownRedis, type OwnRedis } from "./faults";

let database: Awaited<ReturnType<typeof createDatabase>>;
let redis: OwnRedis;
let env: Record<string, string>;
let servers: ServerProcess[];
const sockets: Socket[] = [];

beforeAll(async () => {
  database = await createDatabase();
  redis = await ownRedis();
  await redis.start();
  env = clusterEnv(database.url, redis.url);
  servers = await Promise.all(["a", "b"].map((name) => startProcess({ name, env }).process));
}, 180_000);

afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  killAll();
  await redis?.stop();
  await database?.drop();
});

async function listen(url: string, token: string): Promise<{ socket: Socket; next(type: string): Promise<any> }> {
  const socket = io(url, { path: "/ws", transports: ["websocket"], auth: { token } });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => socket.once("connect", () => resolve()).once("connect_error", reject));
  return {
    socket,
    next: (type) =>
      new Promise((resolve) => {
        const onEvent = (event: { type: string }) => {
          if (event.type !== type) return;
          socket.off("event", onEvent);
          resolve(event);
        };
        socket.on("event", onEvent);
      }),
  };
}

/** What a process answers to /readyz within `timeoutMs`. */
const readiness = (server: ServerProcess, timeoutMs = 3000) => call(`${server.url}/readyz`, { timeoutMs });

describe("Redis goes away and comes back", () => {
  test("not ready within 3 s, requests still answered correctly within 3 s, recovery without a restart", async () => {
    const [a, b] = servers as [ServerProcess, ServerProcess];
    const user = await register(a.url);
    const list = (server: ServerProcess) => call(`${server.url}/tasks`, { token: user.token, timeoutMs: 3000 });
    const cached = async () => (await list(b)).headers.get("x-cache") === "HIT";
    await waitFor("the list to be served from the shared cache", cached, 5000, 50);

    await redis.stop();
    const stoppedAt = Date.now();
    for (const server of servers) {
      const answer = await waitFor(
        "a 503 from /readyz",
        async () => {
          const ready = await readiness(server);
          return ready.status === 503 && ready;
        },
        3000,
        100,
      );
      expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(answer.body.detail).toMatch(/Redis/);
    }
    expect(Date.now() - stoppedAt).toBeLessThan(3000 * servers.length);

    // Writes and reads go on, from the database: a write through one process is in the other's list at once.
    const created = await call(`${a.url}/tasks`, {
      token: user.token,
      json: { title: "Written while Redis was down" },
      timeoutMs: 3000,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const during = await list(b);
    expect(during.status).toBe(200);
    expect(during.body.items.map((task: { title: string }) => task.title)).toEqual(["Written while Redis was down"]);
    const me = await call(`${b.url}/auth/me`, { token: user.token, timeoutMs: 3000 });
    expect(me.status).toBe(200);
    const login = await call(`${b.url}/auth/login`, { json: { email: user.email, password: user.password }, timeoutMs: 3000 });
    expect(login.status).toBe(200);

    await redis.start();
    for (const server of servers) {
      await waitFor("/readyz to answer 200 again", async () => (await readiness(server)).status === 200, 15_000, 200);
    }
    // The shared cache is used again, and a socket on one process hears a write made through the other.
    await waitFor("the list to be served from the shared cache again", cached, 5000, 50);
    const listener = await listen(b.url, user.token);
    const heard = listener.next("task.created");
    expect((await call(`${a.url}/tasks`, { token: user.token, json: { title: "After Redis came back" } })).status).toBe(201);
    expect((await heard).data.task.title).toBe("After Redis came back");

    // The outage was logged as JSON lines, a few times, not once per request or per reconnection attempt.
    for (const server of servers) {
      expect(server.nonJsonLines(), server.output()).toEqual([]);
      expect(server.output()).not.toMatch(/Unhandled error event/);
      const warnings = server
        .output()
        .split("\n")
        .filter((line) => line.includes('"level":"warn"') && /redis/i.test(line));
      expect(warnings.length, warnings.join("\n")).toBeGreaterThan(0);
      expect(warnings.length, warnings.join("\n")).toBeLessThanOrEqual(6);
    }
  }, 120_000);

  test("a process started while Redis is down listens, reports not ready, and becomes ready when Redis starts", async () => {
    await redis.stop();
    const late = await startProcess({ name: "late", env }).process;
    const user = await register(late.url);
    expect((await readiness(late)).status).toBe(503);
    const created = await call(`${late.url}/tasks`, { token: user.token, json: { title: "Redis never seen" }, timeoutMs: 3000 });
    expect(created.status).toBe(201);
    // It says so in its log, and stays up (the crash came a few seconds after listening).
    await waitFor("the warning that Redis is unavailable", async () => /"level":"warn"[^\n]*Redis/.test(late.output()), 10_000);
    await redis.start();
    await waitFor("/readyz to answer 200", async () => (await readiness(late)).status === 200, 15_000, 200);
    expect(late.child.exitCode).toBeNull();
    expect(late.nonJsonLines(), late.output()).toEqual([]);
  }, 180_000);
});
