/**
 * Cross-site request forgery with the session cookie, over every operation of /openapi.json that changes something:
 * sent from another site's page (its Origin, `Origin: null`, or only `Sec-Fetch-Site: cross-site`) with the cookie,
 * each is a 403 `cross_origin_request` problem before anything runs; the same request from the app's own origin,
 * with a bearer token, or from a client that is not a browser is not refused for that. The body-less changes the
 * audit reproduced are checked to change nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SESSION_COOKIE } from "../../lib/auth/actor";
import {
  ADMIN_EMAIL,
  createTask,
  expectProblem,
  registerUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from "./harness";
import { fillPath, operationsOf, sample, type OpenApiDocument, type Operation } from "./openapi-operations";

let server: TestServer;
let document: OpenApiDocument;
/** The app's public address: its pages live here, not at the loopback address the tests connect to. */
const APP_URL = "https://spolu.example";
const TRUSTED = "https://app.spolu.example";

beforeAll(async () => {
  server = await startTestServer({ APP_URL, TRUSTED_ORIGINS: TRUSTED, ERROR_REPORT_LIMIT_POINTS: "100000" });
  document = (await server.request("/openapi.json")).body;
});
afterAll(() => server.close());

const UNSAFE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
/** Signing out and deleting the account end the session the rest of a run uses: they go last. */
const ENDS_SESSION = /\/(logout|delete-account)$/;

function unsafeOperations(): Operation[] {
  const operations = operationsOf(document).filter((operation) => UNSAFE.has(operation.method));
  return [...operations.filter((op) => !ENDS_SESSION.test(op.path)), ...operations.filter((op) => ENDS_SESSION.test(op.path))];
}

async function send(operation: Operation, headers: Record<string, string>): Promise<ApiResponse> {
  const body = operation.body ? JSON.stringify(sample(document, operation.body)) : undefined;
  return server.request(fillPath(document, operation), {
    method: operation.method,
    body,
    headers: { ...(body !== undefined && { "Content-Type": "application/json" }), ...headers },
  });
}

const cookie = (token: string) => ({ Cookie: `${SESSION_COOKIE}=${token}` });
const isCrossOriginRefusal = (response: ApiResponse) => response.status === 403 && response.body?.code === "cross_origin_request";

