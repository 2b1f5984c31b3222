import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { taskListOutput, viewCountsOutput } from "../../lib/tasks/schema";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * GET /tasks/view-counts: the numbers beside the task list's Today and Upcoming views, counted in whole days of the
 * user's time zone. The users live in Asia/Tokyo (no daylight saving time), so that their days can be computed here.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => resetClock());

const TIME_ZONE = "Asia/Tokyo";
const OFFSET_MS = 9 * 3600 * 1000;
const DAY_MS = 24 * 3600 * 1000;

/** 12:00 in Tokyo on the day `days` after today (by the real clock), as an ISO instant. */
function tokyoNoon(days: number): string {
  const local = new Date(Date.now() + OFFSET_MS);
  return new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth(), local.getUTCDate() + days, 12) - OFFSET_MS).toISOString();
}

/** Today's date in Tokyo, `days` later. */
const tokyoDay = (days = 0) => new Date(Date.now() + OFFSET_MS + days * DAY_MS).toISOString().slice(0, 10);

async function viewCounts(token: string) {
  const response = await server.request("/api/v1/tasks/view-counts", { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(viewCountsOutput, response.body);
}

describe("GET /tasks/view-counts", () => {
  test("GET /tasks/view-counts – open tasks overdue or due today, and due in the 14 days from today, in the user's zone", async () => {
    const { token } = await registerUser(server, { timeZone: TIME_ZONE });
    await createTask(server, token, { title: "Overdue report", dueAt: tokyoNoon(-3), status: "in_progress" });
    await createTask(server, token, { title: "Noon call", dueAt: tokyoNoon(0) });
    await createTask(server, token, { title: "Watered plants", dueAt: tokyoNoon(0), status: "done" });
    await createTask(server, token, { title: "Skipped meeting", dueAt: tokyoNoon(1), status: "cancelled" });
    await createTask(server, token, { title: "Dentist", dueAt: tokyoNoon(3) });
    await createTask(server, token, { title: "Passport", dueAt: tokyoNoon(13) });
    await createTask(server, token, { title: "Holiday", dueAt: tokyoNoon(14) });
    await createTask(server, token, { title: "Someday" });

    const counts = await viewCounts(token);
    expect(counts).toEqual({ day: tokyoDay(), timeZone: TIME_ZONE, today: 2, upcoming: 3 });

    // The same tasks as GET /tasks with the views' filters.
    const start = new Date(Date.parse(`${tokyoDay()}T00:00:00Z`) - OFFSET_MS);
    const list = async (query: string) => {
      const response = await server.request(`/api/v1/tasks?status=todo,in_progress&${query}`, { token });
      return expectShape(taskListOutput, response.body).items.map((task) => task.title);
    };
    const at = (days: number) => new Date(start.getTime() + days * DAY_MS).toISOString();
    expect(await list(`dueBefore=${at(1)}`)).toHaveLength(counts.today);
    expect(await list(`dueAfter=${at(0)}&dueBefore=${at(14)}`)).toEqual(["Noon call", "Dentist", "Passport"]);

    // Completing one changes the numbers at once (nothing is cached).
    const noon = (await server.request(`/api/v1/tasks?q=Noon`, { token })).body.items[0];
    expect((await server.request(`/api/v1/tasks/${noon.id}`, { method: "PATCH", token, json: { status: "done" } })).status).toBe(
      200,
    );
    expect(await viewCounts(token)).toMatchObject({ today: 1, upcoming: 2 });
  });

  test("GET /tasks/view-counts – counts from the day it is asked on", async () => {
    const { token } = await registerUser(server, { timeZone: TIME_ZONE });
    await createTask(server, token, { title: "Overdue", dueAt: tokyoNoon(-1) });
    await createTask(server, token, { title: "In three days", dueAt: tokyoNoon(3) });
    await createTask(server, token, { title: "In two weeks", dueAt: tokyoNoon(14) });
    expect(await viewCounts(token)).toMatchObject({ day: tokyoDay(), today: 1, upcoming: 1 });

    advanceClock(3 * DAY_MS);
    expect(await viewCounts(token)).toMatchObject({ day: tokyoDay(3), today: 2, upcoming: 2 });
  });

  test("GET /tasks/view-counts – counts the tasks one collaborates on, never a stranger's", async () => {
    const owner = await registerUser(server, { timeZone: TIME_ZONE });
    const helper = await registerUser(server, { timeZone: TIME_ZONE });
    const stranger = await registerUser(server, { timeZone: TIME_ZONE });
    const task = await createTask(server, owner.token, { title: "Move the piano", dueAt: tokyoNoon(0) });
    expect(await viewCounts(helper.token)).toMatchObject({ today: 0, upcoming: 0 });

    const asked = await server.request(`/api/v1/tasks/${task.id}/collaboration-requests`, {
      token: owner.token,
      json: { kind: "collaborate", userId: helper.user.id },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const accepted = await server.request(`/api/v1/collaboration-requests/${asked.body.id}/accept`, {
      method: "POST",
      token: helper.token,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

    expect(await viewCounts(helper.token)).toMatchObject({ today: 1, upcoming: 1 });
    expect(await viewCounts(owner.token)).toMatchObject({ today: 1, upcoming: 1 });
    expect(await viewCounts(stranger.token)).toMatchObject({ today: 0, upcoming: 0 });
  });

  test("GET /tasks/view-counts – 400 problem for a query parameter it does not take", async () => {
    const { token } = await registerUser(server);
    const problem = expectProblem(
      await server.request("/api/v1/tasks/view-counts?view=today", { token }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.length).toBeGreaterThan(0);
    // The problem names the parameter it refused.
    expect(JSON.stringify(problem.errors)).toContain("view");
  });

  test("GET /tasks/view-counts – 401 without a token", async () => {
    expectProblem(await server.request("/api/v1/tasks/view-counts"), 401, "unauthenticated");
  });
});
