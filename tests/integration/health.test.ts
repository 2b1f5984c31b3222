import { afterAll, beforeAll, expect, test } from "vitest";
import { expectProblem, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

test("GET /healthz answers while the process runs", async () => {
  const response = await server.request("/healthz");
  expect(response).toMatchObject({ status: 200, body: { status: "ok" } });
});

test("GET /healthz answers while the database runs a slow statement: the embedded database has its own thread", async () => {
  const started = performance.now();
  let slowEnded = 0;
  const slow = server.sql("select pg_sleep(1.5)").then(() => (slowEnded = performance.now() - started));
  const answered: number[] = [];
  while (slowEnded === 0) {
    const response = await server.request("/healthz");
    expect(response.status).toBe(200);
    answered.push(performance.now() - started);
  }
  await slow;
  // The statement did hold the database for its 1.5 s, and meanwhile the process kept answering: on the main
  // thread (before the embedded database had its own) the first answer came only after the statement's end.
  expect(slowEnded).toBeGreaterThanOrEqual(1400);
  const during = answered.filter((at) => at < slowEnded);
  expect(during.length).toBeGreaterThanOrEqual(5);
  expect(during[0]).toBeLessThan(slowEnded / 2);
});

test("GET /readyz is 200 when migrated and 503 when a migration is missing", async () => {
  expect(await server.request("/readyz")).toMatchObject({ status: 200, body: { status: "ready" } });
  const [last] = await server.sql<{ id: number; hash: string; created_at: string }>(
    "select id, hash, created_at from drizzle.__drizzle_migrations order by id desc limit 1",
  );
  await server.sql("delete from drizzle.__drizzle_migrations where id = $1", [last!.id]);
  try {
    const response = await server.request("/readyz");
    expectProblem(response, 503, "unavailable");
    expect(response.headers.get("retry-after")).toBe("5");
  } finally {
    await server.sql("insert into drizzle.__drizzle_migrations (id, hash, created_at) values ($1, $2, $3)", [
      last!.id,
      last!.hash,
      last!.created_at,
    ]);
  }
  expect((await server.request("/readyz")).status).toBe(200);
});
