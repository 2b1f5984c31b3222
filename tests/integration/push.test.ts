import { createECDH, randomBytes } from "node:crypto";
import webpush from "web-push";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { pushResultOutput, subscriptionListOutput, subscriptionOutput, vapidPublicKeyOutput } from "../../lib/push/schema";
import { MAX_SUBSCRIPTIONS, sendPushToUser } from "../../lib/push/service";
import {
  ADMIN_EMAIL,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";
import { startPushService, type PushDevice, type PushService } from "./push-service";

/** The push service of these tests listens on 127.0.0.1: the deployment setting that allows push to reach it. */
const PUSH_TO_LOOPBACK = { ALLOW_PRIVATE_NETWORK_TARGETS: "push" };

let server: TestServer;
let push: PushService;
beforeAll(async () => {
  [server, push] = await Promise.all([startTestServer(PUSH_TO_LOOPBACK), startPushService()]);
});
afterAll(async () => {
  await server?.close();
  await push?.close();
});
afterEach(() => {
  resetClock();
  // Every request the app made spoke the protocol: valid VAPID token, aes128gcm body that decrypts with the device's keys.
  expect(push.rejected.splice(0)).toEqual([]);
});

type User = Awaited<ReturnType<typeof registerUser>>;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";

/** Push paths live under /api/v1 only. */
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function subscribeDevice(user: User, device: PushDevice, userAgent = "Mozilla/5.0 (Test) Firefox/140.0") {
  const response = await api("/push/subscriptions", {
    token: user.token,
    json: device.subscription,
    headers: { "User-Agent": userAgent },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(subscriptionOutput, response.body);
}

async function mySubscriptions(user: User) {
  const response = await api("/push/subscriptions", { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(subscriptionListOutput, response.body).items;
}

async function sendTest(user: User) {
  const response = await api("/push/test", { method: "POST", token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(pushResultOutput, response.body);
}

async function vapidPublicKey(on: TestServer = server) {
  const response = await on.request("/api/v1/push/vapid-public-key");
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(vapidPublicKeyOutput, response.body).publicKey;
}

/** A device with valid keys as a browser makes them, on an endpoint nobody serves (the subscription is only stored). */
function browserKeys() {
  const ecdh = createECDH("prime256v1");
  return { p256dh: ecdh.generateKeys().toString("base64url"), auth: randomBytes(16).toString("base64url") };
}

describe("GET /push/vapid-public-key", () => {
  test("answers a P-256 public key, generated once and kept in the database", async () => {
    const first = await vapidPublicKey();
    const again = await Promise.all([vapidPublicKey(), vapidPublicKey(), vapidPublicKey()]);
    expect(again).toEqual([first, first, first]);
    const point = Buffer.from(first, "base64url");
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    const rows = await server.sql<{ value: { publicKey: string; privateKey: string } }>(
      "select value from app_settings where key = 'vapid'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.value.publicKey).toBe(first);
    expect(Buffer.from(rows[0]!.value.privateKey, "base64url").length).toBe(32);
  });
});

describe("POST /push/subscriptions", () => {
  test("stores the browser's subscription and lists it without its keys", async () => {
    const user = await registerUser(server);
    const device = push.device();
    const created = await subscribeDevice(user, device, "Mozilla/5.0 (X11; Linux) Firefox/140.0");
    expect(created).toMatchObject({
      endpoint: device.subscription.endpoint,
      userAgent: "Mozilla/5.0 (X11; Linux) Firefox/140.0",
      failureCount: 0,
      lastSuccessAt: null,
    });
    const list = await api("/push/subscriptions", { token: user.token });
    expect(list.body).toEqual({ items: [created] });
    expect(JSON.stringify(list.body)).not.toContain(device.subscription.keys.p256dh);
    expect(JSON.stringify(list.body)).not.toContain(device.subscription.keys.auth);
  });

  test("the same endpoint again updates its keys (200) instead of adding a device", async () => {
    const user = await registerUser(server);
    const device = push.device();
    const first = await subscribeDevice(user, device);
    const renewed = { ...device.subscription, keys: browserKeys() };
    const response = await api("/push/subscriptions", { token: user.token, json: renewed });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(expectShape(subscriptionOutput, response.body).id).toBe(first.id);
    expect((await mySubscriptions(user)).map((item) => item.id)).toEqual([first.id]);
    const [row] = await server.sql<{ p256dh: string }>("select p256dh from push_subscriptions where id = $1", [first.id]);
    expect(row!.p256dh).toBe(renewed.keys.p256dh);
  });

  test("an endpoint stored for another user moves to whoever subscribes it now", async () => {
    const [previous, current] = [await registerUser(server), await registerUser(server)];
    const device = push.device();
    await subscribeDevice(previous, device);
    await subscribeDevice(current, device);
    expect(await mySubscriptions(previous)).toEqual([]);
    expect((await mySubscriptions(current)).map((item) => item.endpoint)).toEqual([device.subscription.endpoint]);

    expect((await sendTest(previous)).status).toBe("skipped");
    expect((await sendTest(current)).status).toBe("sent");
    expect(device.received).toHaveLength(1);
  });

  test("refuses keys that are not a browser's, naming the field", async () => {
    const user = await registerUser(server);
    const endpoint = push.device().subscription.endpoint;
    const good = browserKeys();
    const offCurve = Buffer.from(good.p256dh, "base64url");
    offCurve[64]! ^= 1;
    const cases: [unknown, string][] = [
      [{ endpoint, keys: { ...good, p256dh: randomBytes(65).toString("base64url") } }, "/keys/p256dh"],
      [{ endpoint, keys: { ...good, p256dh: offCurve.toString("base64url") } }, "/keys/p256dh"],
      [{ endpoint, keys: { ...good, p256dh: good.p256dh.slice(0, 40) } }, "/keys/p256dh"],
      [{ endpoint, keys: { ...good, p256dh: "not base64url!" } }, "/keys/p256dh"],
      [{ endpoint, keys: { ...good, auth: randomBytes(15).toString("base64url") } }, "/keys/auth"],
      [{ endpoint, keys: { p256dh: good.p256dh } }, "/keys/auth"],
      [{ endpoint }, "/keys"],
      [{ endpoint: "not a url", keys: good }, "/endpoint"],
      [{ endpoint: "ftp://push.example.com/x", keys: good }, "/endpoint"],
      [{ endpoint: "http://push.example.com/x", keys: good }, "/endpoint"],
      [{ endpoint: "https://user:secret@push.example.com/x", keys: good }, "/endpoint"],
    ];
    for (const [json, pointer] of cases) {
      const problem = expectProblem(await api("/push/subscriptions", { token: user.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toContain(pointer);
    }
    expect(await mySubscriptions(user)).toEqual([]);
  });

  test("accepts padded base64url keys as some browsers send them", async () => {
    const user = await registerUser(server);
    const device = push.device();
    const padded = {
      ...device.subscription,
      keys: { p256dh: `${device.subscription.keys.p256dh}=`, auth: `${device.subscription.keys.auth}==` },
    };
    const response = await api("/push/subscriptions", { token: user.token, json: padded });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect((await sendTest(user)).status).toBe("sent");
    expect(device.received).toHaveLength(1);
  });

  test(`keeps at most ${MAX_SUBSCRIPTIONS} devices: one more drops the oldest`, async () => {
    const user = await registerUser(server);
    const endpoints: string[] = [];
    for (let index = 0; index <= MAX_SUBSCRIPTIONS; index++) {
      advanceClock(1000);
      const endpoint = `https://push.example.com/device/${index}-${randomBytes(4).toString("hex")}`;
      endpoints.push(endpoint);
      const response = await api("/push/subscriptions", { token: user.token, json: { endpoint, keys: browserKeys() } });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
    }
    const kept = (await mySubscriptions(user)).map((item) => item.endpoint);
    expect(kept).toEqual(endpoints.slice(1));
  });

  test("needs a session", async () => {
    expectProblem(await api("/push/subscriptions", { json: push.device().subscription }), 401, "unauthenticated");
  });
});

describe("DELETE /push/subscriptions/{id} and POST /push/unsubscribe", () => {
  test("remove one of your devices; another user's answers 404 and stays", async () => {
    const [owner, stranger] = [await registerUser(server), await registerUser(server)];
    const device = push.device();
    const subscription = await subscribeDevice(owner, device);

    expectProblem(
      await api(`/push/subscriptions/${subscription.id}`, { method: "DELETE", token: stranger.token }),
      404,
      "not_found",
    );
    expectProblem(
      await api("/push/unsubscribe", { token: stranger.token, json: { endpoint: device.subscription.endpoint } }),
      404,
      "not_found",
    );
    expectProblem(await api(`/push/subscriptions/${MISSING_ID}`, { method: "DELETE", token: owner.token }), 404, "not_found");
    expectProblem(await api("/push/subscriptions/not-an-id", { method: "DELETE", token: owner.token }), 400, "validation_failed");
    expect((await mySubscriptions(owner)).map((item) => item.id)).toEqual([subscription.id]);

    const removed = await api(`/push/subscriptions/${subscription.id}`, { method: "DELETE", token: owner.token });
    expect(removed.status).toBe(204);
    expect(await mySubscriptions(owner)).toEqual([]);
    expect((await sendTest(owner)).status).toBe("skipped");
    expect(device.received).toEqual([]);
    expectProblem(
      await api(`/push/subscriptions/${subscription.id}`, { method: "DELETE", token: owner.token }),
      404,
      "not_found",
    );
  });

  test("POST /push/unsubscribe removes the subscription the browser names by its endpoint", async () => {
    const user = await registerUser(server);
    const [kept, dropped] = [push.device(), push.device()];
    const keptSubscription = await subscribeDevice(user, kept);
    await subscribeDevice(user, dropped);
    const response = await api("/push/unsubscribe", { token: user.token, json: { endpoint: dropped.subscription.endpoint } });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expect((await mySubscriptions(user)).map((item) => item.id)).toEqual([keptSubscription.id]);
    expectProblem(
      await api("/push/unsubscribe", { token: user.token, json: { endpoint: dropped.subscription.endpoint } }),
      404,
      "not_found",
    );
    expectProblem(await api("/push/unsubscribe", { token: user.token, json: {} }), 400, "validation_failed");
  });
});

describe("POST /push/test", () => {
  test("delivers an encrypted, VAPID-signed message that each device decrypts", async () => {
    const user = await registerUser(server);
    const [phone, laptop] = [push.device(), push.device()];
    const phoneSubscription = await subscribeDevice(user, phone, "Phone");
    const laptopSubscription = await subscribeDevice(user, laptop, "Laptop");

    const result = await sendTest(user);
    expect(result.status).toBe("sent");
    expect(result.reason).toBeNull();
    expect(result.devices).toEqual(
      expect.arrayContaining([
        { subscriptionId: phoneSubscription.id, userAgent: "Phone", outcome: "delivered", statusCode: 201, error: null },
        { subscriptionId: laptopSubscription.id, userAgent: "Laptop", outcome: "delivered", statusCode: 201, error: null },
      ]),
    );
    const publicKey = await vapidPublicKey();
    for (const device of [phone, laptop]) {
      expect(device.received).toHaveLength(1);
      const [received] = device.received;
      expect(received!.message).toEqual({
        title: "Spolu",
        body: "Push notifications work on this device.",
        url: "/",
        tag: "spolu-push-test",
        data: { kind: "push.test" },
      });
      expect(received!.vapidKey).toBe(publicKey);
      expect(received!.claims.sub).toBe(`mailto:${ADMIN_EMAIL}`);
      expect(received!.ttl).toBe(86_400);
      expect(received!.urgency).toBe("normal");
    }
    for (const item of await mySubscriptions(user)) {
      expect(item.lastSuccessAt).not.toBeNull();
      expect(item.failureCount).toBe(0);
    }
  });

  test("reaches a push service by its host name", async () => {
    const user = await registerUser(server);
    const device = push.device();
    const byName = device.subscription.endpoint.replace("//127.0.0.1:", "//localhost:");
    device.subscription = { ...device.subscription, endpoint: byName };
    await subscribeDevice(user, device);
    expect((await sendTest(user)).status).toBe("sent");
    expect(device.received).toEqual([
      expect.objectContaining({ claims: expect.objectContaining({ aud: new URL(byName).origin }) }),
    ]);
  });

  test("skipped when you have no device", async () => {
    const user = await registerUser(server);
    expect(await sendTest(user)).toEqual({ status: "skipped", reason: "no push subscription", devices: [] });
  });

  test.each([410, 404])("a %i from the push service removes the subscription", async (status) => {
    const user = await registerUser(server);
    const [gone, alive] = [push.device(), push.device()];
    const goneSubscription = await subscribeDevice(user, gone);
    const aliveSubscription = await subscribeDevice(user, alive);
    gone.answer = status;

    const result = await sendTest(user);
    expect(result.status).toBe("sent");
    expect(result.devices.find((device) => device.subscriptionId === goneSubscription.id)).toMatchObject({
      outcome: "removed",
      statusCode: status,
    });
    expect(gone.received).toHaveLength(1);
    expect((await mySubscriptions(user)).map((item) => item.id)).toEqual([aliveSubscription.id]);

    // Only the live device is tried next time.
    await sendTest(user);
    expect(gone.received).toHaveLength(1);
    expect(alive.received).toHaveLength(2);
  });

  test("a 500 keeps the subscription, counts the failure and reports failed", async () => {
    const user = await registerUser(server);
    const device = push.device();
    const subscription = await subscribeDevice(user, device);
    device.answer = 500;

    const result = await sendTest(user);
    expect(result.status).toBe("failed");
    expect(result.reason).toContain("500");
    expect(result.devices).toEqual([
      {
        subscriptionId: subscription.id,
        userAgent: expect.any(String),
        outcome: "failed",
        statusCode: 500,
        error: expect.stringContaining("500"),
      },
    ]);
    expect(await mySubscriptions(user)).toEqual([
      expect.objectContaining({ id: subscription.id, failureCount: 1, lastSuccessAt: null }),
    ]);
    await sendTest(user);
    expect((await mySubscriptions(user))[0]!.failureCount).toBe(2);

    // The service recovers: the next delivery that works resets the count.
    device.answer = 201;
    expect((await sendTest(user)).status).toBe("sent");
    expect(await mySubscriptions(user)).toEqual([
      expect.objectContaining({ failureCount: 0, lastSuccessAt: expect.any(String) }),
    ]);
  });

  test("a push service that does not answer is a failure, not a crash", async () => {
    const user = await registerUser(server);
    // A push service that has gone away: its port refuses connections.
    const closed = await startPushService();
    const device = closed.device();
    await closed.close();
    await subscribeDevice(user, device);
    const result = await sendTest(user);
    expect(result.status).toBe("failed");
    expect(result.devices).toEqual([
      expect.objectContaining({ outcome: "failed", statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) }),
    ]);
    expect(await mySubscriptions(user)).toEqual([expect.objectContaining({ failureCount: 1 })]);
  });
});

describe("comment notifications (POST /tasks/{id}/comments)", () => {
  /** `from` asks `to` to collaborate on the task and `to` accepts. */
  async function collaborator(from: User, to: User, taskId: string) {
    const asked = await api(`/tasks/${taskId}/collaboration-requests`, {
      token: from.token,
      json: { kind: "collaborate", userId: to.user.id },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    const accepted = await api(`/collaboration-requests/${asked.body.id}/accept`, { method: "POST", token: to.token });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
  }

  const commentNotes = async (user: User) =>
    ((await api("/notifications", { token: user.token })).body.items as { kind: string }[]).filter((note) =>
      note.kind.startsWith("comment."),
    );

  test("reach the devices of those whose preferences for the task choose push, in their language, linking to the task", async () => {
    const owner = await registerUser(server, { name: "Olga Owner" });
    const helper = await registerUser(server, { name: "Petr Pomocník", locale: "cs" });
    const [ownerPhone, helperPhone] = [push.device(), push.device()];
    await subscribeDevice(owner, ownerPhone);
    await subscribeDevice(helper, helperPhone);
    const task = await createTask(server, owner.token, { title: "Paint the fence" });
    await collaborator(owner, helper, task.id);
    // Olga wants this task's news by push only; Petr keeps the defaults (in the app and push).
    const prefs = await api(`/notification-prefs/${task.id}`, {
      method: "PUT",
      token: owner.token,
      json: { channels: ["push"] },
    });
    expect(prefs.status, JSON.stringify(prefs.body)).toBe(200);

    // Petr comments on Olga's task: she hears of it on her phone, and not in the app.
    const question = await api(`/tasks/${task.id}/comments`, { token: helper.token, json: { body: "Which colour?" } });
    expect(question.status, JSON.stringify(question.body)).toBe(201);
    await expect.poll(() => ownerPhone.received.length).toBe(1);
    expect(ownerPhone.received[0]!.message).toMatchObject({
      title: "Petr Pomocník commented: Paint the fence",
      body: "Which colour?",
      url: `/en/tasks/${task.id}`,
      tag: `comment:${question.body.id}`,
      data: { commentId: question.body.id, taskId: task.id },
    });
    expect(await commentNotes(owner)).toEqual([]);
    // The author hears nothing of their own comment.
    expect(helperPhone.received).toEqual([]);

    // Olga mentions Petr: his phone tells him in Czech, and his inbox has it too.
    const reply = await api(`/tasks/${task.id}/comments`, {
      token: owner.token,
      json: { body: "Green, @Petr", mentions: [helper.user.id] },
    });
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    await expect.poll(() => helperPhone.received.length).toBe(1);
    expect(helperPhone.received[0]!.message).toMatchObject({
      title: "Olga Owner vás zmínil(a): Paint the fence",
      body: "Green, @Petr",
      url: `/cs/tasks/${task.id}`,
    });
    expect(await commentNotes(helper)).toEqual([expect.objectContaining({ kind: "comment.mentioned", taskId: task.id })]);
    expect(ownerPhone.received).toHaveLength(1);
  });
});

describe("POST /push/send", () => {
  test("an administrator sends a message to a user's devices", async () => {
    const admin = await registerUser(server, { email: ADMIN_EMAIL });
    const user = await registerUser(server);
    const device = push.device();
    await subscribeDevice(user, device);

    const response = await api("/push/send", {
      token: admin.token,
      json: { userId: user.user.id, title: "Maintenance tonight", body: "Spolu is down 22:00-22:15.", url: "/en/tasks" },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(expectShape(pushResultOutput, response.body)).toMatchObject({ status: "sent", devices: [{ outcome: "delivered" }] });
    expect(device.received.map((received) => received.message)).toEqual([
      {
        title: "Maintenance tonight",
        body: "Spolu is down 22:00-22:15.",
        url: "/en/tasks",
        tag: null,
        data: { kind: "push.admin" },
      },
    ]);

    // No device: skipped; no such user: 404; bad input: 400 naming the field.
    const lonely = await registerUser(server);
    const skipped = await api("/push/send", { token: admin.token, json: { userId: lonely.user.id, title: "Hi", body: "" } });
    expect(skipped.body).toMatchObject({ status: "skipped", reason: "no push subscription" });
    expectProblem(
      await api("/push/send", { token: admin.token, json: { userId: MISSING_ID, title: "Hi", body: "" } }),
      404,
      "not_found",
    );
    const invalid = expectProblem(
      await api("/push/send", { token: admin.token, json: { userId: user.user.id, title: " ", body: "x" } }),
      400,
      "validation_failed",
    );
    expect(invalid.errors?.map((error) => error.pointer)).toEqual(["/title"]);
    const badUrl = expectProblem(
      await api("/push/send", {
        token: admin.token,
        json: { userId: user.user.id, title: "Hi", body: "x", url: "javascript:alert(1)" },
      }),
      400,
      "validation_failed",
    );
    expect(badUrl.errors?.map((error) => error.pointer)).toEqual(["/url"]);
    expect(device.received).toHaveLength(1);
  });

  test("anyone else gets 403 and nothing is sent", async () => {
    const [sender, user] = [await registerUser(server), await registerUser(server)];
    const device = push.device();
    await subscribeDevice(user, device);
    const json = { userId: user.user.id, title: "Phishing", body: "Click me" };
    expectProblem(await api("/push/send", { token: sender.token, json }), 403, "forbidden");
    expectProblem(await api("/push/send", { json }), 401, "unauthenticated");
    expect(device.received).toEqual([]);
  });
});

describe("sendPushToUser", () => {
  test("answers sent, skipped or failed with the reason, as the notification log keeps it", async () => {
    const user = await registerUser(server);
    expect(await sendPushToUser(user.user.id, { title: "Due", body: "Taxes" })).toEqual({
      status: "skipped",
      reason: "no push subscription",
    });

    const device = push.device();
    await subscribeDevice(user, device);
    const message = { title: "Due today", body: "Pay the taxes", url: "/en/tasks/1", tag: "task-1", data: { taskId: "1" } };
    expect(await sendPushToUser(user.user.id, message)).toEqual({ status: "sent" });
    expect(device.received.at(-1)!.message).toEqual(message);

    device.answer = 503;
    const failed = await sendPushToUser(user.user.id, message);
    expect(failed).toMatchObject({ status: "failed", reason: expect.stringContaining("503") });
  });

  test("a message too long for a push service is shortened to fit, not lost", async () => {
    const user = await registerUser(server);
    const device = push.device();
    await subscribeDevice(user, device);
    const body = "Žluťoučký kůň úpěl ďábelské ódy. ".repeat(300);
    const result = await sendPushToUser(user.user.id, { title: "Long", body, data: { note: "x".repeat(5000) } });
    expect(result).toEqual({ status: "sent" });
    const received = device.received.at(-1)!.message as { title: string; body: string; data: object };
    expect(received.title).toBe("Long");
    expect(received.body.endsWith("…")).toBe(true);
    expect(body.startsWith(received.body.slice(0, -1))).toBe(true);
    expect(Buffer.byteLength(JSON.stringify(received))).toBeLessThanOrEqual(3993);
    expect(received.data).toEqual({});
  });
});

describe("VAPID keys across servers", () => {
  test("a restarted server on the same database signs with the stored pair; configured keys win", async () => {
    const user = await registerUser(server);
    const device = push.device();
    await subscribeDevice(user, device);
    const [stored] = await server.sql<{ value: unknown }>("select value from app_settings where key = 'vapid'");
    const storedKey = await vapidPublicKey();
    await server.close();

    // A restart: a new process (nothing cached) on a database holding the pair the first one generated.
    server = await startTestServer(PUSH_TO_LOOPBACK);
    await server.sql("insert into app_settings (key, value) values ('vapid', $1)", [JSON.stringify(stored!.value)]);
    expect(await vapidPublicKey()).toBe(storedKey);
    const restartedUser = await registerUser(server);
    await subscribeDevice(restartedUser, device);
    expect((await sendTest(restartedUser)).status).toBe("sent");
    expect(device.received.at(-1)!.vapidKey).toBe(storedKey);
    await server.close();

    // Configured keys are used as they are, and nothing is generated.
    const configured = webpush.generateVAPIDKeys();
    server = await startTestServer({
      ...PUSH_TO_LOOPBACK,
      VAPID_PUBLIC_KEY: configured.publicKey,
      VAPID_PRIVATE_KEY: configured.privateKey,
      VAPID_SUBJECT: "https://spolu.example.com/contact",
    });
    expect(await vapidPublicKey()).toBe(configured.publicKey);
    const configuredUser = await registerUser(server);
    await subscribeDevice(configuredUser, device);
    expect((await sendTest(configuredUser)).status).toBe("sent");
    expect(device.received.at(-1)).toMatchObject({
      vapidKey: configured.publicKey,
      claims: { sub: "https://spolu.example.com/contact" },
    });
    expect(await server.sql("select key from app_settings where key = 'vapid'")).toEqual([]);
  });
});

describe("without the private-network setting", () => {
  test("endpoints on loopback, private or link-local addresses are refused, and never called", async () => {
    // The default: push services are on the internet.
    await server.close();
    server = await startTestServer();
    const user = await registerUser(server);
    const keys = browserKeys();
    for (const endpoint of [
      "https://127.0.0.1/push",
      "https://10.1.2.3/push",
      "https://169.254.169.254/latest",
      "https://[::1]/push",
      "https://[::ffff:192.168.0.1]/push",
      "https://localhost/push",
      push.device().subscription.endpoint,
    ]) {
      const problem = expectProblem(
        await api("/push/subscriptions", { token: user.token, json: { endpoint, keys } }),
        400,
        "validation_failed",
      );
      expect(
        problem.errors?.map((error) => error.pointer),
        endpoint,
      ).toEqual(["/endpoint"]);
    }
    expect(await mySubscriptions(user)).toEqual([]);

    // A name that resolves to a loopback address (stored before the rules, or after a DNS change) is refused when sending.
    const device = push.device();
    const local = new URL(device.subscription.endpoint);
    await server.sql("insert into push_subscriptions (user_id, endpoint, p256dh, auth) values ($1, $2, $3, $4)", [
      user.user.id,
      `https://localhost:${local.port}${local.pathname}`,
      device.subscription.keys.p256dh,
      device.subscription.keys.auth,
    ]);
    const result = await sendTest(user);
    expect(result).toMatchObject({
      status: "failed",
      devices: [{ outcome: "failed", statusCode: null, error: expect.stringMatching(/^refused: /) }],
    });
    expect(device.received).toEqual([]);
  });
});
