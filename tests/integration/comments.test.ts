import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { commentListOutput, commentOutput, mentioneeListOutput } from "../../lib/comments/schema";
import { addMember, createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

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

const post = (who: User, taskId: string, json: unknown) =>
  server.request(`/api/v1/tasks/${taskId}/comments`, { token: who.token, json });

async function comment(who: User, taskId: string, json: Record<string, unknown>) {
  const response = await post(who, taskId, json);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(commentOutput, response.body);
}

async function notificationsOf(who: User) {
  const response = await server.request("/api/v1/notifications", { token: who.token });
  expect(response.status).toBe(200);
  return response.body.items as {
    kind: string;
    title: string;
    body: string;
    taskId: string | null;
    data: Record<string, unknown>;
  }[];
}

describe("POST /tasks/{id}/comments", () => {
  test("stores the comment with its author and mentions, and lists it to everyone who sees the task", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const helper = await registerUser(server, { name: "Cyril Collaborator" });
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");

    const created = await comment(owner, task.id, {
      body: "Hi **@Cyril Collaborator**",
      mentions: [helper.user.id, helper.user.id],
    });
    expect(created).toMatchObject({
      taskId: task.id,
      author: { id: owner.user.id, name: "Olga Owner" },
      body: "Hi **@Cyril Collaborator**",
      mentions: [{ id: helper.user.id, name: "Cyril Collaborator" }],
      editedAt: null,
    });

    const listed = await server.request(`/api/v1/tasks/${task.id}/comments`, { token: helper.token });
    expect(listed.status).toBe(200);
    expect(expectShape(commentListOutput, listed.body).items.map((item) => item.id)).toEqual([created.id]);
  });

  test("404 for someone who cannot see the task, and for no task at all", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    expectProblem(await post(stranger, task.id, { body: "hello" }), 404, "not_found");
    expectProblem(await server.request(`/api/v1/tasks/${task.id}/comments`, { token: stranger.token }), 404, "not_found");
    expectProblem(await post(owner, MISSING_ID, { body: "hello" }), 404, "not_found");
  });

  test("400 naming /mentions/<index> for someone who cannot see the task", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    const response = await post(owner, task.id, { body: "hello", mentions: [owner.user.id, stranger.user.id] });
    expectProblem(response, 400, "validation_failed");
    expect(response.body.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/mentions/1" })]);
    // Nothing was stored and nobody was told.
    expect((await server.request(`/api/v1/tasks/${task.id}/comments`, { token: owner.token })).body.items).toEqual([]);
    expect(await notificationsOf(stranger)).toEqual([]);
  });

  test("400 naming the body when it is empty, too long or carries a NUL", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    for (const body of ["   ", "x".repeat(10_001), "a\u0000b"]) {
      const response = await post(owner, task.id, { body });
      expectProblem(response, 400, "validation_failed");
      expect(response.body.errors[0].pointer).toBe("/body");
    }
    const unknown = await post(owner, task.id, { body: "ok", html: "<b>" });
    expectProblem(unknown, 400, "validation_failed");
  });

  test("notifies the mentioned and the task's owner and assignees, each once, never the author", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const assignee = await registerUser(server, { name: "Ada Assignee", locale: "cs" });
    const helper = await registerUser(server, { name: "Cyril Collaborator" });
    const bystander = await registerUser(server, { name: "Bob Bystander" });
    const task = await createTask(server, owner.token, { title: "Paint the fence" });
    await joined(owner, assignee, task.id, "assign");
    await joined(owner, helper, task.id, "collaborate");
    await joined(owner, bystander, task.id, "collaborate");
    // Only the comments' notifications are counted: the accepted requests above notify the owner too, and those
    // are delivered after their own commit, so they may still be arriving.
    const commentNotes = async (who: User) => (await notificationsOf(who)).filter((note) => note.kind.startsWith("comment."));

    // The collaborator comments and mentions the assignee: the assignee is mentioned, the owner gets "commented".
    const created = await comment(helper, task.id, { body: "Which colour?", mentions: [assignee.user.id] });
    const ownerNotes = await commentNotes(owner);
    expect(ownerNotes).toHaveLength(1);
    expect(ownerNotes[0]).toMatchObject({
      kind: "comment.commented",
      title: "Cyril Collaborator commented: Paint the fence",
      body: "Which colour?",
      taskId: task.id,
      data: { commentId: created.id, taskId: task.id, authorId: helper.user.id },
    });
    const assigneeNotes = await commentNotes(assignee);
    expect(assigneeNotes).toHaveLength(1);
    expect(assigneeNotes[0]).toMatchObject({
      kind: "comment.mentioned",
      title: "Cyril Collaborator vás zmínil(a): Paint the fence",
    });
    // A collaborator neither mentioned nor responsible for the task, and the author, hear nothing.
    expect(await commentNotes(bystander)).toEqual([]);
    expect(await commentNotes(helper)).toEqual([]);
  });

  test("respects the notified person's channels for the task: none chosen, no in-app notification", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server, { name: "Cyril" });
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");
    const prefs = await server.request(`/api/v1/notification-prefs/${task.id}`, {
      method: "PUT",
      token: owner.token,
      json: { channels: [] },
    });
    expect(prefs.status, JSON.stringify(prefs.body)).toBe(200);
    await comment(helper, task.id, { body: "Done?" });
    expect((await notificationsOf(owner)).filter((note) => note.kind.startsWith("comment."))).toEqual([]);
  });

  test("publishes comment.created to everyone who sees the task, with the comment, in the change's transaction", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server);
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");
    const created = await comment(owner, task.id, { body: "Event me" });
    const events = await server.sql<{ type: string; audience: string[]; data: { comment: { id: string; body: string } } }>(
      "select type, audience, data from domain_events where task_id = $1 and type like 'comment.%'",
      [task.id],
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.type).toBe("comment.created");
    expect([...events[0]!.audience].sort()).toEqual([owner.user.id, helper.user.id].sort());
    expect(events[0]!.data.comment).toMatchObject({ id: created.id, body: "Event me" });
  });

  test("webhooks can subscribe to the comment events", async () => {
    const owner = await registerUser(server);
    const response = await server.request("/api/v1/webhooks", {
      token: owner.token,
      json: { url: "https://example.com/hook", events: ["comment.created", "comment.updated", "comment.deleted"] },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
  });
});

