import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startEventConsumers } from "../../lib/events/consumers";
import { claimConsumers, createMissingCursors, moveCursors, releaseConsumers } from "../../lib/events/repo";
import { eventConsumerStatusOutput } from "../../lib/admin/schema";
import { createDueOccurrences } from "../../lib/tasks/recurring";
import { ADMIN_EMAIL, createTask, expectShape, registerUser, startTestServer, type TestServer } from "./harness";
import { startReceiver, type Receiver } from "./webhook-receiver";

/*
 * The side effects of committed events come from the event log, not from the process that committed them: events
 * committed where no consumer ran (a process with RUN_EVENT_CONSUMERS=false, as if the committing process had died right
 * after its commit) are handled once consumers start, each side effect exactly once even when the log is read
 * again from an earlier cursor (a consumer that died before its cursor moved).
 */

let server: TestServer;
let receiver: Receiver;
const sockets: Socket[] = [];

beforeAll(async () => {
  server = await startTestServer({
    RUN_EVENT_CONSUMERS: "false",
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
    WEBHOOK_TIMEOUT_MS: "2000",
  });
  receiver = await startReceiver();
});
afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  await receiver.close();
  await server.close();
});

type User = Awaited<ReturnType<typeof registerUser>>;

async function listen(user: User): Promise<{ type: string; id: number }[]> {
  const socket = io(server.url, { path: "/ws", transports: ["websocket"], auth: { token: user.token }, reconnection: false });
  sockets.push(socket);
  const events: { type: string; id: number }[] = [];
  socket.on("event", (event: { type: string; id: number }) => events.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });
  return events;
}

