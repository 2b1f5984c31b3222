import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { goalListOutput, goalOutput, reportListOutput, reportOutput } from "../../lib/goals/schema";
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
 * Goals (lib/goals): CRUD with validation of every field, linked tasks and the progress derived from them, progress
 * reports, and privacy: another user's goal is a 404 everywhere and never listed.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** Goal paths live under /api/v1 only. */
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function createGoal(who: User, json: Record<string, unknown> = { title: "Learn Czech" }) {
  const response = await api("/goals", { token: who.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(goalOutput, response.body);
}

async function getGoal(who: User, goalId: string) {
  const response = await api(`/goals/${goalId}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(goalOutput, response.body);
}

const patchGoal = (who: User, goalId: string, json: unknown) =>
  api(`/goals/${goalId}`, { method: "PATCH", token: who.token, json });

async function link(who: User, goalId: string, taskId: string) {
  const response = await api(`/goals/${goalId}/tasks/${taskId}`, { method: "PUT", token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(goalOutput, response.body);
}

const setStatus = (who: User, taskId: string, status: string) =>
  server.request(`/tasks/${taskId}`, { method: "PATCH", token: who.token, json: { status } });

/** The local date in a time zone, `days` from now. */
function localDate(timeZone: string, days = 0): string {
  return new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }).format(
    new Date(Date.now() + days * 86_400_000),
  );
}

/** Expects a 400 problem naming exactly this body field. */
function expectInvalid(response: Awaited<ReturnType<typeof api>>, pointer: string) {
  const problem = expectProblem(response, 400, "validation_failed");
  expect(
    problem.errors?.map((error) => error.pointer),
    JSON.stringify(problem),
  ).toContain(pointer);
}

describe("POST /goals", () => {
  test("creates an active goal with progress set by hand, trimmed", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner, {
      title: "  Run a marathon  ",
      description: " Build up slowly \n",
      targetDate: "2031-05-01",
    });
    expect(goal).toMatchObject({
      title: "Run a marathon",
      description: "Build up slowly",
      status: "active",
      progress: 0,
      progressMode: "manual",
      targetDate: "2031-05-01",
      achievedAt: null,
      linkedTasks: [],
    });
    expect(await getGoal(owner, goal.id)).toEqual(goal);
  });

  test("a goal created as achieved has achievedAt; progress may be given", async () => {
    const owner = await registerUser(server);
    const before = Date.now();
    const goal = await createGoal(owner, { title: "Done already", status: "achieved", progress: 100 });
    expect(goal.progress).toBe(100);
    expect(Date.parse(goal.achievedAt!)).toBeGreaterThanOrEqual(before - 1000);
  });

  test("400 names each invalid field", async () => {
    const owner = await registerUser(server);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "/title"],
      [{ title: "   " }, "/title"],
      [{ title: "x".repeat(201) }, "/title"],
      [{ title: 12 }, "/title"],
      [{ title: "Ok", description: "x".repeat(5001) }, "/description"],
      [{ title: "Ok", status: "done" }, "/status"],
      [{ title: "Ok", progress: -1 }, "/progress"],
      [{ title: "Ok", progress: 101 }, "/progress"],
      [{ title: "Ok", progress: 12.5 }, "/progress"],
      [{ title: "Ok", progress: "50" }, "/progress"],
      [{ title: "Ok", targetDate: "2026-13-01" }, "/targetDate"],
      [{ title: "Ok", targetDate: "next friday" }, "/targetDate"],
      [{ title: "Ok", colour: "red" }, "/colour"],
    ];
    for (const [json, pointer] of cases) expectInvalid(await api("/goals", { token: owner.token, json }), pointer);
    expect((await api("/goals", { token: owner.token })).body.items).toEqual([]);
  });

  test("without a session: 401", async () => {
    expectProblem(await api("/goals", { json: { title: "Anonymous" } }), 401, "unauthenticated");
  });
});

describe("GET /goals", () => {
  test("lists only the user's own goals, newest first, filtered by status", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const first = await createGoal(owner, { title: "First" });
    const second = await createGoal(owner, { title: "Second", status: "paused" });
    await createGoal(other, { title: `Someone else's ${randomUUID()}` });

    const all = expectShape(goalListOutput, (await api("/goals", { token: owner.token })).body);
    expect(all.items.map((goal) => goal.id)).toEqual([second.id, first.id]);
    const paused = expectShape(goalListOutput, (await api("/goals?status=paused", { token: owner.token })).body);
    expect(paused.items.map((goal) => goal.id)).toEqual([second.id]);
    expectInvalid(await api("/goals?status=finished", { token: owner.token }), "/status");
  });
});

