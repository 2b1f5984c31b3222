import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import type { AppError } from "../../lib/api/app-error";
import { advanceClock, resetClock } from "../../lib/clock";
import { expireAllDueRequests } from "../../lib/collaboration/expiry";
import {
  claimOutput,
  collaborationRequestDetailOutput,
  collaborationRequestListOutput,
  collaborationRequestOutput,
} from "../../lib/collaboration/schema";
import { claimTask } from "../../lib/collaboration/service";
import { taskListOutput, taskOutput } from "../../lib/tasks/schema";
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
afterEach(() => resetClock());

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
const DAY_MS = 86_400_000;
type User = Awaited<ReturnType<typeof registerUser>>;

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

/** `count` users as a tuple, named `names` in order where given. */
type Users<N extends number, T extends User[] = []> = T["length"] extends N ? T : Users<N, [...T, User]>;
async function users<N extends number>(count: N, names: string[] = []): Promise<Users<N>> {
  const created: User[] = [];
  for (let index = 0; index < count; index++)
    created.push(await registerUser(server, names[index] ? { name: names[index] } : {}));
  return created as Users<N>;
}

const sendRequest = (from: User, taskId: string, json: Record<string, unknown>) =>
  api(`/tasks/${taskId}/collaboration-requests`, { token: from.token, json });

/** Asks `to` for `kind` on the task (by user id), expecting a 201; answers the request. */
async function ask(from: User, taskId: string, kind: string, to: User, extra: Record<string, unknown> = {}) {
  const response = await sendRequest(from, taskId, { kind, userId: to.user.id, ...extra });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(collaborationRequestOutput, response.body);
}

const act = (who: User, requestId: string, action: "accept" | "reject" | "withdraw") =>
  api(`/collaboration-requests/${requestId}/${action}`, { method: "POST", token: who.token });

async function decided(who: User, requestId: string, action: "accept" | "reject" | "withdraw") {
  const response = await act(who, requestId, action);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(collaborationRequestOutput, response.body);
}