/** The consumers' status as administrators see it (GET /admin/jobs). */
async function consumerStatus(admin: User) {
  const response = await server.request("/api/v1/admin/jobs", { token: admin.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return (response.body.eventConsumers as unknown[]).map((item) => expectShape(eventConsumerStatusOutput, item));
}

/** Runs the consumers (as a process with RUN_EVENT_CONSUMERS would) until GET /admin/jobs shows each of them up to date. */
async function consumeEverything(admin: User, owner: string) {
  const consumers = startEventConsumers(owner);
  try {
    await expect
      .poll(
        async () => (await consumerStatus(admin)).filter((consumer) => consumer.behind > 0).map((consumer) => consumer.name),
        {
          timeout: 15_000,
        },
      )
      .toEqual([]);
  } finally {
    await consumers.stop();
  }
}

test("events committed while no consumer ran produce each side effect once, also when the log is read again", async () => {
  const admin = await registerUser(server, { email: ADMIN_EMAIL });
  const [requester, recipient] = [await registerUser(server), await registerUser(server)];
  const endpoint = await server.request("/api/v1/webhooks", {
    token: recipient.token,
    json: { url: `${receiver.url}/hook`, events: ["collaboration.requested"] },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const recipientEvents = await listen(recipient);
  const cursors = await server.sql("select consumer, last_tx_id::text as tx, last_event_id from event_cursors");

  // A collaboration request (notification, webhook, socket), a completed task (points), a new occurrence of a
  // recurring task (reminder settings taken over from the one before).
  const shared = await createTask(server, requester.token, { title: "Paint the fence" });
  const request = await server.request(`/tasks/${shared.id}/collaboration-requests`, {
    token: requester.token,
    json: { kind: "collaborate", userId: recipient.user.id },
  });
  expect(request.status, JSON.stringify(request.body)).toBe(201);
  const done = await createTask(server, requester.token, { title: "Done at once" });
  expect(
    (await server.request(`/tasks/${done.id}`, { method: "PATCH", token: requester.token, json: { status: "done" } })).status,
  ).toBe(200);
  const chore = await createTask(server, requester.token, {
    title: "Weekly chore",
    dueAt: new Date(Date.now() + 3600_000).toISOString(),
    recurrence: { frequency: "weekly" },
  });
  const prefs = { remind_before: 120, on_due: false, channels: ["email"] };
  expect(
    (await server.request(`/notification-prefs/${chore.id}`, { method: "PUT", token: requester.token, json: prefs })).status,
  ).toBe(200);
  expect(
    (await server.request(`/tasks/${chore.id}`, { method: "PATCH", token: requester.token, json: { status: "done" } })).status,
  ).toBe(200);
  await createDueOccurrences();
  const [next] = await server.sql<{ id: string }>("select id from tasks where series_id = $1 and occurrence = 2", [
    chore.seriesId,
  ]);

  // Nothing reacted at the commits: the administrators see the consumers behind the log.
  const behind = await consumerStatus(admin);
  expect(behind.map((consumer) => consumer.name).sort()).toEqual([
    "gamification",
    "notifications",
    "reminder-settings",
    "socket",
    "webhooks",
  ]);
  for (const consumer of behind) {
    expect(consumer.behind, consumer.name).toBeGreaterThan(0);
    expect(consumer.oldestPendingAt, consumer.name).not.toBeNull();
  }

  const sideEffects = async () => ({
    notifications: (await server.request("/api/v1/notifications", { token: recipient.token })).body.items.map(
      (item: { kind: string }) => item.kind,
    ),
    webhooks: receiver.messages.map((message) => message.body.type),
    points: (await server.sql("select task_id from gamification_awards where user_id = $1", [requester.user.id]))
      .map((row) => row.task_id)
      .sort(),
    prefs: (await server.request(`/notification-prefs/${next!.id}`, { token: requester.token })).body,
  });
  const expected = {
    notifications: ["collaboration.requested"],
    webhooks: ["collaboration.requested"],
    points: [done.id, chore.id].sort(),
    prefs: expect.objectContaining({ ...prefs, stored: true }),
  };

  await consumeEverything(admin, "catch-up-first");
  await receiver.waitFor(1);
  expect(await sideEffects()).toEqual(expected);
  await expect.poll(() => recipientEvents.map((event) => event.type)).toContain("collaboration.requested");

  // A consumer that died after its side effects but before its cursor moved reads the same events again.
  for (const cursor of cursors) {
    await server.sql("update event_cursors set last_tx_id = $2::xid8, last_event_id = $3 where consumer = $1", [
      cursor.consumer,
      cursor.tx,
      cursor.last_event_id,
    ]);
  }
  expect((await consumerStatus(admin)).every((consumer) => consumer.behind > 0)).toBe(true);
  await consumeEverything(admin, "catch-up-again");
  expect(await sideEffects()).toEqual(expected);
  const deliveries = await server.request(`/api/v1/webhooks/${endpoint.body.id}/deliveries`, { token: recipient.token });
  expect(deliveries.body.items).toHaveLength(1);
});

test("a look moves the cursors of the consumers its process holds, in one statement, and no other process's", async () => {
  const names = ["lease-test-a", "lease-test-b"];
  await createMissingCursors(names);
  const held = await claimConsumers(names, "process-1", 60_000);
  expect([...held.keys()].sort()).toEqual(names);
  expect((await claimConsumers(names, "process-2", 60_000)).size).toBe(0);

  const moves = new Map(names.map((name, index) => [name, { txId: held.get(name)!.txId, eventId: 100 + index }]));
  // A process whose lease was taken over (it stalled) moves nothing, and is told so.
  expect(await moveCursors("process-2", moves)).toEqual(new Set());
  expect(await moveCursors("process-1", moves)).toEqual(new Set(names));
  const positions = await server.sql<{ consumer: string; last_event_id: string }>(
    "select consumer, last_event_id::text from event_cursors where consumer = any($1::text[]) order by consumer",
    [`{${names.join(",")}}`],
  );
  expect(positions).toEqual([
    { consumer: "lease-test-a", last_event_id: "100" },
    { consumer: "lease-test-b", last_event_id: "101" },
  ]);
  await releaseConsumers("process-1");
  await server.sql("delete from event_cursors where consumer = any($1::text[])", [`{${names.join(",")}}`]);
});
