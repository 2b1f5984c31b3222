import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { z } from "zod";
import { errorLogOutput, errorStatsOutput } from "../../lib/errors/schema";
import { backgroundJobs } from "../../server/jobs";
import { ADMIN_EMAIL, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
let adminToken: string;
beforeAll(async () => {
  server = await startTestServer({ TRUST_PROXY: "1" });
  adminToken = (await registerUser(server, { email: ADMIN_EMAIL })).token;
});
afterAll(() => server.close());

describe("POST /errors/report", () => {
  test("works without sign-in and links the user when signed in", async () => {
    const anonymous = await server.request("/errors/report", {
      json: { message: "TypeError: x is undefined", url: "/en/tasks", context: { appVersion: "1.2.3" } },
      headers: { "User-Agent": "SpoluTest/1.0" },
    });
    expect(anonymous.status).toBe(202);
    const { token, user } = await registerUser(server);
    expect((await server.request("/errors/report", { token, json: { message: "Board failed to load" } })).status).toBe(202);

    const recent = await server.request("/errors/recent?source=client", { token: adminToken });
    const errors = expectShape(z.array(errorLogOutput), recent.body);
    expect(errors[0]).toMatchObject({ source: "client", message: "Board failed to load", userId: user.id });
    expect(errors[1]).toMatchObject({
      message: "TypeError: x is undefined",
      route: "/en/tasks",
      userId: null,
      userAgent: "SpoluTest/1.0",
      context: { appVersion: "1.2.3" },
    });
  });

  test("limited per client address, signed in or not: the 11th report in 10 minutes is a 429 with the window", async () => {
    const office = { "X-Forwarded-For": "198.51.100.23" };
    const { token } = await registerUser(server);
    for (let i = 0; i < 10; i++) {
      const response = await server.request("/errors/report", { headers: office, json: { message: `report ${i}` } });
      expect(response.status).toBe(202);
      expect(response.headers.get("ratelimit-limit")).toBe("10");
    }
    // A token does not buy more reports from the same address.
    const limited = await server.request("/errors/report", { headers: office, token, json: { message: "one more" } });
    expectProblem(limited, 429, "rate_limited");
    expect(limited.headers.get("ratelimit-remaining")).toBe("0");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(500);
    const stored = await server.sql<{ n: number }>("select count(*)::int as n from error_logs where message = 'one more'");
    expect(stored[0]!.n).toBe(0);
    // Another address is not affected.
    const elsewhere = { "X-Forwarded-For": "198.51.100.24" };
    expect((await server.request("/errors/report", { headers: elsewhere, json: { message: "elsewhere" } })).status).toBe(202);
  });

  test("a designed answer (the Apple placeholder's 501) is not stored as a server error", async () => {
    const before = await server.sql<{ n: number }>("select count(*)::int as n from error_logs where source = 'server'");
    expectProblem(await server.request("/auth/apple"), 501, "not_implemented");
    expect(await server.sql("select count(*)::int as n from error_logs where source = 'server'")).toEqual(before);
  });

  test("a report over 16 KiB is 413 and is not stored", async () => {
    const before = await server.sql<{ n: number }>("select count(*)::int as n from error_logs");
    expectProblem(
      await server.request("/errors/report", { json: { message: "x", stack: "y".repeat(20_000) } }),
      413,
      "payload_too_large",
    );
    expect(await server.sql("select count(*)::int as n from error_logs")).toEqual(before);
  });

  test("an empty or oversized message names the field", async () => {
    const empty = expectProblem(await server.request("/errors/report", { json: { message: "  " } }), 400, "validation_failed");
    expect(empty.errors?.[0]?.pointer).toBe("/message");
    const nested = expectProblem(
      await server.request("/errors/report", { json: { message: "m", context: { deep: { no: 1 } } } }),
      400,
      "validation_failed",
    );
    expect(nested.errors?.[0]?.pointer).toBe("/context/deep");
  });
});

describe("GET /errors/recent and /errors/stats", () => {
  test("recent is newest first and honours limit; limit above 200 is refused", async () => {
    for (const message of ["first", "second", "third"]) await server.request("/errors/report", { json: { message } });
    const recent = await server.request("/errors/recent?limit=2", { token: adminToken });
    expect(recent.body.map((e: { message: string }) => e.message)).toEqual(["third", "second"]);
    const tooMany = expectProblem(
      await server.request("/errors/recent?limit=100000", { token: adminToken }),
      400,
      "validation_failed",
    );
    expect(tooMany.errors?.[0]).toMatchObject({ in: "query", pointer: "/limit" });
  });

  test("stats count by route, status and day", async () => {
    await server.sql(
      `insert into error_logs (source, status, method, route, message, created_at) values
       ('server', 500, 'GET', '/api/v1/tasks', 'a', now()),
       ('server', 500, 'GET', '/api/v1/tasks', 'b', now()),
       ('server', 503, 'GET', '/api/v1/groups', 'c', now() - interval '2 days'),
       ('server', 500, 'GET', '/api/v1/old', 'd', now() - interval '30 days')`,
    );
    const stats = expectShape(errorStatsOutput, (await server.request("/errors/stats?days=7", { token: adminToken })).body);
    expect(stats.byRoute).toContainEqual({ route: "/api/v1/tasks", count: 2 });
    expect(stats.byRoute).toContainEqual({ route: "/api/v1/groups", count: 1 });
    expect(stats.byRoute.find((r) => r.route === "/api/v1/old")).toBeUndefined();
    expect(stats.byStatus).toContainEqual({ status: 503, count: 1 });
    const today = new Date().toISOString().slice(0, 10);
    expect(stats.byDay.find((d) => d.day === today)?.count).toBeGreaterThanOrEqual(2);
    expect(stats.total).toBe(stats.byDay.reduce((sum, d) => sum + d.count, 0));
  });
});

describe("the prune-error-logs job", () => {
  test("deletes entries older than ERROR_LOG_RETENTION_DAYS (30) and keeps the rest", async () => {
    await server.sql(
      `insert into error_logs (source, message, created_at) values
       ('server', 'ancient', now() - interval '31 days'), ('client', 'recent', now() - interval '29 days')`,
    );
    await backgroundJobs()
      .find((job) => job.name === "prune-error-logs")!
      .run(AbortSignal.timeout(30_000));
    const left = await server.sql<{ message: string }>("select message from error_logs where message in ('ancient', 'recent')");
    expect(left).toEqual([{ message: "recent" }]);
  });
});
