import { io, type Socket } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import {
  notificationListOutput,
  notificationOutput,
  prefsOutput,
  readAllOutput,
  settingsOutput,
  unreadCountOutput,
  type NotificationOutput,
} from "../../lib/notifications/schema";
import { notifyUser } from "../../lib/notifications/service";
import {
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
type User = Awaited<ReturnType<typeof registerUser>>;

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function notifications(who: User, query = "") {
  const response = await api(`/notifications${query}`, { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(notificationListOutput, response.body);
}

async function unread(who: User): Promise<number> {
  const response = await api("/notifications/unread-count", { token: who.token });
  expect(response.status).toBe(200);
  return expectShape(unreadCountOutput, response.body).unread;
}

/** Waits for the in-app notifications that event handlers write after a commit (no fixed sleep). */
async function notificationsOfKind(who: User, kind: string, count = 1): Promise<NotificationOutput[]> {
  await expect.poll(async () => (await notifications(who)).items.filter((item) => item.kind === kind).length).toBe(count);
  return (await notifications(who)).items.filter((item) => item.kind === kind);
}

describe("in-app notifications", () => {
  test("GET /notifications – newest first, a page at a time; unread filter and count; read one and all", async () => {
    const me = await registerUser(server);
    for (const n of [1, 2, 3]) {
      await notifyUser(me.user.id, { kind: "test", title: `Note ${n}`, body: `Body ${n}` });
      advanceClock(1000); // one a second, so that "newest first" does not rest on ties
    }
    expect(await unread(me)).toBe(3);

    const first = await notifications(me, "?limit=2");
    expect(first.items.map((item) => item.title)).toEqual(["Note 3", "Note 2"]);
    expect(first.items[0]).toMatchObject({ kind: "test", body: "Body 3", read: false, readAt: null, taskId: null });
    expect(first.nextCursor).not.toBeNull();
    const second = await notifications(me, `?limit=2&cursor=${first.nextCursor}`);
    expect(second.items.map((item) => item.title)).toEqual(["Note 1"]);
    expect(second.nextCursor).toBeNull();

    const read = await api(`/notifications/${second.items[0]!.id}/read`, { method: "POST", token: me.token });
    expect(read.status).toBe(200);
    const marked = expectShape(notificationOutput, read.body);
    expect(marked).toMatchObject({ id: second.items[0]!.id, read: true });
    expect(await unread(me)).toBe(2);
    // Again: still read, at the first time.
    const again = await api(`/notifications/${marked.id}/read`, { method: "POST", token: me.token });
    expect(again.body.readAt).toBe(marked.readAt);
    expect((await notifications(me, "?unread=true")).items.map((item) => item.title)).toEqual(["Note 3", "Note 2"]);

    const all = await api("/notifications/read-all", { method: "POST", token: me.token });
    expect(expectShape(readAllOutput, all.body)).toEqual({ marked: 2 });
    expect(await unread(me)).toBe(0);
    expect((await notifications(me, "?unread=true")).items).toEqual([]);
    expect((await api("/notifications/read-all", { method: "POST", token: me.token })).body).toEqual({ marked: 0 });
  });

  test("POST /notifications/{id}/read – 404 for another user's notification, which stays unread and unlisted", async () => {
    const [owner, stranger] = [await registerUser(server), await registerUser(server)];
    const { id } = await notifyUser(owner.user.id, { kind: "test", title: "Private", body: "" });
    expectProblem(await api(`/notifications/${id}/read`, { method: "POST", token: stranger.token }), 404, "not_found");
    expectProblem(await api(`/notifications/${MISSING_ID}/read`, { method: "POST", token: stranger.token }), 404, "not_found");
    expect((await notifications(stranger)).items).toEqual([]);
    expect((await api("/notifications/read-all", { method: "POST", token: stranger.token })).body).toEqual({ marked: 0 });
    expect(await unread(owner)).toBe(1);
  });

  test("GET /notifications – a bad cursor or limit is a 400 naming it", async () => {
    const me = await registerUser(server);
    expect(
      expectProblem(await api("/notifications?cursor=nonsense", { token: me.token }), 400, "validation_failed").errors,
    ).toEqual([expect.objectContaining({ in: "query", pointer: "/cursor" })]);
    expect(expectProblem(await api("/notifications?limit=101", { token: me.token }), 400, "validation_failed").errors).toEqual([
      expect.objectContaining({ in: "query", pointer: "/limit" }),
    ]);
  });

  test("a new notification reaches its user's socket as notification.created, as the API lists it", async () => {
    const me = await registerUser(server);
    const socket: Socket = io(server.url, {
      path: "/ws",
      transports: ["websocket"],
      auth: { token: me.token },
      reconnection: false,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", () => resolve());
        socket.on("connect_error", reject);
      });
      const received = new Promise<{ type: string; data: unknown }>((resolve) => {
        socket.on("event", (event: { type: string; data: unknown }) => {
          if (event.type === "notification.created") resolve(event);
        });
      });
      await notifyUser(me.user.id, { kind: "test", title: "Live", body: "On the socket" });
      const event = await received;
      expect(event.data).toEqual((await notifications(me)).items[0]);
    } finally {
      socket.disconnect();
    }
  });
});

/** A socket of `who` collecting the events it receives, for `waitFor`. */
async function openSocket(who: User) {
  const events: { type: string; data: Record<string, unknown> }[] = [];
  const socket: Socket = io(server.url, {
    path: "/ws",
    transports: ["websocket"],
    auth: { token: who.token },
    reconnection: false,
  });
  socket.on("event", (event: { type: string; data: Record<string, unknown> }) => events.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return { socket, events };
}

describe("notification.read on the socket", () => {
  test("POST /notifications/{id}/read and /read-all – the user's sockets hear notification.read with the unread count left; nobody else's", async () => {
    const [me, stranger] = [await registerUser(server), await registerUser(server)];
    const mine = await openSocket(me);
    const theirs = await openSocket(stranger);
    try {
      const first = await notifyUser(me.user.id, { kind: "test", title: "One", body: "" });
      await notifyUser(me.user.id, { kind: "test", title: "Two", body: "" });
      await notifyUser(me.user.id, { kind: "test", title: "Three", body: "" });
      expect((await api(`/notifications/${first.id}/read`, { method: "POST", token: me.token })).status).toBe(200);
      await expect
        .poll(() => mine.events.filter((event) => event.type === "notification.read").map((event) => event.data))
        .toEqual([{ notificationId: first.id, unread: 2 }]);
      // Read again: nothing changed, nothing announced; then all.
      expect((await api(`/notifications/${first.id}/read`, { method: "POST", token: me.token })).status).toBe(200);
      expect((await api("/notifications/read-all", { method: "POST", token: me.token })).body).toEqual({ marked: 2 });
      await expect
        .poll(() => mine.events.filter((event) => event.type === "notification.read").map((event) => event.data))
        .toEqual([
          { notificationId: first.id, unread: 2 },
          { notificationId: null, unread: 0 },
        ]);
      // Nothing left unread: marking all again announces nothing.
      expect((await api("/notifications/read-all", { method: "POST", token: me.token })).body).toEqual({ marked: 0 });
      // The stranger's socket heard none of it: the first event it gets is its own notification.
      await notifyUser(stranger.user.id, { kind: "test", title: "Theirs", body: "" });
      await expect.poll(() => theirs.events.length).toBeGreaterThan(0);
      expect(theirs.events.map((event) => event.type)).toEqual(["notification.created"]);
      // And mine heard no more reads either (the third notification's creation is the last before them).
      await notifyUser(me.user.id, { kind: "test", title: "Four", body: "" });
      await expect.poll(() => mine.events.at(-1)?.data.title).toBe("Four");
      expect(mine.events.filter((event) => event.type === "notification.read")).toHaveLength(2);
    } finally {
      mine.socket.disconnect();
      theirs.socket.disconnect();
    }
  });
});

describe("notifications from events", () => {
  test("a collaboration request notifies its recipient (in their language), never the requester; accepting notifies the requester", async () => {
    const requester = await registerUser(server, { name: "Alice" });
    const recipient = await registerUser(server, { name: "Bob", locale: "cs" });
    const task = await createTask(server, requester.token, { title: "Paint the fence" });
    const request = await api(`/tasks/${task.id}/collaboration-requests`, {
      token: requester.token,
      json: { kind: "collaborate", userId: recipient.user.id },
    });
    expect(request.status, JSON.stringify(request.body)).toBe(201);

    const [asked] = await notificationsOfKind(recipient, "collaboration.requested");
    expect(asked).toMatchObject({
      title: "Alice vám poslal(a) žádost",
      body: "Spolupráce: Paint the fence",
      taskId: task.id,
      read: false,
    });
    expect(asked!.data).toMatchObject({ requestId: request.body.id });
    expect(await unread(recipient)).toBe(1);

    const accepted = await api(`/collaboration-requests/${request.body.id}/accept`, { method: "POST", token: recipient.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const [answer] = await notificationsOfKind(requester, "collaboration.accepted");
    expect(answer).toMatchObject({ title: "Bob accepted your request", taskId: task.id });
    // Neither hears of their own action.
    expect((await notifications(requester)).items.map((item) => item.kind)).toEqual(["collaboration.accepted"]);
    expect((await notifications(recipient)).items.map((item) => item.kind)).toEqual(["collaboration.requested"]);
  });

  test("a rejected request notifies the requester", async () => {
    const requester = await registerUser(server);
    const recipient = await registerUser(server, { name: "Carol" });
    const task = await createTask(server, requester.token, { title: "Mow the lawn" });
    const request = await api(`/tasks/${task.id}/collaboration-requests`, {
      token: requester.token,
      json: { kind: "assign", userId: recipient.user.id },
    });
    await api(`/collaboration-requests/${request.body.id}/reject`, { method: "POST", token: recipient.token });
    const [answer] = await notificationsOfKind(requester, "collaboration.rejected");
    expect(answer).toMatchObject({ title: "Carol declined your request", body: "Assignment: Mow the lawn" });
  });

  test("an accepted invitation notifies the inviter", async () => {
    const inviter = await registerUser(server);
    const task = await createTask(server, inviter.token, { title: "Plan the trip" });
    const invitation = await server.request("/invitations", { token: inviter.token, json: { taskId: task.id, name: "Dana" } });
    expect(invitation.status, JSON.stringify(invitation.body)).toBe(201);
    const invitee = await registerUser(server, { name: "Dana" });
    const accepted = await server.request(`/invite/${invitation.body.token}/accept`, { method: "POST", token: invitee.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const [note] = await notificationsOfKind(inviter, "invitation.accepted");
    expect(note).toMatchObject({ title: "Dana accepted your invitation", body: "Plan the trip", taskId: task.id });
    expect((await notifications(invitee)).items).toEqual([]);
  });
});

describe("GET and PUT /notification-prefs/{taskId}", () => {
  test("answers the documented defaults until something is stored; PUT stores and keeps what it is not given", async () => {
    const me = await registerUser(server);
    const task = await createTask(server, me.token);
    const defaults = await server.request(`/notification-prefs/${task.id}`, { token: me.token });
    expect(defaults.status).toBe(200);
    expect(expectShape(prefsOutput, defaults.body)).toEqual({
      taskId: task.id,
      remind_before: 30,
      on_due: true,
      daily: true,
      channels: ["in_app", "push"],
      stored: false,
      updatedAt: null,
    });

    const put = await server.request(`/notification-prefs/${task.id}`, {
      method: "PUT",
      token: me.token,
      json: { remind_before: 1440, channels: ["email", "in_app"] },
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    expect(expectShape(prefsOutput, put.body)).toMatchObject({
      remind_before: 1440,
      on_due: true,
      daily: true,
      channels: ["email", "in_app"],
      stored: true,
    });
    const off = await api(`/notification-prefs/${task.id}`, {
      method: "PUT",
      token: me.token,
      json: { remind_before: null, daily: false },
    });
    expect(off.body).toMatchObject({
      remind_before: null,
      on_due: true,
      daily: false,
      channels: ["email", "in_app"],
      stored: true,
    });
    // The root alias and /api/v1 answer the same.
    expect((await api(`/notification-prefs/${task.id}`, { token: me.token })).body).toEqual(off.body);
    expect((await server.request(`/notification-prefs/${task.id}`, { token: me.token })).body).toEqual(off.body);
  });

  test("PUT – 400 naming the field: remind_before out of range, unknown or repeated channel, unknown field", async () => {
    const me = await registerUser(server);
    const task = await createTask(server, me.token);
    const cases: [unknown, string][] = [
      [{ remind_before: 40_321 }, "/remind_before"],
      [{ remind_before: -1 }, "/remind_before"],
      [{ remind_before: 1.5 }, "/remind_before"],
      [{ channels: ["in_app", "sms"] }, "/channels/1"],
      [{ channels: ["push", "push"] }, "/channels/1"],
      [{ on_due: "yes" }, "/on_due"],
      [{ remindBefore: 10 }, "/remindBefore"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(
        await server.request(`/notification-prefs/${task.id}`, { method: "PUT", token: me.token, json }),
        400,
        "validation_failed",
      );
      expect(problem.errors, JSON.stringify(json)).toEqual([expect.objectContaining({ in: "body", pointer })]);
    }
    // Nothing was stored; the edges of the range are fine.
    expect((await server.request(`/notification-prefs/${task.id}`, { token: me.token })).body.stored).toBe(false);
    for (const remind_before of [0, 40_320]) {
      const ok = await server.request(`/notification-prefs/${task.id}`, {
        method: "PUT",
        token: me.token,
        json: { remind_before, channels: [] },
      });
      expect(ok.body).toMatchObject({ remind_before, channels: [] });
    }
  });

  test("404 for a task the caller cannot see, and nothing is stored for it", async () => {
    const [owner, stranger] = [await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token);
    expectProblem(await server.request(`/notification-prefs/${task.id}`, { token: stranger.token }), 404, "not_found");
    expectProblem(
      await server.request(`/notification-prefs/${task.id}`, {
        method: "PUT",
        token: stranger.token,
        json: { remind_before: 5 },
      }),
      404,
      "not_found",
    );
    expectProblem(await server.request(`/notification-prefs/${MISSING_ID}`, { token: owner.token }), 404, "not_found");
    expect(await server.sql("select 1 from notification_prefs where task_id = $1", [task.id])).toEqual([]);
  });

  test("each user who sees a task has their own preferences for it", async () => {
    const [owner, other] = [await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token);
    const request = await api(`/tasks/${task.id}/collaboration-requests`, {
      token: owner.token,
      json: { kind: "collaborate", userId: other.user.id },
    });
    await api(`/collaboration-requests/${request.body.id}/accept`, { method: "POST", token: other.token });
    await server.request(`/notification-prefs/${task.id}`, { method: "PUT", token: other.token, json: { on_due: false } });
    expect((await server.request(`/notification-prefs/${task.id}`, { token: other.token })).body).toMatchObject({
      on_due: false,
      stored: true,
    });
    expect((await server.request(`/notification-prefs/${task.id}`, { token: owner.token })).body).toMatchObject({
      on_due: true,
      stored: false,
    });
  });
});

describe("GET and PUT /notification-settings", () => {
  test("defaults, then stored values; invalid ones are a 400 naming the field", async () => {
    const me = await registerUser(server, { timeZone: "Europe/Prague" });
    const defaults = await api("/notification-settings", { token: me.token });
    expect(expectShape(settingsOutput, defaults.body)).toEqual({
      dailySummaryTime: "07:00",
      weeklyReport: true,
      weeklyReportWhenQuiet: false,
      summaryChannels: ["in_app", "email"],
      timeZone: "Europe/Prague",
      stored: false,
    });
    const put = await api("/notification-settings", {
      method: "PUT",
      token: me.token,
      json: { dailySummaryTime: "06:45", summaryChannels: ["push"] },
    });
    expect(put.body).toEqual({
      dailySummaryTime: "06:45",
      weeklyReport: true,
      weeklyReportWhenQuiet: false,
      summaryChannels: ["push"],
      timeZone: "Europe/Prague",
      stored: true,
    });
    const none = await api("/notification-settings", {
      method: "PUT",
      token: me.token,
      json: { dailySummaryTime: null, weeklyReport: false },
    });
    expect(none.body).toMatchObject({ dailySummaryTime: null, weeklyReport: false, summaryChannels: ["push"] });

    for (const [json, pointer] of [
      [{ dailySummaryTime: "24:00" }, "/dailySummaryTime"],
      [{ dailySummaryTime: "7:00" }, "/dailySummaryTime"],
      [{ summaryChannels: ["email", "email"] }, "/summaryChannels/1"],
      [{ weekly: true }, "/weekly"],
    ] as const) {
      const problem = expectProblem(
        await api("/notification-settings", { method: "PUT", token: me.token, json }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ pointer })]);
    }
  });
});
