/**
 * `kill -9` of the process running the event consumers, after it committed a change and before any consumer
 * handled its events: the other process takes the consumers' leases over and the side effects (the in-app
 * notification, the webhook delivery, the socket push, the points) appear exactly once.
 */
import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, expect, test } from "vitest";
import { startReceiver, type Receiver } from "../integration/webhook-receiver";
import {
  ADMIN_EMAIL,
  SHARED_REDIS_URL,
  call,
  clusterEnv,
  createDatabase,
  killAll,
  register,
  startProcess,
  waitFor,
  withClient,
  type ServerProcess,
} from "./cluster";

let database: Awaited<ReturnType<typeof createDatabase>>;
let receiver: Receiver;
let servers: ServerProcess[];
const sockets: Socket[] = [];

beforeAll(async () => {
  database = await createDatabase();
  receiver = await startReceiver();
  // A short lease, so that the survivor takes over soon after the kill (the default is 10 s).
  const env = {
    ...clusterEnv(database.url, SHARED_REDIS_URL),
    ALLOW_PRIVATE_NETWORK_TARGETS: "true",
    EVENT_CONSUMER_LEASE_MS: "3000",
  };
  // One after the other: the first to start holds the consumers' leases.
  servers = [await startProcess({ name: "a", env }).process];
  servers.push(await startProcess({ name: "b", env }).process);
}, 180_000);

afterAll(async () => {
  sockets.forEach((socket) => socket.disconnect());
  killAll();
  await receiver?.close();
  await database?.drop();
});

interface ConsumerStatus {
  name: string;
  runningOn: string | null;
  behind: number;
}

test("kill -9 between a commit and its side effects: the survivor produces each of them once", async () => {
  const [victim, survivor] = servers as [ServerProcess, ServerProcess];
  const admin = await register(survivor.url, ADMIN_EMAIL);
  const consumers = async () =>
    (await call(`${survivor.url}/api/v1/admin/jobs`, { token: admin.token })).body.eventConsumers as ConsumerStatus[];
  await waitFor(
    "the first process to hold every consumer's lease",
    async () => {
      const list = await consumers();
      return list.length === 5 && list.every((consumer) => consumer.runningOn?.endsWith(`:${victim.pid}:events`));
    },
    30_000,
  );

  const [requester, recipient] = [await register(survivor.url), await register(survivor.url)];
  const endpoint = await call(`${survivor.url}/api/v1/webhooks`, {
    token: recipient.token,
    json: { url: `${receiver.url}/hook`, events: ["collaboration.requested"] },
  });
  expect(endpoint.status, JSON.stringify(endpoint.body)).toBe(201);
  const socket = io(survivor.url, { path: "/ws", transports: ["websocket"], auth: { token: recipient.token } });
  sockets.push(socket);
  const pushed: { type: string; id: number }[] = [];
  socket.on("event", (event: { type: string; id: number }) => pushed.push(event));
  await new Promise<void>((resolve, reject) => {
    socket.on("connect", () => resolve());
    socket.on("connect_error", reject);
  });

  // A transaction left open elsewhere holds every later event back from the consumers (they read only events no
  // running transaction can precede): the victim commits the changes, answers, and dies before handling them.
  await withClient(database.url, async (blocker) => {
    await blocker.query("begin");
    await blocker.query("select pg_current_xact_id()");
    const task = await call(`${victim.url}/tasks`, { token: requester.token, json: { title: "Paint the fence" } });
    expect(task.status).toBe(201);
    const request = await call(`${victim.url}/tasks/${task.body.id}/collaboration-requests`, {
      token: requester.token,
      json: { kind: "collaborate", userId: recipient.user.id },
    });
    expect(request.status, JSON.stringify(request.body)).toBe(201);
    const done = await call(`${victim.url}/tasks`, { token: requester.token, json: { title: "Done at once" } });
    const completed = await call(`${victim.url}/tasks/${done.body.id}`, {
      method: "PATCH",
      token: requester.token,
      json: { status: "done" },
    });
    expect(completed.status, JSON.stringify(completed.body)).toBe(200);
    victim.child.kill("SIGKILL");
    await victim.exited;
    await blocker.query("rollback");
  });

  // The survivor takes the leases over once the victim's expire, and catches up.
  await waitFor(
    "the survivor to run every consumer, up to date",
    async () =>
      (await consumers()).every((consumer) => consumer.runningOn?.endsWith(`:${survivor.pid}:events`) && consumer.behind === 0),
    60_000,
  );
  await receiver.waitFor(1, 15_000);
  await waitFor("the socket push", async () => pushed.some((event) => event.type === "collaboration.requested"), 15_000);
  const notifications = await call(`${survivor.url}/api/v1/notifications`, { token: recipient.token });
  expect(notifications.body.items.map((item: { kind: string }) => item.kind)).toEqual(["collaboration.requested"]);
  expect(receiver.messages.map((message) => message.body.type)).toEqual(["collaboration.requested"]);
  const deliveries = await call(`${survivor.url}/api/v1/webhooks/${endpoint.body.id}/deliveries`, { token: recipient.token });
  expect(deliveries.body.items).toHaveLength(1);
  const points = await call(`${survivor.url}/api/v1/gamification/me`, { token: requester.token });
  expect(points.status, JSON.stringify(points.body)).toBe(200);
  expect(points.body.tasksCompleted).toBe(1);
}, 300_000);
