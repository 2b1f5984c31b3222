import { compileErrors, validate } from "@readme/openapi-parser";
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { notifyUser } from "../../lib/notifications/service";
import { backgroundSettled, MAX_ATTEMPTS, RETRY_DELAYS_MS } from "../../lib/webhooks/deliver";
import {
  createdEndpointOutput,
  deliveryDetailOutput,
  deliveryListOutput,
  endpointListOutput,
  endpointOutput,
  rotatedSecretOutput,
} from "../../lib/webhooks/schema";
import { runWebhookDeliveries } from "../../lib/webhooks/service";
import {
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";
import { startDnsServer, type DnsServer } from "./dns-server";
import { startReceiver, verifyStandardWebhook, type Receiver } from "./webhook-receiver";

// The owner's notification goes through notifyUser (lib/notifications, built separately): watched, not replaced.
vi.mock("../../lib/notifications/service", async (importOriginal) => {
  const original = await importOriginal<typeof import("../../lib/notifications/service")>();
  return { ...original, notifyUser: vi.fn(original.notifyUser) };
});

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
type User = Awaited<ReturnType<typeof registerUser>>;

let server: TestServer;
const receivers: Receiver[] = [];

/** Webhook paths live under /api/v1 only. */
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function receiver(options?: { answer?: string }) {
  const started = await startReceiver(options);
  receivers.push(started);
  return started;
}

async function register(user: User, json: Record<string, unknown>) {
  const response = await api("/webhooks", { token: user.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdEndpointOutput, response.body);
}

/** Registers an endpoint for the receiver and gives the receiver its secret. */
async function registerFor(user: User, target: Receiver, json: Record<string, unknown> = {}, path = "/hook") {
  const endpoint = await register(user, { url: `${target.url}${path}`, ...json });
  target.secrets = [endpoint.secret];
  return endpoint;
}

async function getEndpoint(user: User, id: string) {
  const response = await api(`/webhooks/${id}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(endpointOutput, response.body);
}

async function testFire(user: User, endpointId: string) {
  const response = await api(`/webhooks/${endpointId}/test`, { method: "POST", token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(deliveryDetailOutput, response.body);
}

async function delivery(user: User, endpointId: string, deliveryId: string) {
  const response = await api(`/webhooks/${endpointId}/deliveries/${deliveryId}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(deliveryDetailOutput, response.body);
}

async function deliveries(user: User, endpointId: string, query = "") {
  const response = await api(`/webhooks/${endpointId}/deliveries${query}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(deliveryListOutput, response.body);
}

/** Asks `to` to collaborate on a new task of `from`: a `collaboration.requested` event for both of them. */
async function collaborationRequest(from: User, to: User) {
  const task = await createTask(server, from.token, { title: "Paint the fence" });
  const response = await server.request(`/tasks/${task.id}/collaboration-requests`, {
    token: from.token,
    json: { kind: "collaborate", userId: to.user.id },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  await backgroundSettled();
  return { task, request: response.body as { id: string } };
}

/** Runs the delivery job as its schedule would, and waits for everything it started. */
async function runJob() {
  const result = await runWebhookDeliveries();
  await backgroundSettled();
  return result;
}

afterEach(async () => {
  await backgroundSettled();
  resetClock();
});

afterAll(async () => {
  await Promise.all(receivers.map((started) => started.close()));
});

describe("with private targets allowed (receivers on 127.0.0.1)", () => {
  beforeAll(async () => {
    server = await startTestServer({ ALLOW_PRIVATE_NETWORK_TARGETS: "true", WEBHOOK_TIMEOUT_MS: "1000" });
  });
  afterAll(async () => {
    await backgroundSettled();
    await server.close();
  });

  describe("GET /openapi.json", () => {
    test("documents every webhook route, valid, with the event types one may subscribe to", async () => {
      const document = (await server.request("/api/v1/openapi.json")).body;
      const result = await validate(structuredClone(document));
      expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
      const operations = Object.entries(document.paths as Record<string, Record<string, { description?: string }>>)
        .filter(([path]) => path.startsWith("/api/v1/webhooks"))
        .flatMap(([path, item]) =>
          Object.entries(item).map(([method, operation]) => [`${method.toUpperCase()} ${path}`, operation] as const),
        );
      expect(operations.map(([name]) => name).sort()).toEqual([
        "DELETE /api/v1/webhooks/{id}",
        "GET /api/v1/webhooks",
        "GET /api/v1/webhooks/{id}",
        "GET /api/v1/webhooks/{id}/deliveries",
        "GET /api/v1/webhooks/{id}/deliveries/{deliveryId}",
        "PATCH /api/v1/webhooks/{id}",
        "POST /api/v1/webhooks",
        "POST /api/v1/webhooks/{id}/deliveries/{deliveryId}/replay",
        "POST /api/v1/webhooks/{id}/rotate-secret",
        "POST /api/v1/webhooks/{id}/test",
      ]);
      for (const [name, operation] of operations) expect(operation.description?.length, name).toBeGreaterThan(40);
      const events = document.components.schemas.CreateWebhookEndpointInput.properties.events;
      expect(events.items.enum).toEqual(expect.arrayContaining(["collaboration.requested", "task.created", "webhook.disabled"]));
    });
  });

  describe("POST /webhooks", () => {
    test("registers an endpoint and shows its secret once; the list and the endpoint never show it again", async () => {
      const owner = await registerUser(server);
      const created = await register(owner, {
        url: "https://example.com/hooks/spolu",
        events: ["task.deleted", "collaboration.requested", "task.deleted"],
        description: "  CI  ",
      });
      expect(created).toMatchObject({
        url: "https://example.com/hooks/spolu",
        events: ["collaboration.requested", "task.deleted"],
        description: "CI",
        status: "enabled",
        enabled: true,
        consecutiveFailures: 0,
        disabledReason: null,
        previousSecretExpiresAt: null,
      });
      expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
      const key = Buffer.from(created.secret.slice(6), "base64");
      expect(key.length).toBeGreaterThanOrEqual(24);
      expect(key.length).toBeLessThanOrEqual(32);

      const list = await api("/webhooks", { token: owner.token });
      expect(list.status).toBe(200);
      expect(expectShape(endpointListOutput, list.body).items.map((item) => item.id)).toEqual([created.id]);
      const one = await api(`/webhooks/${created.id}`, { token: owner.token });
      for (const answer of [list, one]) {
        expect(JSON.stringify(answer.body)).not.toContain(created.secret.slice(6));
        expect(JSON.stringify(answer.body)).not.toContain('secret":');
      }
      // Someone else's list does not show it.
      const other = await registerUser(server);
      expect((await api("/webhooks", { token: other.token })).body.items).toEqual([]);
    });

    test("each endpoint gets its own secret", async () => {
      const owner = await registerUser(server);
      const first = await register(owner, { url: "https://example.com/a" });
      const second = await register(owner, { url: "https://example.com/b" });
      expect(first.secret).not.toBe(second.secret);
    });

    test.each([
      [{ url: "ftp://example.com/hook" }, "/url"],
      [{ url: "not a url" }, "/url"],
      [{ url: "https://user:secret@example.com/hook" }, "/url"],
      [{ url: "" }, "/url"],
      [{}, "/url"],
      [{ url: "https://example.com/", events: ["task.created", "task.exploded"] }, "/events/1"],
      [{ url: "https://example.com/", events: "task.created" }, "/events"],
      [{ url: "https://example.com/", description: "x".repeat(501) }, "/description"],
      [{ url: "https://example.com/", secret: "whsec_mine" }, ""],
    ])("400 naming the field for %j", async (json, pointer) => {
      const owner = await registerUser(server);
      const problem = expectProblem(await api("/webhooks", { token: owner.token, json }), 400, "validation_failed");
      if (pointer) expect(problem.errors?.map((error) => error.pointer)).toContain(pointer);
      expect((await api("/webhooks", { token: owner.token })).body.items).toEqual([]);
    });

    test("401 without a token", async () => {
      expectProblem(await api("/webhooks", { json: { url: "https://example.com/" } }), 401, "unauthenticated");
    });
  });

  describe("PATCH and DELETE /webhooks/{id}", () => {
    test("changes the fields given; a private-range URL is allowed by this server's setting", async () => {
      const owner = await registerUser(server);
      const created = await register(owner, { url: "https://example.com/a", events: ["task.created"] });
      const response = await api(`/webhooks/${created.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { url: "http://127.0.0.1:9/b", events: [] },
      });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(expectShape(endpointOutput, response.body)).toMatchObject({
        url: "http://127.0.0.1:9/b",
        events: [],
        description: "",
      });
      expectProblem(
        await api(`/webhooks/${created.id}`, { method: "PATCH", token: owner.token, json: {} }),
        400,
        "validation_failed",
      );
      expectProblem(
        await api(`/webhooks/${created.id}`, { method: "PATCH", token: owner.token, json: { url: "gopher://example.com/" } }),
        400,
        "validation_failed",
      );
      expect((await getEndpoint(owner, created.id)).url).toBe("http://127.0.0.1:9/b");
    });

    test("DELETE removes the endpoint and its deliveries", async () => {
      const owner = await registerUser(server);
      const target = await receiver();
      const endpoint = await registerFor(owner, target);
      const sent = await testFire(owner, endpoint.id);
      const response = await api(`/webhooks/${endpoint.id}`, { method: "DELETE", token: owner.token });
      expect(response.status).toBe(204);
      expectProblem(await api(`/webhooks/${endpoint.id}`, { token: owner.token }), 404, "not_found");
      expect(await server.sql("select id from webhook_deliveries where id = $1", [sent.id])).toEqual([]);
    });
  });

  describe("another user's endpoint", () => {
    test("404 on every route, and nothing changes", async () => {
      const owner = await registerUser(server);
      const stranger = await registerUser(server);
      const target = await receiver();
      const endpoint = await registerFor(owner, target, { description: "Secret description" });
      const sent = await testFire(owner, endpoint.id);
      expect(target.messages).toHaveLength(1);
      const base = `/webhooks/${endpoint.id}`;
      const calls: [string, RequestOptions][] = [
        [base, {}],
        [base, { method: "PATCH", json: { enabled: false, url: "https://example.com/stolen" } }],
        [base, { method: "DELETE" }],
        [`${base}/rotate-secret`, { method: "POST" }],
        [`${base}/test`, { method: "POST" }],
        [`${base}/deliveries`, {}],
        [`${base}/deliveries/${sent.id}`, {}],
        [`${base}/deliveries/${sent.id}/replay`, { method: "POST" }],
        // The stranger's own (missing) endpoint id with the owner's delivery id: still nothing.
        [`/webhooks/${MISSING_ID}/deliveries/${sent.id}`, {}],
      ];
      for (const [path, options] of calls) {
        const response = await api(path, { ...options, token: stranger.token });
        expectProblem(response, 404, "not_found");
        const text = JSON.stringify(response.body);
        expect(text).not.toContain("Secret description");
        expect(text).not.toContain(target.url);
      }
      // Nothing was sent, changed, rotated or deleted.
      expect(target.messages).toHaveLength(1);
      const after = await getEndpoint(owner, endpoint.id);
      expect(after).toMatchObject({ enabled: true, url: endpoint.url, previousSecretExpiresAt: null });
      expect((await deliveries(owner, endpoint.id)).items).toHaveLength(1);
      // And the owner's own endpoint id with a delivery id of another endpoint is a 404 too.
      const otherEndpoint = await register(owner, { url: "https://example.com/other" });
      expectProblem(await api(`/webhooks/${otherEndpoint.id}/deliveries/${sent.id}`, { token: owner.token }), 404, "not_found");
    });
  });

  describe("events", () => {
    test("a collaboration request reaches the endpoints of both parties, signed, once; nobody else's", async () => {
      const [requester, recipient, outsider] = [
        await registerUser(server),
        await registerUser(server),
        await registerUser(server),
      ];
      const [requesterHook, recipientHook, outsiderHook, otherTypeHook] = [
        await receiver(),
        await receiver(),
        await receiver(),
        await receiver(),
      ];
      // (Subscribed to this type only: the task's own events, once they are published, are not what this test counts.)
      await registerFor(requester, requesterHook, { events: ["collaboration.requested"] });
      const recipientEndpoint = await registerFor(recipient, recipientHook, { events: ["collaboration.requested"] });
      const outsiderEndpoint = await registerFor(outsider, outsiderHook);
      await registerFor(recipient, otherTypeHook, { events: ["task.deleted"] });

      const { task, request } = await collaborationRequest(requester, recipient);

      const [message] = await recipientHook.waitFor(1);
      expect(message!.verification).toMatchObject({ ok: true, matched: recipientHook.secrets });
      expect(message!.headers["content-type"]).toBe("application/json");
      expect(message!.headers["user-agent"]).toMatch(/^Spolu-Webhooks\//);
      expect(Math.abs(message!.timestamp - Date.now() / 1000)).toBeLessThan(60);
      expect(message!.body).toMatchObject({
        type: "collaboration.requested",
        data: { requestId: request.id, kind: "collaborate", state: "pending", taskId: task.id, actorId: requester.user.id },
      });
      expect(typeof message!.body.data.eventId).toBe("number");
      expect(Date.parse(message!.body.timestamp)).not.toBeNaN();
      const [requesterMessage] = await requesterHook.waitFor(1);
      expect(requesterMessage!.body.data.eventId).toBe(message!.body.data.eventId);
      expect(requesterMessage!.id).not.toBe(message!.id);

      // The delivery log shows it under the same webhook-id, once the sender has recorded the receiver's answer (it
      // does so after the answer, so right after the receiver has the message the attempt may still be running).
      await expect.poll(async () => (await deliveries(recipient, recipientEndpoint.id)).items[0]?.status).toBe("succeeded");
      const list = await deliveries(recipient, recipientEndpoint.id);
      expect(list.items).toHaveLength(1);
      expect(list.items[0]).toMatchObject({
        messageId: message!.id,
        status: "succeeded",
        attemptCount: 1,
        eventType: "collaboration.requested",
      });

      // The delivery job does not send it a second time.
      advanceClock(2 * 60_000);
      await runJob();
      expect(recipientHook.messages).toHaveLength(1);
      expect(requesterHook.messages).toHaveLength(1);

      // Someone outside the event's audience gets nothing, nor does an endpoint subscribed to other types.
      expect(outsiderHook.messages).toHaveLength(0);
      expect((await deliveries(outsider, outsiderEndpoint.id)).items).toEqual([]);
      expect(otherTypeHook.messages).toHaveLength(0);
    });

    test("a comment's created, updated and deleted events reach the endpoints of everyone who sees the task, signed; nobody else's", async () => {
      const [owner, helper, outsider] = [await registerUser(server), await registerUser(server), await registerUser(server)];
      const [ownerHook, helperHook, outsiderHook] = [await receiver(), await receiver(), await receiver()];
      const events = ["comment.created", "comment.updated", "comment.deleted"];
      await registerFor(owner, ownerHook, { events });
      const helperEndpoint = await registerFor(helper, helperHook, { events });
      await registerFor(outsider, outsiderHook, { events });
      // The helper sees the task once they accept the owner's request to collaborate.
      const { task, request } = await collaborationRequest(owner, helper);
      const accepted = await api(`/collaboration-requests/${request.id}/accept`, {
        method: "POST",
        token: helper.token,
      });
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);

      const created = await api(`/tasks/${task.id}/comments`, {
        token: helper.token,
        json: { body: "Which colour?" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const commentId = (created.body as { id: string }).id;
      const edited = await api(`/comments/${commentId}`, {
        method: "PATCH",
        token: helper.token,
        json: { body: "Which colour, green?" },
      });
      expect(edited.status, JSON.stringify(edited.body)).toBe(200);
      expect((await api(`/comments/${commentId}`, { method: "DELETE", token: owner.token })).status).toBe(204);

      for (const hook of [ownerHook, helperHook]) {
        const messages = await hook.waitFor(3);
        for (const message of messages) expect(message.verification).toMatchObject({ ok: true, matched: hook.secrets });
        expect(messages.map((message) => message.body.type)).toEqual(events);
        expect(messages[0]!.body.data).toMatchObject({ taskId: task.id, comment: { id: commentId, body: "Which colour?" } });
        expect(messages[1]!.body.data).toMatchObject({
          taskId: task.id,
          comment: { id: commentId, body: "Which colour, green?" },
        });
        expect(messages[2]!.body.data).toMatchObject({ taskId: task.id });
        expect(JSON.stringify(messages[2]!.body.data)).toContain(commentId);
      }
      await expect
        .poll(async () => (await deliveries(helper, helperEndpoint.id)).items.map((item) => item.status))
        .toEqual(["succeeded", "succeeded", "succeeded"]);
      advanceClock(2 * 60_000);
      await runJob();
      expect(outsiderHook.messages).toHaveLength(0);
    });

    test("a disabled endpoint gets nothing", async () => {
      const [requester, recipient] = [await registerUser(server), await registerUser(server)];
      const hook = await receiver();
      const endpoint = await registerFor(recipient, hook);
      const off = await api(`/webhooks/${endpoint.id}`, { method: "PATCH", token: recipient.token, json: { enabled: false } });
      expect(off.body).toMatchObject({ status: "disabled", enabled: false, disabledReason: "Disabled by its owner" });
      await collaborationRequest(requester, recipient);
      advanceClock(2 * 60_000);
      await runJob();
      expect(hook.messages).toHaveLength(0);
    });
  });

  describe("POST /webhooks/{id}/test", () => {
    test("sends a signed webhook.test message at once and answers the delivery with its attempt", async () => {
      const owner = await registerUser(server);
      const hook = await receiver({ answer: "thanks!" });
      const endpoint = await registerFor(owner, hook, { events: ["task.deleted"] });
      const sent = await testFire(owner, endpoint.id);
      expect(sent).toMatchObject({
        status: "succeeded",
        attemptCount: 1,
        eventType: "webhook.test",
        eventId: null,
        nextAttemptAt: null,
      });
      expect(sent.attempts).toHaveLength(1);
      expect(sent.attempts[0]).toMatchObject({ statusCode: 200, error: null, responseExcerpt: "thanks!" });
      expect(hook.messages).toHaveLength(1);
      const [message] = hook.messages;
      expect(message!.verification.ok).toBe(true);
      expect(message!.id).toBe(sent.messageId);
      expect(message!.body).toMatchObject({ type: "webhook.test", data: { endpointId: endpoint.id } });
      // The signature covers the exact bytes: a receiver checking a changed body refuses it.
      const tampered = Buffer.from(message!.rawBody.replace("webhook.test", "webhook.tesT"));
      const check = verifyStandardWebhook(
        { id: message!.id, timestamp: String(message!.timestamp), signature: message!.signatures.join(" ") },
        tampered,
        hook.secrets,
        message!.timestamp,
      );
      expect(check.ok).toBe(false);
    });

    test("a non-2xx answer is a failure, retried after 30 s with the same webhook-id and a new timestamp", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      hook.failNext(1, 503, "busy, try later");
      const sent = await testFire(owner, endpoint.id);
      expect(sent).toMatchObject({ status: "pending", attemptCount: 1, lastStatusCode: 503 });
      expect(sent.lastError).toMatch(/HTTP 503/);
      expect(sent.attempts[0]).toMatchObject({ statusCode: 503, responseExcerpt: "busy, try later" });
      expect(Date.parse(sent.nextAttemptAt!) - Date.parse(sent.attempts[0]!.at)).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0]);

      // Not due yet.
      await runJob();
      expect(hook.messages).toHaveLength(1);

      advanceClock(RETRY_DELAYS_MS[0] + 1000);
      await runJob();
      expect(hook.messages).toHaveLength(2);
      const [first, second] = hook.messages;
      expect(second!.id).toBe(first!.id);
      expect(second!.rawBody).toBe(first!.rawBody);
      expect(second!.timestamp).toBeGreaterThanOrEqual(first!.timestamp + 30);
      expect(second!.signatures).not.toEqual(first!.signatures);
      expect(second!.verification.ok).toBe(true);

      const detail = await delivery(owner, endpoint.id, sent.id);
      expect(detail).toMatchObject({
        status: "succeeded",
        attemptCount: 2,
        nextAttemptAt: null,
        lastError: null,
        lastStatusCode: 200,
      });
      expect(detail.attempts.map((attempt) => attempt.statusCode)).toEqual([503, 200]);
      expect(detail.attempts[1]!.durationMs).toBeGreaterThanOrEqual(0);
    });

    test("a receiver slower than WEBHOOK_TIMEOUT_MS is a failure", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      hook.delayNext(1500);
      const sent = await testFire(owner, endpoint.id);
      expect(sent).toMatchObject({ status: "pending", lastStatusCode: null });
      expect(sent.attempts[0]!.error).toMatch(/timed out after 1000 ms/);
    });

    test("a refused connection is a failure with its reason", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      await hook.close();
      const sent = await testFire(owner, endpoint.id);
      expect(sent.attempts[0]!.error).toMatch(/ECONNREFUSED/);
    });

    test("redirects are followed (at most 3), each with the same signed message", async () => {
      const owner = await registerUser(server);
      const [first, second] = [await receiver(), await receiver()];
      const endpoint = await registerFor(owner, first);
      second.secrets = first.secrets;
      first.redirectNext(`${second.url}/moved`, 1, 308);
      const sent = await testFire(owner, endpoint.id);
      expect(sent.status).toBe("succeeded");
      expect(second.messages).toHaveLength(1);
      expect(second.messages[0]).toMatchObject({
        path: "/moved",
        id: first.messages[0]!.id,
        rawBody: first.messages[0]!.rawBody,
      });
      expect(second.messages[0]!.verification.ok).toBe(true);

      first.redirectNext(`${first.url}/again`, 10, 302);
      const looping = await testFire(owner, endpoint.id);
      expect(looping).toMatchObject({ status: "pending", lastStatusCode: 302 });
      expect(looping.lastError).toMatch(/more than 3 redirects/);
      expect(first.messages).toHaveLength(1 + 4);
    });

    test("409 for a disabled endpoint", async () => {
      const owner = await registerUser(server);
      const endpoint = await register(owner, { url: "https://example.com/" });
      await api(`/webhooks/${endpoint.id}`, { method: "PATCH", token: owner.token, json: { enabled: false } });
      expectProblem(await api(`/webhooks/${endpoint.id}/test`, { method: "POST", token: owner.token }), 409, "conflict");
    });
  });

  describe("GET /webhooks/{id}/deliveries", () => {
    test("newest first, a page at a time, filtered by status", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      const sent = [];
      for (let index = 0; index < 3; index++) {
        if (index === 1) hook.failNext(1);
        sent.push(await testFire(owner, endpoint.id));
        advanceClock(1000);
      }
      const first = await deliveries(owner, endpoint.id, "?limit=2");
      expect(first.items.map((item) => item.id)).toEqual([sent[2]!.id, sent[1]!.id]);
      expect(first.items[1]).toMatchObject({ status: "pending", attemptCount: 1 });
      expect(first.items[1]!.nextAttemptAt).not.toBeNull();
      const second = await deliveries(owner, endpoint.id, `?limit=2&cursor=${first.nextCursor}`);
      expect(second.items.map((item) => item.id)).toEqual([sent[0]!.id]);
      expect(second.nextCursor).toBeNull();
      const pending = await deliveries(owner, endpoint.id, "?status=pending");
      expect(pending.items.map((item) => item.id)).toEqual([sent[1]!.id]);
      const bad = expectProblem(
        await api(`/webhooks/${endpoint.id}/deliveries?cursor=nonsense`, { token: owner.token }),
        400,
        "validation_failed",
      );
      expect(bad.errors?.[0]?.pointer).toBe("/cursor");
      const tooMany = expectProblem(
        await api(`/webhooks/${endpoint.id}/deliveries?limit=1000`, { token: owner.token }),
        400,
        "validation_failed",
      );
      expect(tooMany.errors?.[0]?.pointer).toBe("/limit");
    });
  });

  describe("POST /webhooks/{id}/deliveries/{deliveryId}/replay", () => {
    test("sends the same message again (same webhook-id and body, new timestamp) as a new delivery", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      const original = await testFire(owner, endpoint.id);
      advanceClock(10_000);
      const response = await api(`/webhooks/${endpoint.id}/deliveries/${original.id}/replay`, {
        method: "POST",
        token: owner.token,
      });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      const replay = expectShape(deliveryDetailOutput, response.body);
      expect(replay.id).not.toBe(original.id);
      expect(replay).toMatchObject({
        messageId: original.messageId,
        status: "succeeded",
        attemptCount: 1,
        payload: original.payload,
      });
      expect(hook.messages).toHaveLength(2);
      expect(hook.messages[1]!.id).toBe(hook.messages[0]!.id);
      expect(hook.messages[1]!.rawBody).toBe(hook.messages[0]!.rawBody);
      expect(hook.messages[1]!.timestamp).toBeGreaterThanOrEqual(hook.messages[0]!.timestamp + 10);
      expect(hook.messages[1]!.verification.ok).toBe(true);
      expect((await deliveries(owner, endpoint.id)).items.map((item) => item.id)).toEqual([replay.id, original.id]);
    });

    test("409 while the delivery is still pending", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      hook.failNext(1);
      const pending = await testFire(owner, endpoint.id);
      expect(pending.status).toBe("pending");
      const response = await api(`/webhooks/${endpoint.id}/deliveries/${pending.id}/replay`, {
        method: "POST",
        token: owner.token,
      });
      expectProblem(response, 409, "conflict");
      expect(hook.messages).toHaveLength(1);
    });
  });

  describe("POST /webhooks/{id}/rotate-secret", () => {
    test("both secrets sign during the 24-hour grace period, only the new one after", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      const oldSecret = endpoint.secret;
      const response = await api(`/webhooks/${endpoint.id}/rotate-secret`, { method: "POST", token: owner.token });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const rotated = expectShape(rotatedSecretOutput, response.body);
      expect(rotated.secret).not.toBe(oldSecret);
      expect(Date.parse(rotated.previousSecretExpiresAt) - Date.now()).toBeGreaterThan(24 * 3600_000 - 60_000);
      expect((await getEndpoint(owner, endpoint.id)).previousSecretExpiresAt).toBe(rotated.previousSecretExpiresAt);
      expect(JSON.stringify((await api("/webhooks", { token: owner.token })).body)).not.toContain(rotated.secret.slice(6));

      hook.secrets = [rotated.secret, oldSecret];
      await testFire(owner, endpoint.id);
      const during = hook.messages[0]!;
      expect(during.signatures).toHaveLength(2);
      const verifyWith = (message: typeof during, signature: string, secret: string) =>
        verifyStandardWebhook(
          { id: message.id, timestamp: String(message.timestamp), signature },
          Buffer.from(message.rawBody),
          [secret],
          message.timestamp,
        ).ok;
      expect(verifyWith(during, during.signatures[0]!, rotated.secret)).toBe(true);
      expect(verifyWith(during, during.signatures[1]!, oldSecret)).toBe(true);
      expect(verifyWith(during, during.signatures[0]!, oldSecret)).toBe(false);

      advanceClock(24 * 3600_000 + 1000);
      await testFire(owner, endpoint.id);
      const after = hook.messages[1]!;
      expect(after.signatures).toHaveLength(1);
      expect(verifyWith(after, after.signatures[0]!, rotated.secret)).toBe(true);
      expect(verifyWith(after, after.signatures[0]!, oldSecret)).toBe(false);
      expect((await getEndpoint(owner, endpoint.id)).previousSecretExpiresAt).toBeNull();
    });
  });

  describe("failing endpoints", () => {
    test(`${MAX_ATTEMPTS} attempts over about 16 hours, then failed; 5 failed deliveries in a row disable the endpoint and tell its owner`, async () => {
      vi.mocked(notifyUser).mockClear();
      const owner = await registerUser(server);
      const [broken, watcher] = [await receiver(), await receiver()];
      const endpoint = await registerFor(owner, broken);
      const watcherEndpoint = await registerFor(owner, watcher, { events: ["webhook.disabled"] });
      broken.failNext(1000, 500);

      const sent = [];
      for (let index = 0; index < 5; index++) sent.push(await testFire(owner, endpoint.id));
      // A success in between resets the count, so this needs five in a row.
      for (let run = 0; run < RETRY_DELAYS_MS.length; run++) {
        expect((await getEndpoint(owner, endpoint.id)).enabled).toBe(true);
        advanceClock(RETRY_DELAYS_MS.at(-1)!);
        await runJob();
      }
      const detail = await delivery(owner, endpoint.id, sent[0]!.id);
      expect(detail).toMatchObject({ status: "failed", attemptCount: MAX_ATTEMPTS, nextAttemptAt: null, lastStatusCode: 500 });
      expect(detail.attempts).toHaveLength(MAX_ATTEMPTS);
      expect(broken.messages).toHaveLength(5 * MAX_ATTEMPTS);
      expect(new Set(broken.messages.map((message) => message.id)).size).toBe(5);

      const disabled = await getEndpoint(owner, endpoint.id);
      expect(disabled).toMatchObject({ status: "disabled", enabled: false, consecutiveFailures: 5 });
      expect(disabled.disabledReason).toMatch(/5 deliveries in a row failed/);
      expect(vi.mocked(notifyUser)).toHaveBeenCalledWith(
        owner.user.id,
        expect.objectContaining({ kind: "webhook.disabled", data: expect.objectContaining({ endpointId: endpoint.id }) }),
      );
      // The owner's other endpoint hears of it as an event.
      await watcher.waitFor(1);
      expect(watcher.messages[0]!.body).toMatchObject({ type: "webhook.disabled", data: { endpointId: endpoint.id } });
      expect(watcher.messages[0]!.verification.ok).toBe(true);
      // Recorded as delivered (after the watcher's answer) before the clock jumps, or the attempt's lease would expire
      // with it and the next run would send it again.
      await expect.poll(async () => (await deliveries(owner, watcherEndpoint.id)).items[0]?.status).toBe("succeeded");

      // Nothing more goes to it; enabling it again resets the count.
      advanceClock(RETRY_DELAYS_MS.at(-1)!);
      await runJob();
      expect(broken.messages).toHaveLength(5 * MAX_ATTEMPTS);
      expect(watcher.messages).toHaveLength(1);
      const enabled = await api(`/webhooks/${endpoint.id}`, { method: "PATCH", token: owner.token, json: { enabled: true } });
      expect(enabled.body).toMatchObject({ status: "enabled", enabled: true, consecutiveFailures: 0, disabledReason: null });
    });

    test("a success resets the count of failed deliveries", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      hook.failNext(1000);
      const failing = await testFire(owner, endpoint.id);
      for (let run = 0; run < RETRY_DELAYS_MS.length; run++) {
        advanceClock(RETRY_DELAYS_MS.at(-1)!);
        await runJob();
      }
      expect((await delivery(owner, endpoint.id, failing.id)).status).toBe("failed");
      expect((await getEndpoint(owner, endpoint.id)).consecutiveFailures).toBe(1);
      hook.failNext(0);
      await testFire(owner, endpoint.id);
      expect((await getEndpoint(owner, endpoint.id)).consecutiveFailures).toBe(0);
    });
  });

  describe("the webhook-deliveries job", () => {
    test("two runs at once send a due attempt once", async () => {
      const owner = await registerUser(server);
      const hook = await receiver();
      const endpoint = await registerFor(owner, hook);
      hook.failNext(1);
      const sent = await testFire(owner, endpoint.id);
      advanceClock(RETRY_DELAYS_MS[0] + 1000);
      await Promise.all([runWebhookDeliveries(), runWebhookDeliveries(), runWebhookDeliveries()]);
      await backgroundSettled();
      expect(hook.messages).toHaveLength(2);
      expect((await delivery(owner, endpoint.id, sent.id)).attempts).toHaveLength(2);
    });
  });
});