async function readRequest(who: User, requestId: string) {
  const response = await api(`/collaboration-requests/${requestId}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(collaborationRequestDetailOutput, response.body);
}

async function listRequests(who: User, query = "") {
  const response = await api(`/collaboration-requests${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(collaborationRequestListOutput, response.body);
}

async function readTask(who: User, taskId: string) {
  const response = await server.request(`/tasks/${taskId}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(taskOutput, response.body);
}

async function taskList(who: User) {
  const response = await server.request("/tasks", { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ids: expectShape(taskListOutput, response.body).items.map((task) => task.id), cache: response.headers.get("x-cache") };
}

/** A user's list read twice, so that the second answer is a cache hit: a later write must drop it. */
async function warmList(who: User) {
  await taskList(who);
  const again = await taskList(who);
  expect(again.cache).toBe("HIT");
  return again.ids;
}

async function eventsOf(requestId: string) {
  return server.sql<{
    type: string;
    actor_id: string | null;
    task_id: string;
    audience: string[];
    data: Record<string, unknown>;
  }>("select type, actor_id, task_id, audience, data from domain_events where data->>'requestId' = $1 order by id", [requestId]);
}

async function userGroup(owner: User, members: User[]): Promise<string> {
  const created = await api("/user-groups", { token: owner.token, json: { name: "Crew" } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  for (const member of members) {
    const added = await joinAs(server, `/api/v1/user-groups/${created.body.id}/members`, owner, member);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
  }
  return created.body.id;
}

const claim = (who: User, taskId: string) => server.request(`/tasks/${taskId}/claim`, { method: "POST", token: who.token });

describe("POST /tasks/{id}/collaboration-requests and accepting them", () => {
  test("assign: the recipient decides on a summary, then is an assignee and finds the task in their list", async () => {
    const [owner, bob] = await users(2, ["Olga Owner", "Bob Recipient"]);
    const task = await createTask(server, owner.token, { title: "Paint the fence", dueAt: "2030-05-01T09:00:00Z" });
    const request = await ask(owner, task.id, "assign", bob, { message: "  Could you take this?  " });
    expect(request).toMatchObject({
      taskId: task.id,
      kind: "assign",
      state: "pending",
      message: "Could you take this?",
      requester: { id: owner.user.id, name: "Olga Owner" },
      recipient: { id: bob.user.id, name: "Bob Recipient" },
      task: { id: task.id, title: "Paint the fence", status: "todo", dueAt: "2030-05-01T09:00:00.000Z" },
      decidedAt: null,
    });
    // Expires 14 days after it was made.
    expect(Date.parse(request.expiresAt!) - Date.parse(request.createdAt)).toBe(14 * DAY_MS);

    // Bob cannot see the task yet, but his incoming request shows what he decides on.
    expectProblem(await server.request(`/tasks/${task.id}`, { token: bob.token }), 404, "not_found");
    expect((await listRequests(bob)).items).toEqual([request]);
    expect(await warmList(bob)).toEqual([]);

    const accepted = await decided(bob, request.id, "accept");
    expect(accepted).toMatchObject({ id: request.id, state: "accepted" });
    expect(Date.parse(accepted.decidedAt!)).toBeGreaterThan(Date.now() - 60_000);

    expect((await readTask(owner, task.id)).assigneeIds).toEqual([bob.user.id]);
    const list = await taskList(bob);
    expect(list.cache).toBe("MISS");
    expect(list.ids).toEqual([task.id]);

    const events = await eventsOf(request.id);
    expect(events.map((event) => [event.type, event.actor_id, event.data.state])).toEqual([
      ["collaboration.requested", owner.user.id, "pending"],
      ["collaboration.accepted", bob.user.id, "accepted"],
    ]);
    expect(events[0]!.data).toEqual({ requestId: request.id, kind: "assign", state: "pending" });
    expect(events[0]!.task_id).toBe(task.id);
    for (const event of events) expect(event.audience).toEqual(expect.arrayContaining([owner.user.id, bob.user.id]));
  });

  test("collaborate (by email): the collaborator can then edit the task, as collaboratorIds shows", async () => {
    const [owner, carol] = await users(2);
    const task = await createTask(server, owner.token, { title: "Plan the trip" });
    // By email: an invitation to collaborate addressed to the email (the same answer whether it has an account).
    const response = await sendRequest(owner, task.id, { kind: "collaborate", email: carol.email.toUpperCase() });
    expect(response.status, JSON.stringify(response.body)).toBe(202);
    expect(response.body.invitation).toMatchObject({
      kind: "task",
      taskId: task.id,
      taskRole: "collaborator",
      status: "pending",
    });
    expect(JSON.stringify(response.body)).not.toContain(carol.user.id);

    const before = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: carol.token,
      json: { title: "Mine now" },
    });
    expectProblem(before, 404, "not_found");
    await warmList(carol);

    // Carol finds it in the app and accepts.
    const received = await api("/invitations/received", { token: carol.token });
    expect(received.body.items).toEqual([
      expect.objectContaining({ kind: "task", taskTitle: task.title, taskRole: "collaborator" }),
    ]);
    const accepted = await api(`/invitations/${received.body.items[0].id}/accept`, { method: "POST", token: carol.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const patched = await server.request(`/tasks/${task.id}`, {
      method: "PATCH",
      token: carol.token,
      json: { title: "Plan the trip to Brno" },
    });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const seen = await readTask(owner, task.id);
    expect(seen).toMatchObject({
      title: "Plan the trip to Brno",
      collaboratorIds: [carol.user.id],
      assigneeIds: [],
      ownerId: owner.user.id,
    });
    const list = await taskList(carol);
    expect(list).toEqual({ ids: [task.id], cache: "MISS" });
    // A collaborator still may not delete the task.
    expectProblem(await server.request(`/tasks/${task.id}`, { method: "DELETE", token: carol.token }), 403, "forbidden");
    const events = await server.sql<{ type: string }>(
      "select type from domain_events where data->>'invitationId' = $1 order by id",
      [response.body.invitation.id],
    );
    expect(events.map((event) => event.type)).toEqual(["invitation.created", "invitation.accepted"]);
  });

  test("transfer: the new owner owns and may delete it, in their first group after their last task; the old owner collaborates", async () => {
    const [owner, dan] = await users(2);
    const task = await createTask(server, owner.token, { title: "Hand me over" });
    const dansOwn = await createTask(server, dan.token, { title: "Dan's own" });
    // Dan collaborates first: the transfer takes that place away (an owner needs none).
    await decided(dan, (await ask(owner, task.id, "collaborate", dan)).id, "accept");
    await warmList(owner);

    const request = await ask(owner, task.id, "transfer", dan);
    await decided(dan, request.id, "accept");

    const groups = await server.request("/groups", { token: dan.token });
    expect(groups.status).toBe(200);
    const moved = await readTask(dan, task.id);
    expect(moved).toMatchObject({ ownerId: dan.user.id, groupId: groups.body.items[0].id, collaboratorIds: [owner.user.id] });
    expect(moved.position > dansOwn.position).toBe(true);

    // The previous owner still sees it (list refreshed) but may no longer delete or hand it over.
    expect(await readTask(owner, task.id)).toEqual(moved);
    expect(await taskList(owner)).toEqual({ ids: [task.id], cache: "MISS" });
    expectProblem(await server.request(`/tasks/${task.id}`, { method: "DELETE", token: owner.token }), 403, "forbidden");
    expectProblem(await sendRequest(owner, task.id, { kind: "transfer", userId: dan.user.id }), 403, "forbidden");

    const deleted = await server.request(`/tasks/${task.id}`, { method: "DELETE", token: dan.token });
    expect(deleted.status).toBe(204);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: owner.token }), 404, "not_found");
  });

  test("accepting re-checks the requester's right: a transfer from someone no longer the owner is a 409 and changes nothing", async () => {
    const [owner, first, second] = await users(3);
    const task = await createTask(server, owner.token);
    const toFirst = await ask(owner, task.id, "transfer", first);
    const toSecond = await ask(owner, task.id, "transfer", second);
    await decided(first, toFirst.id, "accept");

    const refused = expectProblem(await act(second, toSecond.id, "accept"), 409, "conflict");
    expect(refused.detail).toMatch(/no longer owns/);
    expect((await readTask(first, task.id)).ownerId).toBe(first.user.id);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: second.token }), 404, "not_found");
    expect((await readRequest(second, toSecond.id)).state).toBe("pending");
  });

  test("accepting re-checks the requester's right: an assign request from a collaborator who was removed is a 409", async () => {
    const [owner, helper, eve] = await users(3);
    const task = await createTask(server, owner.token);
    await decided(helper, (await ask(owner, task.id, "collaborate", helper)).id, "accept");
    // A collaborator may share the task: they ask Eve to take it.
    const request = await ask(helper, task.id, "assign", eve);
    const removed = await server.request(`/tasks/${task.id}/collaborators/${helper.user.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status, JSON.stringify(removed.body)).toBe(204);

    expectProblem(await act(eve, request.id, "accept"), 409, "conflict");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([]);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: eve.token }), 404, "not_found");
  });

  test("403 without the right, 404 for a task you cannot see, and nothing is created", async () => {
    const [owner, member, stranger, friend] = await users(4);
    const groupId = await userGroup(owner, [member]);
    const task = await createTask(server, owner.token, { userGroupId: groupId });
    // A team member reads the task but may not share it or hand it over.
    expectProblem(await sendRequest(member, task.id, { kind: "assign", userId: friend.user.id }), 403, "forbidden");
    expectProblem(await sendRequest(member, task.id, { kind: "collaborate", userId: friend.user.id }), 403, "forbidden");
    expectProblem(await sendRequest(member, task.id, { kind: "transfer", userId: friend.user.id }), 403, "forbidden");
    // An assignee may share but not transfer.
    await decided(friend, (await ask(owner, task.id, "assign", friend)).id, "accept");
    expectProblem(await sendRequest(friend, task.id, { kind: "transfer", userId: member.user.id }), 403, "forbidden");
    expect((await ask(friend, task.id, "collaborate", member)).requester.id).toBe(friend.user.id);

    const hidden = expectProblem(
      await sendRequest(stranger, task.id, { kind: "assign", userId: friend.user.id }),
      404,
      "not_found",
    );
    expect(JSON.stringify(hidden)).not.toContain(task.title);
    expectProblem(await sendRequest(owner, MISSING_ID, { kind: "assign", userId: friend.user.id }), 404, "not_found");
    expect((await listRequests(friend, "?box=outgoing")).items).toHaveLength(1);
    expect((await listRequests(member, "?box=outgoing")).items).toHaveLength(0);
  });

  test("409 when the recipient already has what is asked, or the same request is pending", async () => {
    const [owner, bob, carol] = await users(3);
    const task = await createTask(server, owner.token);
    await decided(bob, (await ask(owner, task.id, "assign", bob)).id, "accept");
    const cases: [User, Record<string, unknown>, RegExp][] = [
      [owner, { kind: "assign", userId: bob.user.id }, /already assigned/],
      [owner, { kind: "collaborate", userId: bob.user.id }, /already works on the task/],
      // Bob (an assignee) asks the owner to collaborate: they already own it.
      [bob, { kind: "collaborate", userId: owner.user.id }, /already works on the task/],
    ];
    for (const [from, json, detail] of cases) {
      expect(expectProblem(await sendRequest(from, task.id, json), 409, "conflict").detail, JSON.stringify(json)).toMatch(detail);
    }

    await ask(owner, task.id, "collaborate", carol);
    const duplicate = expectProblem(
      await sendRequest(owner, task.id, { kind: "collaborate", userId: carol.user.id }),
      409,
      "conflict",
    );
    expect(duplicate.detail).toMatch(/already has a pending collaborate request/);
    // Another kind to the same person is a request of its own.
    await ask(owner, task.id, "assign", carol);
    // Two identical requests at the same moment: one is made, the other is a 409.
    const [dave] = await users(1);
    const both = await Promise.all([0, 1].map(() => sendRequest(owner, task.id, { kind: "assign", userId: dave.user.id })));
    expect(both.map((response) => response.status).sort()).toEqual([201, 409]);
    expect((await listRequests(dave)).items).toHaveLength(1);
  });

  test("answers 400 naming the bad field, and creates nothing", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const cases: [unknown, string[]][] = [
      [{ kind: "adopt", userId: bob.user.id }, ["/kind"]],
      [{ userId: bob.user.id }, ["/kind"]],
      [{ kind: "assign" }, ["/userId"]],
      [{ kind: "assign", userId: bob.user.id, email: bob.email }, ["/email"]],
      [{ kind: "assign", userId: "bob" }, ["/userId"]],
      [{ kind: "assign", email: "not an email" }, ["/email"]],
      [{ kind: "assign", userId: bob.user.id, message: "x".repeat(2001) }, ["/message"]],
      [{ kind: "assign", userId: bob.user.id, colour: "red" }, ["/colour"]],
      [{ kind: "claim", userId: bob.user.id }, ["/kind"]],
      // Asking yourself, by id or by email.
      [{ kind: "assign", userId: owner.user.id }, ["/userId"]],
      [{ kind: "collaborate", email: owner.email }, ["/email"]],
      // No such account (by id: ids are no secret to guess), and a transfer by email to someone not on the task.
      [{ kind: "assign", userId: MISSING_ID }, ["/userId"]],
      [{ kind: "transfer", email: "nobody-at-all@example.com" }, ["/email"]],
      [{ kind: "transfer", email: bob.email }, ["/email"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await sendRequest(owner, task.id, json as Record<string, unknown>), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
      expect(problem.errors?.every((error) => error.in === "body")).toBe(true);
    }
    const self = expectProblem(
      await sendRequest(owner, task.id, { kind: "assign", userId: owner.user.id }),
      400,
      "validation_failed",
    );
    expect(self.errors![0]!.detail).toMatch(/is you/);
    // A transfer by email: the same 400 for an address with an account and one without.
    const transfers = await Promise.all(
      ["nobody-at-all@example.com", bob.email].map((email) => sendRequest(owner, task.id, { kind: "transfer", email })),
    );
    expect(transfers[0]!.body.errors).toEqual(transfers[1]!.body.errors);
    // Asking by email: an account or none, the answer has the same shape and says nothing of who it is.
    const [unknown, known] = await Promise.all(
      ["nobody-at-all@example.com", bob.email].map((email) => sendRequest(owner, task.id, { kind: "assign", email })),
    );
    for (const answer of [unknown!, known!]) {
      expect(answer.status).toBe(202);
      expect(Object.keys(answer.body).sort()).toEqual(["invitation", "links", "text", "token", "url"]);
      expect(answer.body.invitation.acceptedBy).toBeNull();
    }
    expect(JSON.stringify(known!.body)).not.toContain(bob.user.id);
    expect((await ask(owner, task.id, "assign", bob, { message: "x".repeat(2000) })).message).toHaveLength(2000);
    expect((await listRequests(owner, "?box=outgoing")).items).toHaveLength(1);

    expectProblem(
      await api(`/tasks/not-a-task/collaboration-requests`, {
        token: owner.token,
        json: { kind: "assign", userId: bob.user.id },
      }),
      400,
      "validation_failed",
    );
    const path = expectProblem(await api("/collaboration-requests/nope", { token: owner.token }), 400, "validation_failed");
    expect(path.errors).toEqual([{ in: "path", pointer: "/id", detail: expect.any(String) }]);
    expectProblem(
      await sendRequest({ ...owner, token: "" }, task.id, { kind: "assign", userId: bob.user.id }),
      401,
      "unauthenticated",
    );
  });
});

