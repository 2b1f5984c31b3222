/**
 * PostgreSQL refusing connections, then silent (accepting but never answering: a network partition), behind a
 * TCP proxy the test controls: requests that need the database get a 503 problem with Retry-After in time,
 * liveness stays up, and the processes recover by themselves when the database answers again.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  SHARED_REDIS_URL,
  call,
  clusterEnv,
  createDatabase,
  killAll,
  register,
  startProcess,
  waitFor,
  type ServerProcess,
} from "./cluster";
import { tcpProxy, type TcpProxy } from "./faults";

let database: Awaited<ReturnType<typeof createDatabase>>;
let proxy: TcpProxy;
let servers: ServerProcess[];
let user: Awaited<ReturnType<typeof register>>;
let taskId: string;

beforeAll(async () => {
  database = await createDatabase();
  const direct = new URL(database.url);
  proxy = await tcpProxy(Number(direct.port || 5432));
  direct.host = `127.0.0.1:${proxy.port}`;
  const env = clusterEnv(direct.toString(), SHARED_REDIS_URL);
  servers = await Promise.all(["a", "b"].map((name) => startProcess({ name, env }).process));
  user = await register(servers[0]!.url);
  const created = await call(`${servers[0]!.url}/tasks`, { token: user.token, json: { title: "Kept safe" } });
  expect(created.status).toBe(201);
  taskId = created.body.id;
}, 180_000);

afterAll(async () => {
  killAll();
  await proxy?.close();
  await database?.drop();
});

/** A read and a write that both need the database, and readiness, through one process. */
async function probe(server: ServerProcess, timeoutMs: number) {
  const [read, write, ready] = await Promise.all([
    call(`${server.url}/tasks/${taskId}`, { token: user.token, timeoutMs }),
    call(`${server.url}/tasks`, { token: user.token, json: { title: "During the outage" }, timeoutMs }),
    call(`${server.url}/readyz`, { timeoutMs }),
  ]);
  return { read, write, ready };
}

function expectUnavailable(answer: Awaited<ReturnType<typeof call>>, limitMs: number, what: string) {
  expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(503);
  expect(answer.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  expect(Number(answer.headers.get("retry-after")), `${what}: Retry-After`).toBeGreaterThan(0);
  expect(answer.ms, `${what} took ${answer.ms} ms`).toBeLessThan(limitMs);
}

async function expectRecovery() {
  for (const server of servers) {
    await waitFor(
      `${server.name} to serve again`,
      async () => {
        const { read, write, ready } = await probe(server, 12_000);
        return read.status === 200 && write.status === 201 && ready.status === 200;
      },
      30_000,
      500,
    );
  }
}

describe("PostgreSQL outages", () => {
  test("refused: 503 with Retry-After within 10 s (liveness stays 200), recovery when it accepts again", async () => {
    await proxy.setMode("refuse");
    for (const server of servers) {
      const { read, write, ready } = await probe(server, 15_000);
      expectUnavailable(read, 10_000, `${server.name} GET /tasks/{id}`);
      expectUnavailable(write, 10_000, `${server.name} POST /tasks`);
      expectUnavailable(ready, 10_000, `${server.name} /readyz`);
      expect((await call(`${server.url}/healthz`, { timeoutMs: 2000 })).status).toBe(200);
    }
    await proxy.setMode("pass");
    await expectRecovery();
  }, 120_000);

  test("silent (a partition): 503 with Retry-After within 10 s, recovery when it answers again", async () => {
    await proxy.setMode("silent");
    for (const server of servers) {
      const { read, write, ready } = await probe(server, 15_000);
      expectUnavailable(read, 10_000, `${server.name} GET /tasks/{id}`);
      expectUnavailable(write, 10_000, `${server.name} POST /tasks`);
      expectUnavailable(ready, 10_000, `${server.name} /readyz`);
    }
    // A second round while still silent: connections held by the first round must not make it wait longer.
    for (const server of servers) {
      const { read } = await probe(server, 15_000);
      expectUnavailable(read, 10_000, `${server.name} GET /tasks/{id}, again`);
    }
    await proxy.setMode("pass");
    await expectRecovery();
    // Nothing was half-written: the one task from before, plus whatever writes were acknowledged.
    const read = await call(`${servers[1]!.url}/tasks/${taskId}`, { token: user.token });
    expect(read.body.title).toBe("Kept safe");
    for (const server of servers) expect(server.nonJsonLines(), server.output()).toEqual([]);
  }, 180_000);
});
