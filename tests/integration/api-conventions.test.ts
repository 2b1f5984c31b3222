import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test, vi } from "vitest";
import { ADMIN_EMAIL, expectProblem, registerUser, startTestServer, type ApiResponse, type TestServer } from "./harness";
import { fillPath, operationsOf, type OpenApiDocument } from "./openapi-operations";

let server: TestServer;
beforeAll(async () => {
  // Debug logging on, so that the test below sees everything the server would log.
  server = await startTestServer({ BODY_LIMIT_BYTES: "65536", LOG_LEVEL: "debug", ACCESS_LOG: "false" });
});
afterAll(() => server.close());

describe("request bodies", () => {
  test("malformed JSON is a 400 problem, never a 500", async () => {
    const problem = expectProblem(
      await server.request("/auth/login", {
        body: '{"email": "a@b.c", "password": ',
        headers: { "Content-Type": "application/json" },
      }),
      400,
      "bad_request",
    );
    expect(problem.detail).toMatch(/JSON/);
  });

  test("a body that is not application/json is 415", async () => {
    const response = await server.request("/auth/login", {
      body: "email=a@b.c&password=secret",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expectProblem(response, 415, "unsupported_media_type");
    expectProblem(
      await server.request("/auth/register", { body: "{}", headers: { "Content-Type": "text/plain" } }),
      415,
      "unsupported_media_type",
    );
  });

  test("a body over BODY_LIMIT_BYTES is 413", async () => {
    const response = await server.request("/auth/register", {
      json: { email: "big@example.com", password: "x".repeat(100_000) },
    });
    expectProblem(response, 413, "payload_too_large");
    expect(await server.sql("select 1 from users where email = 'big@example.com'")).toEqual([]);
  });

  /** A request whose body is given as bytes (the harness sends strings). */
  async function sendBytes(path: string, body: Uint8Array, headers: Record<string, string>): Promise<ApiResponse> {
    const response = await fetch(server.url + path, {
      method: "POST",
      body: new Blob([body as Uint8Array<ArrayBuffer>]),
      headers: { "Content-Type": "application/json", ...headers },
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : text };
  }

  test("Content-Encoding: gzip is decoded; a body that is not gzip is a 400, other codings 415", async () => {
    const email = `gzip-${Date.now()}@example.com`;
    const json = JSON.stringify({ email, password: "a long enough password" });
    const registered = await sendBytes("/auth/register", gzipSync(json), { "Content-Encoding": "gzip" });
    expect(registered.status, JSON.stringify(registered.body)).toBe(201);
    expect(registered.body.user.email).toBe(email);

    // Plain JSON that claims to be gzip is refused, not read as plain.
    const plain = JSON.stringify({ email: `not-gzip-${Date.now()}@example.com`, password: "a long enough password" });
    const notGzip = await sendBytes("/auth/register", new TextEncoder().encode(plain), { "Content-Encoding": "gzip" });
    expect(expectProblem(notGzip, 400, "bad_request").detail).toMatch(/gzip/);
    expect(await server.sql("select 1 from users where email like 'not-gzip-%'")).toEqual([]);

    expectProblem(
      await sendBytes("/auth/register", gzipSync(plain), { "Content-Encoding": "br" }),
      415,
      "unsupported_media_type",
    );
  });

  test("a gzip body that inflates past BODY_LIMIT_BYTES is 413, however small it was sent", async () => {
    const bomb = gzipSync(JSON.stringify({ email: "bomb@example.com", password: "x".repeat(2_000_000) }));
    expect(bomb.byteLength).toBeLessThan(65536);
    expectProblem(await sendBytes("/auth/register", bomb, { "Content-Encoding": "gzip" }), 413, "payload_too_large");
  });

  test("a JSON array or null where an object belongs is a 400, not a 500", async () => {
    for (const body of ["[]", "null", '"text"', "12"]) {
      const response = await server.request("/auth/login", { body, headers: { "Content-Type": "application/json" } });
      expect([400], `${body}: ${JSON.stringify(response.body)}`).toContain(response.status);
    }
  });
});

describe("paths", () => {
  test("every spec path answers at the site root exactly as under /api/v1", async () => {
    const { token } = await registerUser(server);
    const root = await server.request("/auth/me", { token });
    const prefixed = await server.request("/api/v1/auth/me", { token });
    expect(root.status).toBe(200);
    expect(prefixed.body).toEqual(root.body);
    expect((await server.request("/healthz")).body).toEqual((await server.request("/api/v1/healthz")).body);
  });

  test("an unknown API path is a 404 problem", async () => {
    expectProblem(await server.request("/api/v1/no-such-thing"), 404, "not_found");
    expectProblem(await server.request("/auth/no-such-thing"), 404, "not_found");
  });

  test("every documented path asked with a method it does not answer is a 405 naming the methods in Allow", async () => {
    const document: OpenApiDocument = (await server.request("/openapi.json")).body;
    const checked: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const operation = operationsOf({ ...document, paths: { [path]: item } })[0]!;
      const url = fillPath(document, operation);
      const documented = Object.keys(item).map((method) => method.toUpperCase());
      const method = ["PATCH", "PUT", "DELETE", "POST", "GET"].find((candidate) => !documented.includes(candidate))!;
      const response = await server.request(url, { method });
      // Another documented path may match the same URL (`/auth/{provider}` and `/auth/me`): then it answers.
      if (response.status !== 405) {
        expect(response.status, `${method} ${url}`).not.toBe(404);
        continue;
      }
      const allow = response.headers.get("allow")?.split(", ") ?? [];
      expectProblem(response, 405, "method_not_allowed");
      expect(allow, `${method} ${url}`).toEqual(expect.arrayContaining(documented));
      expect(allow).not.toContain(method);
      checked.push(`${method} ${path}`);
    }
    expect(checked.length).toBeGreaterThan(50);
    expect(checked).toContain("PATCH /api/v1/auth/login");
  });

  test("a page path with a malformed % is a 400 problem, not a plain-text 500", async () => {
    for (const path of ["/%", "/en/tasks/%E0%A4%A", "/%zz?x=1"]) {
      const response = await server.request(path);
      expectProblem(response, 400, "bad_request");
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
    }
  });

  test("TRACE is refused with 405", async () => {
    const response = await fetch(`${server.url}/healthz`, { method: "TRACE" }).catch(() => null);
    // undici refuses to send TRACE itself; the server must refuse it too.
    if (response) expect(response.status).toBe(405);
    const { request } = await import("node:http");
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${server.url}/api/v1/healthz`, { method: "TRACE" }, (res) => resolve(res.statusCode ?? 0));
      req.on("error", reject);
      req.end();
    });
    expect(status).toBe(405);
  });
});

describe("response headers", () => {
  test("every answer has a request id (the caller's when sane), security headers, and no X-Powered-By", async () => {
    const given = await server.request("/healthz", { headers: { "X-Request-Id": "trace-123" } });
    expect(given.headers.get("x-request-id")).toBe("trace-123");
    const generated = await server.request("/healthz", { headers: { "X-Request-Id": "bad id with spaces" } });
    expect(generated.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(generated.headers.get("x-content-type-options")).toBe("nosniff");
    expect(generated.headers.get("x-powered-by")).toBeNull();
    expect(generated.headers.get("content-type")).toBe("application/json; charset=utf-8");
  });

  test("no HSTS while the public address is not https (tests/integration/cross-site.test.ts has an https one)", async () => {
    expect((await server.request("/healthz")).headers.get("strict-transport-security")).toBeNull();
  });

  test("a problem carries the request id of its request", async () => {
    const response = await server.request("/auth/me", { headers: { "X-Request-Id": "req-401" } });
    expect(expectProblem(response, 401, "unauthenticated")).toMatchObject({ requestId: "req-401", instance: "/api/v1/auth/me" });
  });
});

describe("unexpected errors", () => {
  test("give a 500 problem that reveals nothing, and exactly one error_logs row", async () => {
    const { token, user } = await registerUser(server);
    await server.sql("alter table users rename column locale to locale_broken");
    let response;
    try {
      response = await server.request("/auth/me", { token, headers: { "X-Request-Id": "boom-1" } });
    } finally {
      await server.sql("alter table users rename column locale_broken to locale");
    }
    const problem = expectProblem(response, 500, "internal");
    expect(JSON.stringify(problem)).not.toMatch(/locale|select|column|at .*\.ts/i);

    const rows = await server.sql<{ route: string; status: number; user_id: string | null; stack: string; method: string }>(
      "select route, status, user_id, stack, method from error_logs where request_id = 'boom-1'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ route: "/api/v1/auth/me", status: 500, method: "GET" });
    expect(rows[0]!.stack).toMatch(/locale/);
    expect(rows[0]!.user_id === null || rows[0]!.user_id === user.id).toBe(true);
  });

  test("never log or store the request body: a password in a failing request appears nowhere", async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(String(chunk));
      return true;
    };
    const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture);
    const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture);
    const password = `secret-${Date.now()}-never-logged`;
    await server.sql("alter table users rename column password_hash to password_hash_broken");
    let response;
    try {
      response = await server.request("/auth/register", { json: { email: "logged@example.com", password } });
    } finally {
      await server.sql("alter table users rename column password_hash_broken to password_hash");
      stdout.mockRestore();
      stderr.mockRestore();
    }
    expectProblem(response, 500, "internal");
    expect(written.join("")).toMatch(/Request failed/);
    expect(written.join("")).not.toContain(password);
    const rows = await server.sql("select * from error_logs where route = '/api/v1/auth/register'");
    expect(rows).toHaveLength(1);
    const stored = JSON.stringify(rows);
    expect(stored).not.toContain(password);
    // Query parameters (here the new password's hash and the email) are not kept either; the cause is.
    expect(stored).not.toMatch(/argon2id|logged@example\.com/);
    expect(stored).toMatch(/password_hash/);
  });
});

describe("admin routes", () => {
  test("a signed-in non-admin gets 403, a stranger 401, an admin 200", async () => {
    const { token } = await registerUser(server);
    expectProblem(await server.request("/errors/recent"), 401, "unauthenticated");
    expectProblem(await server.request("/errors/recent", { token }), 403, "forbidden");
    const admin = await registerUser(server, { email: ADMIN_EMAIL });
    expect(admin.user.isAdmin).toBe(true);
    expect((await server.request("/errors/recent", { token: admin.token })).status).toBe(200);
  });
});
