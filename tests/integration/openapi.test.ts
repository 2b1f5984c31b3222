import { validate, compileErrors } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { apiApp } from "../../server/api";
import { startTestServer, type TestServer } from "./harness";

let server: TestServer;
let document: any;
beforeAll(async () => {
  server = await startTestServer();
  document = (await server.request("/openapi.json")).body;
});
afterAll(() => server.close());

describe("GET /openapi.json", () => {
  test("is a valid OpenAPI 3.1 document", async () => {
    expect(document.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(document));
    expect(result.valid, result.valid ? "" : compileErrors(result)).toBe(true);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
  });

  test("lists every route the API serves (nothing undocumented)", () => {
    const served = apiApp()
      .routes.filter((route) => route.method !== "ALL" && !route.path.endsWith("/openapi.json"))
      .map((route) => `${route.method.toLowerCase()} ${route.path.replace(/:(\w+)/g, "{$1}")}`);
    const documented = Object.entries(document.paths as Record<string, Record<string, unknown>>).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method} ${path}`),
    );
    expect(served.length).toBeGreaterThan(5);
    expect(new Set(documented)).toEqual(new Set(served));
  });

  test("every operation documents its problem answers; signed-in ones need the bearer token", () => {
    for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, any>>)) {
      for (const [method, operation] of Object.entries(item)) {
        const where = `${method.toUpperCase()} ${path}`;
        // Liveness and readiness answer before the rate limiter (server/api.ts): no 429 there.
        const limited = !["/api/v1/healthz", "/api/v1/readyz"].includes(path);
        expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(limited ? ["429", "500"] : ["500"]));
        expect("429" in operation.responses, where).toBe(limited);
        expect(operation.responses["500"].content["application/problem+json"], where).toBeDefined();
        if (operation.security) {
          expect(operation.security, where).toEqual([{ bearerAuth: [] }]);
          expect(operation.responses["401"], where).toBeDefined();
        }
        if (operation.requestBody)
          expect(Object.keys(operation.responses), where).toEqual(expect.arrayContaining(["400", "413", "415"]));
      }
    }
    expect(document.paths["/api/v1/auth/me"].get.security).toEqual([{ bearerAuth: [] }]);
    expect(document.paths["/api/v1/auth/login"].post.security).toBeUndefined();
  });

  test("the description tells an integrator about retries, conflicts, sync, calendar feeds and where settings come from", () => {
    const description: string = document.info.description;
    for (const words of ["Idempotency-Key", "Idempotent-Replayed", "If-Match", "412", "GET /sync", "tombstones"])
      expect(description).toContain(words);
    expect(description).toContain("POST /calendar-feeds");
    expect(description).toMatch(/`\.env` file .*`METRICS_TOKEN=…`; a variable set in the environment wins/s);
    expect(document.paths["/api/v1/calendar-feeds"].post.operationId).toBe("createCalendarFeed");
  });
});
