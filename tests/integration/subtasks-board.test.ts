import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { boardOutput, subtaskOutput } from "../../lib/tasks/schema";
import { addMember, createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

async function addSubtask(token: string, taskId: string, title: string) {
  const response = await server.request(`/tasks/${taskId}/subtasks`, { token, json: { title } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(subtaskOutput, response.body);
}

const tick = (token: string, taskId: string, subtaskId: string, done: boolean) =>
  server.request(`/tasks/${taskId}/subtasks/${subtaskId}`, { method: "PATCH", token, json: { done } });
const taskOf = async (token: string, taskId: string) => (await server.request(`/tasks/${taskId}`, { token })).body;

describe("subtasks", () => {
  test("CRUD in order, with counts on the parent", async () => {
    const { token } = await registerUser(server);
    const task = await createTask(server, token);
    const one = await addSubtask(token, task.id, "One");
    const two = await addSubtask(token, task.id, "Two");
    const three = await addSubtask(token, task.id, "Three");
    const listed = await server.request(`/tasks/${task.id}/subtasks`, { token });
    expect(listed.body.map((subtask: { title: string }) => subtask.title)).toEqual(["One", "Two", "Three"]);

    const renamed = await server.request(`/tasks/${task.id}/subtasks/${two.id}`, {
      method: "PATCH",
      token,
      json: { title: "Deux" },
    });
    expect(renamed.body).toMatchObject({ title: "Deux", done: false });
    expect((await server.request(`/tasks/${task.id}/subtasks/${two.id}`, { token })).body.title).toBe("Deux");

    const reordered = await server.request(`/tasks/${task.id}/subtasks/order`, {
      method: "PUT",
      token,
      json: { ids: [three.id, one.id, two.id] },
    });
    expect(reordered.body.map((subtask: { title: string }) => subtask.title)).toEqual(["Three", "One", "Deux"]);
    const again = await server.request(`/tasks/${task.id}/subtasks`, { token });
    expect(again.body.map((subtask: { title: string }) => subtask.title)).toEqual(["Three", "One", "Deux"]);

    const partial = expectProblem(
      await server.request(`/tasks/${task.id}/subtasks/order`, { method: "PUT", token, json: { ids: [three.id, one.id] } }),
      400,
      "validation_failed",
    );
    expect(partial.errors?.[0]).toMatchObject({ in: "body", pointer: "/ids" });

    expect((await server.request(`/tasks/${task.id}/subtasks/${one.id}`, { method: "DELETE", token })).status).toBe(204);
    expectProblem(await server.request(`/tasks/${task.id}/subtasks/${one.id}`, { token }), 404, "not_found");
    expect((await taskOf(token, task.id)).subtasks).toEqual({ total: 2, done: 0 });

    const empty = expectProblem(
      await server.request(`/tasks/${task.id}/subtasks`, { token, json: { title: " " } }),
      400,
      "validation_failed",
    );
    expect(empty.errors?.[0]).toMatchObject({ pointer: "/title" });
  });

  test("ticking off the last open subtask completes the parent; reopening one reopens it", async () => {
    const { token } = await registerUser(server);
    const task = await createTask(server, token);
    const one = await addSubtask(token, task.id, "One");
    const two = await addSubtask(token, task.id, "Two");

    await tick(token, task.id, one.id, true);
    expect(await taskOf(token, task.id)).toMatchObject({ status: "todo", subtasks: { total: 2, done: 1 } });

    const last = await tick(token, task.id, two.id, true);
    expect(last.body).toMatchObject({ done: true });
    expect(last.body.completedAt).not.toBeNull();
    const completed = await taskOf(token, task.id);
    expect(completed).toMatchObject({ status: "done", subtasks: { total: 2, done: 2 } });
    expect(completed.completedAt).not.toBeNull();

    await tick(token, task.id, one.id, false);
    expect(await taskOf(token, task.id)).toMatchObject({ status: "in_progress", completedAt: null });

    // Done again, then a new open subtask: the task is not finished any more.
    await tick(token, task.id, one.id, true);
    expect((await taskOf(token, task.id)).status).toBe("done");
    await addSubtask(token, task.id, "Three");
    expect((await taskOf(token, task.id)).status).toBe("in_progress");
  });

  test("a parent completed or cancelled by hand is left alone", async () => {
    const { token } = await registerUser(server);
    const task = await createTask(server, token);
    const one = await addSubtask(token, task.id, "One");
    await server.request(`/tasks/${task.id}`, { method: "PATCH", token, json: { status: "done" } });
    await tick(token, task.id, one.id, true);
    await tick(token, task.id, one.id, false);
    expect((await taskOf(token, task.id)).status).toBe("done");

    const cancelled = await createTask(server, token, { status: "cancelled" });
    const step = await addSubtask(token, cancelled.id, "Step");
    await tick(token, cancelled.id, step.id, true);
    expect((await taskOf(token, cancelled.id)).status).toBe("cancelled");
  });
});

describe("kanban", () => {
  async function board(token: string, query = "") {
    const response = await server.request(`/api/v1/board${query}`, { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(boardOutput, response.body);
  }
  const column = (view: Awaited<ReturnType<typeof board>>, status: string) =>
    view.columns.find((each) => each.status === status)!.tasks.map((task) => task.title);

  test("columns by status in position order, filtered by group", async () => {
    const { token } = await registerUser(server);
    const groups = (await server.request("/groups", { token })).body.items as { id: string; key: string }[];
    const home = groups.find((group) => group.key === "home")!.id;
    await createTask(server, token, { title: "A" });
    await createTask(server, token, { title: "B", status: "in_progress" });
    await createTask(server, token, { title: "C", groupId: home });
    await createTask(server, token, { title: "D", status: "done" });
    const view = await board(token);
    expect(view.columns.map((each) => each.status)).toEqual(["todo", "in_progress", "done", "cancelled"]);
    expect(column(view, "todo")).toEqual(["A", "C"]);
    expect(column(view, "in_progress")).toEqual(["B"]);
    expect(column(view, "done")).toEqual(["D"]);
    expect(column(await board(token, `?groupId=${home}`), "todo")).toEqual(["C"]);
    expect(view.columns[0]!.total).toBe(2);
    expect((await board(token, "?limit=1")).columns[0]).toMatchObject({
      total: 2,
      tasks: [expect.objectContaining({ title: "A" })],
    });
  });

  test("a column's total counts each task the user sees once, through every way of seeing it, and nobody else's", async () => {
    const [me, colleague, stranger] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const team = await server.request("/api/v1/user-groups", { token: colleague.token, json: { name: "Crew" } });
    expect(team.status).toBe(201);
    expect((await addMember(server, `/api/v1/user-groups/${team.body.id}/members`, colleague, me)).status).toBe(201);
    const project = await server.request("/api/v1/projects", { token: colleague.token, json: { name: "Roof" } });
    expect(project.status).toBe(201);
    expect(
      (await addMember(server, `/api/v1/projects/${project.body.id}/members`, colleague, me, { role: "member" })).status,
    ).toBe(201);
    const teamId = team.body.id as string;
    const seen = [
      await createTask(server, me.token, { title: "Mine" }),
      await createTask(server, me.token, { title: "Mine, in the team", userGroupId: teamId }),
      await createTask(server, colleague.token, { title: "The team's", userGroupId: teamId }),
      await createTask(server, colleague.token, { title: "The project's", projectId: project.body.id }),
    ];
    await createTask(server, colleague.token, { title: "The colleague's own" });
    await createTask(server, stranger.token, { title: "A stranger's" });

    const todo = (await board(me.token, "?limit=100")).columns.find((each) => each.status === "todo")!;
    expect(todo.tasks.map((task) => task.id).sort()).toEqual(seen.map((task) => task.id).sort());
    expect(todo.total).toBe(seen.length);
    expect((await board(me.token, "?limit=2")).columns[0]).toMatchObject({ total: seen.length });
    expect((await board(me.token, `?projectId=${project.body.id}`)).columns[0]!.total).toBe(1);
    expect((await board(stranger.token)).columns[0]!.total).toBe(1);
  });

  /** Assigns `who` to the owner's task: the owner asks, they accept. */
  async function assign(owner: { token: string }, taskId: string, who: { token: string; user: { id: string } }) {
    const asked = await server.request(`/api/v1/tasks/${taskId}/collaboration-requests`, {
      token: owner.token,
      json: { kind: "assign", userId: who.user.id },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const accepted = await server.request(`/api/v1/collaboration-requests/${asked.body.id}/accept`, {
      method: "POST",
      token: who.token,
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  }

  test("GET /board names the cards' assignees once each, in the first answer and in a column's next cards", async () => {
    const me = await registerUser(server, { name: "Eva Nováková" });
    const colleague = await registerUser(server, { name: "Jan Novák" });
    const both = await createTask(server, me.token, { title: "Both", assigneeIds: [me.user.id] });
    await assign(me, both.id, colleague);
    await createTask(server, me.token, { title: "Mine", assigneeIds: [me.user.id] });
    await createTask(server, me.token, { title: "Nobody's" });
    const theirs = await createTask(server, me.token, { title: "The colleague's", status: "done" });
    await assign(me, theirs.id, colleague);

    const view = await board(me.token, "?limit=1");
    const byName = (people: { id: string; name: string }[]) => [...people].sort((a, b) => a.name.localeCompare(b.name));
    expect(byName(view.people)).toEqual([
      { id: me.user.id, name: "Eva Nováková" },
      { id: colleague.user.id, name: "Jan Novák" },
    ]);
    const todo = view.columns.find((each) => each.status === "todo")!;
    const next = await board(me.token, `?status=todo&limit=1&cursor=${encodeURIComponent(todo.nextCursor!)}`);
    expect(next.columns[0]!.tasks.map((task) => task.title)).toEqual(["Mine"]);
    expect(next.people).toEqual([{ id: me.user.id, name: "Eva Nováková" }]);
    const last = await board(me.token, `?status=todo&limit=1&cursor=${encodeURIComponent(next.columns[0]!.nextCursor!)}`);
    expect(last.columns[0]!.tasks.map((task) => task.title)).toEqual(["Nobody's"]);
    expect(last.people).toEqual([]);
  });

  test("boards are cached as task lists are: HIT until a change to a card or to what the user sees, by anyone", async () => {
    const [me, colleague] = [await registerUser(server), await registerUser(server)];
    const team = await server.request("/api/v1/user-groups", { token: colleague.token, json: { name: "Crew" } });
    expect((await addMember(server, `/api/v1/user-groups/${team.body.id}/members`, colleague, me)).status).toBe(201);
    const shared = await createTask(server, colleague.token, { title: "The team's", userGroupId: team.body.id });
    const get = (query = "") => server.request(`/api/v1/board${query}`, { token: me.token });
    const titlesIn = (body: unknown, status: string) => column(expectShape(boardOutput, body), status);

    const miss = await get();
    const hit = await get();
    expect([miss.headers.get("x-cache"), hit.headers.get("x-cache")]).toEqual(["MISS", "HIT"]);
    expect(hit.body).toEqual(miss.body);
    expect(titlesIn(hit.body, "todo")).toEqual(["The team's"]);
    expect((await get("?limit=1")).headers.get("x-cache")).toBe("MISS"); // each query on its own

    // The colleague completes the team's task: my board drops it at once.
    const moved = await server.request(`/api/v1/tasks/${shared.id}/move`, { token: colleague.token, json: { status: "done" } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const afterMove = await get();
    expect(afterMove.headers.get("x-cache")).toBe("MISS");
    expect([titlesIn(afterMove.body, "todo"), titlesIn(afterMove.body, "done")]).toEqual([[], ["The team's"]]);
    expect((await get()).headers.get("x-cache")).toBe("HIT");

    // Joining a project brings its tasks onto the board, though no task changed.
    const project = await server.request("/api/v1/projects", { token: colleague.token, json: { name: "Roof" } });
    await createTask(server, colleague.token, { title: "The project's", projectId: project.body.id });
    expect((await get()).headers.get("x-cache")).toBe("HIT");
    const added = await addMember(server, `/api/v1/projects/${project.body.id}/members`, colleague, me, { role: "member" });
    expect(added.status).toBe(201);
    const afterJoining = await get();
    expect(afterJoining.headers.get("x-cache")).toBe("MISS");
    expect(titlesIn(afterJoining.body, "todo")).toEqual(["The project's"]);
  });

  test("columns are paged: the first 50 cards by default, then the rest of one column by its cursor", async () => {
    const [me, colleague] = [await registerUser(server), await registerUser(server)];
    const team = await server.request("/api/v1/user-groups", { token: colleague.token, json: { name: "Crew" } });
    expect((await addMember(server, `/api/v1/user-groups/${team.body.id}/members`, colleague, me)).status).toBe(201);
    const titles: string[] = [];
    for (let index = 1; index <= 51; index++) {
      titles.push(`Card ${index}`);
      await createTask(server, me.token, { title: `Card ${index}` });
    }
    // A card the user sees through their team, not as its owner: it must come in its place of the column too.
    await createTask(server, colleague.token, { title: "The team's card", userGroupId: team.body.id });
    await createTask(server, me.token, { title: "Started", status: "in_progress" });

    // The whole column in board order (positions of different owners interleave), for comparison.
    const all = (await board(me.token, "?limit=100")).columns[0]!;
    expect(all.nextCursor).toBeNull();
    expect(all.tasks.map((task) => task.title).sort()).toEqual([...titles, "The team's card"].sort());

    const first = await board(me.token);
    const todo = first.columns.find((each) => each.status === "todo")!;
    expect(todo.tasks.map((task) => task.id)).toEqual(all.tasks.slice(0, 50).map((task) => task.id));
    expect(todo).toMatchObject({ total: 52, nextCursor: expect.any(String) });
    expect(first.columns.find((each) => each.status === "in_progress")).toMatchObject({ total: 1, nextCursor: null });

    // The rest of that column only, a page at a time, with the same filters.
    const seen = todo.tasks.map((task) => task.title);
    let cursor: string | null = todo.nextCursor;
    while (cursor) {
      const more = await board(me.token, `?status=todo&limit=1&cursor=${encodeURIComponent(cursor)}`);
      expect(more.columns.map((each) => each.status)).toEqual(["todo"]);
      expect(more.columns[0]!.total).toBe(52);
      seen.push(...more.columns[0]!.tasks.map((task) => task.title));
      cursor = more.columns[0]!.nextCursor;
    }
    expect(seen).toEqual(all.tasks.map((task) => task.title));
    expect(new Set(seen).size).toBe(52);
    expect(seen).toContain("The team's card");

    // The cursor is the task list's, in board order: either continues the other.
    const listed = await server.request(
      `/api/v1/tasks?status=todo&sort=position&limit=5&cursor=${encodeURIComponent(todo.nextCursor!)}`,
      {
        token: me.token,
      },
    );
    expect(listed.status).toBe(200);
    expect(listed.body.items.map((task: { title: string }) => task.title)).toEqual(seen.slice(50, 52));

    const noColumn = expectProblem(
      await server.request(`/api/v1/board?cursor=${encodeURIComponent(todo.nextCursor!)}`, { token: me.token }),
      400,
      "validation_failed",
    );
    expect(noColumn.errors?.[0]).toMatchObject({ in: "query", pointer: "/status" });
    const badCursor = expectProblem(
      await server.request("/api/v1/board?status=todo&cursor=nonsense", { token: me.token }),
      400,
      "validation_failed",
    );
    expect(badCursor.errors?.[0]).toMatchObject({ in: "query", pointer: "/cursor" });
    const badStatus = expectProblem(
      await server.request("/api/v1/board?status=someday", { token: me.token }),
      400,
      "validation_failed",
    );
    expect(badStatus.errors?.[0]).toMatchObject({ in: "query", pointer: "/status" });
  }, 120_000);

  test("moves keep a stable order, touch only the moved task, and survive a reload", async () => {
    const { token } = await registerUser(server);
    const created = [];
    for (const title of ["A", "B", "C", "D"]) created.push(await createTask(server, token, { title }));
    const [taskA, taskB, taskC, taskD] = created as [
      (typeof created)[0],
      (typeof created)[0],
      (typeof created)[0],
      (typeof created)[0],
    ];
    const positionsBefore = await server.sql<{ id: string; position: string }>(
      "select id, position from tasks where id = any($1)",
      [created.map((task) => task.id)],
    );

    // D between A and B.
    const moved = await server.request(`/tasks/${taskD.id}/move`, { token, json: { afterId: taskA.id, beforeId: taskB.id } });
    expect(moved.status).toBe(200);
    expect(column(await board(token), "todo")).toEqual(["A", "D", "B", "C"]);
    const positionsAfter = await server.sql<{ id: string; position: string }>(
      "select id, position from tasks where id = any($1)",
      [created.map((task) => task.id)],
    );
    const changed = positionsAfter.filter((row) => positionsBefore.find((old) => old.id === row.id)!.position !== row.position);
    expect(changed.map((row) => row.id)).toEqual([taskD.id]);

    // To the top, to the bottom, next to one neighbour only.
    await server.request(`/tasks/${taskC.id}/move`, { token, json: { afterId: null, beforeId: taskA.id } });
    expect(column(await board(token), "todo")).toEqual(["C", "A", "D", "B"]);
    await server.request(`/tasks/${taskC.id}/move`, { token, json: { afterId: taskB.id, beforeId: null } });
    expect(column(await board(token), "todo")).toEqual(["A", "D", "B", "C"]);
    await server.request(`/tasks/${taskB.id}/move`, { token, json: { afterId: taskA.id } });
    expect(column(await board(token), "todo")).toEqual(["A", "B", "D", "C"]);

    // Into another column, between nobody: it becomes in_progress; to done sets completedAt.
    const toColumn = await server.request(`/tasks/${taskA.id}/move`, { token, json: { status: "in_progress" } });
    expect(toColumn.body.status).toBe("in_progress");
    const done = await server.request(`/tasks/${taskA.id}/move`, {
      token,
      json: { status: "done", afterId: null, beforeId: null },
    });
    expect(done.body.completedAt).not.toBeNull();
    const view = await board(token);
    expect(column(view, "todo")).toEqual(["B", "D", "C"]);
    expect(column(view, "done")).toEqual(["A"]);

    // Fifty drops into the same gap, C and D swapping places each time: the order stays exact and keys short.
    for (let index = 0; index < 50; index++) {
      const response = await server.request(`/tasks/${index % 2 ? taskC.id : taskD.id}/move`, {
        token,
        json: { afterId: taskB.id, beforeId: index % 2 ? taskD.id : taskC.id },
      });
      expect(response.status).toBe(200);
    }
    const final = await board(token);
    expect(column(final, "todo")).toEqual(["B", "C", "D"]);
    expect(Math.max(...final.columns.flatMap((each) => each.tasks.map((task) => task.position.length)))).toBeLessThan(20);
  });

  test("tasks created at the same moment get distinct positions", async () => {
    const { token } = await registerUser(server);
    const created = await Promise.all(
      Array.from({ length: 20 }, (_, index) => createTask(server, token, { title: `T${index}` })),
    );
    expect(new Set(created.map((task) => task.position)).size).toBe(20);
  });

  test("neighbours out of order answer 409; a bad neighbour 400", async () => {
    const { token } = await registerUser(server);
    const a = await createTask(server, token, { title: "A" });
    const b = await createTask(server, token, { title: "B" });
    expectProblem(
      await server.request(`/tasks/${a.id}/move`, { token, json: { afterId: b.id, beforeId: a.id } }),
      400,
      "validation_failed",
    );
    const c = await createTask(server, token, { title: "C" });
    expectProblem(
      await server.request(`/tasks/${c.id}/move`, { token, json: { afterId: b.id, beforeId: a.id } }),
      409,
      "conflict",
    );
    const bad = expectProblem(
      await server.request(`/tasks/${c.id}/move`, { token, json: { status: "doing" } }),
      400,
      "validation_failed",
    );
    expect(bad.errors?.[0]).toMatchObject({ pointer: "/status" });
  });
});
