/**
 * SIGTERM to one of two processes under load, while that process runs a job that does not end by itself: the
 * reminders job is sending an e-mail to an SMTP server that greets and then never answers (nodemailer waits
 * 30 s for it). The requests in flight are answered, the running job is abandoned after SHUTDOWN_TIMEOUT_MS
 * (10 s by default; its lease lets another process take it over), the process exits within that bound plus a
 * few seconds, and the other process keeps serving.
 */
import { createServer, type Server, type Socket } from "node:net";
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
/** The default reminder comes this long before a task's due time. */
const REMIND_BEFORE_MS = 30 * 60 * 1000;

let database: Awaited<ReturnType<typeof createDatabase>>;
let servers: ServerProcess[];
let smtp: Server;
/** The SMTP connections opened so far (each is held open, unanswered after the greeting). */
const smtpConnections: Socket[] = [];

beforeAll(async () => {
  database = await createDatabase();
  // An SMTP server that says hello and then never answers a command.
  smtp = createServer((socket) => {
    smtpConnections.push(socket);
    socket.on("error", () => {});
    socket.write("220 stuck.example.com ESMTP\r\n");
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  const port = (smtp.address() as { port: number }).port;
  const env = {
    ...clusterEnv(database.url, SHARED_REDIS_URL),
    EMAIL_TRANSPORT: "smtp",
    SMTP_URL: `smtp://127.0.0.1:${port}`,
  };
  servers = await Promise.all(["a", "b"].map((name) => startProcess({ name, env }).process));
}, 180_000);

afterAll(async () => {
  killAll();
  for (const socket of smtpConnections) socket.destroy();
  await new Promise((resolve) => smtp?.close(resolve));
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

test("SIGTERM under load, with a job stuck on an outside server: in-flight requests answered, the job abandoned, exit within the bound", async () => {
  const admin = await register(servers[1]!.url, ADMIN_EMAIL);
  const user = await register(servers[0]!.url);
  // A task whose 30-minute reminder is due in a few seconds, to be sent by e-mail only.
  const task = (
    await call(`${servers[0]!.url}/tasks`, {
      token: user.token,
      json: { title: "Read under load", dueAt: new Date(Date.now() + REMIND_BEFORE_MS + 3000).toISOString() },
    })
  ).body;
  const prefs = await call(`${servers[0]!.url}/api/v1/notification-prefs/${task.id}`, {
    method: "PUT",
    token: user.token,
    json: { channels: ["email"] },
  });
  expect(prefs.status, JSON.stringify(prefs.body)).toBe(200);

  // Whichever process claims the reminders job connects to the SMTP server and waits there (the sign-ups'
  // verification links wait there too, in the background): wait until the job has been running for 2 s, which a
  // run that sends nothing never does.
  const runningOn = await waitFor(
    "/admin/jobs to show the reminders job stuck",
    async () => {
      const jobs = await call(`${servers[1]!.url}/api/v1/admin/jobs`, { token: admin.token });
      const reminders = (jobs.body.items as { name: string; runningOn: string | null; lastStartedAt: string | null }[]).find(
        (job) => job.name === "reminders",
      );
      const stuck = reminders?.runningOn && reminders.lastStartedAt && Date.now() - Date.parse(reminders.lastStartedAt) > 2000;
      return stuck ? reminders.runningOn : undefined;
    },
    120_000,
    200,
  );
  const stopping = servers.find((server) => runningOn.endsWith(`:${server.pid}`));
  if (!stopping) throw new Error(`/admin/jobs says the reminders job runs on ${runningOn}, neither of the two processes`);
  const other = servers.find((server) => server !== stopping)!;

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
  // It did not wait for the e-mail: the job was left to its lease, and the log says so.
  const abandoned = stopping
    .output()
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { msg?: string; jobs?: string[] })
    .find((entry) => entry.msg === "Abandoned running jobs at shutdown; their leases expire");
  expect(abandoned?.jobs, stopping.output()).toContain("reminders");
  // Every request sent well before SIGTERM was answered, and answered 200.
  const inFlight = results.filter((result) => result.started < sigtermAt - 50);
  expect(inFlight.length).toBeGreaterThan(50);
  expect(inFlight.filter((result) => result.status !== 200)).toEqual([]);
  expect(stopping.nonJsonLines(), stopping.output()).toEqual([]);

  // The other process goes on.
  expect((await call(`${other.url}/readyz`)).status).toBe(200);
  expect((await call(`${other.url}/tasks/${task.id}`, { token: user.token })).status).toBe(200);
}, 240_000);
