import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { boardColumnListOutput, boardColumnOutput } from "../../lib/board-columns/schema";
import { projectOutput } from "../../lib/projects/schema";
import { boardOutput, taskOutput } from "../../lib/tasks/schema";
import {
  addMember,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";

/*
 * A project's and a team's own board columns (issue 22): /projects/{id}/board-columns, /user-groups/{id}/board-columns,
 * GET /board with them, and POST /tasks/{id}/move with `columnId`.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer(process.env.DEBUG_LOG ? { LOG_LEVEL: "error" } : {});
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function createProject(owner: User) {
  const response = await api("/projects", { token: owner.token, json: { name: "Launch" } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(projectOutput, response.body);
}

async function addColumn(owner: User, base: string, json: Record<string, unknown>) {
  const response = await api(`${base}/board-columns`, { token: owner.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(boardColumnOutput, response.body);
}

async function columns(user: User, base: string) {
  const response = await api(`${base}/board-columns`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(boardColumnListOutput, response.body);
}

async function board(user: User, query: string) {
  const response = await api(`/board?${query}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(boardOutput, response.body);
}

/** Each column as "name-or-status: card titles". */
const summary = (answer: { columns: { name: string | null; status: string; tasks: { title: string }[] }[] }) =>
  answer.columns.map((column) => `${column.name ?? column.status}: ${column.tasks.map((task) => task.title).join(",")}`);

const move = (user: User, taskId: string, json: Record<string, unknown>) =>
  api(`/tasks/${taskId}/move`, { token: user.token, json });

describe("/projects/{id}/board-columns", () => {
  test("GET /projects/{id}/board-columns – the four status columns until the project has its own", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const list = await columns(owner, `/projects/${project.id}`);
    expect(list.custom).toBe(false);
    expect(list.items).toEqual([
      { id: null, name: null, status: "todo", position: 0 },
      { id: null, name: null, status: "in_progress", position: 1 },
      { id: null, name: null, status: "done", position: 2 },
      { id: null, name: null, status: "cancelled", position: 3 },
    ]);
    const answer = await board(owner, `projectId=${project.id}`);
    expect(answer.columns.map((column) => [column.id, column.name, column.status])).toEqual([
      [null, null, "todo"],
      [null, null, "in_progress"],
      [null, null, "done"],
      [null, null, "cancelled"],
    ]);
  });

  test("POST, PATCH, DELETE /projects/{id}/board-columns – create, list, rename, reorder, delete", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const base = `/projects/${project.id}`;
    const review = await addColumn(owner, base, { name: "  Review  ", status: "in_progress", position: 2 });
    expect(review).toMatchObject({ name: "Review", status: "in_progress", position: 2 });
    let list = await columns(owner, base);
    expect(list.custom).toBe(true);
    expect(list.items.map((column) => [column.name, column.status, column.position])).toEqual([
      [null, "todo", 0],
      [null, "in_progress", 1],
      ["Review", "in_progress", 2],
      [null, "done", 3],
      [null, "cancelled", 4],
    ]);
    const [todo, doing, , done] = list.items;

    // Rename and re-map.
    const renamed = await api(`${base}/board-columns/${review.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { name: "QA" },
    });
    expect(expectShape(boardColumnOutput, renamed.body)).toMatchObject({ name: "QA", status: "in_progress" });

    // Reorder: by position, then next to another column.
    const first = await api(`${base}/board-columns/${review.id}`, { method: "PATCH", token: owner.token, json: { position: 0 } });
    expect(first.body).toMatchObject({ position: 0 });
    const after = await api(`${base}/board-columns/${review.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { afterId: done!.id },
    });
    expect(after.status, JSON.stringify(after.body)).toBe(200);
    list = await columns(owner, base);
    expect(list.items.map((column) => column.name ?? column.status)).toEqual(["todo", "in_progress", "done", "QA", "cancelled"]);
    expect(list.items.map((column) => column.position)).toEqual([0, 1, 2, 3, 4]);
    const before = await api(`${base}/board-columns/${review.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { beforeId: todo!.id, name: null },
    });
    expect(before.body).toMatchObject({ position: 0, name: null });

    // Delete: the board goes on with the others.
    const deleted = await api(`${base}/board-columns/${review.id}`, { method: "DELETE", token: owner.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    list = await columns(owner, base);
    expect(list.items.map((column) => column.id)).toEqual([todo!.id, doing!.id, done!.id, list.items[3]!.id]);
    expect(list.items.map((column) => column.position)).toEqual([0, 1, 2, 3]);
  });

  test("GET /projects/{id}/board-columns – 404 for another user's project", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const project = await createProject(owner);
    const review = await addColumn(owner, `/projects/${project.id}`, { name: "Review", status: "in_progress" });
    const base = `/projects/${project.id}/board-columns`;
    expectProblem(await api(base, { token: stranger.token }), 404, "not_found");
    expectProblem(await api(base, { token: stranger.token, json: { name: "Mine", status: "todo" } }), 404, "not_found");
    expectProblem(
      await api(`${base}/${review.id}`, { method: "PATCH", token: stranger.token, json: { name: "Mine" } }),
      404,
      "not_found",
    );
    expectProblem(await api(`${base}/${review.id}`, { method: "DELETE", token: stranger.token }), 404, "not_found");
    // Their board of that project shows nothing of its columns.
    const answer = await board(stranger, `projectId=${project.id}`);
    expect(answer.columns.every((column) => column.id === null && column.name === null)).toBe(true);
  });

  test("POST /projects/{id}/board-columns – a member sees the columns but 403 on changing them", async () => {
    const owner = await registerUser(server);
    const member = await registerUser(server);
    const project = await createProject(owner);
    const added = await addMember(server, `/projects/${project.id}/members`, owner, member, { role: "member" });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const review = await addColumn(owner, `/projects/${project.id}`, { name: "Review", status: "in_progress" });
    const base = `/projects/${project.id}/board-columns`;
    expect((await columns(member, `/projects/${project.id}`)).items.map((column) => column.name)).toContain("Review");
    expectProblem(await api(base, { token: member.token, json: { name: "Mine", status: "todo" } }), 403, "forbidden");
    expectProblem(
      await api(`${base}/${review.id}`, { method: "PATCH", token: member.token, json: { name: "Mine" } }),
      403,
      "forbidden",
    );
    expectProblem(await api(`${base}/${review.id}`, { method: "DELETE", token: member.token }), 403, "forbidden");
    expect(summary(await board(member, `projectId=${project.id}`))).toContain("Review: ");
  });

  test("POST /projects/{id}/board-columns – 400 naming the field", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const base = `/projects/${project.id}/board-columns`;
    const cases: [unknown, string][] = [
      [{ name: "   ", status: "todo" }, "/name"],
      [{ name: "x".repeat(61), status: "todo" }, "/name"],
      [{ name: "Review", status: "waiting" }, "/status"],
      [{ name: "Review", status: "todo", position: -1 }, "/position"],
      [{ status: "todo" }, "/name"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(await api(base, { token: owner.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toContain(pointer);
    }
    const review = await addColumn(owner, `/projects/${project.id}`, { name: "Review", status: "in_progress" });
    const both = await api(`${base}/${review.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { position: 1, afterId: review.id },
    });
    expect(expectProblem(both, 400, "validation_failed").errors?.map((error) => error.pointer)).toContain("/afterId");
    const unknown = await api(`${base}/${review.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { beforeId: "00000000-0000-4000-8000-000000000000" },
    });
    expect(expectProblem(unknown, 400, "validation_failed").errors?.map((error) => error.pointer)).toContain("/beforeId");
    const badMove = await api(`${base}/${review.id}?moveTo=${review.id}`, { method: "DELETE", token: owner.token });
    expect(expectProblem(badMove, 400, "validation_failed").errors?.map((error) => error.pointer)).toContain("/moveTo");
    const badBoard = await api(`/board?projectId=${project.id}&columnId=00000000-0000-4000-8000-000000000000`, {
      token: owner.token,
    });
    expect(expectProblem(badBoard, 400, "validation_failed").errors?.map((error) => error.pointer)).toContain("/columnId");
  });

  test("DELETE /projects/{id}/board-columns/{columnId} – 409 for the last column of a status, naming it", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const base = `/projects/${project.id}`;
    await addColumn(owner, base, { name: "Review", status: "in_progress" });
    const list = await columns(owner, base);
    const done = list.items.find((column) => column.status === "done")!;
    const problem = expectProblem(
      await api(`${base}/board-columns/${done.id}`, { method: "DELETE", token: owner.token }),
      409,
      "conflict",
    );
    expect(problem.detail).toMatch(/last column of the status done/);
    // Mapping it to another status would leave `done` without a column too.
    const remap = await api(`${base}/board-columns/${done.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { status: "todo" },
    });
    expect(expectProblem(remap, 409, "conflict").detail).toMatch(/done/);
  });

  test("POST /tasks/{id}/move – columnId sets the column's status and keeps the card in that column", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const base = `/projects/${project.id}`;
    const review = await addColumn(owner, base, { name: "Review", status: "in_progress", position: 2 });
    const doing = (await columns(owner, base)).items.find((column) => column.status === "in_progress" && column.name === null)!;
    const write = await createTask(server, owner.token, { title: "Write", projectId: project.id });
    const test_ = await createTask(server, owner.token, { title: "Test", projectId: project.id, status: "in_progress" });
    await createTask(server, owner.token, { title: "Elsewhere" });

    expect(summary(await board(owner, `projectId=${project.id}`))).toEqual([
      "todo: Write",
      "in_progress: Test",
      "Review: ",
      "done: ",
      "cancelled: ",
    ]);

    const moved = await move(owner, write.id, { columnId: review.id });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    expect(expectShape(taskOutput, moved.body).status).toBe("in_progress");
    let answer = await board(owner, `projectId=${project.id}`);
    expect(summary(answer)).toEqual(["todo: ", "in_progress: Test", "Review: Write", "done: ", "cancelled: "]);
    expect(answer.columns[2]).toMatchObject({ id: review.id, name: "Review", status: "in_progress", total: 1 });

    // Two columns of one status: moving between them keeps the status and changes the column.
    expect((await move(owner, test_.id, { columnId: review.id, afterId: write.id })).status).toBe(200);
    expect((await move(owner, write.id, { columnId: doing.id })).status).toBe(200);
    answer = await board(owner, `projectId=${project.id}`);
    expect(summary(answer)).toEqual(["todo: ", "in_progress: Write", "Review: Test", "done: ", "cancelled: "]);

    // A column of another board, or a status that is not the column's: 400 naming the field.
    const other = await createProject(owner);
    const otherColumn = await addColumn(owner, `/projects/${other.id}`, { name: "Other", status: "done" });
    expect(
      expectProblem(await move(owner, write.id, { columnId: otherColumn.id }), 400, "validation_failed").errors?.[0]?.pointer,
    ).toBe("/columnId");
    expect(
      expectProblem(await move(owner, write.id, { columnId: review.id, status: "done" }), 400, "validation_failed").errors?.[0]
        ?.pointer,
    ).toBe("/status");

    // Paging one custom column.
    for (let index = 0; index < 3; index++) {
      const task = await createTask(server, owner.token, { title: `More ${index}`, projectId: project.id });
      expect((await move(owner, task.id, { columnId: review.id })).status).toBe(200);
    }
    const page = await board(owner, `projectId=${project.id}&columnId=${review.id}&limit=2`);
    expect(page.columns).toHaveLength(1);
    expect(page.columns[0]).toMatchObject({ id: review.id, total: 4 });
    const rest = await board(
      owner,
      `projectId=${project.id}&columnId=${review.id}&limit=2&cursor=${page.columns[0]!.nextCursor}`,
    );
    expect([...page.columns[0]!.tasks, ...rest.columns[0]!.tasks].map((task) => task.title).sort()).toEqual(
      ["More 0", "More 1", "More 2", "Test"].sort(),
    );
    expect(rest.columns[0]!.nextCursor).toBeNull();
    // A cursor on a status with two columns needs the column.
    const ambiguous = await api(`/board?projectId=${project.id}&status=in_progress&cursor=${page.columns[0]!.nextCursor}`, {
      token: owner.token,
    });
    expect(expectProblem(ambiguous, 400, "validation_failed").errors?.[0]?.pointer).toBe("/columnId");
  });

  test("DELETE /projects/{id}/board-columns/{columnId} – its cards move to another column of its status", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const base = `/projects/${project.id}`;
    const review = await addColumn(owner, base, { name: "Review", status: "in_progress", position: 2 });
    const qa = await addColumn(owner, base, { name: "QA", status: "in_progress", position: 3 });
    const a = await createTask(server, owner.token, { title: "A", projectId: project.id, status: "in_progress" });
    const b = await createTask(server, owner.token, { title: "B", projectId: project.id });
    expect((await move(owner, b.id, { columnId: review.id })).status).toBe(200);
    expect(summary(await board(owner, `projectId=${project.id}`))).toEqual([
      "todo: ",
      "in_progress: A",
      "Review: B",
      "QA: ",
      "done: ",
      "cancelled: ",
    ]);
    // Named target.
    const gone = await api(`${base}/board-columns/${review.id}?moveTo=${qa.id}`, { method: "DELETE", token: owner.token });
    expect(gone.status, JSON.stringify(gone.body)).toBe(204);
    expect(summary(await board(owner, `projectId=${project.id}`))).toEqual([
      "todo: ",
      "in_progress: A",
      "QA: B",
      "done: ",
      "cancelled: ",
    ]);
    // The first column of a status: its cards without a placement go to the next one.
    const doing = (await columns(owner, base)).items.find((column) => column.status === "in_progress" && column.name === null)!;
    expect((await api(`${base}/board-columns/${doing.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expect(summary(await board(owner, `projectId=${project.id}`))).toEqual(["todo: ", "QA: A,B", "done: ", "cancelled: "]);
    expect((await api(`/tasks/${a.id}`, { token: owner.token })).body.status).toBe("in_progress");
  });
});

describe("/user-groups/{id}/board-columns", () => {
  test("POST /user-groups/{id}/board-columns – a team's board shows its columns; members may not change them", async () => {
    const owner = await registerUser(server);
    const member = await registerUser(server);
    const stranger = await registerUser(server);
    const team = await api("/user-groups", { token: owner.token, json: { name: "Ops" } });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const teamId = team.body.id as string;
    expect((await addMember(server, `/user-groups/${teamId}/members`, owner, member)).status).toBe(201);
    // The member's board is cached (a HIT the second time) until the team's columns change.
    await board(member, `userGroupId=${teamId}`);
    const cached = await api(`/board?userGroupId=${teamId}`, { token: member.token });
    expect(cached.headers.get("x-cache")).toBe("HIT");
    const blocked = await addColumn(owner, `/user-groups/${teamId}`, { name: "Blocked", status: "todo", position: 1 });
    const changed = await api(`/board?userGroupId=${teamId}`, { token: member.token });
    expect(changed.headers.get("x-cache")).toBe("MISS");
    expect(expectShape(boardOutput, changed.body).columns.map((column) => column.name)).toContain("Blocked");
    const task = await createTask(server, owner.token, { title: "Rotate keys", userGroupId: teamId });
    expect((await move(owner, task.id, { columnId: blocked.id })).status).toBe(200);
    expect(summary(await board(member, `userGroupId=${teamId}`))).toEqual([
      "todo: ",
      "Blocked: Rotate keys",
      "in_progress: ",
      "done: ",
      "cancelled: ",
    ]);
    expectProblem(
      await api(`/user-groups/${teamId}/board-columns`, { token: member.token, json: { name: "Mine", status: "done" } }),
      403,
      "forbidden",
    );
    expectProblem(await api(`/user-groups/${teamId}/board-columns`, { token: stranger.token }), 404, "not_found");
  });
});