describe("deciding and withdrawing", () => {
  test("reject leaves the task as it was; accepting or rejecting again is a 409", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "assign", bob);
    const rejected = await decided(bob, request.id, "reject");
    expect(rejected.state).toBe("rejected");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([]);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: bob.token }), 404, "not_found");

    expect(expectProblem(await act(bob, request.id, "accept"), 409, "conflict").detail).toMatch(/rejected/);
    expectProblem(await act(bob, request.id, "reject"), 409, "conflict");
    expectProblem(await act(owner, request.id, "withdraw"), 409, "conflict");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([]);
    expect((await eventsOf(request.id)).map((event) => [event.type, event.actor_id])).toEqual([
      ["collaboration.requested", owner.user.id],
      ["collaboration.rejected", bob.user.id],
    ]);
    // Once decided, the same request may be made again.
    expect((await ask(owner, task.id, "assign", bob)).state).toBe("pending");
  });

  test("double accept is a 409 and applies once", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "collaborate", bob);
    await decided(bob, request.id, "accept");
    expect(expectProblem(await act(bob, request.id, "accept"), 409, "conflict").detail).toMatch(/accepted/);
    expectProblem(await act(bob, request.id, "reject"), 409, "conflict");
    expect((await readTask(owner, task.id)).collaboratorIds).toEqual([bob.user.id]);
    expect((await eventsOf(request.id)).map((event) => event.type)).toEqual([
      "collaboration.requested",
      "collaboration.accepted",
    ]);
  });

  test("only the recipient decides: the requester and strangers get 404 and change nothing", async () => {
    const [owner, bob, stranger] = await users(3);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "assign", bob);
    for (const who of [owner, stranger]) {
      expectProblem(await act(who, request.id, "accept"), 404, "not_found");
      expectProblem(await act(who, request.id, "reject"), 404, "not_found");
    }
    const hidden = expectProblem(await api(`/collaboration-requests/${request.id}`, { token: stranger.token }), 404, "not_found");
    expect(JSON.stringify(hidden)).not.toContain(task.title);
    expectProblem(await act(bob, MISSING_ID, "accept"), 404, "not_found");
    expect((await readRequest(owner, request.id)).state).toBe("pending");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([]);
    expect((await listRequests(stranger)).items).toEqual([]);
  });

  test("withdraw: only the requester, only while pending", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "assign", bob);
    expectProblem(await act(bob, request.id, "withdraw"), 404, "not_found");
    const withdrawn = await decided(owner, request.id, "withdraw");
    expect(withdrawn.state).toBe("withdrawn");
    expect(expectProblem(await act(owner, request.id, "withdraw"), 409, "conflict").detail).toMatch(/withdrawn/);
    expectProblem(await act(bob, request.id, "accept"), 409, "conflict");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([]);

    const detail = await readRequest(bob, request.id);
    expect(detail.history.map((entry) => [entry.action, entry.actorId])).toEqual([
      ["requested", owner.user.id],
      ["withdrawn", owner.user.id],
    ]);
    expect((await eventsOf(request.id)).map((event) => event.type)).toEqual([
      "collaboration.requested",
      "collaboration.withdrawn",
    ]);
  });

  test("GET /collaboration-requests/{id}: the history in order, with its actors, to both parties only", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "assign", bob);
    advanceClock(2_000);
    await decided(bob, request.id, "accept");
    const forOwner = await readRequest(owner, request.id);
    expect(forOwner).toMatchObject({ id: request.id, state: "accepted" });
    expect(forOwner.history.map((entry) => [entry.action, entry.actorId])).toEqual([
      ["requested", owner.user.id],
      ["accepted", bob.user.id],
    ]);
    expect(Date.parse(forOwner.history[1]!.at) - Date.parse(forOwner.history[0]!.at)).toBeGreaterThanOrEqual(2_000);
    expect(forOwner.history[1]!.at).toBe(forOwner.decidedAt);
    expect(await readRequest(bob, request.id)).toEqual(forOwner);
  });
});

