import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { consumerLags } from "../../lib/events/repo";
import { addMember as joinAs, createTask, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * /ws delivers domain events: each user receives the events of the tasks they may see, and nothing else; a
 * client that reconnects with the id of the last event it applied receives what it missed.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;

interface ReceivedEvent {
  id: number;
  type: string;
  taskId: string | null;
  actorId: string | null;
  data: Record<string, any>;
  createdAt: string;
}

/** A connected client that records every event it receives, with a way to wait for the next ones. */
interface Client {
  socket: Socket;
  events: ReceivedEvent[];
  /** Resolves with the first recorded event (from `from` on) that matches. */
  next(match: (event: ReceivedEvent) => boolean, from?: number): Promise<ReceivedEvent>;
  caughtUp: Promise<number>;
  resync: Promise<unknown>;
}

const open: Socket[] = [];
afterEach(() => open.splice(0).forEach((socket) => socket.disconnect()));

/**
 * Waits until the socket consumer has pushed every event written so far. It reads the log after commit (on
 * PostgreSQL, once older transactions of the whole cluster have ended), so a client that connects right after a
 * request could otherwise still hear that request's event and mistake it for a later one.
 */
async function socketCaughtUp(): Promise<void> {
  for (;;) {
    const lag = (await consumerLags()).find((cursor) => cursor.consumer === "socket");
    if (lag && lag.behind === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * Connects `user` once the earlier requests' events have been pushed (see `socketCaughtUp`): what the client then
 * records is only what happens after it connected.
 */
async function connect(user: User, cursor?: number): Promise<Client> {
  await socketCaughtUp();
  const socket = io(server.url, {
    path: "/ws",
    transports: ["websocket"],
    auth: cursor === undefined ? { token: user.token } : { token: user.token, cursor },
    reconnection: false,
  });
  open.push(socket);
  const events: ReceivedEvent[] = [];
  const waiters: { match: (event: ReceivedEvent) => boolean; from: number; resolve: (event: ReceivedEvent) => void }[] = [];
  socket.on("event", (event: ReceivedEvent) => {
    events.push(event);
    for (const waiter of [...waiters]) {
      if (events.length - 1 >= waiter.from && waiter.match(event)) {
        waiters.splice(waiters.indexOf(waiter), 1);
        waiter.resolve(event);
      }
    }
  });
  const caughtUp = new Promise<number>((resolve) =>
    socket.on("caught-up", ({ cursor: last }: { cursor: number }) => resolve(last)),
  );
  const resync = new Promise((resolve) => socket.on("resync", resolve));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return {
    socket,
    events,
    caughtUp,
    resync,
    next(match, from = 0) {
      const seen = events.slice(from).find(match);
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => waiters.push({ match, from, resolve }));
    },
  };
}

/** The owner asks `helper` to take part in a task (assign or collaborate) and the helper accepts. */
async function takePart(owner: User, helper: User, taskId: string, kind: "assign" | "collaborate") {
  const asked = await server.request(`/tasks/${taskId}/collaboration-requests`, {
    token: owner.token,
    json: { kind, userId: helper.user.id },
  });
  expect(asked.status).toBe(201);
  const accepted = await server.request(`/api/v1/collaboration-requests/${asked.body.id}/accept`, {
    token: helper.token,
    method: "POST",
  });
  expect(accepted.status).toBe(200);
}

async function team(owner: User, members: User[]): Promise<string> {
  const created = await server.request("/api/v1/user-groups", { token: owner.token, json: { name: "Crew" } });
  for (const member of members) {
    const added = await joinAs(server, `/api/v1/user-groups/${created.body.id}/members`, owner, member);
    expect(added.status).toBe(201);
  }
  return created.body.id;
}

const patch = (user: User, taskId: string, json: unknown) =>
  server.request(`/tasks/${taskId}`, { method: "PATCH", token: user.token, json });

describe("/ws events", () => {
  test("everyone who sees a task hears of its changes, with the task as it now is; nobody else hears anything", async () => {
    const [owner, member, stranger] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const groupId = await team(owner, [member]);
    const [ownerClient, memberClient, strangerClient] = [await connect(owner), await connect(member), await connect(stranger)];

    const task = await createTask(server, owner.token, { title: "Paint the fence", userGroupId: groupId });
    const created = await memberClient.next((event) => event.type === "task.created");
    expect(created).toMatchObject({ taskId: task.id, actorId: owner.user.id, data: { task: { title: "Paint the fence" } } });
    expect((await ownerClient.next((event) => event.type === "task.created")).id).toBe(created.id);

    expect((await patch(owner, task.id, { status: "done" })).status).toBe(200);
    const updated = await memberClient.next((event) => event.type === "task.updated");
    expect(updated.data.task).toMatchObject({ id: task.id, status: "done", completedAt: expect.any(String) });
    expect((await memberClient.next((event) => event.type === "task.completed")).taskId).toBe(task.id);

    // The stranger's own task is the first event they ever receive: nothing of the team's task reached them.
    const own = await createTask(server, stranger.token, { title: "Mine" });
    const first = await strangerClient.next(() => true);
    expect(first).toMatchObject({ type: "task.created", taskId: own.id });
    expect(strangerClient.events.map((event) => event.taskId)).toEqual([own.id]);
    expect(JSON.stringify(strangerClient.events)).not.toContain(owner.user.id);
  });

  test("comment.created, comment.updated and comment.deleted reach everyone who sees the task; nobody else hears anything", async () => {
    const [owner, helper, stranger] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token, { title: "Paint the fence" });
    await takePart(owner, helper, task.id, "collaborate");
    const [ownerClient, helperClient, strangerClient] = [await connect(owner), await connect(helper), await connect(stranger)];

    const created = await server.request(`/api/v1/tasks/${task.id}/comments`, {
      token: helper.token,
      json: { body: "Which colour?" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const commentId = created.body.id as string;
    const heard = await ownerClient.next((event) => event.type === "comment.created");
    expect(heard).toMatchObject({
      taskId: task.id,
      actorId: helper.user.id,
      data: { comment: { id: commentId, body: "Which colour?" } },
    });
    expect((await helperClient.next((event) => event.type === "comment.created")).id).toBe(heard.id);

    const edited = await server.request(`/api/v1/comments/${commentId}`, {
      method: "PATCH",
      token: helper.token,
      json: { body: "Which colour, green?" },
    });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
    expect((await ownerClient.next((event) => event.type === "comment.updated")).data).toMatchObject({
      comment: { id: commentId, body: "Which colour, green?" },
    });
    expect((await server.request(`/api/v1/comments/${commentId}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    const deleted = await helperClient.next((event) => event.type === "comment.deleted");
    expect(deleted).toMatchObject({ taskId: task.id, actorId: owner.user.id });
    expect(JSON.stringify(deleted.data)).toContain(commentId);

    // The stranger's own task is the first event they ever receive: nothing of the comments reached them.
    const own = await createTask(server, stranger.token, { title: "Mine" });
    expect(await strangerClient.next(() => true)).toMatchObject({ type: "task.created", taskId: own.id });
    expect(strangerClient.events.map((event) => event.type)).toEqual(["task.created"]);
  });

  test("moves, subtasks and deletion arrive in order; an event carries no one's audience", async () => {
    const [owner, member] = [await registerUser(server), await registerUser(server)];
    const groupId = await team(owner, [member]);
    const memberClient = await connect(member);
    const task = await createTask(server, owner.token, { title: "Board card", userGroupId: groupId });
    expect((await server.request(`/tasks/${task.id}/move`, { token: owner.token, json: { status: "in_progress" } })).status).toBe(
      200,
    );
    expect((await server.request(`/tasks/${task.id}/subtasks`, { token: owner.token, json: { title: "Step" } })).status).toBe(
      201,
    );
    expect((await server.request(`/tasks/${task.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    await memberClient.next((event) => event.type === "task.deleted");
    expect(memberClient.events.map((event) => event.type)).toEqual([
      "task.created",
      "task.moved",
      "task.updated",
      "task.deleted",
    ]);
    expect(memberClient.events[1]!.data.task.status).toBe("in_progress");
    expect(memberClient.events[2]!.data.task.subtasks).toEqual({ total: 1, done: 0 });
    expect(memberClient.events[3]!.data).toEqual({ taskId: task.id });
    const ids = memberClient.events.map((event) => event.id);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(memberClient.events.every((event) => !("audience" in event))).toBe(true);
  });

  test("a client that reconnects with its cursor receives the events it missed, then caught-up", async () => {
    const [owner, member] = [await registerUser(server), await registerUser(server)];
    const groupId = await team(owner, [member]);
    const first = await connect(member);
    const task = await createTask(server, owner.token, { title: "Draft", userGroupId: groupId });
    const cursor = (await first.next((event) => event.type === "task.created")).id;
    first.socket.disconnect();

    expect((await patch(owner, task.id, { title: "Second draft" })).status).toBe(200);
    expect((await patch(owner, task.id, { title: "Final" })).status).toBe(200);

    const again = await connect(member, cursor);
    const last = await again.caughtUp;
    const missed = again.events.filter((event) => event.id > cursor);
    expect(missed.map((event) => event.data.task.title)).toEqual(["Second draft", "Final"]);
    expect(last).toBe(missed.at(-1)!.id);
    // Without a cursor nothing is replayed: a fresh client loads the board over HTTP.
    const fresh = await connect(member);
    expect((await patch(owner, task.id, { title: "Live" })).status).toBe(200);
    expect((await fresh.next(() => true)).data.task.title).toBe("Live");
  });

  test("a cursor that is not an event id is refused with resync", async () => {
    const user = await registerUser(server);
    const client = await connect(user, -5);
    expect(await client.resync).toEqual({ reason: "invalid cursor" });
  });

  test("someone removed from a share stops receiving the task's events at once, and is told to drop it", async () => {
    const [owner, helper] = [await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token, { title: "Shared while it lasts", assigneeIds: [owner.user.id] });
    // The owner assigns the helper through an accepted request, then takes them off again.
    await takePart(owner, helper, task.id, "assign");
    const helperClient = await connect(helper);

    expect((await patch(owner, task.id, { title: "Seen by the helper" })).status).toBe(200);
    expect((await helperClient.next((event) => event.type === "task.updated")).data.task.title).toBe("Seen by the helper");

    expect((await patch(owner, task.id, { assigneeIds: [owner.user.id] })).status).toBe(200);
    const dropped = await helperClient.next((event) => event.type === "task.unshared");
    expect(dropped).toMatchObject({ taskId: task.id, data: { taskId: task.id } });
    const seen = helperClient.events.length;

    expect((await patch(owner, task.id, { title: "Not for the helper" })).status).toBe(200);
    const own = await createTask(server, helper.token, { title: "Helper's own" });
    const nextEvent = await helperClient.next(() => true, seen);
    expect(nextEvent.taskId).toBe(own.id);
    expect(JSON.stringify(helperClient.events)).not.toContain("Not for the helper");
  });

  test("DELETE /tasks/{id}/collaborators/{userId} – the owner's screen hears the task without them; the removed one is told to drop it", async () => {
    const [owner, helper] = [await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token, { title: "Done together" });
    await takePart(owner, helper, task.id, "collaborate");
    const [ownerClient, helperClient] = [await connect(owner), await connect(helper)];

    const removed = await server.request(`/tasks/${task.id}/collaborators/${helper.user.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBeLessThan(300);
    const updated = await ownerClient.next((event) => event.type === "task.updated" && event.taskId === task.id);
    expect(updated.data.task.collaboratorIds).toEqual([]);
    expect(await helperClient.next((event) => event.type === "task.unshared")).toMatchObject({
      taskId: task.id,
      data: { taskId: task.id },
    });
    expect(helperClient.events.filter((event) => event.type === "task.updated")).toEqual([]);
  });

  test("DELETE /user-groups/{id}/members/{userId} – the removed member is told to drop the team's tasks they no longer see", async () => {
    const [owner, member] = [await registerUser(server), await registerUser(server)];
    const groupId = await team(owner, [member]);
    const teamTask = await createTask(server, owner.token, { title: "The team's", userGroupId: groupId });
    // One the member created for the team: they keep seeing it.
    const kept = await createTask(server, member.token, { title: "Also theirs", userGroupId: groupId });
    const memberClient = await connect(member);

    const removed = await server.request(`/api/v1/user-groups/${groupId}/members/${member.user.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBeLessThan(300);
    expect(await memberClient.next((event) => event.type === "task.unshared")).toMatchObject({
      taskId: teamTask.id,
      actorId: owner.user.id,
      data: { taskId: teamTask.id },
    });
    // Nothing about the task they still see: the next event they hear is of their own new task.
    const seen = memberClient.events.length;
    const own = await createTask(server, member.token, { title: "Mine" });
    expect((await memberClient.next(() => true, seen)).taskId).toBe(own.id);
    expect(memberClient.events.filter((event) => event.taskId === kept.id)).toEqual([]);
  });

  test("DELETE /user-groups/{id} – members who saw the team's tasks only through it are told to drop them; the owner hears them without the team", async () => {
    const [owner, member] = [await registerUser(server), await registerUser(server)];
    const groupId = await team(owner, [member]);
    const teamTask = await createTask(server, owner.token, { title: "Ours for now", userGroupId: groupId });
    const [ownerClient, memberClient] = [await connect(owner), await connect(member)];

    const deleted = await server.request(`/api/v1/user-groups/${groupId}`, { method: "DELETE", token: owner.token });
    expect(deleted.status).toBe(204);
    const updated = await ownerClient.next((event) => event.type === "task.updated" && event.taskId === teamTask.id);
    expect(updated.data.task).toMatchObject({ id: teamTask.id, title: "Ours for now", userGroupId: null });
    expect(await memberClient.next((event) => event.type === "task.unshared")).toMatchObject({
      taskId: teamTask.id,
      actorId: owner.user.id,
      data: { taskId: teamTask.id },
    });
    expect(memberClient.events.filter((event) => event.type === "task.updated")).toEqual([]);
    // The member's list no longer has it; the owner's still does.
    expect((await server.request("/api/v1/tasks", { token: member.token })).body.items).toEqual([]);
    expect(
      (await server.request("/api/v1/tasks", { token: owner.token })).body.items.map((task: { id: string }) => task.id),
    ).toEqual([teamTask.id]);
  });

  test("DELETE /projects/{id} – members who saw its tasks only through it are told to drop them; the owner hears them without the project", async () => {
    const [owner, member] = [await registerUser(server), await registerUser(server)];
    const project = await server.request("/api/v1/projects", { token: owner.token, json: { name: "Launch" } });
    expect(project.status).toBe(201);
    expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, owner, member)).status).toBe(201);
    const projectTask = await createTask(server, owner.token, { title: "Launch checklist", projectId: project.body.id });
    const [ownerClient, memberClient] = [await connect(owner), await connect(member)];

    expect((await server.request(`/api/v1/projects/${project.body.id}`, { method: "DELETE", token: owner.token })).status).toBe(
      204,
    );
    const updated = await ownerClient.next((event) => event.type === "task.updated" && event.taskId === projectTask.id);
    expect(updated.data.task).toMatchObject({ id: projectTask.id, projectId: null });
    expect(await memberClient.next((event) => event.type === "task.unshared")).toMatchObject({ taskId: projectTask.id });
    expect(memberClient.events.filter((event) => event.type === "task.updated")).toEqual([]);
  });

  test("DELETE /projects/{id}/members/{userId} – the removed member is told to drop the project's tasks; their list drops them", async () => {
    const [owner, member] = [await registerUser(server), await registerUser(server)];
    const project = await server.request("/api/v1/projects", { token: owner.token, json: { name: "Garden" } });
    expect((await joinAs(server, `/api/v1/projects/${project.body.id}/members`, owner, member)).status).toBe(201);
    const projectTask = await createTask(server, owner.token, { title: "Plant tulips", projectId: project.body.id });
    // Their list is cached with the task in it.
    expect((await server.request("/api/v1/tasks", { token: member.token })).body.items).toHaveLength(1);
    const memberClient = await connect(member);

    const removed = await server.request(`/api/v1/projects/${project.body.id}/members/${member.user.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removed.status).toBe(204);
    expect(await memberClient.next((event) => event.type === "task.unshared")).toMatchObject({
      taskId: projectTask.id,
      actorId: owner.user.id,
    });
    expect((await server.request("/api/v1/tasks", { token: member.token })).body.items).toEqual([]);
  });

  test("DELETE /groups/{id} – moved tasks are heard in their new group, tasks deleted with the group as deleted", async () => {
    const [owner, helper] = [await registerUser(server), await registerUser(server)];
    const groups = (await server.request("/api/v1/groups", { token: owner.token })).body.items as { id: string }[];
    const made = async (name: string) => {
      const created = await server.request("/api/v1/groups", { token: owner.token, json: { names: { en: name } } });
      expect(created.status).toBe(201);
      return created.body.id as string;
    };
    const [doomed, kept] = [await made("Doomed"), await made("Kept")];
    const moved = await createTask(server, owner.token, { title: "Moves on", groupId: doomed });
    const shared = await createTask(server, owner.token, { title: "Goes with it", groupId: kept });
    await takePart(owner, helper, shared.id, "collaborate");
    const [ownerClient, helperClient] = [await connect(owner), await connect(helper)];

    const movedAway = await server.request(`/api/v1/groups/${doomed}?moveTo=${groups[0]!.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(movedAway.status).toBe(204);
    const update = await ownerClient.next((event) => event.type === "task.updated" && event.taskId === moved.id);
    expect(update.data.task).toMatchObject({ id: moved.id, groupId: groups[0]!.id });

    const gone = await server.request(`/api/v1/groups/${kept}?deleteTasks=true`, { method: "DELETE", token: owner.token });
    expect(gone.status).toBe(204);
    expect(await helperClient.next((event) => event.type === "task.deleted")).toMatchObject({
      taskId: shared.id,
      data: { taskId: shared.id },
    });
    expect(await ownerClient.next((event) => event.type === "task.deleted")).toMatchObject({ taskId: shared.id });
  });

  test("ending a user's sessions closes their open sockets: sign-out everywhere, a new password, a deleted account", async () => {
    const closedBy = async (user: User, end: (user: User) => Promise<number>) => {
      const client = await connect(user);
      const closed = new Promise<string>((resolve) => client.socket.on("disconnect", resolve));
      expect(await end(user)).toBeLessThan(300);
      return closed;
    };
    const signOut = (user: User) =>
      server.request("/auth/logout?everywhere=true", { method: "POST", token: user.token }).then((r) => r.status);
    const newPassword = (user: User) =>
      server
        .request("/auth/change-password", {
          token: user.token,
          json: { currentPassword: user.password, newPassword: "another long secret" },
        })
        .then((r) => r.status);
    const deleteAccount = (user: User) =>
      server
        .request("/delete-account", { method: "DELETE", token: user.token, json: { password: user.password } })
        .then((r) => r.status);
    for (const end of [signOut, newPassword, deleteAccount]) {
      expect(await closedBy(await registerUser(server), end)).toBe("io server disconnect");
    }
  });
});
