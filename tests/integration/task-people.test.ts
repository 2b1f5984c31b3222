import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { taskPeopleOutput } from "../../lib/tasks/schema";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type TestServer,
} from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

const people = (who: User, taskId: string) => server.request(`/api/v1/tasks/${taskId}/people`, { token: who.token });

async function peopleOf(who: User, taskId: string) {
  const response = await people(who, taskId);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(taskPeopleOutput, response.body);
}

/** `from` asks `to` for `kind` on the task and `to` accepts. */
async function joined(from: User, to: User, taskId: string, kind: "assign" | "collaborate") {
  const asked = await server.request(`/api/v1/tasks/${taskId}/collaboration-requests`, {
    token: from.token,
    json: { kind, userId: to.user.id },
  });
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  const accepted = await server.request(`/api/v1/collaboration-requests/${asked.body.id}/accept`, {
    method: "POST",
    token: to.token,
  });
  expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
}

describe("GET /tasks/{id}/people", () => {
  test("names the owner alone on a new task", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const task = await createTask(server, owner.token);
    expect(await peopleOf(owner, task.id)).toEqual({
      owner: { id: owner.user.id, name: "Olga Owner" },
      assignees: [],
      collaborators: [],
      userGroup: null,
    });
  });

  test("names assignees in the order they were assigned, collaborators and the user group, to everyone on the task", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const first = await registerUser(server, { name: "Zoe First" });
    const second = await registerUser(server, { name: "Adam Second" });
    const helper = await registerUser(server, { name: "Cyril Collaborator" });
    const teammate = await registerUser(server, { name: "Tereza Teammate" });
    const team = await server.request("/api/v1/user-groups", { token: owner.token, json: { name: "Kitchen crew" } });
    expect(team.status, JSON.stringify(team.body)).toBe(201);
    const added = await joinAs(server, `/api/v1/user-groups/${team.body.id}/members`, owner, teammate);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const task = await createTask(server, owner.token, { userGroupId: team.body.id });

    await joined(owner, first, task.id, "assign");
    await joined(owner, second, task.id, "assign");
    await joined(owner, helper, task.id, "collaborate");

    const expected = {
      owner: { id: owner.user.id, name: "Olga Owner" },
      // Assignment order, not the alphabet.
      assignees: [
        { id: first.user.id, name: "Zoe First" },
        { id: second.user.id, name: "Adam Second" },
      ],
      collaborators: [{ id: helper.user.id, name: "Cyril Collaborator" }],
      userGroup: { id: team.body.id, name: "Kitchen crew" },
    };
    for (const reader of [owner, first, helper, teammate]) expect(await peopleOf(reader, task.id)).toEqual(expected);
    // The answer carries names, never emails.
    expect(JSON.stringify((await people(teammate, task.id)).body)).not.toContain("@");
  });

  test("follows changes: a removed collaborator is gone from the list", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server, { name: "Leaving Helper" });
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");
    expect((await peopleOf(owner, task.id)).collaborators.map((person) => person.name)).toEqual(["Leaving Helper"]);
    const removed = await server.request(`/api/v1/tasks/${task.id}/collaborators/${helper.user.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect((await peopleOf(owner, task.id)).collaborators).toEqual([]);
  });

  test("404 for another user's task and for no task at all, revealing no names", async () => {
    const owner = await registerUser(server, { name: "Secret Owner Name" });
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    const refused = expectProblem(await people(stranger, task.id), 404, "not_found");
    expect(JSON.stringify(refused)).not.toContain("Secret Owner Name");
    expectProblem(await people(owner, MISSING_ID), 404, "not_found");
  });

  test("400 for an id that is no task id, 401 without a session", async () => {
    const owner = await registerUser(server);
    const malformed = expectProblem(await people(owner, "not-an-id"), 400, "validation_failed");
    expect(malformed.errors?.[0]).toMatchObject({ in: "path", pointer: "/id" });
    const task = await createTask(server, owner.token);
    expectProblem(await server.request(`/api/v1/tasks/${task.id}/people`), 401, "unauthenticated");
  });
});
