import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { limiter } from "../../lib/rate-limit/limiter";
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
    // The 429 tells the window like every other answer does.
    expect(limited.headers.get("ratelimit-limit")).toBe("8");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("ratelimit-reset"))).toBe(Number(limited.headers.get("retry-after")));
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

describe("cacheable GETs answered before routing (GET /tasks, GET /board: lib/api/cached-get.ts)", () => {
  test("each request is counted once, whichever path answers it: hit, miss, refused query, over the limit", async () => {
    const alice = await registerUser(server);
    const used = () => limiter("general").used(`user:${alice.user.id}`);
    const get = (path: string) => server.request(path, { token: alice.token });
    const before = await used();
    expect((await get("/api/v1/tasks")).headers.get("x-cache")).toBe("MISS");
    expect((await get("/api/v1/tasks")).headers.get("x-cache")).toBe("HIT");
    expect((await get("/api/v1/board")).headers.get("x-cache")).toBe("MISS");
    const hit = await get("/api/v1/board");
    expect(hit.headers.get("x-cache")).toBe("HIT");
    expect(hit.headers.get("ratelimit-remaining")).toBe(String(8 - before - 4));
    expectProblem(await get("/api/v1/tasks?limit=0"), 400, "validation_failed"); // handed on to the API
    expect(await used()).toBe(before + 5);

    while ((await used()) < 8) expect((await get("/api/v1/tasks")).status).toBe(200);
    // Over the limit: a hit and a miss, refused by the fast path's count and answered by the API without another.
    const limited = expectProblem(await get("/api/v1/tasks"), 429, "rate_limited");
    expect(limited.detail).toMatch(/try again/);
    expectProblem(await get("/api/v1/board?limit=7"), 429, "rate_limited");
    expect(await used()).toBe(10);
  });

  test("a read that fails is a 500 problem with the request's id, counted once; the next request reads again", async () => {
    const bob = await registerUser(server);
    const used = () => limiter("general").used(`user:${bob.user.id}`);
    const before = await used();
    await server.sql("alter table tasks rename to tasks_away");
    try {
      const failed = await server.request("/api/v1/tasks", { token: bob.token, headers: { "X-Request-Id": "broken-read" } });
      expectProblem(failed, 500, "internal");
      expect(failed.headers.get("x-request-id")).toBe("broken-read");
    } finally {
      await server.sql("alter table tasks_away rename to tasks");
    }
    expect(await used()).toBe(before + 1);
    const again = await server.request("/api/v1/tasks", { token: bob.token });
    expect([again.status, again.headers.get("x-cache")]).toEqual([200, "MISS"]);
  });
});

describe("failed sign-ins (an office shares one address)", () => {
  /** The default limits, but for the account's hourly cap (8 instead of 50). */
  let office: TestServer;
  beforeAll(async () => {
    office = await startTestServer({ TRUST_PROXY: "1", LOGIN_ACCOUNT_FAILURES_PER_HOUR: "8" });
  });
  afterAll(() => office.close());
  /** Registers from an address of its own (registration has its per-address budget), answers email and password. */
  const someone = async () => {
    const account = { email: `person-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
    const response = await office.request("/auth/register", { headers: { "X-Forwarded-For": newAddress() }, json: account });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return account;
  };
  const login = (email: string, password: string, address: string) =>
    office.request("/auth/login", { headers: { "X-Forwarded-For": address }, json: { email, password } });

  test("a dozen people signing in from one office address are never held up, typos included", async () => {
    const shared = newAddress();
    const people = await Promise.all(Array.from({ length: 12 }, () => someone()));
    for (const person of people) {
      expect((await login(person.email, "a typo", shared)).status).toBe(401);
      const response = await login(person.email, person.password, shared);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
  });

  test("per account and address: the sixth try after five failures waits ~15 minutes, even with the right password; nobody else does", async () => {
    const shared = newAddress();
    const victim = await someone();
    const colleague = await someone();
    for (let i = 0; i < 5; i++) expect((await login(victim.email, `guess ${i}`, shared)).status).toBe(401);
    const limited = await login(victim.email, victim.password, shared);
    expectProblem(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(800);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(900);
    expect(limited.headers.get("ratelimit-limit")).toBe("5");
    // The owner elsewhere, and a colleague at the same office, sign in.
    expect((await login(victim.email, victim.password, newAddress())).status).toBe(200);
    expect((await login(colleague.email, colleague.password, shared)).status).toBe(200);
  });

  test("per account from any addresses: after LOGIN_ACCOUNT_FAILURES_PER_HOUR failures even the right password is refused", async () => {
    const { email, password } = await someone();
    for (let i = 0; i < 8; i++) expect((await login(email, "wrong password", newAddress())).status).toBe(401);
    expectProblem(await login(email, password, newAddress()), 429, "rate_limited");
  });
});

describe("failed sign-ins, with short windows", () => {
  let quick: TestServer;
  beforeAll(async () => {
    quick = await startTestServer({
      TRUST_PROXY: "1",
      LOGIN_FAILURE_LIMIT: "2",
      LOGIN_FAILURE_WINDOW_SECONDS: "2",
      LOGIN_LOCKOUT_FAILURES: "4",
      LOGIN_ADDRESS_FAILURES_PER_HOUR: "6",
    });
  });
  afterAll(() => quick.close());
  const login = (email: string, password: string, address: string) =>
    quick.request("/auth/login", { headers: { "X-Forwarded-For": address }, json: { email, password } });

  test("repeated failures from one address earn the longer lockout (until the day is over)", async () => {
    const { email, password } = await registerUser(quick);
    const address = "192.0.2.10";
    for (let i = 0; i < 2; i++) expect((await login(email, "wrong", address)).status).toBe(401);
    const short = await login(email, password, address);
    expectProblem(short, 429, "rate_limited");
    const wait = Number(short.headers.get("retry-after"));
    expect(wait).toBeLessThanOrEqual(2);
    // The short lockout runs out (Retry-After said when): two more failures reach the day's four.
    await new Promise((resolve) => setTimeout(resolve, wait * 1000 + 100));
    for (let i = 0; i < 2; i++) expect((await login(email, "wrong again", address)).status).toBe(401);
    const long = await login(email, password, address);
    expectProblem(long, 429, "rate_limited");
    expect(Number(long.headers.get("retry-after"))).toBeGreaterThan(80_000);
  });

  test("one address spraying many accounts is stopped at LOGIN_ADDRESS_FAILURES_PER_HOUR", async () => {
    const sprayer = "192.0.2.20";
    for (let i = 0; i < 6; i++) expect((await login(`nobody-${i}@example.com`, "password1", sprayer)).status).toBe(401);
    const { email, password } = await registerUser(quick);
    expectProblem(await login(email, password, sprayer), 429, "rate_limited");
    expect((await login(email, password, "192.0.2.21")).status).toBe(200);
  });
});