describe("without the private-network setting", () => {
  beforeAll(async () => {
    server = await startTestServer({ WEBHOOK_TIMEOUT_MS: "2000" });
  });
  afterAll(async () => {
    await backgroundSettled();
    await server.close();
  });

  test.each([
    "http://127.0.0.1/hook",
    "http://[::1]/",
    "http://10.0.0.1/",
    "http://169.254.169.254/latest/meta-data",
    "http://0.0.0.0/",
    "http://2130706433/",
    "http://127.1/",
    "http://[::ffff:127.0.0.1]/",
    "http://[fd00::1]/",
    "https://100.64.1.1/",
    "http://localhost:8080/hook",
    "http://hooks.localhost/",
  ])("POST /webhooks – 400 naming /url for %s", async (url) => {
    const owner = await registerUser(server);
    const problem = expectProblem(await api("/webhooks", { token: owner.token, json: { url } }), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/url" })]);
    expect(problem.errors![0]!.detail).toMatch(/only public addresses are allowed/);
  });

  test("PATCH /webhooks/{id} – 400 naming /url for a private address", async () => {
    const owner = await registerUser(server);
    const endpoint = await register(owner, { url: "https://example.com/hook" });
    const problem = expectProblem(
      await api(`/webhooks/${endpoint.id}`, { method: "PATCH", token: owner.token, json: { url: "http://192.168.1.1/" } }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.[0]?.pointer).toBe("/url");
    expect((await getEndpoint(owner, endpoint.id)).url).toBe("https://example.com/hook");
  });

  test("a host name that resolves to a loopback address is refused when delivering, and the attempt says why", async () => {
    const owner = await registerUser(server);
    const hook = await receiver();
    // A localhost name is refused when registered; one stored before that rule is checked when resolved, on every attempt.
    const endpoint = await register(owner, { url: "https://example.com/hook" });
    await server.sql("update webhook_endpoints set url = $1 where id = $2", [`http://localhost:${hook.port}/hook`, endpoint.id]);
    hook.secrets = [endpoint.secret];
    const sent = await testFire(owner, endpoint.id);
    expect(sent.status).toBe("pending");
    expect(sent.attempts[0]!.statusCode).toBeNull();
    expect(sent.attempts[0]!.error).toMatch(/localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
    expect(hook.messages).toHaveLength(0);
  });
});

describe("with only 127.0.0.1 allowed (the receivers) and host names resolved by a local DNS server", () => {
  let dns: DnsServer;
  beforeAll(async () => {
    dns = await startDnsServer();
    // A deployment that allows one private address (here the receivers' 127.0.0.1) and no other.
    server = await startTestServer({
      WEBHOOK_TIMEOUT_MS: "2000",
      ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1",
      OUTBOUND_DNS_SERVERS: dns.address,
    });
  });
  afterAll(async () => {
    await backgroundSettled();
    await server.close();
    await dns.close();
  });

  test("the address checked is the one connected to (no second resolution); a name with any private address is refused", async () => {
    const owner = await registerUser(server);
    const hook = await receiver();
    // The first resolution answers the allowed address; the next one adds a private address (a rebinding name).
    dns.answer("hooks.spolu.test", ["127.0.0.1"], ["127.0.0.1", "10.1.2.3"]);
    const endpoint = await register(owner, { url: `http://hooks.spolu.test:${hook.port}/hook` });
    hook.secrets = [endpoint.secret];
    const first = await testFire(owner, endpoint.id);
    expect(first.status).toBe("succeeded");
    expect(hook.messages).toHaveLength(1);
    // One resolution (its A and AAAA questions) for the one attempt: the connection used what was checked.
    expect(dns.asked.filter((question) => question.endsWith(" hooks.spolu.test")).sort()).toEqual([
      "A hooks.spolu.test",
      "AAAA hooks.spolu.test",
    ]);

    const second = await testFire(owner, endpoint.id);
    expect(second.attempts[0]!.error).toMatch(/hooks\.spolu\.test resolves to 10\.1\.2\.3, a private address/);
    expect(hook.messages).toHaveLength(1);
  });

  test("a redirect to a private address is refused", async () => {
    const owner = await registerUser(server);
    const hook = await receiver();
    const endpoint = await registerFor(owner, hook);
    for (const [location, reason] of [
      [
        "http://169.254.169.254/latest/meta-data",
        /redirect to http:\/\/169\.254\.169\.254\/latest\/meta-data refused: 169\.254\.169\.254 is a link-local address/,
      ],
      [`http://[::1]:${hook.port}/inside`, /refused: ::1 is a loopback address/],
      ["http://[::ffff:10.0.0.1]/", /refused: ::ffff:a00:1 is a private address/],
      ["http://127.0.0.2/", /refused: 127\.0\.0\.2 is a loopback address/],
      ["file:///etc/passwd", /refused: not an http\(s\) URL/],
    ] as const) {
      const before = hook.messages.length;
      hook.redirectNext(location, 1, 302);
      const sent = await testFire(owner, endpoint.id);
      expect(sent.status).toBe("pending");
      expect(sent.attempts[0]!.error).toMatch(reason);
      expect(hook.messages).toHaveLength(before + 1);
    }
  });
});
