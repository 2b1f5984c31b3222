import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { backgroundJobs } from "../../server/jobs";
import { createDueOccurrences } from "../../lib/tasks/recurring";
import { expectProblem, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface Occurrence {
  id: string;
  title: string;
  dueAt: string;
  status: string;
  occurrence: number;
  seriesId: string;
  assigneeIds: string[];
  tags: string[];
  groupId: string;
  description: string;
  subtasks: { total: number; done: number };
}

/** Every task of the series, oldest first. */
async function series(token: string, seriesId: string): Promise<Occurrence[]> {
  const all = (await server.request("/tasks?limit=200&sort=dueAt", { token })).body.items as Occurrence[];
  return all.filter((task) => task.seriesId === seriesId).sort((a, b) => a.occurrence - b.occurrence);
}

async function recurring(token: string, fields: Record<string, unknown>) {
  const response = await server.request("/tasks", { token, json: { title: "Pay the rent", ...fields } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as Occurrence;
}

describe("recurring tasks", () => {
  test("monthly on the 31st: last day of shorter months, 09:00 Prague time across the DST change", async () => {
    const { token, user } = await registerUser(server, { timeZone: "Europe/Prague" });
    const first = await recurring(token, {
      description: "to the landlord",
      tags: ["home"],
      assigneeIds: [user.id],
      dueAt: "2027-01-31T08:00:00Z", // 09:00 in Prague (CET)
      recurrence: { frequency: "monthly" },
    });
    await server.request(`/tasks/${first.id}/subtasks`, { token, json: { title: "Check the amount", done: true } });
    await server.request(`/tasks/${first.id}/subtasks`, { token, json: { title: "Send it" } });

    await createDueOccurrences(new Date("2027-01-31T07:59:00Z"));
    expect(await series(token, first.seriesId)).toHaveLength(1);
    await createDueOccurrences(new Date("2027-01-31T08:00:00Z"));
    await createDueOccurrences(new Date("2027-02-28T08:00:00Z"));
    // Summer time starts on 28 March 2027: 09:00 in Prague is 07:00 UTC.
    await createDueOccurrences(new Date("2027-03-31T07:00:00Z"));

    const tasks = await series(token, first.seriesId);
    expect(tasks.map((task) => [task.occurrence, task.dueAt])).toEqual([
      [1, "2027-01-31T08:00:00.000Z"],
      [2, "2027-02-28T08:00:00.000Z"],
      [3, "2027-03-31T07:00:00.000Z"],
      [4, "2027-04-30T07:00:00.000Z"],
    ]);
    for (const task of tasks.slice(1)) {
      expect(task).toMatchObject({
        title: "Pay the rent",
        description: "to the landlord",
        tags: ["home"],
        groupId: first.groupId,
        assigneeIds: [user.id],
        status: "todo",
        subtasks: { total: 2, done: 0 },
      });
    }
  });

  test("daily at 02:30 across the spring-forward gap and back", async () => {
    const { token } = await registerUser(server, { timeZone: "Europe/Prague" });
    const first = await recurring(token, { dueAt: "2027-03-27T01:30:00Z", recurrence: { frequency: "daily" } });
    for (const now of ["2027-03-27T01:30:00Z", "2027-03-28T01:30:00Z", "2027-03-29T00:30:00Z"]) {
      await createDueOccurrences(new Date(now));
    }
    const dues = (await series(token, first.seriesId)).map((task) => task.dueAt);
    // 02:30 does not exist on 28 March (clocks jump 02:00 → 03:00): that one is at 03:30 summer time.
    expect(dues).toEqual([
      "2027-03-27T01:30:00.000Z",
      "2027-03-28T01:30:00.000Z",
      "2027-03-29T00:30:00.000Z",
      "2027-03-30T00:30:00.000Z",
    ]);
  });

  // The job handles every user's tasks: each test looks at its own series, with dates later than the last test's.
  test("two runners at once, and a rerun after a restart, make exactly one task per occurrence", async () => {
    const { token } = await registerUser(server);
    const first = await recurring(token, { dueAt: "2027-05-01T10:00:00Z", recurrence: { frequency: "weekly", interval: 2 } });
    const now = new Date("2027-05-01T10:00:01Z");
    await Promise.all([createDueOccurrences(now), createDueOccurrences(now)]);
    expect(await series(token, first.seriesId)).toHaveLength(2);
    await createDueOccurrences(now);
    // A runner that died after creating the task but before marking the old one: the unique index holds.
    await server.sql("update tasks set successor_created = false where id = $1", [first.id]);
    await createDueOccurrences(now);
    const tasks = await series(token, first.seriesId);
    expect(tasks.map((task) => task.dueAt)).toEqual(["2027-05-01T10:00:00.000Z", "2027-05-15T10:00:00.000Z"]);
  });

  test("anchor completion: the next one is due N units after the last was done", async () => {
    const { token } = await registerUser(server, { timeZone: "America/New_York" });
    const first = await recurring(token, {
      title: "Water the plants",
      dueAt: "2027-06-01T13:00:00Z",
      recurrence: { frequency: "daily", interval: 3, anchor: "completion" },
    });
    // Overdue but not done: nothing yet.
    await createDueOccurrences(new Date("2027-06-05T00:00:00Z"));
    expect(await series(token, first.seriesId)).toHaveLength(1);
    await server.request(`/tasks/${first.id}`, { method: "PATCH", token, json: { status: "done" } });
    await server.sql("update tasks set completed_at = '2027-06-04T22:15:00Z' where id = $1", [first.id]);
    await createDueOccurrences(new Date("2027-06-05T00:00:00Z"));
    const [, next] = await series(token, first.seriesId);
    expect(next!.dueAt).toBe("2027-06-07T22:15:00.000Z");
  });

  test("a series with a count or an end date stops; stopping recurrence keeps the tasks", async () => {
    const { token } = await registerUser(server);
    const counted = await recurring(token, { dueAt: "2027-07-01T09:00:00Z", recurrence: { frequency: "daily", count: 2 } });
    await createDueOccurrences(new Date("2027-07-01T09:00:00Z"));
    await createDueOccurrences(new Date("2027-07-02T09:00:00Z"));
    expect(await series(token, counted.seriesId)).toHaveLength(2);

    const until = await recurring(token, {
      dueAt: "2027-08-01T09:00:00Z",
      recurrence: { frequency: "daily", until: "2027-08-02" },
    });
    await createDueOccurrences(new Date("2027-08-01T09:00:00Z"));
    await createDueOccurrences(new Date("2027-08-02T09:00:00Z"));
    expect((await series(token, until.seriesId)).map((task) => task.dueAt)).toEqual([
      "2027-08-01T09:00:00.000Z",
      "2027-08-02T09:00:00.000Z",
    ]);

    const stopped = await recurring(token, { dueAt: "2027-09-01T09:00:00Z", recurrence: { frequency: "daily" } });
    await createDueOccurrences(new Date("2027-09-01T09:00:00Z"));
    const [, second] = await series(token, stopped.seriesId);
    const patched = await server.request(`/tasks/${second!.id}`, { method: "PATCH", token, json: { recurrence: null } });
    expect(patched.body.recurrence).toBeNull();
    await createDueOccurrences(new Date("2027-09-05T09:00:00Z"));
    expect(await series(token, stopped.seriesId)).toHaveLength(2);
  });

  test("after a long outage the next occurrence is the first one still ahead", async () => {
    const { token } = await registerUser(server);
    const first = await recurring(token, { dueAt: "2027-10-01T09:00:00Z", recurrence: { frequency: "daily" } });
    await createDueOccurrences(new Date("2027-10-05T12:00:00Z"));
    const [, next] = await series(token, first.seriesId);
    expect(next).toMatchObject({ dueAt: "2027-10-06T09:00:00.000Z", occurrence: 6 });
  });

  test("a recurring task needs a due time; the job is registered with the runner", async () => {
    const { token } = await registerUser(server);
    const problem = expectProblem(
      await server.request("/tasks", { token, json: { title: "x", recurrence: { frequency: "weekly" } } }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.[0]).toMatchObject({ pointer: "/dueAt" });
    expect(backgroundJobs().map((job) => job.name)).toContain("recurring-tasks");
  });
});
