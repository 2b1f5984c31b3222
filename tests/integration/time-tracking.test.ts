import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { moduleOverrides } from "../../lib/modules/registry";
import {
  entryListOutput,
  reportOutput,
  startedTimerOutput,
  taskTimeOutput,
  timeEntryOutput,
  timerOutput,
} from "../../lib/time-tracking/schema";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";

/*
 * Time tracking (lib/time-tracking): one running timer per user (a start stops the other, also when two starts
 * race), entries by hand and their validation, reports per task, person and local day, the CSV export, and
 * privacy: another user's task or entry is a 404.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const PRAGUE = "Europe/Prague";
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function start(who: User, taskId: string, json?: unknown) {
  const response = await api(`/tasks/${taskId}/timer/start`, { method: "POST", token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(startedTimerOutput, response.body);
}

async function addEntry(who: User, json: Record<string, unknown>) {
  const response = await api("/time-entries", { token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(timeEntryOutput, response.body);
}

function expectInvalid(response: Awaited<ReturnType<typeof api>>, pointer: string) {
  const problem = expectProblem(response, 400, "validation_failed");
  expect(
    problem.errors?.map((error) => error.pointer),
    JSON.stringify(problem),
  ).toContain(pointer);
}

const runningOf = async (who: User) =>
  (await server.sql("select id, task_id from time_entries where user_id = $1 and ended_at is null", [who.user.id])) as {
    id: string;
    task_id: string;
  }[];

/** A project of `owner` with `member` in it and a task in the project: both can track time on it. */
async function sharedTask(owner: User, member: User, title = "Shared work") {
  const project = await api("/projects", { token: owner.token, json: { name: "Shared" } });
  expect(project.status).toBe(201);
  expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, owner, member, { role: "member" })).status).toBe(
    201,
  );
  return createTask(server, owner.token, { title, projectId: project.body.id });
}

