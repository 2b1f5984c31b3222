/**
 * Two processes on one PostgreSQL database and one Redis, every setting at its default (jobs on, the default
 * pool, pages served): they keep serving past the moment every job has run, and each job's work happens once
 * across the two, not once per process.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
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

type Job = {
  name: string;
  paused: boolean;
  intervalMs: number;
  lastStartedAt: string | null;
  lastRunner: string | null;
  runCount: number;
};

let database: Awaited<ReturnType<typeof createDatabase>>;
let servers: ServerProcess[];
let admin: { token: string };
let startedAt: number;
/** Arranged at the start, checked at the end: a recurring task already due, and a task whose reminder is due now. */
let planner: Awaited<ReturnType<typeof register>>;
let recurringTask: { id: string; seriesId: string };
let remindedTask: { id: string };

beforeAll(async () => {
  database = await createDatabase();
  const env = clusterEnv(database.url, SHARED_REDIS_URL);
  startedAt = Date.now();
  servers = await Promise.all(["a", "b"].map((name) => startProcess({ name, env }).process));
  admin = await register(servers[0]!.url, ADMIN_EMAIL);
  planner = await register(servers[0]!.url);
  const created = await call(`${servers[0]!.url}/tasks`, {
    token: planner.token,
    json: { title: "Pay the rent", dueAt: new Date(Date.now() - 60_000).toISOString(), recurrence: { frequency: "daily" } },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  recurringTask = created.body;
  // The default advance reminder is 30 minutes before the due time: due in 30 minutes and a second, it is due now.
  const reminded = await call(`${servers[1]!.url}/tasks`, {
    token: planner.token,
    json: { title: "Call the plumber", dueAt: new Date(Date.now() + 30 * 60_000 + 1000).toISOString() },
  });
  expect(reminded.status, JSON.stringify(reminded.body)).toBe(201);
  remindedTask = reminded.body;
}, 180_000);

afterAll(async () => {
  killAll();
  await database?.drop();
});

async function jobs(): Promise<Job[]> {
  const answer = await call(`${servers[1]!.url}/api/v1/admin/jobs`, { token: admin.token, timeoutMs: 5000 });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.items;
}

describe("two processes with every default", () => {
  test("keep answering /readyz, sign-in and writes for a minute past the first run of every job", async () => {
    // Every job has begun at least once somewhere in the cluster (they all start within seconds of the start).
    const first = await waitFor(
      "every job to have run",
      async () => {
        const list = await jobs();
        return list.filter((job) => !job.paused).every((job) => job.lastStartedAt !== null) && list;
      },
      60_000,
    );
    expect(first.length).toBeGreaterThanOrEqual(12);

    const user = await register(servers[1]!.url);
    const minuteEnds = Date.now() + 60_000;
    let round = 0;
    while (Date.now() < minuteEnds) {
      for (const server of servers) {
        const ready = await call(`${server.url}/readyz`, { timeoutMs: 3000 });
        expect(ready.status, `${server.name} /readyz: ${JSON.stringify(ready.body)}`).toBe(200);
        const created = await call(`${server.url}/tasks`, {
          token: user.token,
          json: { title: `Round ${round}` },
          timeoutMs: 3000,
        });
        expect(created.status, `${server.name} POST /tasks`).toBe(201);
        // Sign-in shares a strict window per address (10 per 5 minutes): one every 15 s on each process stays inside it.
        if (round % 15 === 0) {
          const login = await call(`${server.url}/auth/login`, {
            json: { email: user.email, password: user.password },
            timeoutMs: 3000,
          });
          expect(login.status, `${server.name} sign-in`).toBe(200);
        }
      }
      round++;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    expect(round).toBeGreaterThan(20);
  }, 150_000);

  test("each job runs once per interval across the cluster, and /admin/jobs names the process that ran it", async () => {
    const list = await jobs();
    const pids = servers.map((server) => String(server.pid));
    const elapsed = Date.now() - startedAt;
    for (const job of list.filter((entry) => !entry.paused)) {
      // One runner for the cluster: at most one run per interval since the start (plus the one that may be running).
      expect(job.runCount, `${job.name} ran ${job.runCount} times in ${elapsed} ms`).toBeLessThanOrEqual(
        Math.floor(elapsed / job.intervalMs) + 1,
      );
      expect(pids, `${job.name} ran in ${job.lastRunner}`).toContain(job.lastRunner?.split(":").at(-1));
    }
    const fast = list.find((job) => job.name === "webhook-deliveries")!;
    // Ran all along (every 15 s), not stuck: at least every other interval.
    expect(fast.runCount).toBeGreaterThanOrEqual(Math.floor(elapsed / fast.intervalMs / 2));
  });

  test("a recurring task's next occurrence and a due reminder are produced once across the two processes", async () => {
    const series = async () => {
      const answer = await call(`${servers[0]!.url}/tasks?limit=100`, { token: planner.token });
      return (answer.body.items as { seriesId: string | null }[]).filter((task) => task.seriesId === recurringTask.seriesId);
    };
    const reminderLog = async () =>
      (await call(`${servers[1]!.url}/api/v1/tasks/${remindedTask.id}/reminders`, { token: planner.token })).body as {
        fires: { kind: string }[];
      };
    await waitFor("the next occurrence", async () => (await series()).length >= 2, 90_000);
    await waitFor("the reminder", async () => (await reminderLog()).fires.length >= 1, 90_000);
    // Both jobs run again, in either process, after the work was done: a second copy would appear then.
    const counts = async () => {
      const list = await jobs();
      return Object.fromEntries(list.map((job) => [job.name, job.runCount]));
    };
    const before = await counts();
    await waitFor(
      "both jobs to run again",
      async () => {
        const now = await counts();
        return now["recurring-tasks"]! > before["recurring-tasks"]! && now.reminders! > before.reminders!;
      },
      150_000,
      1000,
    );
    expect(await series()).toHaveLength(2);
    expect((await reminderLog()).fires.map((fire) => fire.kind)).toEqual(["before"]);
    const notifications = await call(`${servers[0]!.url}/api/v1/notifications`, { token: planner.token });
    const reminders = notifications.body.items.filter(
      (item: { kind: string; taskId: string }) => item.taskId === remindedTask.id,
    );
    expect(
      reminders.map((item: { kind: string }) => item.kind),
      JSON.stringify(notifications.body.items),
    ).toEqual(["reminder"]);
  }, 300_000);
});