describe("GET /goals/{id}", () => {
  test("answers the goal as the routes that change it do, to the byte of its ETag: dates, instants, linked tasks", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner, { title: "Run a marathon", description: "Slowly", targetDate: "2030-04-06" });
    const dueAt = "2030-03-01T17:45:30.123Z";
    const task = await createTask(server, owner.token, { title: "Long run", dueAt });
    await createTask(server, owner.token, { title: "Not linked" });
    await link(owner, goal.id, task.id);
    const changed = await patchGoal(owner, goal.id, { status: "achieved" });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);

    const read = await api(`/goals/${goal.id}`, { token: owner.token });
    expect(read.status).toBe(200);
    expect(expectShape(goalOutput, read.body)).toEqual(changed.body);
    expect(read.headers.get("etag")).toBe(changed.headers.get("etag"));
    expect(read.body).toMatchObject({
      targetDate: "2030-04-06",
      achievedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      linkedTasks: [{ id: task.id, title: "Long run", status: "todo", dueAt }],
    });
    const listed = expectShape(goalListOutput, (await api("/goals", { token: owner.token })).body).items;
    expect(listed).toEqual([read.body]);
  });
});

describe("PATCH /goals/{id}", () => {
  test("changes the fields given; achieved sets achievedAt, keeps it, and another status clears it", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner, { title: "Read 20 books", targetDate: "2030-12-31" });

    const edited = expectShape(
      goalOutput,
      (await patchGoal(owner, goal.id, { description: "Novels too", progress: 40, targetDate: null })).body,
    );
    expect(edited).toMatchObject({
      title: "Read 20 books",
      description: "Novels too",
      progress: 40,
      targetDate: null,
      status: "active",
    });

    const achieved = expectShape(goalOutput, (await patchGoal(owner, goal.id, { status: "achieved" })).body);
    expect(achieved.achievedAt).not.toBeNull();
    const renamed = expectShape(
      goalOutput,
      (await patchGoal(owner, goal.id, { title: "Read 20 good books", status: "achieved" })).body,
    );
    expect(renamed.achievedAt).toBe(achieved.achievedAt);
    const paused = expectShape(goalOutput, (await patchGoal(owner, goal.id, { status: "paused" })).body);
    expect(paused).toMatchObject({ status: "paused", achievedAt: null, title: "Read 20 good books" });
  });

  test("400 for an empty change or an invalid field; 404 for no such goal", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner);
    expectInvalid(await patchGoal(owner, goal.id, {}), "/title");
    expectInvalid(await patchGoal(owner, goal.id, { title: "" }), "/title");
    expectInvalid(await patchGoal(owner, goal.id, { progress: 150 }), "/progress");
    expectInvalid(await patchGoal(owner, goal.id, { status: "archived" }), "/status");
    expectInvalid(await patchGoal(owner, goal.id, { targetDate: "31.12.2030" }), "/targetDate");
    expectProblem(await patchGoal(owner, MISSING_ID, { title: "Nothing" }), 404, "not_found");
    expectInvalid(await api("/goals/not-a-uuid", { token: owner.token }), "/id");
  });
});

describe("every /goals/{id} route", () => {
  test("is a 404 for another user's goal, which stays as it was", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const goal = await createGoal(owner, { title: "Private goal", progress: 10 });
    const task = await createTask(server, owner.token);
    await link(owner, goal.id, task.id);
    await api(`/goals/${goal.id}/reports`, { token: owner.token, json: { date: "2025-01-01", value: 10 } });
    const own = await createTask(server, stranger.token);

    const attempts: [string, RequestOptions][] = [
      [`/goals/${goal.id}`, {}],
      [`/goals/${goal.id}`, { method: "PATCH", json: { title: "Mine now" } }],
      [`/goals/${goal.id}`, { method: "DELETE" }],
      [`/goals/${goal.id}/tasks/${own.id}`, { method: "PUT" }],
      [`/goals/${goal.id}/tasks/${task.id}`, { method: "DELETE" }],
      [`/goals/${goal.id}/reports`, {}],
      [`/goals/${goal.id}/reports`, { json: { date: "2025-01-02", value: 99 } }],
      [`/goals/${goal.id}/study-plan`, {}],
      [`/goals/${goal.id}/study-plan`, { json: {} }],
      [`/goals/${goal.id}/study-plan/apply`, { method: "POST" }],
    ];
    for (const [path, options] of attempts) {
      const response = await api(path, { ...options, token: stranger.token });
      expectProblem(response, 404, "not_found");
      expect(JSON.stringify(response.body)).not.toContain("Private goal");
    }
    expect((await api("/goals", { token: stranger.token })).body.items).toEqual([]);
    const after = await getGoal(owner, goal.id);
    expect(after).toMatchObject({ title: "Private goal", linkedTasks: [{ id: task.id }] });
    expect((await api(`/goals/${goal.id}/reports`, { token: owner.token })).body.items).toHaveLength(1);
  });
});

