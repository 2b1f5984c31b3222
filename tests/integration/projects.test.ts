import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import {
  memberListOutput,
  memberOutput,
  projectListOutput,
  projectOutput,
  projectWorkloadOutput,
} from "../../lib/projects/schema";
import { taskListOutput } from "../../lib/tasks/schema";
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

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
type User = Awaited<ReturnType<typeof registerUser>>;

/** Project paths live under /api/v1 only. */
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function createProject(owner: User, json: Record<string, unknown> = { name: "Project" }) {
  const response = await api("/projects", { token: owner.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(projectOutput, response.body);
}

/** Adds `who` as `by` would: at once when they work together already, else by an invitation `who` accepts. */
async function addMember(by: User, projectId: string, who: User, role?: string) {
  const response = await joinAs(server, `/projects/${projectId}/members`, by, who, role ? { role } : {});
  expect([201, 202], JSON.stringify(response.body)).toContain(response.status);
  return expectShape(memberOutput, response.body);
}

async function rolesIn(projectId: string, viewer: User): Promise<Record<string, string>> {
  const response = await api(`/projects/${projectId}/members`, { token: viewer.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const list = expectShape(memberListOutput, response.body);
  return Object.fromEntries(list.items.map((member) => [member.userId, member.role]));
}

async function myProjects(who: User, query = "") {
  const response = await api(`/projects${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(projectListOutput, response.body).items;
}

const patchProject = (by: User, projectId: string, json: unknown) =>
  api(`/projects/${projectId}`, { method: "PATCH", token: by.token, json });
const setRole = (by: User, projectId: string, who: User, role: string) =>
  api(`/projects/${projectId}/members/${who.user.id}`, { method: "PATCH", token: by.token, json: { role } });
const remove = (by: User, projectId: string, who: User) =>
  api(`/projects/${projectId}/members/${who.user.id}`, { method: "DELETE", token: by.token });
const leave = (who: User, projectId: string) => api(`/projects/${projectId}/leave`, { method: "POST", token: who.token });

/** The task list as `who` gets it, with its X-Cache header. */
async function taskList(who: User, query = "") {
  const response = await server.request(`/tasks${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...expectShape(taskListOutput, response.body), cache: response.headers.get("x-cache") };
}
const ids = (page: { items: { id: string }[] }) => page.items.map((task) => task.id);

/** A project with an owner, an admin, a plain member and a viewer. */
async function projectOfFour() {
  const [owner, admin, member, viewer] = [
    await registerUser(server),
    await registerUser(server),
    await registerUser(server),
    await registerUser(server),
  ];
  const project = await createProject(owner, { name: "Launch" });
  await addMember(owner, project.id, admin, "admin");
  await addMember(owner, project.id, member);
  await addMember(owner, project.id, viewer, "viewer");
  return { project, owner, admin, member, viewer };
}

describe("POST /projects", () => {
  test("creates a project whose creator is its owner and only member", async () => {
    const owner = await registerUser(server, { name: "Olga" });
    const project = await createProject(owner, { name: "  Website relaunch  ", description: " New site ", color: "#3B82F6" });
    expect(project).toMatchObject({
      name: "Website relaunch",
      description: "New site",
      color: "#3b82f6",
      role: "owner",
      memberCount: 1,
      tasks: { total: 0, open: 0 },
      archived: false,
      archivedAt: null,
      createdBy: owner.user.id,
    });
    expect(Date.parse(project.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const members = expectShape(memberListOutput, (await api(`/projects/${project.id}/members`, { token: owner.token })).body);
    expect(members.items).toEqual([
      { userId: owner.user.id, name: "Olga", email: owner.email, avatarUrl: null, role: "owner", joinedAt: expect.any(String) },
    ]);
    expect(await createProject(owner, { name: "Plain" })).toMatchObject({ description: "", color: null });
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toEqual(project);
  });

  test("answers 400 naming each bad field (name length, colour format, unknown fields), and creates nothing", async () => {
    const owner = await registerUser(server);
    const cases: [unknown, string[]][] = [
      [{}, ["/name"]],
      [{ name: "" }, ["/name"]],
      [{ name: "   " }, ["/name"]],
      [{ name: "x".repeat(201) }, ["/name"]],
      [{ name: 7 }, ["/name"]],
      [{ name: "P", description: "x".repeat(2001) }, ["/description"]],
      [{ name: "P", color: "red" }, ["/color"]],
      [{ name: "P", color: "#12345" }, ["/color"]],
      [{ name: "P", color: "#1234567" }, ["/color"]],
      [{ name: "P", color: "#gggggg" }, ["/color"]],
      [{ name: "P", color: "3b82f6" }, ["/color"]],
      [{ name: "P", colour: "#3b82f6" }, ["/colour"]],
      [{ name: "P", archived: true }, ["/archived"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await api("/projects", { token: owner.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
      expect(problem.errors?.every((error) => error.in === "body")).toBe(true);
    }
    expect(await myProjects(owner)).toEqual([]);
    expect(await createProject(owner, { name: "x".repeat(200), color: null })).toMatchObject({
      name: "x".repeat(200),
      color: null,
    });
  });

  test("answers 401 without a token", async () => {
    expectProblem(await api("/projects", { json: { name: "P" } }), 401, "unauthenticated");
    expectProblem(await api("/projects"), 401, "unauthenticated");
  });
});

describe("GET /projects and /projects/{id}", () => {
  test("lists the projects you belong to, oldest first, with your role, member count and task counts", async () => {
    const [alice, bob] = [await registerUser(server), await registerUser(server)];
    const first = await createProject(alice, { name: "First" });
    const bobs = await createProject(bob, { name: "Bob's" });
    const second = await createProject(alice, { name: "Second" });
    await addMember(bob, bobs.id, alice, "viewer");
    await createTask(server, bob.token, { title: "Open", projectId: bobs.id });
    await createTask(server, bob.token, { title: "Going", projectId: bobs.id, status: "in_progress" });
    await createTask(server, bob.token, { title: "Done", projectId: bobs.id, status: "done" });
    await createTask(server, bob.token, { title: "Dropped", projectId: bobs.id, status: "cancelled" });
    await createTask(server, bob.token, { title: "Elsewhere" });

    const list = await myProjects(alice);
    expect(list.map((project) => [project.id, project.role, project.memberCount, project.tasks])).toEqual([
      [first.id, "owner", 1, { total: 0, open: 0 }],
      [bobs.id, "viewer", 2, { total: 4, open: 2 }],
      [second.id, "owner", 1, { total: 0, open: 0 }],
    ]);
    expect((await myProjects(bob)).map((project) => project.id)).toEqual([bobs.id]);

    const read = await api(`/projects/${bobs.id}`, { token: alice.token });
    expect(expectShape(projectOutput, read.body)).toMatchObject({ id: bobs.id, name: "Bob's", role: "viewer", memberCount: 2 });
    expect(read.body).toEqual(list[1]);
  });

  test("archived projects are hidden unless ?archived=true, and can be restored", async () => {
    const owner = await registerUser(server);
    const kept = await createProject(owner, { name: "Kept" });
    const old = await createProject(owner, { name: "Old" });

    const archived = await patchProject(owner, old.id, { archived: true });
    expect(archived.status, JSON.stringify(archived.body)).toBe(200);
    expect(expectShape(projectOutput, archived.body)).toMatchObject({ archived: true, archivedAt: expect.any(String) });
    const archivedAt = archived.body.archivedAt;

    expect((await myProjects(owner)).map((project) => project.id)).toEqual([kept.id]);
    expect((await myProjects(owner, "?archived=false")).map((project) => project.id)).toEqual([kept.id]);
    const all = await myProjects(owner, "?archived=true");
    expect(all.map((project) => [project.id, project.archived])).toEqual([
      [kept.id, false],
      [old.id, true],
    ]);
    // Still readable by id, as the change answered it (to the byte of its ETag); archiving again keeps the first
    // archiving time.
    const read = await api(`/projects/${old.id}`, { token: owner.token });
    expect(read.body).toEqual(archived.body);
    expect(read.headers.get("etag")).toBe(archived.headers.get("etag"));
    expect((await patchProject(owner, old.id, { archived: true })).body.archivedAt).toBe(archivedAt);

    expect((await patchProject(owner, old.id, { archived: false })).body).toMatchObject({ archived: false, archivedAt: null });
    expect((await myProjects(owner)).map((project) => project.id)).toEqual([kept.id, old.id]);
  });

  test("a bad query is a 400 naming the parameter", async () => {
    const owner = await registerUser(server);
    for (const [query, pointer] of [
      ["?archived=yes", "/archived"],
      ["?archived=1", "/archived"],
      ["?sort=name", "/sort"],
    ]) {
      const problem = expectProblem(await api(`/projects${query}`, { token: owner.token }), 400, "validation_failed");
      expect(problem.errors, query).toEqual([expect.objectContaining({ in: "query", pointer })]);
    }
  });
});

describe("PATCH /projects/{id}", () => {
  test("owners and admins edit the project; the fields not given stay; null removes the colour", async () => {
    const { project, owner, admin, member } = await projectOfFour();
    const renamed = await patchProject(owner, project.id, { name: " Renamed ", color: "#AABBCC" });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(expectShape(projectOutput, renamed.body)).toMatchObject({
      name: "Renamed",
      description: "",
      color: "#aabbcc",
      role: "owner",
    });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(project.updatedAt));

    const described = await patchProject(admin, project.id, { description: "Ship it", color: null });
    expect(described.status, JSON.stringify(described.body)).toBe(200);
    expect(described.body).toMatchObject({ name: "Renamed", description: "Ship it", color: null, role: "admin" });
    expect((await api(`/projects/${project.id}`, { token: member.token })).body).toMatchObject({
      name: "Renamed",
      description: "Ship it",
      color: null,
      role: "member",
    });
  });

  test("a member or viewer gets 403 and changes nothing", async () => {
    const { project, member, viewer } = await projectOfFour();
    for (const who of [member, viewer]) {
      const problem = expectProblem(await patchProject(who, project.id, { name: "Mine now", archived: true }), 403, "forbidden");
      expect(problem.detail).toMatch(/owners and admins/);
    }
    expect((await api(`/projects/${project.id}`, { token: member.token })).body).toMatchObject({
      name: "Launch",
      archived: false,
    });
  });

  test("answers 400 for an empty change, a bad value or an unknown field", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner, { name: "P", color: "#000000" });
    const cases: [unknown, string][] = [
      [{}, "/name"],
      [{ name: "" }, "/name"],
      [{ name: null }, "/name"],
      [{ name: "x".repeat(201) }, "/name"],
      [{ color: "blue" }, "/color"],
      [{ color: "#00000g" }, "/color"],
      [{ archived: "yes" }, "/archived"],
      [{ description: "x".repeat(2001) }, "/description"],
      [{ ownerId: owner.user.id }, "/ownerId"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(await patchProject(owner, project.id, json), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toContain(pointer);
    }
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toMatchObject({ name: "P", color: "#000000" });
  });
});

describe("DELETE /projects/{id}", () => {
  test("only an owner deletes; the project and every membership go", async () => {
    const { project, owner, admin, member, viewer } = await projectOfFour();
    for (const who of [admin, member, viewer]) {
      const problem = expectProblem(
        await api(`/projects/${project.id}`, { method: "DELETE", token: who.token }),
        403,
        "forbidden",
      );
      expect(problem.detail).toMatch(/owner/);
    }
    expect((await api(`/projects/${project.id}`, { token: member.token })).status).toBe(200);

    expect((await api(`/projects/${project.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    for (const who of [owner, admin, member, viewer]) {
      expectProblem(await api(`/projects/${project.id}`, { token: who.token }), 404, "not_found");
      expect(await myProjects(who, "?archived=true")).toEqual([]);
    }
    expect(await server.sql("select 1 from project_members where project_id = $1", [project.id])).toEqual([]);
    expectProblem(await api(`/projects/${project.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");
  });

  test("the project's tasks stay with their owners, in no project; ex-members no longer see them", async () => {
    const { project, owner, member, viewer } = await projectOfFour();
    const ownersTask = await createTask(server, owner.token, { title: "Owner's", projectId: project.id });
    const membersTask = await createTask(server, member.token, { title: "Member's", projectId: project.id });
    expect(ids(await taskList(viewer))).toEqual(expect.arrayContaining([ownersTask.id, membersTask.id]));
    expect(ids(await taskList(member))).toEqual(expect.arrayContaining([ownersTask.id, membersTask.id]));
    expect(ids(await taskList(owner))).toEqual(expect.arrayContaining([ownersTask.id, membersTask.id]));

    expect((await api(`/projects/${project.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);

    expect((await server.request(`/tasks/${ownersTask.id}`, { token: owner.token })).body).toMatchObject({
      id: ownersTask.id,
      ownerId: owner.user.id,
      projectId: null,
    });
    expect((await server.request(`/tasks/${membersTask.id}`, { token: member.token })).body).toMatchObject({
      ownerId: member.user.id,
      projectId: null,
    });
    // Every list that showed them was dropped: each owner keeps exactly their own, the viewer none.
    expect(await taskList(owner)).toMatchObject({
      cache: "MISS",
      items: [expect.objectContaining({ id: ownersTask.id, projectId: null })],
    });
    expect(await taskList(member)).toMatchObject({
      cache: "MISS",
      items: [expect.objectContaining({ id: membersTask.id, projectId: null })],
    });
    expect(await taskList(viewer)).toMatchObject({ cache: "MISS", items: [] });
    expectProblem(await server.request(`/tasks/${ownersTask.id}`, { token: member.token }), 404, "not_found");
    expectProblem(await server.request(`/tasks/${membersTask.id}`, { token: owner.token }), 404, "not_found");
    expectProblem(await server.request(`/tasks/${ownersTask.id}`, { token: viewer.token }), 404, "not_found");
  });
});

describe("POST /projects/{id}/members", () => {
  test("someone not yet working with you is invited (202), the same answer by id, by email or for an unknown email; they join by accepting", async () => {
    const owner = await registerUser(server);
    const [byId, byEmail] = [await registerUser(server, { name: "Ivan" }), await registerUser(server, { name: "Eva" })];
    const project = await createProject(owner);

    const invitedById = await api(`/projects/${project.id}/members`, { token: owner.token, json: { userId: byId.user.id } });
    expect(invitedById.status, JSON.stringify(invitedById.body)).toBe(202);
    const email = `  ${byEmail.email.toUpperCase()} `;
    const invitedByEmail = await api(`/projects/${project.id}/members`, { token: owner.token, json: { email, role: "viewer" } });
    const unknown = await api(`/projects/${project.id}/members`, {
      token: owner.token,
      json: { email: `nobody-${randomUUID()}@example.com`, role: "viewer" },
    });
    // An email with an account and one without get the same answer: nothing tells them apart.
    for (const answer of [invitedByEmail, unknown]) {
      expect(answer.status).toBe(202);
      expect(Object.keys(answer.body).sort()).toEqual(["invitation", "links", "text", "token", "url"]);
      expect(answer.body.invitation).toMatchObject({
        kind: "project",
        projectId: project.id,
        projectRole: "viewer",
        status: "pending",
      });
    }
    // Nobody is a member yet.
    expect(Object.keys(await rolesIn(project.id, owner))).toEqual([owner.user.id]);
    expect(await myProjects(byId)).toEqual([]);

    // Each sees the invitation in the app, and accepts it there.
    for (const [who, invited] of [
      [byId, invitedById],
      [byEmail, invitedByEmail],
    ] as const) {
      const received = await api("/invitations/received", { token: who.token });
      expect(received.body.items).toEqual([
        expect.objectContaining({ id: invited.body.invitation.id, kind: "project", projectName: project.name }),
      ]);
      const accepted = await api(`/invitations/${invited.body.invitation.id}/accept`, { method: "POST", token: who.token });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect(accepted.body).toMatchObject({ projectId: project.id });
    }
    const members = expectShape(memberListOutput, (await api(`/projects/${project.id}/members`, { token: byEmail.token })).body);
    expect(members.items.map((member) => [member.userId, member.role])).toEqual([
      [owner.user.id, "owner"],
      [byId.user.id, "member"],
      [byEmail.user.id, "viewer"],
    ]);
    expect(await myProjects(byEmail)).toEqual([expect.objectContaining({ id: project.id, role: "viewer", memberCount: 3 })]);
  });

  test("someone who already works with you (a shared team) is added at once (201)", async () => {
    const owner = await registerUser(server);
    const colleague = await registerUser(server, { name: "Cleo" });
    const team = await api("/user-groups", { token: owner.token, json: { name: "Crew" } });
    await joinAs(server, `/user-groups/${team.body.id}/members`, owner, colleague);
    const project = await createProject(owner);
    const added = await api(`/projects/${project.id}/members`, { token: owner.token, json: { email: colleague.email } });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(expectShape(memberOutput, added.body)).toMatchObject({ userId: colleague.user.id, name: "Cleo", role: "member" });
  });

  test("publishes project.member_added to every member, the new one included", async () => {
    const owner = await registerUser(server);
    const [first, second] = [await registerUser(server), await registerUser(server)];
    const project = await createProject(owner);
    await addMember(owner, project.id, first);
    await addMember(owner, project.id, second, "viewer");
    const events = await server.sql<{ actor_id: string; audience: string[]; data: Record<string, unknown> }>(
      "select actor_id, audience, data from domain_events where type = 'project.member_added' and data->>'projectId' = $1 order by id",
      [project.id],
    );
    // Each joined by accepting an invitation: they are the event's actor.
    const invitationId = expect.any(String);
    expect(events.map((event) => [event.actor_id, [...event.audience].sort(), event.data])).toEqual([
      [
        first.user.id,
        [owner.user.id, first.user.id].sort(),
        { projectId: project.id, userId: first.user.id, role: "member", invitationId },
      ],
      [
        second.user.id,
        [owner.user.id, first.user.id, second.user.id].sort(),
        { projectId: project.id, userId: second.user.id, role: "viewer", invitationId },
      ],
    ]);
  });

  test("an unknown user id is a 400 naming the field, and adds nobody", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const byId = expectProblem(
      await api(`/projects/${project.id}/members`, { token: owner.token, json: { userId: randomUUID() } }),
      400,
      "validation_failed",
    );
    expect(byId.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/userId" })]);
    expect(Object.keys(await rolesIn(project.id, owner))).toEqual([owner.user.id]);
  });

  test("someone already in the project is a 409, by id or by email, and keeps their role", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const project = await createProject(owner);
    await addMember(owner, project.id, other, "viewer");
    const again = [{ userId: other.user.id, role: "admin" }, { email: other.email }, { userId: owner.user.id }];
    for (const json of again) {
      const problem = expectProblem(await api(`/projects/${project.id}/members`, { token: owner.token, json }), 409, "conflict");
      expect(problem.detail).toMatch(/already a member/);
    }
    expect(await rolesIn(project.id, owner)).toEqual({ [owner.user.id]: "owner", [other.user.id]: "viewer" });
  });

  test("members and viewers cannot add (403); admins add anyone but an owner; owners add owners", async () => {
    const { project, owner, admin, member, viewer } = await projectOfFour();
    const [newcomer, coOwner, another] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    for (const who of [member, viewer]) {
      const problem = expectProblem(
        await api(`/projects/${project.id}/members`, { token: who.token, json: { userId: newcomer.user.id } }),
        403,
        "forbidden",
      );
      expect(problem.detail).toMatch(/owners and admins/);
    }
    expectProblem(
      await api(`/projects/${project.id}/members`, { token: admin.token, json: { userId: newcomer.user.id, role: "owner" } }),
      403,
      "forbidden",
    );
    expect(Object.keys(await rolesIn(project.id, owner))).not.toContain(newcomer.user.id);

    expect(await addMember(admin, project.id, newcomer, "admin")).toMatchObject({ role: "admin" });
    expect(await addMember(admin, project.id, another)).toMatchObject({ role: "member" });
    // An invitation never grants ownership: someone new is made owner once they joined...
    const invited = expectProblem(
      await api(`/projects/${project.id}/members`, { token: owner.token, json: { userId: coOwner.user.id, role: "owner" } }),
      400,
      "validation_failed",
    );
    expect(invited.errors?.[0]?.pointer).toBe("/role");
    // ...and someone already working with the owner (here: in this project's team of people) is added as owner at once.
    const second = await createProject(owner, { name: "Second" });
    expect(await addMember(owner, second.id, newcomer, "owner")).toMatchObject({ role: "owner" });
  });

  test("answers 400 naming the field: neither or both of userId and email, a bad id, email or role", async () => {
    const owner = await registerUser(server);
    const project = await createProject(owner);
    const cases: [unknown, string][] = [
      [{}, "/userId"],
      [{ role: "admin" }, "/userId"],
      [{ userId: owner.user.id, email: owner.email }, "/email"],
      [{ userId: "not-an-id" }, "/userId"],
      [{ email: "not-an-email" }, "/email"],
      [{ userId: randomUUID(), role: "king" }, "/role"],
      [{ userId: randomUUID(), invite: true }, "/invite"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(
        await api(`/projects/${project.id}/members`, { token: owner.token, json }),
        400,
        "validation_failed",
      );
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toContain(pointer);
    }
  });
});

describe("PATCH /projects/{id}/members/{userId}", () => {
  test("owners and admins change roles; only an owner grants or takes the owner role", async () => {
    const { project, owner, admin, member, viewer } = await projectOfFour();
    const promoted = await setRole(admin, project.id, viewer, "member");
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(expectShape(memberOutput, promoted.body)).toMatchObject({ userId: viewer.user.id, role: "member" });
    expect((await setRole(admin, project.id, member, "viewer")).body).toMatchObject({ role: "viewer" });

    const grant = expectProblem(await setRole(admin, project.id, member, "owner"), 403, "forbidden");
    expect(grant.detail).toMatch(/owner/);
    expectProblem(await setRole(admin, project.id, owner, "admin"), 403, "forbidden");
    for (const who of [member, viewer]) expectProblem(await setRole(who, project.id, admin, "member"), 403, "forbidden");

    expect((await setRole(owner, project.id, admin, "owner")).body).toMatchObject({ role: "owner" });
    expect(await rolesIn(project.id, owner)).toEqual({
      [owner.user.id]: "owner",
      [admin.user.id]: "owner",
      [member.user.id]: "viewer",
      [viewer.user.id]: "member",
    });
  });

  test("404 for someone not in the project; 400 for a bad role or user id", async () => {
    const owner = await registerUser(server);
    const outsider = await registerUser(server);
    const project = await createProject(owner);
    expectProblem(await setRole(owner, project.id, outsider, "admin"), 404, "not_found");
    const badRole = expectProblem(await setRole(owner, project.id, owner, "king"), 400, "validation_failed");
    expect(badRole.errors?.map((error) => error.pointer)).toEqual(["/role"]);
    const badId = await api(`/projects/${project.id}/members/nope`, {
      method: "PATCH",
      token: owner.token,
      json: { role: "admin" },
    });
    expect(expectProblem(badId, 400, "validation_failed").errors).toEqual([
      expect.objectContaining({ in: "path", pointer: "/userId" }),
    ]);
  });
});

describe("the last owner", () => {
  test("cannot be demoted, removed or leave (409) until someone else is owner", async () => {
    const { project, owner, admin } = await projectOfFour();
    const demote = expectProblem(await setRole(owner, project.id, owner, "admin"), 409, "conflict");
    expect(demote.detail).toMatch(/last owner/);
    expectProblem(await remove(owner, project.id, owner), 409, "conflict");
    expectProblem(await leave(owner, project.id), 409, "conflict");
    expect((await rolesIn(project.id, owner))[owner.user.id]).toBe("owner");

    await setRole(owner, project.id, admin, "owner");
    expect((await setRole(owner, project.id, owner, "admin")).body).toMatchObject({ role: "admin" });
    // Now `admin` is the last owner.
    expectProblem(await leave(admin, project.id), 409, "conflict");
    expect((await leave(owner, project.id)).status).toBe(204);
    expectProblem(await api(`/projects/${project.id}`, { token: owner.token }), 404, "not_found");
  });
});

describe("DELETE /projects/{id}/members/{userId} and POST /projects/{id}/leave", () => {
  test("owners and admins remove members; an admin cannot remove an owner (403); members and viewers remove nobody", async () => {
    const { project, owner, admin, member, viewer } = await projectOfFour();
    const problem = expectProblem(await remove(admin, project.id, owner), 403, "forbidden");
    expect(problem.detail).toMatch(/owner/);
    expectProblem(await remove(member, project.id, viewer), 403, "forbidden");
    expectProblem(await remove(viewer, project.id, member), 403, "forbidden");
    expect(Object.keys(await rolesIn(project.id, owner))).toHaveLength(4);

    expect((await remove(admin, project.id, viewer)).status).toBe(204);
    expect((await remove(owner, project.id, admin)).status).toBe(204);
    expect(await rolesIn(project.id, owner)).toEqual({ [owner.user.id]: "owner", [member.user.id]: "member" });
    expectProblem(await remove(owner, project.id, viewer), 404, "not_found");
    for (const who of [admin, viewer])
      expectProblem(await api(`/projects/${project.id}`, { token: who.token }), 404, "not_found");

    const removed = await server.sql<{ audience: string[]; data: Record<string, unknown> }>(
      "select audience, data from domain_events where type = 'project.member_removed' and data->>'projectId' = $1 order by id",
      [project.id],
    );
    expect(removed.map((event) => event.data.userId)).toEqual([viewer.user.id, admin.user.id]);
    // The removed member hears of it too.
    expect(removed[0]!.audience).toEqual(expect.arrayContaining([owner.user.id, admin.user.id, member.user.id, viewer.user.id]));
  });

  test("any member may leave; their own user id in DELETE is the same as leaving", async () => {
    const { project, owner, admin, member, viewer } = await projectOfFour();
    expect((await leave(viewer, project.id)).status).toBe(204);
    expect((await remove(member, project.id, member)).status).toBe(204);
    expect((await leave(admin, project.id)).status).toBe(204);
    expect(await rolesIn(project.id, owner)).toEqual({ [owner.user.id]: "owner" });
    expectProblem(await leave(viewer, project.id), 404, "not_found");
  });
});

describe("GET /projects/{id}/workload", () => {
  test("counts each member's assigned tasks of the project by status and overdue; viewers see it too", async () => {
    const { project, owner, admin, member, viewer } = await projectOfFour();
    const outsider = await registerUser(server);
    const projectTask = (who: User, fields: Record<string, unknown> = {}) => ({
      assigneeIds: [who.user.id],
      projectId: project.id,
      ...fields,
    });
    const past = new Date(Date.now() - 86_400_000).toISOString();
    const future = new Date(Date.now() + 86_400_000).toISOString();
    await createTask(server, owner.token, projectTask(owner, { status: "todo", dueAt: past }));
    await createTask(server, owner.token, projectTask(owner, { status: "in_progress", dueAt: future }));
    await createTask(server, owner.token, projectTask(owner, { status: "done", dueAt: past }));
    await createTask(server, admin.token, projectTask(admin, { status: "in_progress", dueAt: past }));
    await createTask(server, admin.token, projectTask(admin, { status: "cancelled", dueAt: past }));
    // Not the project's, or nobody's: they count nowhere.
    await createTask(server, member.token, { status: "todo", assigneeIds: [member.user.id], dueAt: past });
    await createTask(server, owner.token, { status: "todo", projectId: project.id });
    await createTask(server, outsider.token, { status: "todo", assigneeIds: [outsider.user.id] });

    const response = await api(`/projects/${project.id}/workload`, { token: viewer.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const counts = expectShape(projectWorkloadOutput, response.body).items.map(({ userId, role, ...figures }) => ({
      userId,
      role,
      ...figures,
    }));
    expect(counts).toEqual([
      { userId: owner.user.id, role: "owner", name: "Test User", active: 1, pending: 1, completed: 1, overdue: 1 },
      { userId: admin.user.id, role: "admin", name: "Test User", active: 1, pending: 0, completed: 0, overdue: 1 },
      { userId: member.user.id, role: "member", name: "Test User", active: 0, pending: 0, completed: 0, overdue: 0 },
      { userId: viewer.user.id, role: "viewer", name: "Test User", active: 0, pending: 0, completed: 0, overdue: 0 },
    ]);
  });
});

describe("a stranger", () => {
  test("gets 404 on every project route, the same as for a project that does not exist, and changes nothing", async () => {
    const { project, owner, member } = await projectOfFour();
    const stranger = await registerUser(server);
    const calls: [string, string, unknown?][] = [
      ["GET", ""],
      ["PATCH", "", { name: "Taken over" }],
      ["DELETE", ""],
      ["GET", "/members"],
      ["GET", "/workload"],
      ["POST", "/members", { userId: stranger.user.id, role: "owner" }],
      ["PATCH", `/members/${member.user.id}`, { role: "viewer" }],
      ["DELETE", `/members/${member.user.id}`],
      ["POST", "/leave"],
    ];
    for (const [method, suffix, json] of calls) {
      const where = `${method} /projects/{id}${suffix}`;
      const response = await api(`/projects/${project.id}${suffix}`, { method, token: stranger.token, json });
      const problem = expectProblem(response, 404, "not_found");
      expect(JSON.stringify(problem), where).not.toContain("Launch");
      expect(JSON.stringify(problem), where).not.toContain(owner.email);
      const missing = await api(`/projects/${MISSING_ID}${suffix}`, { method, token: stranger.token, json });
      expect(expectProblem(missing, 404, "not_found").detail, where).toBe(problem.detail);
    }
    expect(await myProjects(stranger)).toEqual([]);
    const roles = await rolesIn(project.id, owner);
    expect(Object.keys(roles)).toHaveLength(4);
    expect(roles).toMatchObject({ [owner.user.id]: "owner", [member.user.id]: "member" });
    expect(roles).not.toHaveProperty(stranger.user.id);
    expect((await api(`/projects/${project.id}`, { token: owner.token })).body).toMatchObject({
      name: "Launch",
      archived: false,
    });
  });

  test("a malformed project id is a 400 naming /id", async () => {
    const owner = await registerUser(server);
    const problem = expectProblem(await api("/projects/not-an-id/members", { token: owner.token }), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "path", pointer: "/id" })]);
  });
});

describe("the project's tasks", () => {
  let owner: User;
  let member: User;
  let viewer: User;
  let stranger: User;
  let projectId: string;
  let taskId: string;
  beforeAll(async () => {
    [owner, member, viewer, stranger] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    projectId = (await createProject(owner, { name: "Shared work" })).id;
    taskId = (await createTask(server, owner.token, { title: "Project task", projectId })).id;
  });

  test("a member added sees the owner's task at once (list MISS, task, filter) and may edit it", async () => {
    // The member's (empty) list is cached before they join.
    expect(await taskList(member)).toMatchObject({ items: [] });
    expect((await taskList(member)).cache).toBe("HIT");

    await addMember(owner, projectId, member);
    const after = await taskList(member);
    expect(after.cache).toBe("MISS");
    expect(ids(after)).toEqual([taskId]);
    expect(after.items[0]).toMatchObject({ ownerId: owner.user.id, projectId });
    expect(ids(await taskList(member, `?projectId=${projectId}`))).toEqual([taskId]);
    expect((await server.request(`/tasks/${taskId}`, { token: member.token })).status).toBe(200);

    const edited = await server.request(`/tasks/${taskId}`, {
      method: "PATCH",
      token: member.token,
      json: { title: "Edited by a member" },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(edited.body).toMatchObject({ title: "Edited by a member", ownerId: owner.user.id });
    expect((await server.request(`/tasks/${taskId}`, { token: owner.token })).body.title).toBe("Edited by a member");

    // The project counts it.
    expect((await api(`/projects/${projectId}`, { token: member.token })).body.tasks).toEqual({ total: 1, open: 1 });
  });

  test("a viewer reads the task but may not edit it (403) nor put a task in the project (400 /projectId)", async () => {
    await taskList(viewer);
    await addMember(owner, projectId, viewer, "viewer");
    expect(await taskList(viewer)).toMatchObject({ cache: "MISS", items: [expect.objectContaining({ id: taskId })] });
    expect((await server.request(`/tasks/${taskId}`, { token: viewer.token })).status).toBe(200);

    expectProblem(
      await server.request(`/tasks/${taskId}`, { method: "PATCH", token: viewer.token, json: { title: "Viewer was here" } }),
      403,
      "forbidden",
    );
    const refused = expectProblem(
      await server.request("/tasks", { token: viewer.token, json: { title: "Viewer's", projectId } }),
      400,
      "validation_failed",
    );
    expect(refused.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/projectId" })]);
    expect((await server.request(`/tasks/${taskId}`, { token: owner.token })).body.title).not.toBe("Viewer was here");

    // Made a member, the same person may edit.
    expect((await setRole(owner, projectId, viewer, "member")).status).toBe(200);
    expect(
      (await server.request(`/tasks/${taskId}`, { method: "PATCH", token: viewer.token, json: { priority: "high" } })).status,
    ).toBe(200);
    expect((await setRole(owner, projectId, viewer, "viewer")).status).toBe(200);
    expectProblem(
      await server.request(`/tasks/${taskId}`, { method: "PATCH", token: viewer.token, json: { priority: "low" } }),
      403,
      "forbidden",
    );
  });

  test("a stranger neither sees the task nor can put one in the project", async () => {
    expect(ids(await taskList(stranger))).not.toContain(taskId);
    expectProblem(await server.request(`/tasks/${taskId}`, { token: stranger.token }), 404, "not_found");
    const refused = expectProblem(
      await server.request("/tasks", { token: stranger.token, json: { title: "Sneaky", projectId } }),
      400,
      "validation_failed",
    );
    expect(refused.errors).toEqual([expect.objectContaining({ pointer: "/projectId" })]);
  });

  test("removed or leaving, an ex-member stops seeing the tasks they saw only through the project", async () => {
    const [lead, removed, leaver] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const project = await createProject(lead, { name: "Temporary" });
    await addMember(lead, project.id, removed);
    await addMember(lead, project.id, leaver, "viewer");
    const leads = await createTask(server, lead.token, { title: "Lead's", projectId: project.id });
    const own = await createTask(server, removed.token, { title: "Removed's own", projectId: project.id });
    expect(ids(await taskList(removed))).toEqual(expect.arrayContaining([leads.id, own.id]));
    expect(ids(await taskList(leaver))).toEqual(expect.arrayContaining([leads.id, own.id]));

    expect((await remove(lead, project.id, removed)).status).toBe(204);
    expectProblem(await server.request(`/tasks/${leads.id}`, { token: removed.token }), 404, "not_found");
    // Their own task stays theirs (still in the project, which the lead still sees).
    expect(await taskList(removed)).toMatchObject({
      cache: "MISS",
      items: [expect.objectContaining({ id: own.id, projectId: project.id })],
    });
    expect(ids(await taskList(lead))).toEqual(expect.arrayContaining([leads.id, own.id]));

    expect((await leave(leaver, project.id)).status).toBe(204);
    expect(await taskList(leaver)).toMatchObject({ cache: "MISS", items: [] });
    expectProblem(await server.request(`/tasks/${leads.id}`, { token: leaver.token }), 404, "not_found");

    // Added again, the task is back at once.
    await addMember(lead, project.id, leaver, "viewer");
    expect(ids(await taskList(leaver))).toContain(leads.id);
  });
});

describe("GET /openapi.json", () => {
  test("documents the project routes with their rules, pointing to invitations for people without an account", async () => {
    const document = (await server.request("/api/v1/openapi.json")).body;
    const paths = document.paths as Record<string, Record<string, { description: string; responses: Record<string, unknown> }>>;
    expect(
      Object.keys(paths)
        .filter((path) => path.startsWith("/api/v1/projects"))
        .sort(),
    ).toEqual([
      "/api/v1/projects",
      "/api/v1/projects/{id}",
      "/api/v1/projects/{id}/board-columns",
      "/api/v1/projects/{id}/board-columns/{columnId}",
      "/api/v1/projects/{id}/leave",
      "/api/v1/projects/{id}/members",
      "/api/v1/projects/{id}/members/{userId}",
      "/api/v1/projects/{id}/workload",
    ]);
    expect(paths["/api/v1/projects/{id}/members"]!.post!.description).toMatch(/POST \/invitations/);
    expect(Object.keys(paths["/api/v1/projects/{id}/members/{userId}"]!.delete!.responses)).toEqual(
      expect.arrayContaining(["403", "404", "409"]),
    );
  });
});