describe("GET /tasks/{id}/comments", () => {
  test("pages oldest first with nextCursor; a bad cursor is a 400 naming it", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const ids: string[] = [];
    for (const body of ["one", "two", "three"]) ids.push((await comment(owner, task.id, { body })).id);
    const first = await server.request(`/api/v1/tasks/${task.id}/comments?limit=2`, { token: owner.token });
    expect(first.body.items.map((item: { id: string }) => item.id)).toEqual(ids.slice(0, 2));
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await server.request(
      `/api/v1/tasks/${task.id}/comments?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`,
      { token: owner.token },
    );
    expect(second.body).toEqual({ items: [expect.objectContaining({ id: ids[2] })], nextCursor: null });
    const bad = await server.request(`/api/v1/tasks/${task.id}/comments?cursor=nonsense`, { token: owner.token });
    expectProblem(bad, 400, "validation_failed");
    expect(bad.body.errors[0].pointer).toBe("/cursor");
  });
});

describe("GET /tasks/{id}/mentionees", () => {
  const mentionees = (who: User, taskId: string) => server.request(`/api/v1/tasks/${taskId}/mentionees`, { token: who.token });

  test("everyone who can see the task but the caller: its people, its team's, project's and family's members", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const helper = await registerUser(server, { name: "Cyril Collaborator" });
    const teammate = await registerUser(server, { name: "Tereza Teammate" });
    const colleague = await registerUser(server, { name: "Petr Project" });
    const partner = await registerUser(server, { name: "Fanny Family" });
    const stranger = await registerUser(server, { name: "Sam Stranger" });

    const team = await server.request("/api/v1/user-groups", { token: owner.token, json: { name: "Painters" } });
    expect((await addMember(server, `/user-groups/${team.body.id}/members`, owner, teammate)).status).toBe(201);
    const project = await server.request("/api/v1/projects", { token: owner.token, json: { name: "House" } });
    expect((await addMember(server, `/projects/${project.body.id}/members`, owner, colleague)).status).toBe(201);
    expect((await server.request("/api/v1/family", { token: owner.token, json: { name: "Home" } })).status).toBe(201);
    expect((await addMember(server, "/family/members", owner, partner, { role: "parent" })).status).toBe(201);
    const [group] = (await server.request("/groups", { token: owner.token })).body.items as { id: string }[];
    expect((await server.request(`/api/v1/family/groups/${group!.id}`, { method: "PUT", token: owner.token })).status).toBe(200);

    const task = await createTask(server, owner.token, {
      groupId: group!.id,
      userGroupId: team.body.id,
      projectId: project.body.id,
    });
    await joined(owner, helper, task.id, "collaborate");

    const forOwner = await mentionees(owner, task.id);
    expect(forOwner.status, JSON.stringify(forOwner.body)).toBe(200);
    expect(expectShape(mentioneeListOutput, forOwner.body).items).toEqual([
      { id: helper.user.id, name: "Cyril Collaborator" },
      { id: partner.user.id, name: "Fanny Family" },
      { id: colleague.user.id, name: "Petr Project" },
      { id: teammate.user.id, name: "Tereza Teammate" },
    ]);
    // The teammate sees the owner offered, not themself.
    const forTeammate = expectShape(mentioneeListOutput, (await mentionees(teammate, task.id)).body).items;
    expect(forTeammate.map((person) => person.name)).toEqual([
      "Cyril Collaborator",
      "Fanny Family",
      "Olga Owner",
      "Petr Project",
    ]);

    // The list and the check of `mentions` agree: everyone offered can be mentioned, the stranger cannot.
    const mentioned = await comment(teammate, task.id, { body: "All of you", mentions: forTeammate.map((person) => person.id) });
    expect(mentioned.mentions.map((person) => person.name).sort()).toEqual(forTeammate.map((person) => person.name));
    expectProblem(await post(teammate, task.id, { body: "You too", mentions: [stranger.user.id] }), 400, "validation_failed");
  });

  test("404 for someone who cannot see the task, and for no task at all", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    expectProblem(await mentionees(stranger, task.id), 404, "not_found");
    expectProblem(await mentionees(owner, MISSING_ID), 404, "not_found");
    expect((await mentionees(owner, task.id)).body).toEqual({ items: [] });
  });
});

