/**
 * SIGTERM to one of two processes under load, while a deploy command that does not end by itself is running:
 * the requests in flight are answered, the process exits within SHUTDOWN_TIMEOUT_MS (10 s by default) plus a
 * few seconds, and the other process keeps serving.
 */
import { createHmac, randomUUID } from "node:crypto";
import { request } from "node:http";
import { afterAll, beforeAll, expect, test } from "vitest";
import {
  ADMIN_EMAIL,
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

const SHUTDOWN_TIMEOUT_MS = 10_000; // the default
const DEPLOY_SECRET = "topology-deploy-secret";

let database: Awaited<ReturnType<typeof createDatabase>>;
let servers: ServerProcess[];

beforeAll(async () => {
  database = await createDatabase();
  // The deploy webhook's settings: a deploy whose command runs for ten minutes.
  const env = {
    ...clusterEnv(database.url, SHARED_REDIS_URL),
    DEPLOY_WEBHOOK_SECRET: DEPLOY_SECRET,
    DEPLOY_COMMAND: "sleep 600",
  };
  servers = await Promise.all(["a", "b"].map((name) => startProcess({ name, env }).process));
}, 180_000);

afterAll(async () => {
  killAll();
  await database?.drop();
});

/** A sign-in whose body is still arriving: half now, the rest `restAfterMs` later. */
function slowSignIn(url: string, credentials: { email: string; password: string }, restAfterMs: number): Promise<number> {
  const body = JSON.stringify(credentials);
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/auth/login`,
      { method: "POST", headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on("error", reject);
    req.write(body.slice(0, 10));
    setTimeout(() => req.end(body.slice(10)), restAfterMs);
  });
}

test("SIGTERM under load, with a deploy running: in-flight requests answered, exit within the bound", async () => {
  const [stopping, other] = servers as [ServerProcess, ServerProcess];
  const admin = await register(other.url, ADMIN_EMAIL);
  const user = await register(stopping.url);
  const task = (await call(`${stopping.url}/tasks`, { token: user.token, json: { title: "Read under load" } })).body;

  // A push delivery starts the deploy: `sleep 600` runs until something stops it.
  const payload = JSON.stringify({ ref: "refs/heads/main", after: "0123456789abcdef0123456789abcdef01234567" });
  const signature = `sha256=${createHmac("sha256", DEPLOY_SECRET).update(payload).digest("hex")}`;
  const delivered = await fetch(`${stopping.url}/api/v1/deploy/webhook`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-GitHub-Event": "push",
      "X-GitHub-Delivery": randomUUID(),
      "X-Hub-Signature-256": signature,
    },
    body: payload,
  });
  expect(delivered.status, await delivered.clone().text()).toBeLessThan(300);
  await waitFor(
    "the deploy to be running",
    async () => {
      const deploys = await call(`${other.url}/api/v1/admin/deploys`, { token: admin.token });
      return deploys.body.items?.some((run: { status: string }) => run.status === "running");
    },
    60_000,
    250,
  );

  // Load: readers on the stopping process, and two sign-ins whose bodies finish arriving after SIGTERM.
  const results: { started: number; status: number | string }[] = [];
  let sigtermAt = Number.POSITIVE_INFINITY;
  const reader = async () => {
    while (Date.now() < sigtermAt + 3000) {
      const started = Date.now();
      try {
        const answer = await call(`${stopping.url}/tasks/${task.id}`, { token: user.token, timeoutMs: 20_000 });
        results.push({ started, status: answer.status });
      } catch (error) {
        results.push({ started, status: String(error) });
        if (started > sigtermAt) return; // refused once it stopped listening: expected
      }
    }
  };
  const readers = Array.from({ length: 8 }, reader);
  await waitFor("some answers under load", async () => results.length > 50, 20_000, 20);
  const credentials = { email: user.email, password: user.password };
  const signIns = [slowSignIn(stopping.url, credentials, 1500), slowSignIn(stopping.url, credentials, 4000)];
  await new Promise((resolve) => setTimeout(resolve, 100)); // the sign-ins' first halves are in
  sigtermAt = Date.now();
  stopping.child.kill("SIGTERM");

  expect(await Promise.all(signIns)).toEqual([200, 200]);
  await Promise.all(readers);
  const exit = await stopping.exited;
  expect(exit.at - sigtermAt, stopping.output()).toBeLessThanOrEqual(SHUTDOWN_TIMEOUT_MS + 5000);
  expect(exit.code, stopping.output()).toBe(0);
  // Every request sent well before SIGTERM was answered, and answered 200.
  const inFlight = results.filter((result) => result.started < sigtermAt - 50);
  expect(inFlight.length).toBeGreaterThan(50);
  expect(inFlight.filter((result) => result.status !== 200)).toEqual([]);
  expect(stopping.nonJsonLines(), stopping.output()).toEqual([]);

  // The other process goes on.
  expect((await call(`${other.url}/readyz`)).status).toBe(200);
  expect((await call(`${other.url}/tasks/${task.id}`, { token: user.token })).status).toBe(200);
}, 240_000);
