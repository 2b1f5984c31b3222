import { afterAll, beforeAll, expect, test } from "vitest";
import { expectProblem, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ RATE_LIMIT_POINTS: "5", TRUST_PROXY: "false" });
});
afterAll(() => server.close());

test("without TRUST_PROXY a rotating X-Forwarded-For does not escape the limit", async () => {
  for (let i = 0; i < 5; i++) {
    expect((await server.request("/auth/me", { headers: { "X-Forwarded-For": `192.0.2.${i}` } })).status).toBe(401);
  }
  expectProblem(await server.request("/auth/me", { headers: { "X-Forwarded-For": "192.0.2.99" } }), 429, "rate_limited");
});
