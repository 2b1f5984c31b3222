import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { expectProblem, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({
    RATE_LIMIT_POINTS: "8",
    RATE_LIMIT_WINDOW_SECONDS: "60",
    AUTH_RATE_LIMIT_POINTS: "4",
    AUTH_RATE_LIMIT_WINDOW_SECONDS: "60",
    TRUST_PROXY: "1",
  });
});
afterAll(() => server.close());

/** Each test speaks from its own address (TRUST_PROXY=1 honours the last X-Forwarded-For entry). */
let nextAddress = 1;
const newAddress = () => `203.0.113.${nextAddress++}`;

describe("general limit", () => {
  test("429 with Retry-After and RateLimit headers once a user's window is used, keyed per user", async () => {
    const ip = newAddress();
    const headers = { "X-Forwarded-For": ip };
    const alice = await registerUser(server, {}).then((u) => u);
    const bob = await registerUser(server);
    let last;
    for (let i = 0; i < 8; i++) {
      last = await server.request("/auth/me", { token: alice.token, headers });
      expect(last.status).toBe(200);
    }
    expect(last!.headers.get("ratelimit-limit")).toBe("8");
    expect(last!.headers.get("ratelimit-remaining")).toBe("0");
    const limited = await server.request("/auth/me", { token: alice.token, headers });
    expectProblem(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(60);
    // Same address, another user: a separate window.
    expect((await server.request("/auth/me", { token: bob.token, headers })).status).toBe(200);
  });

  test("signed out, the window is per client address", async () => {
    const first = { "X-Forwarded-For": `198.51.100.7, ${newAddress()}` };
    for (let i = 0; i < 8; i++) expect((await server.request("/auth/me", { headers: first })).status).toBe(401);
    expectProblem(await server.request("/auth/me", { headers: first }), 429, "rate_limited");
    expect((await server.request("/auth/me", { headers: { "X-Forwarded-For": newAddress() } })).status).toBe(401);
  });

  test("health checks are never limited", async () => {
    const headers = { "X-Forwarded-For": newAddress() };
    for (let i = 0; i < 12; i++) expect((await server.request("/healthz", { headers })).status).toBe(200);
  });
});

describe("strict limit on sign-in", () => {
  test("per address: the fifth login attempt within the window is 429", async () => {
    const headers = { "X-Forwarded-For": newAddress() };
    for (let i = 0; i < 4; i++) {
      const response = await server.request("/auth/login", {
        headers,
        json: { email: `x${i}@example.com`, password: "wrong password" },
      });
      expect(response.status).toBe(401);
    }
    const limited = await server.request("/auth/login", {
      headers,
      json: { email: "y@example.com", password: "wrong password" },
    });
    expectProblem(limited, 429, "rate_limited");
    expect(limited.headers.get("retry-after")).toBeTruthy();
  });

  test("per account: after repeated failures from many addresses even the right password is refused", async () => {
    const { email, password } = await registerUser(server, {});
    for (let i = 0; i < 4; i++) {
      const response = await server.request("/auth/login", {
        headers: { "X-Forwarded-For": newAddress() },
        json: { email, password: "wrong password" },
      });
      expect(response.status).toBe(401);
    }
    const limited = await server.request("/auth/login", {
      headers: { "X-Forwarded-For": newAddress() },
      json: { email, password },
    });
    expectProblem(limited, 429, "rate_limited");
  });
});
