/**
 * Sessions: each sign-in is one, listed with its device, browser, address and times; signing out ends that token at
 * once (on every process: see the last test), ending one from the list ends it, a password change or an
 * administrator's disabling ends them all, and a token that would outlive JWT_TTL_SECONDS is refused however well
 * it is signed.
 */
import { randomUUID } from "node:crypto";
import { tmpdir } from "node:os";
import { SignJWT } from "jose";
import { io } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { sessionListOutput } from "../../lib/auth/sessions/schema";
import { ADMIN_EMAIL, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";
import { TEMPLATE_DATABASE, adminUrl, withAdminClient } from "./postgres";
import { killSpawnedServers, spawnServer } from "./spawned-server";

const JWT_SECRET = `sessions-test-${randomUUID()}`;
const TTL_SECONDS = 3600;
const CHROME_ON_MAC =
  "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36";
const SAFARI_ON_IPHONE =
  "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ JWT_SECRET, JWT_TTL_SECONDS: String(TTL_SECONDS), TRUST_PROXY: "1" });
});
afterAll(async () => {
  killSpawnedServers();
  await server.close();
});

/** Signs in again as the user, from a device (User-Agent) and an address. */
async function signInFrom(account: { email: string; password: string }, userAgent: string, address: string) {
  const response = await server.request("/auth/login", {
    json: { email: account.email, password: account.password },
    headers: { "User-Agent": userAgent, "X-Forwarded-For": address },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.token as string;
}

const me = (token: string) => server.request("/auth/me", { token });
const sessions = async (token: string) => {
  const response = await server.request("/auth/sessions", { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(sessionListOutput, response.body).items;
};

describe("POST /auth/logout", () => {
  test("ends that token at once; the user's other sessions go on", async () => {
    const account = await registerUser(server);
    const laptop = await signInFrom(account, CHROME_ON_MAC, "198.51.100.1");
    const phone = await signInFrom(account, SAFARI_ON_IPHONE, "198.51.100.2");
    expect((await me(laptop)).status).toBe(200);

    expect((await server.request("/auth/logout", { method: "POST", token: laptop })).status).toBe(204);
    expectProblem(await me(laptop), 401, "unauthenticated");
    expect((await me(phone)).status).toBe(200);
    expect((await me(account.token)).status).toBe(200);
  });

  test("the signed-out token no longer opens the socket", async () => {
    const account = await registerUser(server);
    const token = await signInFrom(account, CHROME_ON_MAC, "198.51.100.3");
    expect((await server.request("/auth/logout", { method: "POST", token })).status).toBe(204);
    const socket = io(server.url, { path: "/ws", transports: ["websocket"], auth: { token }, reconnection: false });
    try {
      const outcome = await new Promise<string>((resolve) => {
        socket.on("connect", () => resolve("connected"));
        socket.on("connect_error", (error) => resolve(error.message));
      });
      expect(outcome).toBe("unauthenticated");
    } finally {
      socket.disconnect();
    }
  });
});

describe("GET /auth/sessions and DELETE /auth/sessions/{id}", () => {
  test("lists each sign-in with its device, browser, address and times, the current one marked; never another user's", async () => {
    const account = await registerUser(server);
    const laptop = await signInFrom(account, CHROME_ON_MAC, "198.51.100.10");
    const phone = await signInFrom(account, SAFARI_ON_IPHONE, "198.51.100.11");
    const stranger = await registerUser(server);

    const listed = await sessions(laptop);
    expect(listed).toHaveLength(3); // registration, laptop, phone
    const current = listed.find((session) => session.current)!;
    expect(current).toMatchObject({
      method: "password",
      browser: "Chrome 131",
      os: expect.stringMatching(/^macOS/),
      deviceType: "desktop",
      userAgent: CHROME_ON_MAC,
      ipAddress: "198.51.100.10",
    });
    expect(Math.abs(Date.parse(current.expiresAt) - Date.parse(current.createdAt) - TTL_SECONDS * 1000)).toBeLessThan(1000);
    expect(Date.parse(current.lastUsedAt)).toBeGreaterThanOrEqual(Date.parse(current.createdAt));
    expect(listed.filter((session) => session.current)).toHaveLength(1);
    expect(listed).toContainEqual(
      expect.objectContaining({ browser: "Safari 17", os: "iOS 17.5", deviceType: "mobile", ipAddress: "198.51.100.11" }),
    );
    expect(listed).toContainEqual(expect.objectContaining({ method: "registration" }));
    expect((await sessions(phone)).find((session) => session.current)!.ipAddress).toBe("198.51.100.11");
    expect((await sessions(stranger.token)).map((session) => session.id)).not.toContain(current.id);
  });

  test("ending one stops its token at once; another user's session or an ended one is 404", async () => {
    const account = await registerUser(server);
    const laptop = await signInFrom(account, CHROME_ON_MAC, "198.51.100.20");
    const phone = await signInFrom(account, SAFARI_ON_IPHONE, "198.51.100.21");
    const phoneSession = (await sessions(phone)).find((session) => session.current)!;
    const stranger = await registerUser(server);

    expectProblem(
      await server.request(`/api/v1/auth/sessions/${phoneSession.id}`, { method: "DELETE", token: stranger.token }),
      404,
      "not_found",
    );
    expect((await me(phone)).status).toBe(200);

    expect((await server.request(`/api/v1/auth/sessions/${phoneSession.id}`, { method: "DELETE", token: laptop })).status).toBe(
      204,
    );
    expectProblem(await me(phone), 401, "unauthenticated");
    expect((await me(laptop)).status).toBe(200);
    expect((await sessions(laptop)).map((session) => session.id)).not.toContain(phoneSession.id);
    expectProblem(
      await server.request(`/api/v1/auth/sessions/${phoneSession.id}`, { method: "DELETE", token: laptop }),
      404,
      "not_found",
    );
  });

  test("ending the current one signs out here: the cookie is cleared and the token refused", async () => {
    const account = await registerUser(server);
    const token = await signInFrom(account, CHROME_ON_MAC, "198.51.100.30");
    const current = (await sessions(token)).find((session) => session.current)!;
    const ended = await server.request(`/api/v1/auth/sessions/${current.id}`, { method: "DELETE", token });
    expect(ended.status).toBe(204);
    expect(ended.headers.getSetCookie().join("\n")).toMatch(/spolu_session=;.*Max-Age=0/i);
    expectProblem(await me(token), 401, "unauthenticated");
  });
});

describe("ending every session", () => {
  test("a password change ends them all; the new token is the only session", async () => {
    const account = await registerUser(server);
    const phone = await signInFrom(account, SAFARI_ON_IPHONE, "198.51.100.40");
    const changed = await server.request("/auth/change-password", {
      token: account.token,
      json: { currentPassword: account.password, newPassword: "an entirely new password" },
    });
    expect(changed.status).toBe(200);
    expectProblem(await me(phone), 401, "unauthenticated");
    expectProblem(await me(account.token), 401, "unauthenticated");
    expect((await sessions(changed.body.token)).map((session) => session.method)).toEqual(["password-change"]);
  });

  test("an administrator disabling the account ends them all; enabled again, none comes back", async () => {
    const admin = await registerUser(server, { email: ADMIN_EMAIL });
    const account = await registerUser(server);
    const phone = await signInFrom(account, SAFARI_ON_IPHONE, "198.51.100.50");
    const disable = await server.request(`/api/v1/admin/users/${account.user.id}/disable`, {
      method: "POST",
      token: admin.token,
    });
    expect(disable.status).toBe(200);
    expectProblem(await me(phone), 401, "unauthenticated");
    await server.request(`/api/v1/admin/users/${account.user.id}/enable`, { method: "POST", token: admin.token });
    expectProblem(await me(phone), 401, "unauthenticated");
    const again = await signInFrom(account, CHROME_ON_MAC, "198.51.100.51");
    expect((await sessions(again)).map((session) => session.ipAddress)).toEqual(["198.51.100.51"]);
  });

  test("POST /auth/logout?everywhere=true ends them all", async () => {
    const account = await registerUser(server);
    const phone = await signInFrom(account, SAFARI_ON_IPHONE, "198.51.100.60");
    expect((await server.request("/auth/logout?everywhere=true", { method: "POST", token: account.token })).status).toBe(204);
    expectProblem(await me(phone), 401, "unauthenticated");
    expect(
      await server.sql("select count(*)::int as n from sessions where user_id = $1 and ended_at is null", [account.user.id]),
    ).toEqual([{ n: 0 }]);
  });
});

describe("token lifetime", () => {
  test("a well-signed token for a live session is refused when it would live longer than JWT_TTL_SECONDS", async () => {
    const account = await registerUser(server);
    const [session] = await server.sql<{ id: string }>("select id from sessions where user_id = $1", [account.user.id]);
    const forge = (lifetime: number) => {
      const issued = Math.floor(Date.now() / 1000) - 10;
      return new SignJWT({ ver: 0, sid: session!.id })
        .setProtectedHeader({ alg: "HS256", typ: "JWT" })
        .setSubject(account.user.id)
        .setIssuer("spolu")
        .setAudience("spolu:session")
        .setIssuedAt(issued)
        .setExpirationTime(issued + lifetime)
        .sign(new TextEncoder().encode(JWT_SECRET));
    };
    expect((await me(await forge(TTL_SECONDS))).status).toBe(200);
    expectProblem(await me(await forge(TTL_SECONDS + 1)), 401, "unauthenticated");
    expectProblem(await me(await forge(365 * 24 * 3600)), 401, "unauthenticated");
  });
});

describe("two processes sharing PostgreSQL and Redis", () => {
  test.runIf(process.env.DATABASE_URL && process.env.REDIS_URL)(
    "a sign-out through one process stops the token at once on the other, which had it cached",
    async () => {
      const base = process.env.DATABASE_URL!;
      const name = `spolu_sessions_${randomUUID().replaceAll("-", "")}`;
      await withAdminClient(base, (client) => client.query(`create database ${name} template ${TEMPLATE_DATABASE}`));
      try {
        const env = {
          DATABASE_URL: adminUrl(base, name),
          JWT_SECRET: "z".repeat(40),
          DATA_DIR: tmpdir(),
          REDIS_PREFIX: `spolu-sessions-${randomUUID()}:`,
          RUN_JOBS: "false",
        };
        const [first, second] = await Promise.all([spawnServer(env), spawnServer(env)].map((s) => s.ready));
        const register = await fetch(`${first}/auth/register`, {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({ email: "two@example.com", password: "two processes" }),
        });
        const { token } = await register.json();
        const meAt = async (url: string) =>
          (await fetch(`${url}/auth/me`, { headers: { Authorization: `Bearer ${token}` } })).status;
        expect(await meAt(second!)).toBe(200);
        expect(await meAt(second!)).toBe(200); // now cached there
        const out = await fetch(`${first}/auth/logout`, { method: "POST", headers: { Authorization: `Bearer ${token}` } });
        expect(out.status).toBe(204);
        expect(await meAt(second!)).toBe(401);
        expect(await meAt(first!)).toBe(401);
      } finally {
        killSpawnedServers();
        await withAdminClient(base, (client) => client.query(`drop database if exists ${name} with (force)`));
      }
    },
    90_000,
  );
});