describe("expiry", () => {
  test("a request not decided within 14 days reads expired, and accepting it is a 409", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "assign", bob);
    advanceClock(13 * DAY_MS);
    expect((await readRequest(bob, request.id)).state).toBe("pending");
    advanceClock(2 * DAY_MS);

    const detail = await readRequest(bob, request.id);
    expect(detail).toMatchObject({ state: "expired", decidedAt: request.expiresAt });
    expect(detail.history.map((entry) => [entry.action, entry.actorId])).toEqual([
      ["requested", owner.user.id],
      ["expired", null],
    ]);
    const refused = expectProblem(await act(bob, request.id, "accept"), 409, "conflict");
    expect(refused.detail).toMatch(/expired/);
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([]);
    expect((await listRequests(bob, "?state=expired")).items.map((item) => item.id)).toEqual([request.id]);
    expect((await listRequests(bob, "?state=pending")).items).toEqual([]);
    expect((await eventsOf(request.id)).map((event) => [event.type, event.actor_id])).toEqual([
      ["collaboration.requested", owner.user.id],
      ["collaboration.expired", null],
    ]);
  });

  test("deciding a request whose time ran out marks it expired (once) and answers 409; a new request may follow", async () => {
    const [owner, bob] = await users(2);
    const task = await createTask(server, owner.token);
    const request = await ask(owner, task.id, "collaborate", bob);
    advanceClock(15 * DAY_MS);
    expect(expectProblem(await act(bob, request.id, "reject"), 409, "conflict").detail).toMatch(/expired/);
    expect(expectProblem(await act(owner, request.id, "withdraw"), 409, "conflict").detail).toMatch(/expired/);
    const detail = await readRequest(owner, request.id);
    expect(detail.history.map((entry) => entry.action)).toEqual(["requested", "expired"]);
    // The old request no longer blocks asking again.
    expect((await ask(owner, task.id, "collaborate", bob)).state).toBe("pending");
  });

  test("the collaboration-expiry job expires every due request, once", async () => {
    const [owner, bob, carol] = await users(3);
    const task = await createTask(server, owner.token);
    const toBob = await ask(owner, task.id, "assign", bob);
    const toCarol = await ask(owner, task.id, "collaborate", carol);
    advanceClock(14 * DAY_MS + 1_000);
    const fresh = await ask(owner, task.id, "assign", carol);

    expect(await expireAllDueRequests()).toBeGreaterThanOrEqual(2);
    expect(await expireAllDueRequests()).toBe(0);
    const states = await server.sql<{ id: string; state: string }>(
      "select id, state from task_collaboration where id = any($1::uuid[]) order by created_at",
      [`{${toBob.id},${toCarol.id},${fresh.id}}`],
    );
    expect(Object.fromEntries(states.map((row) => [row.id, row.state]))).toEqual({
      [toBob.id]: "expired",
      [toCarol.id]: "expired",
      [fresh.id]: "pending",
    });
    for (const id of [toBob.id, toCarol.id]) {
      const history = await server.sql<{ action: string }>(
        "select action from task_collaboration_history where request_id = $1 order by id",
        [id],
      );
      expect(history.map((row) => row.action)).toEqual(["requested", "expired"]);
      expect((await eventsOf(id)).map((event) => event.type)).toEqual(["collaboration.requested", "collaboration.expired"]);
    }
  });
});

