/**
 * Personal access tokens: made from a signed-in session and shown once, stored hashed, usable as a bearer token
 * (the API and the socket), limited by their scopes, revoked at once, expired by their date, deleted with the account.
 */
import { createHash } from "node:crypto";
import { io } from "socket.io-client";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { accessTokenListOutput, createdAccessTokenOutput } from "../../lib/auth/access-tokens/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => resetClock());

async function makeToken(sessionToken: string, fields: Record<string, unknown> = {}) {
  const response = await server.request("/api/v1/tokens", {
    token: sessionToken,
    json: { name: "Backup script", scopes: ["read", "write"], ...fields },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdAccessTokenOutput, response.body);
}

const list = async (token: string) => {
  const response = await server.request("/api/v1/tokens", { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(accessTokenListOutput, response.body).items;
};

describe("POST /tokens", () => {
  test("answers the secret once, with a recognisable prefix; only its SHA-256 is stored", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token, { expiresAt: "2099-01-01T00:00:00Z" });
    expect(made.token).toMatch(/^spolu_pat_[A-Za-z0-9_-]{43}$/);
    expect(made).toMatchObject({ name: "Backup script", scopes: ["read", "write"], lastUsedAt: null, expired: false });
    expect(made.expiresAt).toBe("2099-01-01T00:00:00.000Z");
    expect(made.token.startsWith(made.prefix)).toBe(true);

    const rows = await server.sql<{ token_hash: string }>("select token_hash from personal_access_tokens where id = $1", [
      made.id,
    ]);
    expect(rows[0]!.token_hash).toBe(createHash("sha256").update(made.token).digest("hex"));
    expect(JSON.stringify(await server.sql("select * from personal_access_tokens where id = $1", [made.id]))).not.toContain(
      made.token,
    );

    const items = await list(user.token);
    expect(items.map((item) => item.id)).toEqual([made.id]);
    expect(JSON.stringify(items)).not.toContain(made.token);
  });

  test("400 naming the field for bad input: no scopes, an unknown scope, a past expiry, an empty name", async () => {
    const user = await registerUser(server);
    const bad = async (json: unknown, pointer: string) => {
      const problem = expectProblem(
        await server.request("/api/v1/tokens", { token: user.token, json }),
        400,
        "validation_failed",
      );
      expect(problem.errors?.map((error) => error.pointer)).toContain(pointer);
    };
    await bad({ name: "x", scopes: [] }, "/scopes");
    await bad({ name: "x", scopes: ["admin"] }, "/scopes/0");
    await bad({ name: "x", scopes: ["read"], expiresAt: "2001-01-01T00:00:00Z" }, "/expiresAt");
    await bad({ name: "  ", scopes: ["read"] }, "/name");
  });

  test("a personal access token cannot make another one, nor revoke one (403 session_required)", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token);
    expectProblem(
      await server.request("/api/v1/tokens", { token: made.token, json: { name: "Another", scopes: ["read"] } }),
      403,
      "session_required",
    );
    expectProblem(
      await server.request(`/api/v1/tokens/${made.id}`, { method: "DELETE", token: made.token }),
      403,
      "session_required",
    );
    expect(await list(user.token)).toHaveLength(1);
  });
});

