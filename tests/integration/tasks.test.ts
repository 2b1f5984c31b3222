import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTask, expectProblem, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** Makes `userId` an assignee the way an accepted collaboration request will (that API comes with sharing). */
async function assign(taskId: string, userId: string) {
  await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [taskId, userId]);
}

describe("task CRUD", () => {
  test("creates a task with every field, reads it back, and puts it in the caller's first group by default", async () => {
    const { token, user } = await registerUser(server);
    const groups = await server.request("/groups", { token });
    const work = groups.body.items.find((group: { key: string }) => group.key === "work");
    const task = await createTask(server, token, {
      title: "  Write the report  ",
      description: "Quarterly numbers",
      status: "in_progress",
      priority: "high",
      dueAt: "2026-12-01T09:00:00+01:00",
      startDate: "2026-11-28",
      groupId: work.id,
      tags: ["report", "q4", "report"],
      assigneeIds: [user.id],
    });
    expect(task).toMatchObject({
      ownerId: user.id,
      title: "Write the report",
      description: "Quarterly numbers",
      status: "in_progress",
      priority: "high",
      dueAt: "2026-12-01T08:00:00.000Z",
      startDate: "2026-11-28",
      groupId: work.id,
      tags: ["report", "q4"],
      assigneeIds: [user.id],
      completedAt: null,
      subtasks: { total: 0, done: 0 },
    });
    const read = await server.request(`/tasks/${task.id}`, { token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(task);

    const plain = await createTask(server, token);
    const first = groups.body.items.find((group: { archived: boolean }) => !group.archived);
    expect(plain.groupId).toBe(first.id);
    expect(plain.position > task.position).toBe(true);
  });

  test("done sets completedAt, reopening clears it; PATCH changes only what is sent", async () => {
    const { token } = await registerUser(server);
    const task = await createTask(server, token, { description: "keep me" });
    const done = await server.request(`/tasks/${task.id}`, { method: "PATCH", token, json: { status: "done" } });
    expect(done.status).toBe(200);
    expect(done.body.completedAt).not.toBeNull();
    expect(done.body.description).toBe("keep me");
    const again = await server.request(`/tasks/${task.id}`, { method: "PATCH", token, json: { title: "Renamed" } });
    expect(again.body.completedAt).toBe(done.body.completedAt);
    const reopened = await server.request(`/tasks/${task.id}`, { method: "PATCH", token, json: { status: "todo" } });
    expect(reopened.body).toMatchObject({ status: "todo", completedAt: null, title: "Renamed", description: "keep me" });
    const cancelled = await createTask(server, token, { status: "cancelled" });
    expect(cancelled.completedAt).toBeNull();
  });

  test("moves a task to another of the owner's groups, never to someone else's", async () => {
    const { token } = await registerUser(server);
    const other = await registerUser(server);
    const groups = (await server.request("/groups", { token })).body.items as { id: string; key: string }[];
    const work = groups.find((group) => group.key === "work")!.id;
    const task = await createTask(server, token, { title: "Changes group" });
    expect(task.groupId).not.toBe(work);
    const moved = await server.request(`/tasks/${task.id}`, { method: "PATCH", token, json: { groupId: work } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(moved.body.groupId).toBe(work);
    expect((await server.request(`/tasks?groupId=${work}`, { token })).body.items.map((item: { id: string }) => item.id)).toEqual(
      [task.id],
    );

    const foreign = (await server.request("/groups", { token: other.token })).body.items[0].id;
    const refused = expectProblem(
      await server.request(`/tasks/${task.id}`, { method: "PATCH", token, json: { groupId: foreign } }),
      400,
      "validation_failed",
    );
    expect(refused.errors?.[0]).toMatchObject({ in: "body", pointer: "/groupId" });
    expect((await server.request(`/tasks/${task.id}`, { token })).body.groupId).toBe(work);
  });

  test("deletes a task with its subtasks", async () => {
    const { token } = await registerUser(server);
    const task = await createTask(server, token);
    await server.request(`/tasks/${task.id}/subtasks`, { token, json: { title: "step" } });
    expect((await server.request(`/tasks/${task.id}`, { method: "DELETE", token })).status).toBe(204);
    expectProblem(await server.request(`/tasks/${task.id}`, { token }), 404, "not_found");
    expect(await server.sql("select 1 from subtasks where task_id = $1", [task.id])).toHaveLength(0);
  });

  test("an assignee sees and edits the task but cannot delete it or change its owner's settings", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server);
    const task = await createTask(server, owner.token);
    await assign(task.id, helper.user.id);
    const edited = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: helper.token,
      json: { status: "in_progress" },
    });
    expect(edited.body.status).toBe("in_progress");
    expectProblem(
      await server.request(`/tasks/${task.id}`, { method: "PATCH", token: helper.token, json: { assigneeIds: [] } }),
      403,
      "forbidden",
    );
    expectProblem(await server.request(`/tasks/${task.id}`, { method: "DELETE", token: helper.token }), 403, "forbidden");
  });
});