describe("GET /collaboration-requests", () => {
  test("incoming and outgoing, newest first, with a state filter and cursor pages", async () => {
    const [owner, bob] = await users(2);
    const made = [];
    for (const title of ["First", "Second", "Third"]) {
      const task = await createTask(server, owner.token, { title });
      made.push(await ask(owner, task.id, "assign", bob));
      advanceClock(1_000);
    }
    await decided(bob, made[1]!.id, "reject");
    const newestFirst = [made[2]!.id, made[1]!.id, made[0]!.id];

    const incoming = await listRequests(bob);
    expect(incoming.items.map((item) => item.id)).toEqual(newestFirst);
    expect(incoming.items.map((item) => item.state)).toEqual(["pending", "rejected", "pending"]);
    expect(incoming.items.map((item) => item.task.title)).toEqual(["Third", "Second", "First"]);
    expect(incoming.nextCursor).toBeNull();
    expect((await listRequests(bob, "?box=incoming")).items.map((item) => item.id)).toEqual(newestFirst);

    const firstPage = await listRequests(bob, "?limit=2");
    expect(firstPage.items.map((item) => item.id)).toEqual(newestFirst.slice(0, 2));
    expect(firstPage.nextCursor).toEqual(expect.any(String));
    const secondPage = await listRequests(bob, `?limit=2&cursor=${firstPage.nextCursor}`);
    expect(secondPage.items.map((item) => item.id)).toEqual(newestFirst.slice(2));
    expect(secondPage.nextCursor).toBeNull();

    const pending = await listRequests(bob, "?state=pending&limit=1");
    expect(pending.items.map((item) => item.id)).toEqual([made[2]!.id]);
    const pendingNext = await listRequests(bob, `?state=pending&limit=1&cursor=${pending.nextCursor}`);
    expect(pendingNext.items.map((item) => item.id)).toEqual([made[0]!.id]);
    expect((await listRequests(bob, "?state=rejected")).items.map((item) => item.id)).toEqual([made[1]!.id]);

    expect((await listRequests(owner, "?box=outgoing")).items.map((item) => item.id)).toEqual(newestFirst);
    expect((await listRequests(owner)).items).toEqual([]);
    expect((await listRequests(bob, "?box=outgoing")).items).toEqual([]);
  });

  test("answers 400 naming the bad query field", async () => {
    const [bob] = await users(1);
    const cases: [string, string][] = [
      ["?box=sideways", "/box"],
      ["?state=lost", "/state"],
      ["?limit=0", "/limit"],
      ["?limit=101", "/limit"],
      ["?limit=ten", "/limit"],
      ["?cursor=bm9wZQ", "/cursor"],
      ["?colour=red", "/colour"],
    ];
    for (const [query, pointer] of cases) {
      const problem = expectProblem(await api(`/collaboration-requests${query}`, { token: bob.token }), 400, "validation_failed");
      expect(problem.errors, query).toEqual([{ in: "query", pointer, detail: expect.any(String) }]);
    }
  });
});

