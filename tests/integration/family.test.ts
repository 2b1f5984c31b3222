import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { familyMemberOutput, familyOutput } from "../../lib/family/schema";
import { groupListOutput, groupOutput, groupScheduleOutput } from "../../lib/groups/schema";
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

/* The family workspace: a household sharing task groups (lib/family), and what that does to /groups and /tasks. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
type User = Awaited<ReturnType<typeof registerUser>>;

/** Family paths live under /api/v1 only. */
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function createFamily(parent: User, name = "The Novaks") {
  const response = await api("/family", { token: parent.token, json: { name } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(familyOutput, response.body);
}

async function getFamily(who: User, query = "") {
  const response = await api(`/family${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(familyOutput, response.body);
}

/** Invites `who` to `by`'s family, and `who` accepts (nobody joins a family without saying yes). */
async function addMember(by: User, who: User, role: "parent" | "child") {
  const response = await joinAs(server, "/family/members", by, who, { role });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(familyMemberOutput, response.body);
}

const setRole = (by: User, who: User, role: string) =>
  api(`/family/members/${who.user.id}`, { method: "PATCH", token: by.token, json: { role } });
const remove = (by: User, who: User) => api(`/family/members/${who.user.id}`, { method: "DELETE", token: by.token });
const leave = (who: User) => api("/family/leave", { method: "POST", token: who.token });
const share = (who: User, groupId: string, query = "") =>
  api(`/family/groups/${groupId}${query}`, { method: "PUT", token: who.token });
const unshare = (who: User, groupId: string) => api(`/family/groups/${groupId}`, { method: "DELETE", token: who.token });

async function groupsOf(who: User, query = "") {
  const response = await server.request(`/groups${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(groupListOutput, response.body);
}

async function listTasks(who: User) {
  const response = await server.request("/tasks", { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...expectShape(taskListOutput, response.body), cache: response.headers.get("x-cache") };
}

const titles = (page: { items: { title: string }[] }) => page.items.map((task) => task.title).sort();
const groupOfTask = async (taskId: string) =>
  (await server.sql<{ group_id: string }>("select group_id from tasks where id = $1", [taskId]))[0]?.group_id;
const eventsAbout = (type: string, userId: string) =>
  server.sql<{ actor_id: string; audience: string[]; data: Record<string, unknown> }>(
    "select actor_id, audience, data from domain_events where type = $1 and data->>'userId' = $2 order by id",
    [type, userId],
  );

/** A family with a parent, a second parent and a child, and the parent's first group shared with it. */
async function household() {
  const [parent, partner, child] = [
    await registerUser(server, { name: "Petra" }),
    await registerUser(server, { name: "Pavel" }),
    await registerUser(server, { name: "Kid" }),
  ];
  await createFamily(parent);
  await addMember(parent, partner, "parent");
  await addMember(parent, child, "child");
  const [parentGroup] = (await groupsOf(parent)).items;
  expect((await share(parent, parentGroup!.id)).status).toBe(200);
  return { parent, partner, child, groupId: parentGroup!.id };
}

describe("POST /family and GET /family", () => {
  test("creates a workspace whose creator is its first parent; members join by accepting, invited by email and by id", async () => {
    const parent = await registerUser(server, { name: "Petra" });
    const partner = await registerUser(server, { name: "Pavel" });
    const child = await registerUser(server, { name: "Kid" });
    const created = await createFamily(parent, "  The Novaks  ");
    expect(created).toMatchObject({ name: "The Novaks", role: "parent", createdBy: parent.user.id, groups: [] });
    expect(created.members.map((member) => [member.userId, member.role])).toEqual([[parent.user.id, "parent"]]);

    // Inviting by email makes nobody a member: it is an invitation, which the child sees in the app.
    const byEmail = await api("/family/members", {
      token: parent.token,
      json: { email: ` ${child.email.toUpperCase()} `, role: "child" },
    });
    expect(byEmail.status, JSON.stringify(byEmail.body)).toBe(202);
    expect(byEmail.body.invitation).toMatchObject({
      kind: "family",
      familyId: created.id,
      familyRole: "child",
      status: "pending",
    });
    expect((await getFamily(parent)).members).toHaveLength(1);
    expectProblem(await api("/family", { token: child.token }), 404, "not_found");
    const received = await api("/invitations/received", { token: child.token });
    expect(received.body.items).toEqual([
      expect.objectContaining({ kind: "family", familyName: "The Novaks", familyRole: "child", inviterName: "Petra" }),
    ]);
    const accepted = await api(`/invitations/${byEmail.body.invitation.id}/accept`, { method: "POST", token: child.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body).toEqual({ taskId: null, projectId: null, familyId: created.id, teamId: null });
    expect(await addMember(parent, partner, "parent")).toMatchObject({ userId: partner.user.id, name: "Pavel", role: "parent" });

    // Every member sees the same workspace, with their own role.
    const seenByChild = await getFamily(child);
    expect(seenByChild).toMatchObject({ id: created.id, name: "The Novaks", role: "child" });
    expect(seenByChild.members.map((member) => [member.name, member.role])).toEqual([
      ["Petra", "parent"],
      ["Kid", "child"],
      ["Pavel", "parent"],
    ]);
    expect((await getFamily(partner)).role).toBe("parent");

    const added = await eventsAbout("family.member_added", child.user.id);
    expect(added).toHaveLength(1);
    expect(added[0]).toMatchObject({ actor_id: child.user.id, data: { familyId: created.id, role: "child" } });
    expect(added[0]!.audience.sort()).toEqual([parent.user.id, child.user.id].sort());
  });

  test("a relative is invited by link and joins without an account in advance: registering on the invitation", async () => {
    const parent = await registerUser(server, { name: "Petra" });
    const family = await createFamily(parent, "The Dvořáks");
    const invited = await api("/invitations", {
      token: parent.token,
      json: { familyId: family.id, familyRole: "child", name: "Grandma" },
    });
    expect(invited.status, JSON.stringify(invited.body)).toBe(201);
    expect(invited.body.text).toContain("The Dvořáks");
    const preview = await api(`/invitations/preview/${invited.body.token}`);
    expect(preview.body).toMatchObject({
      kind: "family",
      familyName: "The Dvořáks",
      familyRole: "child",
      inviteeName: "Grandma",
    });

    const email = `grandma-${Date.now()}@example.com`;
    const joined = await api(`/invite/${invited.body.token}/accept`, { json: { email, password: "a long enough password" } });
    expect(joined.status, JSON.stringify(joined.body)).toBe(201);
    expect(joined.body).toMatchObject({ familyId: family.id, user: { email, name: "Grandma" } });
    const seen = await getFamily({ token: joined.body.token } as User);
    expect(seen.members.map((member) => [member.name, member.role])).toEqual([
      ["Petra", "parent"],
      ["Grandma", "child"],
    ]);
  });

  test("inviting answers the same for an email with an account and one without; a member of another family must leave it to accept", async () => {
    const [parent, other, member] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    await createFamily(parent, "First");
    await addMember(parent, member, "child");
    expectProblem(await api("/family", { token: parent.token, json: { name: "Second" } }), 409, "conflict");
    expectProblem(await api("/family", { token: member.token, json: { name: "Mine" } }), 409, "conflict");

    await createFamily(other, "Other");
    const known = await api("/family/members", { token: other.token, json: { email: member.email, role: "parent" } });
    const unknown = await api("/family/members", {
      token: other.token,
      json: { email: `nobody-${Date.now()}@example.com`, role: "parent" },
    });
    for (const answer of [known, unknown]) {
      expect(answer.status).toBe(202);
      expect(Object.keys(answer.body).sort()).toEqual(["invitation", "links", "text", "token", "url"]);
    }
    // The invitation waits for the member, who belongs to a family already: accepting is a 409 until they leave.
    const refused = expectProblem(
      await api(`/invitations/${known.body.invitation.id}/accept`, { method: "POST", token: member.token }),
      409,
      "conflict",
    );
    expect(refused.detail).toMatch(/another family/);
    // A current member of the parent's own family is a 409 at once (the parent sees them already).
    expectProblem(
      await api("/family/members", { token: parent.token, json: { userId: member.user.id, role: "parent" } }),
      409,
      "conflict",
    );
    expect((await getFamily(member)).name).toBe("First");
    expect((await getFamily(other)).members).toHaveLength(1);
    // Once they left, the same invitation works.
    expect((await leave(member)).status).toBe(204);
    expect((await api(`/invitations/${known.body.invitation.id}/accept`, { method: "POST", token: member.token })).status).toBe(
      200,
    );
    expect((await getFamily(member)).name).toBe("Other");
  });

  test("GET /family is a 404 for someone with no workspace", async () => {
    const loner = await registerUser(server);
    expectProblem(await api("/family", { token: loner.token }), 404, "not_found");
    expectProblem(await api("/family"), 401, "unauthenticated");
  });

  test("validation errors name the field, and change nothing", async () => {
    const parent = await registerUser(server);
    const cases: [unknown, string[]][] = [
      [{}, ["/name"]],
      [{ name: "   " }, ["/name"]],
      [{ name: "x".repeat(101) }, ["/name"]],
      [{ name: 7 }, ["/name"]],
      [{ name: "Ok", colour: "red" }, ["/colour"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await api("/family", { token: parent.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
    }
    expectProblem(await api("/family", { token: parent.token }), 404, "not_found");
    await createFamily(parent, "x".repeat(100));

    const someone = await registerUser(server);
    const memberCases: [unknown, string[]][] = [
      [{ role: "child" }, ["/userId"]],
      [{ userId: someone.user.id }, ["/role"]],
      [{ userId: someone.user.id, role: "grandma" }, ["/role"]],
      [{ userId: "nope", role: "child" }, ["/userId"]],
      [{ email: "not-an-email", role: "child" }, ["/email"]],
      [{ userId: someone.user.id, email: someone.email, role: "child" }, ["/email"]],
      [{ userId: MISSING_ID, role: "child" }, ["/userId"]],
    ];
    for (const [json, pointers] of memberCases) {
      const problem = expectProblem(await api("/family/members", { token: parent.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
    }
    const badRole = expectProblem(await setRole(parent, parent, "boss"), 400, "validation_failed");
    expect(badRole.errors?.[0]).toMatchObject({ in: "body", pointer: "/role", detail: expect.stringContaining("parent, child") });
    const badId = expectProblem(
      await api("/family/members/123", { method: "DELETE", token: parent.token }),
      400,
      "validation_failed",
    );
    expect(badId.errors).toEqual([expect.objectContaining({ in: "path", pointer: "/userId" })]);
    const badGroup = expectProblem(
      await api("/family/groups/abc", { method: "PUT", token: parent.token }),
      400,
      "validation_failed",
    );
    expect(badGroup.errors).toEqual([expect.objectContaining({ in: "path", pointer: "/groupId" })]);
    expect((await getFamily(parent)).members).toHaveLength(1);
  });
});

describe("roles", () => {
  test("a child cannot add, remove or change roles (403), nor rename or delete the workspace", async () => {
    const { parent, partner, child } = await household();
    const newcomer = await registerUser(server);
    expectProblem(
      await api("/family/members", { token: child.token, json: { userId: newcomer.user.id, role: "child" } }),
      403,
      "forbidden",
    );
    expectProblem(await setRole(child, child, "parent"), 403, "forbidden");
    expectProblem(await setRole(child, partner, "child"), 403, "forbidden");
    const removal = expectProblem(await remove(child, partner), 403, "forbidden");
    expect(removal.detail).toMatch(/Children cannot remove others/);
    expectProblem(await api("/family", { method: "PATCH", token: child.token, json: { name: "Kid's house" } }), 403, "forbidden");
    expectProblem(await api("/family", { method: "DELETE", token: child.token }), 403, "forbidden");

    const family = await getFamily(parent);
    expect(family.name).toBe("The Novaks");
    expect(family.members.map((member) => member.role)).toEqual(["parent", "parent", "child"]);
  });

  test("a parent renames the workspace, changes roles and removes members", async () => {
    const { parent, partner, child } = await household();
    const renamed = await api("/family", { method: "PATCH", token: partner.token, json: { name: " Home " } });
    expect(renamed.status).toBe(200);
    expect(expectShape(familyOutput, renamed.body)).toMatchObject({ name: "Home", role: "parent" });

    const promoted = await setRole(parent, child, "parent");
    expect(promoted.status).toBe(200);
    expect(expectShape(familyMemberOutput, promoted.body)).toMatchObject({ userId: child.user.id, role: "parent" });
    expect((await setRole(child, partner, "child")).body.role).toBe("child");
    expect((await getFamily(partner)).role).toBe("child");

    expect((await remove(parent, partner)).status).toBe(204);
    expectProblem(await api("/family", { token: partner.token }), 404, "not_found");
    expect((await getFamily(parent)).members.map((member) => member.userId)).toEqual([parent.user.id, child.user.id]);
    expectProblem(await remove(parent, partner), 404, "not_found");
    expectProblem(await setRole(parent, partner, "parent"), 404, "not_found");

    const removed = await eventsAbout("family.member_removed", partner.user.id);
    expect(removed).toHaveLength(1);
    expect(removed[0]!.audience).toContain(partner.user.id);
  });

  test("a stranger gets 404 on GET /family and on every member and group route", async () => {
    const { parent, child, groupId } = await household();
    const stranger = await registerUser(server);
    const token = stranger.token;
    const attempts = [
      api("/family", { token }),
      api("/family", { method: "PATCH", token, json: { name: "Mine" } }),
      api("/family", { method: "DELETE", token }),
      api("/family/members", { token, json: { userId: stranger.user.id, role: "parent" } }),
      api(`/family/members/${child.user.id}`, { method: "PATCH", token, json: { role: "parent" } }),
      api(`/family/members/${child.user.id}`, { method: "DELETE", token }),
      api("/family/leave", { method: "POST", token }),
      api(`/family/groups/${groupId}`, { method: "PUT", token }),
      api(`/family/groups/${groupId}`, { method: "DELETE", token }),
    ];
    for (const response of await Promise.all(attempts)) {
      const problem = expectProblem(response, 404, "not_found");
      expect(JSON.stringify(problem)).not.toContain("Novaks");
    }
    const family = await getFamily(parent);
    expect(family.members).toHaveLength(3);
    expect(family.groups.map((group) => group.id)).toEqual([groupId]);
  });

  test("the last parent cannot leave while others remain (409), nor become a child; the last member leaving deletes the workspace", async () => {
    const parent = await registerUser(server);
    const child = await registerUser(server);
    const family = await createFamily(parent);
    await addMember(parent, child, "child");
    const refused = expectProblem(await leave(parent), 409, "conflict");
    expect(refused.detail).toMatch(/last parent/);
    expectProblem(await setRole(parent, parent, "child"), 409, "conflict");
    expectProblem(await remove(parent, parent), 409, "conflict");
    expect((await getFamily(parent)).members).toHaveLength(2);

    expect((await leave(child)).status).toBe(204);
    expectProblem(await api("/family", { token: child.token }), 404, "not_found");
    expect((await leave(parent)).status).toBe(204);
    expect(await server.sql("select 1 from families where id = $1", [family.id])).toEqual([]);
    await createFamily(parent, "Fresh start");
  });
});

describe("shared groups", () => {
  test("the child sees the shared group's tasks, adds one, ticks one off, and cannot delete the group; a parent can", async () => {
    const parent = await registerUser(server, { name: "Petra" });
    const child = await registerUser(server, { name: "Kid" });
    await createFamily(parent);
    await addMember(parent, child, "child");
    const [parentsGroup] = (await groupsOf(parent)).items;
    const chore = await createTask(server, parent.token, { title: "Take out the trash", groupId: parentsGroup!.id });
    const secret = await createTask(server, parent.token, {
      title: "Buy presents",
      groupId: (await groupsOf(parent)).items[1]!.id,
    });

    // The child's (empty) list is cached ...
    expect(titles(await listTasks(child))).toEqual([]);
    expect((await listTasks(child)).cache).toBe("HIT");
    expectProblem(await server.request(`/tasks/${chore.id}`, { token: child.token }), 404, "not_found");

    // ... and sharing drops it.
    const shared = await share(parent, parentsGroup!.id, "?lang=cs");
    expect(shared.status, JSON.stringify(shared.body)).toBe(200);
    expect(expectShape(groupOutput, shared.body)).toMatchObject({
      id: parentsGroup!.id,
      name: "Osobní",
      own: true,
      familyId: expect.any(String),
    });
    const afterShare = await listTasks(child);
    expect(afterShare.cache).toBe("MISS");
    expect(titles(afterShare)).toEqual(["Take out the trash"]);
    expect((await server.request(`/tasks/${secret.id}`, { token: child.token })).status).toBe(404);

    // GET /groups lists the shared group after the child's own, marked, with its name in the child's language.
    const childGroups = await groupsOf(child, "?lang=ru");
    expect(childGroups.items).toHaveLength(9);
    expect(childGroups.items.slice(0, 8).every((group) => group.own && group.ownerId === child.user.id)).toBe(true);
    expect(childGroups.items[8]).toMatchObject({ id: parentsGroup!.id, own: false, ownerId: parent.user.id, name: "Личное" });
    expect((await server.request(`/groups/${parentsGroup!.id}`, { token: child.token })).body).toMatchObject({ own: false });
    const family = await getFamily(child);
    expect(family.groups.map((group) => [group.id, group.own])).toEqual([[parentsGroup!.id, false]]);

    // The child works in it.
    const childsTask = await createTask(server, child.token, { title: "Feed the cat", groupId: parentsGroup!.id });
    expect(childsTask).toMatchObject({ ownerId: child.user.id, groupId: parentsGroup!.id });
    const done = await server.request(`/tasks/${chore.id}`, { method: "PATCH", token: child.token, json: { status: "done" } });
    expect(done.status, JSON.stringify(done.body)).toBe(200);
    expect(done.body.status).toBe("done");
    expect(titles(await listTasks(parent))).toEqual(["Buy presents", "Feed the cat", "Take out the trash"]);

    // Deleting the shared group: not the child's to do.
    const refused = expectProblem(
      await server.request(`/groups/${parentsGroup!.id}?deleteTasks=true`, { method: "DELETE", token: child.token }),
      403,
      "forbidden",
    );
    expect(refused.detail).toMatch(/Children cannot delete shared groups/);
    expect(await groupOfTask(chore.id)).toBe(parentsGroup!.id);

    // A second parent may: their own tasks would go, everyone else's go home.
    const partner = await registerUser(server);
    await addMember(parent, partner, "parent");
    const response = await server.request(`/groups/${parentsGroup!.id}?deleteTasks=true`, {
      method: "DELETE",
      token: partner.token,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expect(await server.sql("select 1 from task_groups where id = $1", [parentsGroup!.id])).toEqual([]);
    const parentsHome = (await groupsOf(parent)).items.find((group) => group.own)!.id;
    const childsHome = (await groupsOf(child)).items[0]!.id;
    expect(await groupOfTask(chore.id)).toBe(parentsHome);
    expect(await groupOfTask(childsTask.id)).toBe(childsHome);
    expect(titles(await listTasks(child))).toEqual(["Feed the cat"]);
  });

  test("unsharing moves the child's task into the child's own first group; the parent's tasks are gone from the child's view", async () => {
    const { parent, child, groupId } = await household();
    const chore = await createTask(server, parent.token, { title: "Water the plants", groupId });
    const childsTask = await createTask(server, child.token, { title: "Homework", groupId });
    expect(titles(await listTasks(child))).toEqual(["Homework", "Water the plants"]);
    // The child's first group is archived: their first active group is the second one.
    const [childsFirst, childsSecond] = (await groupsOf(child)).items;
    await server.request(`/groups/${childsFirst!.id}`, { method: "PATCH", token: child.token, json: { archived: true } });

    // A child may not stop sharing a parent's group.
    expectProblem(await unshare(child, groupId), 403, "forbidden");
    expect((await unshare(parent, groupId)).status).toBe(204);

    expect(await groupOfTask(childsTask.id)).toBe(childsSecond!.id);
    expect(await groupOfTask(chore.id)).toBe(groupId);
    const childsList = await listTasks(child);
    expect(childsList.cache).toBe("MISS");
    expect(titles(childsList)).toEqual(["Homework"]);
    expectProblem(await server.request(`/tasks/${chore.id}`, { token: child.token }), 404, "not_found");
    expect((await groupsOf(child)).items.map((group) => group.id)).not.toContain(groupId);
    expect((await getFamily(child)).groups).toEqual([]);
    expectProblem(await unshare(parent, groupId), 404, "not_found");
    // Nothing else changed: the task is still the child's, and the parent still sees their own.
    expect((await server.request(`/tasks/${childsTask.id}`, { token: child.token })).body.ownerId).toBe(child.user.id);
    expect(titles(await listTasks(parent))).toEqual(["Water the plants"]);
  });

  test("only your own groups can be shared: another user's, or one shared with you, is a 404", async () => {
    const { parent, child, groupId } = await household();
    const stranger = await registerUser(server);
    const strangersGroup = (await groupsOf(stranger)).items[0]!;
    expectProblem(await share(parent, strangersGroup.id), 404, "not_found");
    expectProblem(await share(child, groupId), 404, "not_found");
    expectProblem(await share(parent, MISSING_ID), 404, "not_found");
    expect(await server.sql("select family_id from task_groups where id = $1", [strangersGroup.id])).toEqual([
      { family_id: null },
    ]);

    // A child shares their own group, and may stop sharing it; sharing twice changes nothing.
    const childsGroup = (await groupsOf(child)).items[3]!;
    expect((await share(child, childsGroup.id)).status).toBe(200);
    expect((await share(child, childsGroup.id)).body).toMatchObject({ id: childsGroup.id, own: true });
    expect((await getFamily(parent)).groups.map((group) => group.id)).toEqual([groupId, childsGroup.id]);
    expect((await unshare(child, childsGroup.id)).status).toBe(204);
    expect((await getFamily(parent)).groups.map((group) => group.id)).toEqual([groupId]);
  });

  test("renaming, archiving and scheduling a shared group stay with its owner (403); its schedule is readable", async () => {
    const { parent, child, groupId } = await household();
    const schedule = { timeZones: ["Europe/Prague"], locations: [] };
    expect(
      (await server.request(`/groups/${groupId}/schedule`, { method: "PUT", token: parent.token, json: schedule })).status,
    ).toBe(200);

    const read = await server.request(`/groups/${groupId}/schedule`, { token: child.token });
    expect(read.status).toBe(200);
    expect(expectShape(groupScheduleOutput, read.body)).toEqual({ groupId, ...schedule });
    expectProblem(
      await server.request(`/groups/${groupId}`, { method: "PATCH", token: child.token, json: { names: { en: "Mine" } } }),
      403,
      "forbidden",
    );
    expectProblem(
      await server.request(`/groups/${groupId}`, { method: "PATCH", token: child.token, json: { archived: true } }),
      403,
      "forbidden",
    );
    expectProblem(
      await server.request(`/groups/${groupId}/schedule`, {
        method: "PUT",
        token: child.token,
        json: { timeZones: [], locations: [] },
      }),
      403,
      "forbidden",
    );
    expect((await server.request(`/groups/${groupId}?lang=en`, { token: parent.token })).body).toMatchObject({
      name: "Personal",
      archived: false,
      settings: schedule,
    });
  });

  test("deleting a shared group with moveTo: tasks go to the target when their owners can use it, home otherwise", async () => {
    const { parent, child, groupId } = await household();
    const chore = await createTask(server, parent.token, { title: "Vacuum", groupId });
    const childsTask = await createTask(server, child.token, { title: "Tidy up", groupId });
    const [, parentsPrivate] = (await groupsOf(parent)).items;
    const childsHome = (await groupsOf(child)).items[0]!.id;

    // A child's own group is no target for a parent.
    const childsOwn = (await groupsOf(child)).items[1]!.id;
    expectProblem(
      await server.request(`/groups/${groupId}?moveTo=${childsOwn}`, { method: "DELETE", token: parent.token }),
      404,
      "not_found",
    );
    expectProblem(await server.request(`/groups/${groupId}`, { method: "DELETE", token: parent.token }), 409, "conflict");

    const response = await server.request(`/groups/${groupId}?moveTo=${parentsPrivate!.id}`, {
      method: "DELETE",
      token: parent.token,
    });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expect(await groupOfTask(chore.id)).toBe(parentsPrivate!.id);
    expect(await groupOfTask(childsTask.id)).toBe(childsHome);
    expect(titles(await listTasks(child))).toEqual(["Tidy up"]);
  });
});

describe("leaving and removal", () => {
  test("a member who leaves takes their tasks home, and their shared groups stop being shared", async () => {
    const { parent, partner, child, groupId } = await household();
    const partnersGroup = (await groupsOf(partner)).items[2]!;
    await share(partner, partnersGroup.id);
    const partnersTask = await createTask(server, partner.token, { title: "Pay the bills", groupId });
    const childInPartners = await createTask(server, child.token, { title: "Practice piano", groupId: partnersGroup.id });
    const partnersOwn = await createTask(server, partner.token, { title: "Plan trip", groupId: partnersGroup.id });
    expect(titles(await listTasks(child))).toEqual(["Pay the bills", "Plan trip", "Practice piano"]);

    expect((await leave(partner)).status).toBe(204);
    const partnersHome = (await groupsOf(partner)).items[0]!.id;
    const childsHome = (await groupsOf(child)).items[0]!.id;
    expect(await groupOfTask(partnersTask.id)).toBe(partnersHome);
    expect(await groupOfTask(childInPartners.id)).toBe(childsHome);
    expect(await groupOfTask(partnersOwn.id)).toBe(partnersGroup.id);
    expect(await server.sql("select family_id from task_groups where id = $1", [partnersGroup.id])).toEqual([
      { family_id: null },
    ]);

    const childsList = await listTasks(child);
    expect(childsList.cache).toBe("MISS");
    expect(titles(childsList)).toEqual(["Practice piano"]);
    expect(titles(await listTasks(partner))).toEqual(["Pay the bills", "Plan trip"]);
    expect((await getFamily(parent)).groups.map((group) => group.id)).toEqual([groupId]);

    const removed = await eventsAbout("family.member_removed", partner.user.id);
    expect(removed).toHaveLength(1);
    expect(removed[0]).toMatchObject({ actor_id: partner.user.id, data: { role: "parent", left: true } });
  });

  test("a removed child's tasks go home and they no longer see the family's", async () => {
    const { parent, child, groupId } = await household();
    const chore = await createTask(server, parent.token, { title: "Mow the lawn", groupId });
    const childsTask = await createTask(server, child.token, { title: "Clean room", groupId });
    expect((await remove(parent, child)).status).toBe(204);
    expect(await groupOfTask(childsTask.id)).toBe((await groupsOf(child)).items[0]!.id);
    expectProblem(await server.request(`/tasks/${chore.id}`, { token: child.token }), 404, "not_found");
    expect(titles(await listTasks(child))).toEqual(["Clean room"]);
    expect((await groupsOf(child)).items.every((group) => group.own)).toBe(true);
  });

  test("DELETE /family: its groups stop being shared, nothing is deleted, everyone's tasks stay with them", async () => {
    const { parent, partner, child, groupId } = await household();
    const chore = await createTask(server, parent.token, { title: "Cook dinner", groupId });
    const childsTask = await createTask(server, child.token, { title: "Set the table", groupId });
    const family = await getFamily(parent);

    expect((await api("/family", { method: "DELETE", token: partner.token })).status).toBe(204);
    for (const member of [parent, partner, child]) expectProblem(await api("/family", { token: member.token }), 404, "not_found");
    expect(await server.sql("select 1 from families where id = $1", [family.id])).toEqual([]);
    expect(await groupOfTask(chore.id)).toBe(groupId);
    expect(await groupOfTask(childsTask.id)).toBe((await groupsOf(child)).items[0]!.id);
    expect(titles(await listTasks(child))).toEqual(["Set the table"]);
    expect((await groupsOf(parent)).items.map((group) => group.id)).toContain(groupId);
    expect((await eventsAbout("family.member_removed", child.user.id))[0]).toMatchObject({ data: { familyDeleted: true } });
  });
});

describe("OpenAPI", () => {
  test("every family route is tagged Family and documents who may call it and its 403/404/409 answers", async () => {
    const document = (await server.request("/openapi.json")).body;
    const operations = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([route]) => route.startsWith("/api/v1/family"))
      .flatMap(([route, item]) =>
        Object.entries(item).map(([method, operation]) => ({ where: `${method} ${route}`, operation })),
      );
    expect(operations.map((o) => o.where).sort()).toEqual([
      "delete /api/v1/family",
      "delete /api/v1/family/groups/{groupId}",
      "delete /api/v1/family/members/{userId}",
      "get /api/v1/family",
      "patch /api/v1/family",
      "patch /api/v1/family/members/{userId}",
      "post /api/v1/family",
      "post /api/v1/family/leave",
      "post /api/v1/family/members",
      "put /api/v1/family/groups/{groupId}",
    ]);
    for (const { where, operation } of operations) {
      expect(operation.tags, where).toEqual(["Family"]);
      expect(operation.summary, where).toBeTruthy();
      expect(operation.description, where).toBeTruthy();
      expect(operation.security, where).toEqual([{ bearerAuth: [] }]);
      if (where !== "post /api/v1/family") expect(operation.responses["404"], where).toBeDefined();
    }
    expect(document.paths["/api/v1/family/leave"].post.description).toMatch(/last parent/);
    expect(document.paths["/api/v1/family/members/{userId}"].delete.responses["403"]).toBeDefined();
    expect(document.paths["/api/v1/groups/{id}"].delete.description).toMatch(/child gets 403/);
  });
});