describe("the timer", () => {
  test("start, read, switch to another task (the first stops), stop; stopping with none running is a 409", async () => {
    const alice = await registerUser(server);
    const first = await createTask(server, alice.token, { title: "Write" });
    const second = await createTask(server, alice.token, { title: "Read" });
    expect(expectShape(timerOutput, (await api("/timer", { token: alice.token })).body).running).toBeNull();

    const started = await start(alice, first.id, { note: "draft" });
    expect(started.stopped).toBeNull();
    expect(started.running).toMatchObject({
      taskId: first.id,
      taskTitle: "Write",
      running: true,
      endedAt: null,
      note: "draft",
      userId: alice.user.id,
    });
    expect(expectShape(timerOutput, (await api("/timer", { token: alice.token })).body).running?.id).toBe(started.running.id);

    // The same task again: the timer goes on.
    const again = await start(alice, first.id);
    expect(again).toMatchObject({ running: { id: started.running.id }, stopped: null });

    const switched = await start(alice, second.id);
    expect(switched.stopped).toMatchObject({ id: started.running.id, running: false, taskId: first.id });
    expect(switched.stopped!.endedAt).not.toBeNull();
    expect(switched.running).toMatchObject({ taskId: second.id, running: true });
    expect(await runningOf(alice)).toEqual([{ id: switched.running.id, task_id: second.id }]);

    const stopped = await api("/timer/stop", { method: "POST", token: alice.token });
    expect(stopped.status).toBe(200);
    expect(expectShape(timeEntryOutput, stopped.body)).toMatchObject({ id: switched.running.id, running: false });
    expect(await runningOf(alice)).toEqual([]);
    expectProblem(await api("/timer/stop", { method: "POST", token: alice.token }), 409, "conflict");
  });

  test("two starts at the same moment leave exactly one timer running", async () => {
    const alice = await registerUser(server);
    const tasks = await Promise.all([1, 2, 3, 4].map((n) => createTask(server, alice.token, { title: `Task ${n}` })));
    const answers = await Promise.all(
      tasks.map((task) => api(`/tasks/${task.id}/timer/start`, { method: "POST", token: alice.token })),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    const running = await runningOf(alice);
    expect(running).toHaveLength(1);
    // Every other start was stopped by the next one.
    const all = await server.sql("select ended_at from time_entries where user_id = $1", [alice.user.id]);
    expect(all).toHaveLength(4);
  });

  test("the root alias /tasks/{id}/timer/start answers too; the task's totals count everyone's time", async () => {
    const owner = await registerUser(server);
    const member = await registerUser(server);
    const task = await sharedTask(owner, member);
    const response = await server.request(`/tasks/${task.id}/timer/start`, { method: "POST", token: member.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    await addEntry(owner, { taskId: task.id, startedAt: "2026-01-05T08:00:00Z", durationSeconds: 3600 });
    const time = expectShape(taskTimeOutput, (await api(`/tasks/${task.id}/time`, { token: member.token })).body);
    expect(time.totalSeconds).toBeGreaterThanOrEqual(3600);
    expect(time.mineSeconds).toBeLessThan(60);
    expect(time.running).toMatchObject({ taskId: task.id, userId: member.user.id });
    const ownerView = expectShape(taskTimeOutput, (await api(`/tasks/${task.id}/time`, { token: owner.token })).body);
    expect(ownerView).toMatchObject({ mineSeconds: 3600, running: null });
  });

  test("another user's task is a 404 for the timer, entries and totals", async () => {
    const alice = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, alice.token);
    expectProblem(await api(`/tasks/${task.id}/timer/start`, { method: "POST", token: stranger.token }), 404, "not_found");
    expectProblem(await api(`/tasks/${task.id}/time`, { token: stranger.token }), 404, "not_found");
    expectProblem(
      await api("/time-entries", {
        token: stranger.token,
        json: { taskId: task.id, startedAt: "2026-01-05T08:00:00Z", durationSeconds: 60 },
      }),
      404,
      "not_found",
    );
    expectProblem(
      await api(`/time-entries?from=2026-01-01&to=2026-01-31&taskId=${task.id}`, { token: stranger.token }),
      404,
      "not_found",
    );
    expect(await server.sql("select id from time_entries where user_id = $1", [stranger.user.id])).toEqual([]);
  });
});

describe("entries by hand", () => {
  test("POST /time-entries – with endedAt or durationSeconds; bad times are a 400 naming the field", async () => {
    const alice = await registerUser(server);
    const task = await createTask(server, alice.token);
    const byEnd = await addEntry(alice, {
      taskId: task.id,
      startedAt: "2026-01-05T08:00:00Z",
      endedAt: "2026-01-05T09:30:00Z",
      note: "  meeting ",
    });
    expect(byEnd).toMatchObject({ durationSeconds: 5400, running: false, note: "meeting" });
    const byDuration = await addEntry(alice, { taskId: task.id, startedAt: "2026-01-05T10:00:00+01:00", durationSeconds: 600 });
    expect(byDuration).toMatchObject({
      startedAt: "2026-01-05T09:00:00.000Z",
      endedAt: "2026-01-05T09:10:00.000Z",
      durationSeconds: 600,
    });

    const base = { taskId: task.id, startedAt: "2026-01-05T08:00:00Z" };
    expectInvalid(
      await api("/time-entries", { token: alice.token, json: { ...base, endedAt: "2026-01-05T07:00:00Z" } }),
      "/endedAt",
    );
    expectInvalid(
      await api("/time-entries", { token: alice.token, json: { ...base, endedAt: "2026-01-05T08:00:00Z" } }),
      "/endedAt",
    );
    expectInvalid(await api("/time-entries", { token: alice.token, json: base }), "/endedAt");
    expectInvalid(
      await api("/time-entries", { token: alice.token, json: { ...base, endedAt: "2026-01-05T09:00:00Z", durationSeconds: 60 } }),
      "/endedAt",
    );
    expectInvalid(await api("/time-entries", { token: alice.token, json: { ...base, durationSeconds: 0 } }), "/durationSeconds");
    expectInvalid(
      await api("/time-entries", { token: alice.token, json: { ...base, durationSeconds: 8 * 86_400 } }),
      "/durationSeconds",
    );
    expectInvalid(
      await api("/time-entries", {
        token: alice.token,
        json: { ...base, startedAt: "2099-01-01T00:00:00Z", durationSeconds: 60 },
      }),
      "/startedAt",
    );
    expectInvalid(
      await api("/time-entries", { token: alice.token, json: { ...base, startedAt: "yesterday", durationSeconds: 60 } }),
      "/startedAt",
    );
    expectInvalid(
      await api("/time-entries", { token: alice.token, json: { ...base, durationSeconds: 60, userId: alice.user.id } }),
      "/userId",
    );
    expect(await server.sql("select id from time_entries where user_id = $1", [alice.user.id])).toHaveLength(2);
  });

  test("PATCH and DELETE /time-entries/{id} – own entries only; others' are a 404 and stay", async () => {
    const owner = await registerUser(server);
    const member = await registerUser(server);
    const task = await sharedTask(owner, member);
    const entry = await addEntry(owner, { taskId: task.id, startedAt: "2026-01-05T08:00:00Z", durationSeconds: 600 });

    expectProblem(
      await api(`/time-entries/${entry.id}`, { method: "PATCH", token: member.token, json: { note: "mine now" } }),
      404,
      "not_found",
    );
    expectProblem(await api(`/time-entries/${entry.id}`, { method: "DELETE", token: member.token }), 404, "not_found");

    const patched = await api(`/time-entries/${entry.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { endedAt: "2026-01-05T09:00:00Z", note: "longer" },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(expectShape(timeEntryOutput, patched.body)).toMatchObject({ durationSeconds: 3600, note: "longer" });
    expectInvalid(
      await api(`/time-entries/${entry.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { startedAt: "2026-01-05T10:00:00Z" },
      }),
      "/endedAt",
    );
    expectInvalid(await api(`/time-entries/${entry.id}`, { method: "PATCH", token: owner.token, json: {} }), "/startedAt");

    // endedAt on the running timer stops it.
    const timer = await start(owner, task.id);
    const stopped = await api(`/time-entries/${timer.running.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { startedAt: new Date(Date.now() - 600_000).toISOString(), endedAt: new Date(Date.now() - 1000).toISOString() },
    });
    expect(stopped.status, JSON.stringify(stopped.body)).toBe(200);
    expect(await runningOf(owner)).toEqual([]);

    expect((await api(`/time-entries/${entry.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expectProblem(await api(`/time-entries/${entry.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");
  });

  test("GET /time-entries – your own entries overlapping local dates in your time zone", async () => {
    const alice = await registerUser(server, { timeZone: PRAGUE });
    const bob = await registerUser(server);
    const task = await sharedTask(alice, bob);
    const other = await createTask(server, alice.token, { title: "Other" });
    // 23:30 local on 10 January (22:30 UTC), and 00:30 local on 12 January (23:30 UTC on the 11th).
    const late = await addEntry(alice, { taskId: task.id, startedAt: "2026-01-10T22:30:00Z", durationSeconds: 3600 });
    await addEntry(alice, { taskId: task.id, startedAt: "2026-01-11T23:30:00Z", durationSeconds: 600 });
    const onOther = await addEntry(alice, { taskId: other.id, startedAt: "2026-01-11T10:00:00Z", durationSeconds: 600 });
    await addEntry(bob, { taskId: task.id, startedAt: "2026-01-11T10:00:00Z", durationSeconds: 600 });

    const list = expectShape(
      entryListOutput,
      (await api("/time-entries?from=2026-01-11&to=2026-01-11", { token: alice.token })).body,
    );
    expect(list.items.map((item) => item.id)).toEqual([late.id, onOther.id]);
    const ofTask = expectShape(
      entryListOutput,
      (await api(`/time-entries?from=2026-01-10&to=2026-01-11&taskId=${other.id}`, { token: alice.token })).body,
    );
    expect(ofTask.items.map((item) => item.id)).toEqual([onOther.id]);
    expectInvalid(await api("/time-entries?from=2026-01-11&to=2026-01-10", { token: alice.token }), "/to");
    expectInvalid(await api("/time-entries?from=2026-01-01&to=2027-06-01", { token: alice.token }), "/to");
    expectInvalid(await api("/time-entries?from=11.1.2026&to=2026-01-12", { token: alice.token }), "/from");
  });
});

describe("reports and the export", () => {
  async function arrangeReport() {
    const alice = await registerUser(server, { timeZone: PRAGUE, name: "Alice" });
    const bob = await registerUser(server, { name: "Bob" });
    const stranger = await registerUser(server, { name: "Stranger" });
    const shared = await sharedTask(alice, bob, 'Plan "Q1", draft');
    const own = await createTask(server, alice.token, { title: "Inbox" });
    const hidden = await createTask(server, stranger.token, { title: "Not yours" });
    // 23:30-00:30 in Prague on 10/11 January: half an hour on each day.
    await addEntry(alice, {
      taskId: shared.id,
      startedAt: "2026-01-10T22:30:00Z",
      durationSeconds: 3600,
      note: '=HYPERLINK("http://evil")',
    });
    await addEntry(bob, { taskId: shared.id, startedAt: "2026-01-11T09:00:00Z", durationSeconds: 1800, note: "+1 more, later" });
    await addEntry(alice, { taskId: own.id, startedAt: "2026-01-11T12:00:00Z", durationSeconds: 600, note: "-" });
    // 00:30 on 12 January in Prague (still the 11th in UTC): outside the range.
    await addEntry(alice, { taskId: own.id, startedAt: "2026-01-11T23:30:00Z", durationSeconds: 600 });
    await addEntry(stranger, { taskId: hidden.id, startedAt: "2026-01-11T10:00:00Z", durationSeconds: 7200 });
    return { alice, bob, shared, own };
  }

  const report = async (who: User, query: string) => {
    const response = await api(`/time-entries/report?${query}`, { token: who.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(reportOutput, response.body);
  };

  test("GET /time-entries/report – per task, per person and per local day, split at local midnight", async () => {
    const { alice, bob, shared, own } = await arrangeReport();
    const byDay = await report(alice, "from=2026-01-10&to=2026-01-11&by=day");
    expect(byDay).toMatchObject({
      from: "2026-01-10",
      to: "2026-01-11",
      timeZone: PRAGUE,
      totalSeconds: 1800 + 1800 + 1800 + 600,
    });
    expect(byDay.rows).toEqual([
      { key: "2026-01-10", label: "2026-01-10", seconds: 1800, entries: 1 },
      { key: "2026-01-11", label: "2026-01-11", seconds: 1800 + 1800 + 600, entries: 3 },
    ]);

    const byTask = await report(alice, "from=2026-01-10&to=2026-01-11&by=task");
    expect(byTask.rows).toEqual([
      { key: shared.id, label: 'Plan "Q1", draft', seconds: 5400, entries: 2 },
      { key: own.id, label: "Inbox", seconds: 600, entries: 1 },
    ]);
    expect(byTask.totalSeconds).toBe(6000);

    const byUser = await report(alice, "from=2026-01-10&to=2026-01-11&by=user");
    expect(byUser.rows).toEqual([
      { key: alice.user.id, label: "Alice", seconds: 4200, entries: 2 },
      { key: bob.user.id, label: "Bob", seconds: 1800, entries: 1 },
    ]);

    // Only the 11th: Alice's late entry counts for its half after midnight. Default grouping: per task.
    const eleventh = await report(alice, "from=2026-01-11&to=2026-01-11");
    expect(eleventh).toMatchObject({ by: "task", totalSeconds: 1800 + 1800 + 600 });

    // Bob (in UTC) sees the shared task only: the 10th in UTC holds the whole late entry.
    const bobs = await report(bob, "from=2026-01-10&to=2026-01-10&by=user");
    expect(bobs.rows).toEqual([{ key: alice.user.id, label: "Alice", seconds: 3600, entries: 1 }]);
    expectInvalid(await api("/time-entries/report?from=2026-01-10&to=2026-01-11&by=week", { token: alice.token }), "/by");
  });

  test("GET /time-entries/export.csv – RFC 4180, formulas neutralised, as an attachment", async () => {
    const { alice } = await arrangeReport();
    const response = await api("/time-entries/export.csv?from=2026-01-10&to=2026-01-11", { token: alice.token });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="time-2026-01-10-2026-01-11.csv"');
    expect(response.body).toBe(
      "date,started_at,ended_at,duration_seconds,person,task,note\r\n" +
        `2026-01-10,2026-01-10T22:30:00.000Z,2026-01-10T23:30:00.000Z,3600,Alice,"Plan ""Q1"", draft","'=HYPERLINK(""http://evil"")"\r\n` +
        `2026-01-11,2026-01-11T09:00:00.000Z,2026-01-11T09:30:00.000Z,1800,Bob,"Plan ""Q1"", draft","'+1 more, later"\r\n` +
        "2026-01-11,2026-01-11T12:00:00.000Z,2026-01-11T12:10:00.000Z,600,Alice,Inbox,'-\r\n",
    );
  });
});

describe("while the module is off", () => {
  test("every time-tracking route answers 404 module_disabled; the data comes back when it is on", async () => {
    const alice = await registerUser(server);
    const task = await createTask(server, alice.token);
    await start(alice, task.id);
    moduleOverrides().set("time-tracking", false);
    try {
      for (const [path, method] of [
        ["/api/v1/timer", "GET"],
        ["/api/v1/timer/stop", "POST"],
        [`/api/v1/tasks/${task.id}/timer/start`, "POST"],
        [`/tasks/${task.id}/timer/start`, "POST"],
        ["/api/v1/time-entries?from=2026-01-01&to=2026-01-02", "GET"],
        ["/api/v1/time-entries/export.csv?from=2026-01-01&to=2026-01-02", "GET"],
      ] as const) {
        const problem = expectProblem(await server.request(path, { method, token: alice.token }), 404, "module_disabled");
        expect(problem.detail).toContain("time-tracking");
      }
    } finally {
      moduleOverrides().delete("time-tracking");
    }
    expect(expectShape(timerOutput, (await api("/timer", { token: alice.token })).body).running?.taskId).toBe(task.id);
  });
});
