import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { historyOutput } from "../../lib/task-history/schema";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;

async function historyOf(who: User, taskId: string, query = "") {
  const response = await server.request(`/api/v1/tasks/${taskId}/activity${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(historyOutput, response.body);
}

const patch = (who: User, taskId: string, json: unknown) =>
  server.request(`/api/v1/tasks/${taskId}`, { method: "PATCH", token: who.token, json });

describe("GET /tasks/{id}/activity", () => {
  test("tells who created, changed (from what to what), assigned, completed and commented, newest first", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const helper = await registerUser(server, { name: "Ada Assignee" });
    const task = await createTask(server, owner.token, { title: "Old title" });
    expect((await patch(owner, task.id, { title: "New title", priority: "high" })).status).toBe(200);
    const asked = await server.request(`/api/v1/tasks/${task.id}/collaboration-requests`, {
      token: owner.token,
      json: { kind: "assign", userId: helper.user.id },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const accepted = await server.request(`/api/v1/collaboration-requests/${asked.body.id}/accept`, {
      method: "POST",
      token: helper.token,
    });
    expect(accepted.status).toBe(200);
    expect((await patch(helper, task.id, { status: "done" })).status).toBe(200);
    const comment = await server.request(`/api/v1/tasks/${task.id}/comments`, { token: helper.token, json: { body: "Done!" } });
    expect(comment.status).toBe(201);

    const { items, nextCursor } = await historyOf(helper, task.id);
    expect(nextCursor).toBeNull();
    const olga = { id: owner.user.id, name: "Olga Owner" };
    const ada = { id: helper.user.id, name: "Ada Assignee" };
    expect(items.map(({ kind, actor, changes, commentId }) => ({ kind, actor, changes, commentId }))).toEqual([
      { kind: "commented", actor: ada, changes: [], commentId: comment.body.id },
      { kind: "completed", actor: ada, changes: [{ field: "status", from: "todo", to: "done" }], commentId: null },
      { kind: "updated", actor: ada, changes: [{ field: "assignees", from: [], to: [ada] }], commentId: null },
      {
        kind: "updated",
        actor: olga,
        changes: [
          { field: "title", from: "Old title", to: "New title" },
          { field: "priority", from: "normal", to: "high" },
        ],
        commentId: null,
      },
      { kind: "created", actor: olga, changes: [], commentId: null },
    ]);
  });

  test("pages with nextCursor, each change still compared with the one before it across pages", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token, { title: "t0" });
    for (const title of ["t1", "t2", "t3"]) expect((await patch(owner, task.id, { title })).status).toBe(200);
    const first = await historyOf(owner, task.id, "?limit=2");
    expect(first.items.map((item) => item.changes[0]?.to)).toEqual(["t3", "t2"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await historyOf(owner, task.id, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((item) => [item.kind, item.changes[0]?.from ?? null])).toEqual([
      ["updated", "t0"],
      ["created", null],
    ]);
    expect(second.nextCursor).toBeNull();
    const bad = await server.request(`/api/v1/tasks/${task.id}/activity?cursor=abc`, { token: owner.token });
    expectProblem(bad, 400, "validation_failed");
    expect(bad.body.errors[0].pointer).toBe("/cursor");
  });

  test("404 for someone who cannot see the task; nothing addressed to one person shows", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    expectProblem(await server.request(`/api/v1/tasks/${task.id}/activity`, { token: stranger.token }), 404, "not_found");
    const items = (await historyOf(owner, task.id)).items;
    expect(items.map((item) => item.kind)).toEqual(["created"]);
  });
});