describe("POST /tasks/{id}/claim", () => {
  test("a team member takes a task nobody is assigned to; the next one gets 409", async () => {
    const [owner, cleo, dora] = await users(3, ["Owner", "Cleo"]);
    const groupId = await userGroup(owner, [cleo, dora]);
    const task = await createTask(server, owner.token, { title: "Team chore", userGroupId: groupId });
    await warmList(dora);

    const response = await claim(cleo, task.id);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const claimed = expectShape(claimOutput, response.body);
    expect(claimed.request).toMatchObject({
      taskId: task.id,
      kind: "claim",
      state: "accepted",
      requester: { id: cleo.user.id, name: "Cleo" },
      recipient: { id: cleo.user.id, name: "Cleo" },
      expiresAt: null,
    });
    expect(claimed.task).toMatchObject({ id: task.id, assigneeIds: [cleo.user.id] });
    expect(await readTask(owner, task.id)).toEqual(claimed.task);
    // The task changed for everyone who sees it.
    expect(await taskList(dora)).toMatchObject({ cache: "MISS" });

    expect(expectProblem(await claim(dora, task.id), 409, "conflict").detail).toMatch(/already assigned/);
    // Cleo, now an assignee, also finds it taken.
    expectProblem(await claim(cleo, task.id), 409, "conflict");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([cleo.user.id]);

    // Claims are outgoing only, with their history.
    expect((await listRequests(cleo, "?box=outgoing")).items.map((item) => item.id)).toEqual([claimed.request.id]);
    expect((await listRequests(cleo)).items).toEqual([]);
    const detail = await readRequest(cleo, claimed.request.id);
    expect(detail.history.map((entry) => [entry.action, entry.actorId])).toEqual([["claimed", cleo.user.id]]);
    expectProblem(await api(`/collaboration-requests/${claimed.request.id}`, { token: dora.token }), 404, "not_found");
    expectProblem(await act(cleo, claimed.request.id, "accept"), 409, "conflict");

    const [event] = await eventsOf(claimed.request.id);
    expect(event).toMatchObject({ type: "collaboration.claimed", actor_id: cleo.user.id, task_id: task.id });
    expect(event!.data).toEqual({ requestId: claimed.request.id, kind: "claim", state: "accepted" });
    expect(event!.audience).toEqual(expect.arrayContaining([cleo.user.id, owner.user.id, dora.user.id]));
  });

  test("403 for those who see the task without the claim right, 404 for those who do not see it", async () => {
    const [owner, bob, stranger] = await users(3);
    const task = await createTask(server, owner.token);
    // The owner of a task outside any user group has no claim right.
    expect(expectProblem(await claim(owner, task.id), 403, "forbidden").detail).toMatch(/claim/);
    await decided(bob, (await ask(owner, task.id, "assign", bob)).id, "accept");
    expectProblem(await claim(bob, task.id), 403, "forbidden");
    expectProblem(await claim(stranger, task.id), 404, "not_found");
    expectProblem(await claim(stranger, MISSING_ID), 404, "not_found");
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([bob.user.id]);
  });

  test("a collaborator may claim", async () => {
    const [owner, carol] = await users(2);
    const task = await createTask(server, owner.token);
    await decided(carol, (await ask(owner, task.id, "collaborate", carol)).id, "accept");
    expect((await claim(carol, task.id)).status).toBe(200);
    expect((await readTask(owner, task.id)).assigneeIds).toEqual([carol.user.id]);
  });

  test("two people claiming at the same moment: one gets it, the other a 409", async () => {
    const [owner, cleo, dora] = await users(3);
    const groupId = await userGroup(owner, [cleo, dora]);
    for (let round = 0; round < 5; round++) {
      const task = await createTask(server, owner.token, { userGroupId: groupId });
      const answers = await Promise.all([claim(cleo, task.id), claim(dora, task.id)]);
      expect(answers.map((answer) => answer.status).sort(), JSON.stringify(answers.map((answer) => answer.body))).toEqual([
        200, 409,
      ]);
      const winner = answers[0]!.status === 200 ? cleo : dora;
      expect((await readTask(owner, task.id)).assigneeIds).toEqual([winner.user.id]);
      const claims = await server.sql("select 1 from task_collaboration where task_id = $1 and kind = 'claim'", [task.id]);
      expect(claims).toHaveLength(1);
    }
  });

  test("the same race without HTTP in between: both claims start in the same tick, one wins", async () => {
    // Through HTTP the two requests rarely overlap on the embedded database; called directly, both start together.
    const [owner, cleo, dora] = await users(3);
    const groupId = await userGroup(owner, [cleo, dora]);
    const actor = (who: User) => ({ userId: who.user.id, email: who.email, locale: "en", timeZone: "UTC", isAdmin: false });
    for (let round = 0; round < 3; round++) {
      const task = await createTask(server, owner.token, { userGroupId: groupId });
      const outcomes = await Promise.allSettled([claimTask(actor(cleo), task.id), claimTask(actor(dora), task.id)]);
      const statuses = outcomes.map((outcome) => (outcome.status === "fulfilled" ? 200 : (outcome.reason as AppError).status));
      expect(statuses.sort()).toEqual([200, 409]);
      expect((await readTask(owner, task.id)).assigneeIds).toHaveLength(1);
    }
  });
});