describe("PATCH /comments/{id}", () => {
  test("its author edits it, newly mentioned people are notified, comment.updated is published", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server, { name: "Cyril" });
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");
    const created = await comment(owner, task.id, { body: "Draft" });
    const edited = await server.request(`/api/v1/comments/${created.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { body: "Final, @Cyril", mentions: [helper.user.id] },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect(expectShape(commentOutput, edited.body)).toMatchObject({ body: "Final, @Cyril", editedAt: expect.any(String) });
    expect((await notificationsOf(helper)).filter((note) => note.kind === "comment.mentioned")).toHaveLength(1);
    // The same mention again notifies nobody twice.
    await server.request(`/api/v1/comments/${created.id}`, { method: "PATCH", token: owner.token, json: { body: "Final!" } });
    expect((await notificationsOf(helper)).filter((note) => note.kind === "comment.mentioned")).toHaveLength(1);
    const types = await server.sql<{ type: string }>(
      "select type from domain_events where task_id = $1 and type like 'comment.%' order by id",
      [task.id],
    );
    expect(types.map((row) => row.type)).toEqual(["comment.created", "comment.updated", "comment.updated"]);
  });

  test("403 for others who see it, 404 for strangers (also with bad mentions), 400 for an empty patch", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");
    const created = await comment(helper, task.id, { body: "Mine" });
    const patch = (who: User, json: unknown) =>
      server.request(`/api/v1/comments/${created.id}`, { method: "PATCH", token: who.token, json });
    expectProblem(await patch(owner, { body: "Not yours" }), 403, "forbidden");
    expectProblem(await patch(stranger, { body: "x" }), 404, "not_found");
    expectProblem(await patch(stranger, { mentions: [stranger.user.id] }), 404, "not_found");
    expectProblem(await patch(helper, {}), 400, "validation_failed");
    const bad = await patch(helper, { mentions: [stranger.user.id] });
    expectProblem(bad, 400, "validation_failed");
    expect(bad.body.errors[0].pointer).toBe("/mentions/0");
    expectProblem(
      await server.request(`/api/v1/comments/${MISSING_ID}`, { method: "PATCH", token: owner.token, json: { body: "x" } }),
      404,
      "not_found",
    );
  });
});

describe("DELETE /comments/{id}", () => {
  test("its author and the task's owner delete it; others who see it get 403, strangers 404", async () => {
    const owner = await registerUser(server);
    const helper = await registerUser(server);
    const other = await registerUser(server);
    const stranger = await registerUser(server);
    const task = await createTask(server, owner.token);
    await joined(owner, helper, task.id, "collaborate");
    await joined(owner, other, task.id, "collaborate");
    const first = await comment(helper, task.id, { body: "one" });
    const second = await comment(helper, task.id, { body: "two" });
    const remove = (who: User, id: string) => server.request(`/api/v1/comments/${id}`, { method: "DELETE", token: who.token });

    expectProblem(await remove(stranger, first.id), 404, "not_found");
    expectProblem(await remove(other, first.id), 403, "forbidden");
    expect((await remove(helper, first.id)).status).toBe(204);
    expect((await remove(owner, second.id)).status).toBe(204);
    expectProblem(await remove(helper, first.id), 404, "not_found");
    expect((await server.request(`/api/v1/tasks/${task.id}/comments`, { token: owner.token })).body.items).toEqual([]);
    const deleted = await server.sql<{ data: { commentId: string } }>(
      "select data from domain_events where task_id = $1 and type = 'comment.deleted' order by id",
      [task.id],
    );
    expect(deleted.map((row) => row.data.commentId)).toEqual([first.id, second.id]);
  });
});