describe("DELETE /goals/{id}", () => {
  test("deletes the goal with its links, reports and plan; the tasks stay", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner);
    const task = await createTask(server, owner.token);
    await link(owner, goal.id, task.id);
    expect((await api(`/goals/${goal.id}/reports`, { token: owner.token, json: { date: "2025-03-01", value: 5 } })).status).toBe(
      201,
    );
    expect((await api(`/goals/${goal.id}/study-plan`, { token: owner.token, json: {} })).status).toBe(201);

    expect((await api(`/goals/${goal.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expectProblem(await api(`/goals/${goal.id}`, { token: owner.token }), 404, "not_found");
    expectProblem(await api(`/goals/${goal.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");
    for (const table of ["goal_tasks", "goal_progress_reports", "study_plans"]) {
      expect(await server.sql(`select 1 from ${table} where goal_id = $1`, [goal.id]), table).toEqual([]);
    }
    expect((await server.request(`/tasks/${task.id}`, { token: owner.token })).status).toBe(200);
  });
});

describe("PUT and DELETE /goals/{id}/tasks/{taskId}: linked tasks and the progress derived from them", () => {
  test("progress is the share of linked tasks done, cancelled ones left out, rounded down", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner, { title: "Ship the release", progress: 35 });
    const [a, b, c, d] = [
      await createTask(server, owner.token, { title: "Write notes" }),
      await createTask(server, owner.token, { title: "Tag the build" }),
      await createTask(server, owner.token, { title: "Announce" }),
      await createTask(server, owner.token, { title: "Dropped idea" }),
    ];
    let current = await link(owner, goal.id, a.id);
    expect(current).toMatchObject({
      progressMode: "tasks",
      progress: 0,
      linkedTasks: [{ id: a.id, title: "Write notes", status: "todo", dueAt: null }],
    });
    for (const task of [b, c, d]) current = await link(owner, goal.id, task.id);
    expect(current.linkedTasks.map((task) => task.id)).toEqual([a.id, b.id, c.id, d.id]);

    await setStatus(owner, a.id, "done");
    await setStatus(owner, b.id, "done");
    await setStatus(owner, d.id, "cancelled");
    expect(await getGoal(owner, goal.id)).toMatchObject({ progress: 66, progressMode: "tasks" }); // 2 of 3
    await setStatus(owner, c.id, "in_progress");
    expect((await getGoal(owner, goal.id)).progress).toBe(66);
    await setStatus(owner, c.id, "done");
    expect((await getGoal(owner, goal.id)).progress).toBe(100);

    // Every counted task cancelled: nothing is done.
    for (const task of [a, b, c]) await setStatus(owner, task.id, "cancelled");
    expect(await getGoal(owner, goal.id)).toMatchObject({ progress: 0, progressMode: "tasks" });

    // The list says the same.
    const listed = expectShape(goalListOutput, (await api("/goals", { token: owner.token })).body).items.find(
      (item) => item.id === goal.id,
    );
    expect(listed).toMatchObject({ progress: 0, progressMode: "tasks" });

    // Unlinking the last task brings back the value set by hand.
    for (const task of [a, b, c, d]) {
      const response = await api(`/goals/${goal.id}/tasks/${task.id}`, { method: "DELETE", token: owner.token });
      expect(response.status).toBe(200);
      current = expectShape(goalOutput, response.body);
    }
    expect(current).toMatchObject({ progress: 35, progressMode: "manual", linkedTasks: [] });
    expect((await server.request(`/tasks/${a.id}`, { token: owner.token })).status).toBe(200);
  });

  test("a hand-set progress is refused with a 409 that says why while tasks are linked", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner);
    const task = await createTask(server, owner.token);
    await link(owner, goal.id, task.id);
    const problem = expectProblem(await patchGoal(owner, goal.id, { progress: 80, title: "Renamed" }), 409, "conflict");
    expect(problem.detail).toMatch(/derived from its 1 linked task/);
    expect((await getGoal(owner, goal.id)).title).toBe("Learn Czech");
    expect((await patchGoal(owner, goal.id, { title: "Renamed" })).status).toBe(200);
  });

  test("linking is idempotent; an unlinked task is a 404; a deleted task leaves the goal", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner);
    const task = await createTask(server, owner.token);
    await link(owner, goal.id, task.id);
    expect((await link(owner, goal.id, task.id)).linkedTasks).toHaveLength(1);
    const other = await createTask(server, owner.token);
    expectProblem(await api(`/goals/${goal.id}/tasks/${other.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");

    expect((await server.request(`/tasks/${task.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect(await getGoal(owner, goal.id)).toMatchObject({ linkedTasks: [], progressMode: "manual" });
  });

  test("only tasks the user can read may be linked; a task unshared since leaves the goal's list", async () => {
    const owner = await registerUser(server);
    const colleague = await registerUser(server);
    const goal = await createGoal(owner, { title: "Team launch", progress: 20 });

    // Another user's private task: 404, as if it did not exist; nothing is linked.
    const secret = await createTask(server, colleague.token, { title: `Secret ${randomUUID()}` });
    const refused = await api(`/goals/${goal.id}/tasks/${secret.id}`, { method: "PUT", token: owner.token });
    expectProblem(refused, 404, "not_found");
    expect(JSON.stringify(refused.body)).not.toContain("Secret");
    expectProblem(await api(`/goals/${goal.id}/tasks/${MISSING_ID}`, { method: "PUT", token: owner.token }), 404, "not_found");
    expect((await getGoal(owner, goal.id)).linkedTasks).toEqual([]);

    // A task of a project both belong to may be linked.
    const project = await api("/projects", { token: colleague.token, json: { name: "Launch" } });
    await joinAs(server, `/api/v1/projects/${project.body.id}/members`, colleague, owner);
    const shared = await createTask(server, colleague.token, { title: "Shared step", projectId: project.body.id });
    expect((await link(owner, goal.id, shared.id)).linkedTasks.map((task) => task.title)).toEqual(["Shared step"]);

    // Once the owner no longer sees it, it leaves the goal's list and progress.
    await api(`/projects/${project.body.id}/members/${owner.user.id}`, { method: "DELETE", token: colleague.token });
    expect(await getGoal(owner, goal.id)).toMatchObject({ linkedTasks: [], progressMode: "manual", progress: 20 });
  });
});