describe("DELETE /tasks/{id}/collaborators/{userId}", () => {
  test("the owner removes a collaborator, who loses the task; a collaborator may leave", async () => {
    const [owner, bob, carol, member, stranger] = await users(5);
    const groupId = await userGroup(owner, [member]);
    const task = await createTask(server, owner.token, { userGroupId: groupId });
    await decided(bob, (await ask(owner, task.id, "collaborate", bob)).id, "accept");
    await decided(carol, (await ask(owner, task.id, "collaborate", carol)).id, "accept");
    const remove = (who: User, userId: string) =>
      server.request(`/tasks/${task.id}/collaborators/${userId}`, { method: "DELETE", token: who.token });

    expectProblem(await remove(member, bob.user.id), 403, "forbidden");
    expectProblem(await remove(carol, bob.user.id), 403, "forbidden");
    expectProblem(await remove(stranger, bob.user.id), 404, "not_found");
    expectProblem(await remove(owner, member.user.id), 404, "not_found");

    await warmList(bob);
    expect((await remove(owner, bob.user.id)).status).toBe(204);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: bob.token }), 404, "not_found");
    expect(await taskList(bob)).toEqual({ ids: [], cache: "MISS" });

    expect((await remove(carol, carol.user.id)).status).toBe(204);
    expectProblem(await server.request(`/tasks/${task.id}`, { token: carol.token }), 404, "not_found");
    expect((await readTask(owner, task.id)).collaboratorIds).toEqual([]);
  });
});