describe("every unsafe operation of /openapi.json with the session cookie", () => {
  test("there are many to check, signed-in and public ones", () => {
    const operations = unsafeOperations();
    expect(operations.length).toBeGreaterThan(80);
    expect(operations.some((operation) => !operation.signedIn)).toBe(true);
  });

  test("from another site (its Origin, Origin: null, a sibling subdomain, or Sec-Fetch-Site alone) is a 403 problem", async () => {
    const { token } = await registerUser(server, { email: ADMIN_EMAIL });
    const attacks: Record<string, string>[] = [
      { Origin: "https://evil.example" },
      { Origin: "null" },
      { Origin: "https://evil.spolu.example" },
      { Origin: "http://spolu.example" },
      { "Sec-Fetch-Site": "cross-site" },
      { "Sec-Fetch-Site": "same-site" },
    ];
    const failures: string[] = [];
    for (const operation of unsafeOperations()) {
      for (const attack of attacks) {
        const response = await send(operation, { ...cookie(token), ...attack });
        if (!isCrossOriginRefusal(response) || !/^application\/problem\+json/.test(response.headers.get("content-type") ?? "")) {
          failures.push(`${operation.method} ${operation.path} ${JSON.stringify(attack)} → ${response.status}`);
        }
      }
    }
    expect(failures, failures.join("\n")).toEqual([]);
    // None of it signed the user out.
    expect((await server.request("/auth/me", { token })).status).toBe(200);
  });

  // Four requests for every operation that changes something: more than vitest's 30 s on a busy machine.
  test(
    "from the app's own origins, with a bearer token, or from a client that is not a browser: not refused for that",
    {
      timeout: 120_000,
    },
    async () => {
      const { token } = await registerUser(server, { email: `other-${ADMIN_EMAIL}` });
      const fine: Record<string, string>[] = [
        { ...cookie(token), Origin: APP_URL, "Sec-Fetch-Site": "same-origin" },
        { ...cookie(token), Origin: TRUSTED },
        { ...cookie(token), Origin: server.url },
        { ...cookie(token), "Sec-Fetch-Site": "same-origin" },
        { ...cookie(token) },
        { Authorization: `Bearer ${token}`, Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
        { Origin: "https://evil.example" },
      ];
      const failures: string[] = [];
      for (const operation of unsafeOperations()) {
        for (const headers of fine) {
          const response = await send(operation, headers);
          if (isCrossOriginRefusal(response) || response.status >= 500) {
            failures.push(
              `${operation.method} ${operation.path} ${JSON.stringify({ ...headers, Cookie: undefined })} → ${response.status}`,
            );
          }
        }
      }
      expect(failures, failures.join("\n")).toEqual([]);
    },
  );
});

describe("with an https APP_URL", () => {
  test("every API answer, success or problem, carries HSTS", async () => {
    for (const path of ["/healthz", "/api/v1/auth/me", "/api/v1/no-such-thing", "/openapi.json"]) {
      expect((await server.request(path)).headers.get("strict-transport-security"), path).toBe("max-age=31536000");
    }
  });
});

describe("the body-less changes the audit reproduced cross-site", () => {
  test("accepting a request, rotating a webhook secret, reading notifications, stopping a timer, signing out everywhere: nothing changes", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const evil = { ...cookie(bob.token), Origin: "https://evil.example" };
    const task = await createTask(server, alice.token);

    const asked = await server.request(`/api/v1/tasks/${task.id}/collaboration-requests`, {
      token: alice.token,
      json: { kind: "collaborate", userId: bob.user.id },
    });
    expect(asked.status, JSON.stringify(asked.body)).toBe(201);
    expectProblem(
      await server.request(`/api/v1/collaboration-requests/${asked.body.id}/accept`, { method: "POST", headers: evil }),
      403,
      "cross_origin_request",
    );
    expect((await server.request(`/api/v1/collaboration-requests/${asked.body.id}`, { token: bob.token })).body.state).toBe(
      "pending",
    );

    // The request's notification is written by the event log's consumer, after the commit.
    const unreadCount = async () =>
      (await server.request("/api/v1/notifications/unread-count", { token: bob.token })).body.unread as number;
    await expect.poll(unreadCount).toBeGreaterThan(0);
    const unread = await unreadCount();
    expectProblem(
      await server.request("/api/v1/notifications/read-all", { method: "POST", headers: evil }),
      403,
      "cross_origin_request",
    );
    // Nothing was marked read (more may still arrive, none may go).
    expect(await unreadCount()).toBeGreaterThanOrEqual(unread);

    const bobTask = await createTask(server, bob.token);
    expect((await server.request(`/api/v1/tasks/${bobTask.id}/timer/start`, { method: "POST", token: bob.token })).status).toBe(
      200,
    );
    expectProblem(await server.request("/api/v1/timer/stop", { method: "POST", headers: evil }), 403, "cross_origin_request");
    expect((await server.request("/api/v1/timer", { token: bob.token })).body).toMatchObject({ running: { taskId: bobTask.id } });

    const hook = await server.request("/api/v1/webhooks", {
      token: bob.token,
      json: { url: "https://hooks.example/spolu", events: ["task.created"] },
    });
    expect(hook.status, JSON.stringify(hook.body)).toBe(201);
    expectProblem(
      await server.request(`/api/v1/webhooks/${hook.body.id}/rotate-secret`, { method: "POST", headers: evil }),
      403,
      "cross_origin_request",
    );

    expectProblem(
      await server.request("/api/v1/auth/logout?everywhere=true", { method: "POST", headers: evil }),
      403,
      "cross_origin_request",
    );
    expect((await server.request("/api/v1/auth/me", { token: bob.token })).status).toBe(200);
  });
});