describe("/goals/{id}/reports", () => {
  test("POST /goals/{id}/reports adds a dated report; GET lists them by date for the chart", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner);
    const add = async (json: Record<string, unknown>) => {
      const response = await api(`/goals/${goal.id}/reports`, { token: owner.token, json });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return expectShape(reportOutput, response.body);
    };
    const march = await add({ date: "2025-03-10", value: 40, note: "  Halfway through the book  " });
    expect(march).toMatchObject({ goalId: goal.id, date: "2025-03-10", value: 40, note: "Halfway through the book" });
    const january = await add({ date: "2025-01-05", value: 10 });
    const marchAgain = await add({ date: "2025-03-10", value: 45, note: "Evening" });
    const february = await add({ date: "2025-02-01", value: 0 });

    const list = expectShape(reportListOutput, (await api(`/goals/${goal.id}/reports`, { token: owner.token })).body);
    expect(list.items.map((report) => report.id)).toEqual([january.id, february.id, march.id, marchAgain.id]);
    expect(january.note).toBe("");
    // The newest report (the latest date, of that date the last written) is the goal's progress; older ones are history.
    expect((await getGoal(owner, goal.id)).progress).toBe(45);
  });

  test("a goal measured by hand shows its newest report: 35 % reported is 35 % done, until a newer one or a deletion", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner, { title: "Read War and Peace" });
    expect(goal).toMatchObject({ progress: 0, progressMode: "manual" });
    const add = async (json: Record<string, unknown>) => {
      const response = await api(`/goals/${goal.id}/reports`, { token: owner.token, json });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      return expectShape(reportOutput, response.body);
    };
    const april = await add({ date: "2025-04-01", value: 20 });
    const may = await add({ date: "2025-05-01", value: 35 });
    expect(await getGoal(owner, goal.id)).toMatchObject({ progress: 35, progressMode: "manual" });
    // Filling in an older day leaves the progress alone; so does setting it by hand afterwards, until the next report.
    await add({ date: "2025-03-01", value: 5 });
    expect((await getGoal(owner, goal.id)).progress).toBe(35);
    expect((await patchGoal(owner, goal.id, { progress: 50 })).status).toBe(200);
    await add({ date: "2025-02-01", value: 1 });
    expect((await getGoal(owner, goal.id)).progress).toBe(50);

    // Deleting the newest report goes back to the one before it; deleting an older one changes nothing.
    expect((await api(`/goals/${goal.id}/reports/${may.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect((await getGoal(owner, goal.id)).progress).toBe(20);
    expect((await api(`/goals/${goal.id}/reports/${april.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect((await getGoal(owner, goal.id)).progress).toBe(5);
  });

  test("a goal with linked tasks keeps the share of them done; its reports stay a history", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner, { title: "Move house" });
    const packed = await createTask(server, owner.token, { title: "Pack the books" });
    const cleaned = await createTask(server, owner.token, { title: "Clean the flat" });
    await link(owner, goal.id, packed.id);
    await link(owner, goal.id, cleaned.id);
    expect((await setStatus(owner, packed.id, "done")).status).toBe(200);
    const report = await api(`/goals/${goal.id}/reports`, { token: owner.token, json: { date: "2025-05-01", value: 35 } });
    expect(report.status).toBe(201);
    expect(await getGoal(owner, goal.id)).toMatchObject({ progress: 50, progressMode: "tasks" });
  });

  test("the date may be today in the user's time zone, never later; every field is checked", async () => {
    // UTC+14 and UTC-11: at any moment, their dates differ by one day.
    const ahead = await registerUser(server, { timeZone: "Pacific/Kiritimati" });
    const behind = await registerUser(server, { timeZone: "Pacific/Pago_Pago" });
    const aheadGoal = await createGoal(ahead);
    const behindGoal = await createGoal(behind);
    const aheadToday = localDate("Pacific/Kiritimati");
    const behindToday = localDate("Pacific/Pago_Pago");
    expect(aheadToday > behindToday).toBe(true);

    expect(
      (await api(`/goals/${aheadGoal.id}/reports`, { token: ahead.token, json: { date: aheadToday, value: 5 } })).status,
    ).toBe(201);
    expect(
      (await api(`/goals/${behindGoal.id}/reports`, { token: behind.token, json: { date: behindToday, value: 5 } })).status,
    ).toBe(201);
    const future = await api(`/goals/${behindGoal.id}/reports`, { token: behind.token, json: { date: aheadToday, value: 5 } });
    expectInvalid(future, "/date");
    expect(future.body.errors[0].detail).toMatch(/future/);

    const cases: [Record<string, unknown>, string][] = [
      [{ value: 5 }, "/date"],
      [{ date: "2025-02-30", value: 5 }, "/date"],
      [{ date: "2025-01-01" }, "/value"],
      [{ date: "2025-01-01", value: -1 }, "/value"],
      [{ date: "2025-01-01", value: 101 }, "/value"],
      [{ date: "2025-01-01", value: 2.5 }, "/value"],
      [{ date: "2025-01-01", value: 5, note: "x".repeat(1001) }, "/note"],
    ];
    for (const [json, pointer] of cases)
      expectInvalid(await api(`/goals/${behindGoal.id}/reports`, { token: behind.token, json }), pointer);
    expect((await api(`/goals/${behindGoal.id}/reports`, { token: behind.token })).body.items).toHaveLength(1);
  });

  test("DELETE /goals/{id}/reports/{reportId} removes one report of that goal", async () => {
    const owner = await registerUser(server);
    const goal = await createGoal(owner);
    const otherGoal = await createGoal(owner, { title: "Other" });
    const report = (await api(`/goals/${goal.id}/reports`, { token: owner.token, json: { date: "2025-01-01", value: 1 } })).body;
    const kept = (await api(`/goals/${goal.id}/reports`, { token: owner.token, json: { date: "2025-01-02", value: 2 } })).body;

    expectProblem(
      await api(`/goals/${otherGoal.id}/reports/${report.id}`, { method: "DELETE", token: owner.token }),
      404,
      "not_found",
    );
    expect((await api(`/goals/${goal.id}/reports/${report.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expectProblem(
      await api(`/goals/${goal.id}/reports/${report.id}`, { method: "DELETE", token: owner.token }),
      404,
      "not_found",
    );
    expect(
      (await api(`/goals/${goal.id}/reports`, { token: owner.token })).body.items.map((item: { id: string }) => item.id),
    ).toEqual([kept.id]);
  });
});
