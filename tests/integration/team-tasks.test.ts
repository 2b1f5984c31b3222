import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { taskListOutput } from "../../lib/tasks/schema";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type TestServer,
} from "./harness";

/* Tasks assigned to a whole user group (team): every member sees them; only the owner and assignees change them. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;

async function list(token: string, query = "") {
  const response = await server.request(`/tasks${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...expectShape(taskListOutput, response.body), cache: response.headers.get("x-cache") };
}

const titles = (page: { items: { title: string }[] }) => page.items.map((task) => task.title);

/** A team owned by `owner` with `members` added as plain members. */
async function team(owner: User, members: User[]): Promise<string> {
  const created = await server.request("/api/v1/user-groups", { token: owner.token, json: { name: "Team" } });
  expect(created.status).toBe(201);
  for (const member of members) {
    const added = await joinAs(server, `/api/v1/user-groups/${created.body.id}/members`, owner, member);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  return created.body.id;
}

describe("a task assigned to a user group", () => {
  let owner: User;
  let member: User;
  let stranger: User;
  let teamId: string;
  beforeAll(async () => {
    [owner, member, stranger] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    teamId = await team(owner, [member]);
  });

  test("is seen by every member (list, task, board) and by nobody else", async () => {
    const before = await list(member.token);
    expect(before.items).toEqual([]);
    const task = await createTask(server, owner.token, { title: "Team chore", userGroupId: teamId });
    expect(task.userGroupId).toBe(teamId);

    // The member's cached (empty) list was dropped by the owner's write.
    const after = await list(member.token);
    expect(after.cache).toBe("MISS");
    expect(titles(after)).toEqual(["Team chore"]);
    expect(after.items[0]).toEqual(task);
    expect((await server.request(`/tasks/${task.id}`, { token: member.token })).body).toEqual(task);
    const board = await server.request("/api/v1/board", { token: member.token });
    expect(board.body.columns[0].tasks.map((item: { id: string }) => item.id)).toContain(task.id);

    expect(titles(await list(stranger.token))).toEqual([]);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: stranger.token }), 404, "not_found");
  });

  test("a member sees it but may not change it; the owner's changes reach the member's list at once", async () => {
    const task = await createTask(server, owner.token, { title: "Read only for members", userGroupId: teamId });
    await list(member.token);
    expectProblem(
      await server.request(`/tasks/${task.id}`, { method: "PATCH", token: member.token, json: { title: "Mine" } }),
      403,
      "forbidden",
    );
    expectProblem(
      await server.request(`/tasks/${task.id}/subtasks`, { token: member.token, json: { title: "Step" } }),
      403,
      "forbidden",
    );
    expectProblem(
      await server.request(`/tasks/${task.id}/move`, { token: member.token, json: { status: "done" } }),
      403,
      "forbidden",
    );
    expectProblem(await server.request(`/tasks/${task.id}`, { method: "DELETE", token: member.token }), 403, "forbidden");

    await server.request(`/tasks/${task.id}`, { method: "PATCH", token: owner.token, json: { title: "Renamed by the owner" } });
    const after = await list(member.token);
    expect(after.cache).toBe("MISS");
    expect(titles(after)).toContain("Renamed by the owner");
    expect(titles(after)).not.toContain("Read only for members");
  });

  test("leaving or being removed from the team takes its tasks out of the member's view at once", async () => {
    const [teamOwner, leaver, removed] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const id = await team(teamOwner, [leaver, removed]);
    const task = await createTask(server, teamOwner.token, { title: "Shared", userGroupId: id });
    expect(titles(await list(leaver.token))).toEqual(["Shared"]);
    expect(titles(await list(removed.token))).toEqual(["Shared"]);

    expect((await server.request(`/api/v1/user-groups/${id}/leave`, { method: "POST", token: leaver.token })).status).toBe(204);
    expect(await list(leaver.token)).toMatchObject({ items: [], cache: "MISS" });
    expectProblem(await server.request(`/tasks/${task.id}`, { token: leaver.token }), 404, "not_found");

    const removal = await server.request(`/api/v1/user-groups/${id}/members/${removed.user.id}`, {
      method: "DELETE",
      token: teamOwner.token,
    });
    expect(removal.status).toBe(204);
    expect(await list(removed.token)).toMatchObject({ items: [], cache: "MISS" });

    // Joining again brings it back, also at once.
    await joinAs(server, `/api/v1/user-groups/${id}/members`, teamOwner, removed);
    expect(titles(await list(removed.token))).toEqual(["Shared"]);
  });

  test("deleting the team leaves the task with its owner, assigned to no team", async () => {
    const [teamOwner, other] = [await registerUser(server), await registerUser(server)];
    const id = await team(teamOwner, [other]);
    const task = await createTask(server, teamOwner.token, { title: "Outlives the team", userGroupId: id });
    expect(titles(await list(other.token))).toEqual(["Outlives the team"]);
    expect((await server.request(`/api/v1/user-groups/${id}`, { method: "DELETE", token: teamOwner.token })).status).toBe(204);
    expect((await server.request(`/tasks/${task.id}`, { token: teamOwner.token })).body).toMatchObject({ userGroupId: null });
    expect(await list(other.token)).toMatchObject({ items: [], cache: "MISS" });
  });

  test("only a team the owner belongs to can be given, and only by the owner; null takes it back", async () => {
    const outsiderTeam = await team(stranger, []);
    const refused = expectProblem(
      await server.request("/tasks", { token: owner.token, json: { title: "Not my team", userGroupId: outsiderTeam } }),
      400,
      "validation_failed",
    );
    expect(refused.errors?.[0]).toMatchObject({ in: "body", pointer: "/userGroupId" });
    expect(JSON.stringify(refused)).not.toMatch(/Team|@example/);
    const malformed = expectProblem(
      await server.request("/tasks", { token: owner.token, json: { title: "Bad id", userGroupId: "team" } }),
      400,
      "validation_failed",
    );
    expect(malformed.errors?.[0]).toMatchObject({ pointer: "/userGroupId" });

    const task = await createTask(server, owner.token, { title: "Handed to the team later" });
    const assignee = await createTask(server, owner.token, {
      title: "Assigned",
      assigneeIds: [owner.user.id],
      userGroupId: teamId,
    });
    expectProblem(
      await server.request(`/tasks/${assignee.id}`, { method: "PATCH", token: member.token, json: { userGroupId: null } }),
      403,
      "forbidden",
    );
    const given = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { userGroupId: teamId },
    });
    expect(given.body.userGroupId).toBe(teamId);
    expect(titles(await list(member.token))).toContain("Handed to the team later");
    await server.request(`/tasks/${task.id}`, { method: "PATCH", token: owner.token, json: { userGroupId: null } });
    expect(titles(await list(member.token))).not.toContain("Handed to the team later");
  });

  test("a member who is also an assignee sees the task once and may change it", async () => {
    const [teamOwner, worker] = [await registerUser(server), await registerUser(server)];
    const id = await team(teamOwner, [worker]);
    const task = await createTask(server, teamOwner.token, { title: "Both ways", userGroupId: id });
    // Until collaboration requests arrive, an owner assigns only themself: put the worker in directly.
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [task.id, worker.user.id]);
    await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: teamOwner.token,
      json: { description: "refresh caches" },
    });
    expect(titles(await list(worker.token))).toEqual(["Both ways"]);
    const changed = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: worker.token,
      json: { status: "in_progress" },
    });
    expect(changed.status).toBe(200);
  });
  test("GET /tasks?userGroupId= – only the team's tasks; another team's id lists nothing of it", async () => {
    const [teamOwner, worker, outsider] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const id = await team(teamOwner, [worker]);
    const other = await team(outsider, []);
    await createTask(server, teamOwner.token, { title: "For the team", userGroupId: id });
    await createTask(server, teamOwner.token, { title: "Just mine" });
    await createTask(server, outsider.token, { title: "Outsider's team task", userGroupId: other });

    expect(titles(await list(worker.token, `?userGroupId=${id}`))).toEqual(["For the team"]);
    expect(titles(await list(teamOwner.token, `?userGroupId=${id}`))).toEqual(["For the team"]);
    expect(titles(await list(teamOwner.token, `?userGroupId=${other}`))).toEqual([]);
    expectProblem(await server.request("/tasks?userGroupId=not-a-team", { token: worker.token }), 400, "validation_failed");
  });

  test("GET /board?userGroupId= – the team's board: only its tasks, for every member; another team's board shows nothing of it", async () => {
    const [teamOwner, worker, outsider] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const id = await team(teamOwner, [worker]);
    const other = await team(outsider, []);
    const started = await createTask(server, teamOwner.token, { title: "Team, started", userGroupId: id });
    await server.request(`/tasks/${started.id}`, { method: "PATCH", token: teamOwner.token, json: { status: "in_progress" } });
    await createTask(server, teamOwner.token, { title: "Team, to do", userGroupId: id });
    await createTask(server, teamOwner.token, { title: "Just mine" });
    await createTask(server, outsider.token, { title: "Outsider's team task", userGroupId: other });

    const board = async (token: string, query: string) => {
      const response = await server.request(`/api/v1/board${query}`, { token });
      expect(response.status).toBe(200);
      const { columns } = response.body as { columns: { status: string; total: number; tasks: { title: string }[] }[] };
      return Object.fromEntries(columns.map((column) => [column.status, column.tasks.map((task) => task.title)]));
    };
    for (const who of [worker, teamOwner]) {
      expect(await board(who.token, `?userGroupId=${id}`)).toEqual({
        todo: ["Team, to do"],
        in_progress: ["Team, started"],
        done: [],
        cancelled: [],
      });
    }
    expect(await board(teamOwner.token, `?userGroupId=${other}`)).toEqual({ todo: [], in_progress: [], done: [], cancelled: [] });
    expectProblem(
      await server.request("/api/v1/board?userGroupId=not-a-team", { token: worker.token }),
      400,
      "validation_failed",
    );
  });
});