describe("validation", () => {
  test("every bad field gives 400 naming it", async () => {
    const { token } = await registerUser(server);
    const cases: [Record<string, unknown>, string][] = [
      [{}, "/title"],
      [{ title: "" }, "/title"],
      [{ title: "x".repeat(501) }, "/title"],
      [{ title: 5 }, "/title"],
      [{ title: "t", status: "finished" }, "/status"],
      [{ title: "t", priority: "p1" }, "/priority"],
      [{ title: "t", dueAt: "tomorrow" }, "/dueAt"],
      [{ title: "t", startDate: "2026-13-01" }, "/startDate"],
      [{ title: "t", groupId: "work" }, "/groupId"],
      [{ title: "t", groupId: randomUUID() }, "/groupId"],
      [{ title: "t", projectId: randomUUID() }, "/projectId"],
      [{ title: "t", assigneeIds: [randomUUID()] }, "/assigneeIds/0"],
      [{ title: "t", tags: ["a,b"] }, "/tags/0"],
      [{ title: "t", tags: Array.from({ length: 21 }, (_, index) => `t${index}`) }, "/tags"],
      [{ title: "t", recurrence: { frequency: "daily" } }, "/dueAt"],
      [{ title: "t", dueAt: "2026-12-01T09:00:00Z", recurrence: { frequency: "yearly" } }, "/recurrence/frequency"],
      [{ title: "t", dueAt: "2026-12-01T09:00:00Z", recurrence: { frequency: "daily", interval: 0 } }, "/recurrence/interval"],
      [{ title: "t", colour: "red" }, "/colour"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(await server.request("/tasks", { token, json }), 400, "validation_failed");
      expect(problem.errors, JSON.stringify(json)).toContainEqual(expect.objectContaining({ in: "body", pointer }));
    }
    const badQuery = expectProblem(await server.request("/tasks?limit=201", { token }), 400, "validation_failed");
    expect(badQuery.errors).toContainEqual(expect.objectContaining({ in: "query", pointer: "/limit" }));
    const badStatus = expectProblem(await server.request("/tasks?status=todo,later", { token }), 400, "validation_failed");
    expect(badStatus.errors?.[0]).toMatchObject({ in: "query" });
    const badId = expectProblem(await server.request("/tasks/not-a-uuid", { token }), 400, "validation_failed");
    expect(badId.errors).toContainEqual(expect.objectContaining({ in: "path", pointer: "/id" }));
    // Nothing was stored by any of the refused requests.
    expect((await server.request("/tasks", { token })).body.items).toEqual([]);
  });

  test("another user's task answers 404 on every task, subtask and board route, and is left unchanged", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token, { title: "Private" });
    const subtask = (await server.request(`/tasks/${task.id}/subtasks`, { token: owner.token, json: { title: "step" } })).body;
    const mine = await createTask(server, stranger.token);
    const routes: [string, string, unknown?][] = [
      ["GET", `/tasks/${task.id}`],
      ["PATCH", `/tasks/${task.id}`, { title: "Hacked" }],
      ["DELETE", `/tasks/${task.id}`],
      ["POST", `/tasks/${task.id}/move`, { status: "done" }],
      ["GET", `/tasks/${task.id}/subtasks`],
      ["POST", `/tasks/${task.id}/subtasks`, { title: "x" }],
      ["PUT", `/tasks/${task.id}/subtasks/order`, { ids: [subtask.id] }],
      ["GET", `/tasks/${task.id}/subtasks/${subtask.id}`],
      ["PATCH", `/tasks/${task.id}/subtasks/${subtask.id}`, { done: true }],
      ["DELETE", `/tasks/${task.id}/subtasks/${subtask.id}`],
      ["GET", `/tasks/${mine.id}/subtasks/${subtask.id}`],
    ];
    for (const [method, path, json] of routes) {
      const response = await server.request(path, { method, token: stranger.token, json });
      const problem = expectProblem(response, 404, "not_found");
      expect(JSON.stringify(problem)).not.toContain("Private");
    }
    // Using the task as a neighbour on the board does not reveal it either.
    const neighbour = expectProblem(
      await server.request(`/tasks/${mine.id}/move`, { token: stranger.token, json: { afterId: task.id } }),
      400,
      "validation_failed",
    );
    expect(neighbour.errors?.[0]).toMatchObject({ pointer: "/afterId", detail: "no such task" });
    const board = await server.request("/api/v1/board", { token: stranger.token });
    expect(JSON.stringify(board.body)).not.toContain(task.id);
    const list = await server.request("/tasks", { token: stranger.token });
    expect(JSON.stringify(list.body)).not.toContain(task.id);

    const unchanged = await server.request(`/tasks/${task.id}`, { token: owner.token });
    expect(unchanged.body).toMatchObject({ title: "Private", status: "todo", subtasks: { total: 1, done: 0 } });
  });
});

describe("workload", () => {
  test("counts active, pending, completed and overdue tasks the user is responsible for", async () => {
    const me = await registerUser(server);
    const colleague = await registerUser(server);
    await createTask(server, me.token, { status: "in_progress" });
    await createTask(server, me.token, { status: "todo", dueAt: "2020-01-01T00:00:00Z" });
    await createTask(server, me.token, { status: "todo" });
    await createTask(server, me.token, { status: "done" });
    await createTask(server, me.token, { status: "cancelled" });
    // Assigned to a colleague: theirs, not mine.
    const delegated = await createTask(server, me.token, { status: "in_progress" });
    await assign(delegated.id, colleague.user.id);
    // The colleague's task assigned to me: mine.
    const theirs = await createTask(server, colleague.token, { status: "todo" });
    await assign(theirs.id, me.user.id);

    const mine = await server.request("/api/v1/workload", { token: me.token });
    expect(mine.body).toEqual({ userId: me.user.id, active: 1, pending: 3, completed: 1, overdue: 1 });
    const theirCounts = await server.request("/api/v1/workload", { token: colleague.token });
    expect(theirCounts.body).toMatchObject({ active: 1, pending: 0, completed: 0 });
    const recent = await server.request("/api/v1/workload?completedSince=2999-01-01T00:00:00Z", { token: me.token });
    expect(recent.body.completed).toBe(0);
  });
});