describe("Authorization: Bearer spolu_pat_…", () => {
  test("works like a session token: the user's own tasks, and last use is recorded", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token);
    const created = await server.request("/tasks", { token: made.token, json: { title: "Made by a script" } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const seen = await server.request(`/tasks/${created.body.id}`, { token: user.token });
    expect(seen.body.title).toBe("Made by a script");
    expect((await server.request("/auth/me", { token: made.token })).body.email).toBe(user.email);

    const [item] = await list(user.token);
    expect(item!.lastUsedAt).not.toBeNull();
  });

  test("a read token reads but gets 403 insufficient_scope on any write", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token, { title: "Read me" });
    const read = await makeToken(user.token, { scopes: ["read"] });

    expect((await server.request(`/tasks/${task.id}`, { token: read.token })).body.title).toBe("Read me");
    expect((await server.request("/tasks", { token: read.token })).status).toBe(200);
    expectProblem(await server.request("/tasks", { token: read.token, json: { title: "No" } }), 403, "insufficient_scope");
    expectProblem(
      await server.request(`/tasks/${task.id}`, { method: "PATCH", token: read.token, json: { title: "Changed" } }),
      403,
      "insufficient_scope",
    );
    expectProblem(await server.request(`/tasks/${task.id}`, { method: "DELETE", token: read.token }), 403, "insufficient_scope");
    expect((await server.request(`/tasks/${task.id}`, { token: user.token })).body.title).toBe("Read me");
  });

  test("cannot change the password or sign out (403 session_required)", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token);
    expectProblem(
      await server.request("/auth/change-password", {
        token: made.token,
        json: { currentPassword: user.password, newPassword: "another long password 123" },
      }),
      403,
      "session_required",
    );
    expectProblem(await server.request("/auth/logout", { method: "POST", token: made.token }), 403, "session_required");
    expect((await server.request("/auth/login", { json: { email: user.email, password: user.password } })).status).toBe(200);
  });

  test("goes on working after the user signs out everywhere", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token);
    expect((await server.request("/auth/logout?everywhere=true", { method: "POST", token: user.token })).status).toBe(204);
    expectProblem(await server.request("/auth/me", { token: user.token }), 401, "unauthenticated");
    expect((await server.request("/auth/me", { token: made.token })).status).toBe(200);
  });

  test("401 once it has expired", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token, { expiresAt: new Date(Date.now() + 3600_000).toISOString() });
    expect((await server.request("/auth/me", { token: made.token })).status).toBe(200);
    advanceClock(2 * 3600_000);
    expectProblem(await server.request("/auth/me", { token: made.token }), 401, "unauthenticated");
    const [item] = await list(user.token);
    expect(item!.expired).toBe(true);
  });

  test("an unknown or mangled token is a 401", async () => {
    expectProblem(await server.request("/auth/me", { token: `spolu_pat_${"A".repeat(43)}` }), 401, "unauthenticated");
    expectProblem(await server.request("/auth/me", { token: "spolu_pat_short" }), 401, "unauthenticated");
  });

  test("opens the socket like a session token", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token, { scopes: ["read"] });
    const socket = io(server.url, { path: "/ws", auth: { token: made.token }, transports: ["websocket"], reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", resolve);
        socket.on("connect_error", reject);
      });
      const event = new Promise<{ type: string }>((resolve) => socket.on("event", resolve));
      await createTask(server, user.token, { title: "Seen by the socket" });
      expect((await event).type).toBe("task.created");
    } finally {
      socket.close();
    }
  });
});

describe("DELETE /tokens/{id}", () => {
  test("revokes it at once: 401 on its next request", async () => {
    const user = await registerUser(server);
    const made = await makeToken(user.token);
    expect((await server.request("/auth/me", { token: made.token })).status).toBe(200);
    expect((await server.request(`/api/v1/tokens/${made.id}`, { method: "DELETE", token: user.token })).status).toBe(204);
    expectProblem(await server.request("/auth/me", { token: made.token }), 401, "unauthenticated");
    expect(await list(user.token)).toEqual([]);
  });

  test("404 for another user's token, which goes on working", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const made = await makeToken(owner.token);
    expectProblem(await server.request(`/api/v1/tokens/${made.id}`, { method: "DELETE", token: other.token }), 404, "not_found");
    expect(await list(other.token)).toEqual([]);
    expect((await server.request("/auth/me", { token: made.token })).status).toBe(200);
  });
});

test("deleting the account deletes its tokens (which cannot delete it themselves)", async () => {
  const user = await registerUser(server);
  const made = await makeToken(user.token);
  const remove = (token: string) =>
    server.request("/auth/delete-account", { method: "DELETE", token, json: { password: user.password } });
  expectProblem(await remove(made.token), 403, "session_required");
  const deleted = await remove(user.token);
  expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
  expectProblem(await server.request("/auth/me", { token: made.token }), 401, "unauthenticated");
  expect(await server.sql("select id from personal_access_tokens where id = $1", [made.id])).toEqual([]);
});
