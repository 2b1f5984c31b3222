/**
 * `Idempotency-Key` on POST: a repeat with the same body answers the first answer again (`Idempotent-Replayed:
 * true`) and does nothing twice; another body is a 422; two at once are one; the key is per user, kept 24 hours, and
 * freed when the first answer was not a success.
 */
import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { backgroundJobs } from "../../server/jobs";
import { expectProblem, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});
afterEach(() => resetClock());

const post = (path: string, token: string, key: string, json: unknown) =>
  server.request(path, { token, json, headers: { "Idempotency-Key": key } });

const titles = async (token: string) => {
  const response = await server.request("/tasks", { token });
  expect(response.status).toBe(200);
  return (response.body.items as { title: string }[]).map((task) => task.title);
};

describe("POST /tasks with Idempotency-Key", () => {
  test("a repeat with the same body answers the first answer again and makes no second task", async () => {
    const user = await registerUser(server);
    const key = randomUUID();
    const first = await post("/tasks", user.token, key, { title: "Pay the rent" });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.headers.get("idempotent-replayed")).toBeNull();

    const again = await post("/tasks", user.token, key, { title: "Pay the rent" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.headers.get("content-type")).toMatch(/^application\/json/);
    expect(again.body).toEqual(first.body);
    expect(await titles(user.token)).toEqual(["Pay the rent"]);
  });

  test("422 idempotency_key_reused for the same key with another body; the first task stands alone", async () => {
    const user = await registerUser(server);
    const key = randomUUID();
    expect((await post("/tasks", user.token, key, { title: "Water the plants" })).status).toBe(201);
    const problem = expectProblem(
      await post("/tasks", user.token, key, { title: "Something else" }),
      422,
      "idempotency_key_reused",
    );
    expect(problem.detail).toMatch(/another request/);
    expect(await titles(user.token)).toEqual(["Water the plants"]);
  });

  test("two at once with the same key are one: one task, both get its answer, one of them replayed", async () => {
    const user = await registerUser(server);
    const key = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 4 }, () => post("/tasks", user.token, key, { title: "Only once", description: "x".repeat(2000) })),
    );
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body)).toBe(201);
    expect(new Set(answers.map((answer) => answer.body.id)).size).toBe(1);
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === "true")).toHaveLength(3);
    expect(await titles(user.token)).toEqual(["Only once"]);
  });

  test("keys are per user: another user's same key makes their own task", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const key = randomUUID();
    const mine = await post("/tasks", alice.token, key, { title: "Shared key" });
    const theirs = await post("/tasks", bob.token, key, { title: "Shared key" });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get("idempotent-replayed")).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
    expect(await titles(bob.token)).toEqual(["Shared key"]);
  });

  test("an answer that was not a success frees the key: the corrected request runs", async () => {
    const user = await registerUser(server);
    const key = randomUUID();
    expectProblem(await post("/tasks", user.token, key, { title: "" }), 400, "validation_failed");
    const fixed = await post("/tasks", user.token, key, { title: "Fixed" });
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get("idempotent-replayed")).toBeNull();
  });

  test("400 naming the header for a key that is not 1-255 visible characters", async () => {
    const user = await registerUser(server);
    const problem = expectProblem(await post("/tasks", user.token, "x".repeat(256), { title: "No" }), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "header", pointer: "/Idempotency-Key" })]);
    expect(await titles(user.token)).toEqual([]);
  });

  test("after 24 hours the key is new again, and the purge job deletes expired keys", async () => {
    const user = await registerUser(server);
    const key = randomUUID();
    expect((await post("/tasks", user.token, key, { title: "Daily" })).status).toBe(201);
    advanceClock(25 * 3600_000);
    const later = await post("/tasks", user.token, key, { title: "Daily" });
    expect(later.status).toBe(201);
    expect(later.headers.get("idempotent-replayed")).toBeNull();
    expect(await titles(user.token)).toHaveLength(2);

    const other = randomUUID();
    expect((await post("/tasks", user.token, other, { title: "Another" })).status).toBe(201);
    advanceClock(25 * 3600_000);
    await backgroundJobs()
      .find((job) => job.name === "purge-idempotency-keys")!
      .run(AbortSignal.timeout(30_000));
    const left = await server.sql("select key from idempotency_keys where user_id = $1", [user.user.id]);
    expect(left).toEqual([]);
  });
});

test("POST /groups honours Idempotency-Key too", async () => {
  const user = await registerUser(server);
  const key = randomUUID();
  const body = { names: { en: "Garden" } };
  const first = await post("/groups", user.token, key, body);
  expect(first.status, JSON.stringify(first.body)).toBe(201);
  const again = await post("/groups", user.token, key, body);
  expect(again.headers.get("idempotent-replayed")).toBe("true");
  expect(again.body.id).toBe(first.body.id);
  const groups = await server.request("/groups", { token: user.token });
  expect((groups.body.items ?? groups.body).filter((group: { id: string }) => group.id === first.body.id)).toHaveLength(1);
});

test("the OpenAPI document declares the header, the replay header and the 422 on POST /tasks", async () => {
  const document = (await server.request("/api/v1/openapi.json")).body;
  expect(document.components.parameters.IdempotencyKey).toMatchObject({ name: "Idempotency-Key", in: "header" });
  const operation = document.paths["/api/v1/tasks"].post;
  expect(operation.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
  expect(operation.responses["422"]).toBeDefined();
  expect(operation.responses["201"].headers["Idempotent-Replayed"]).toEqual({ $ref: "#/components/headers/IdempotentReplayed" });
});

test("GET /openapi.json – every POST a signed-in user sends takes Idempotency-Key, or says why it ignores it", async () => {
  const document = (await server.request("/api/v1/openapi.json")).body;
  const silent: string[] = [];
  let idempotent = 0;
  for (const [path, item] of Object.entries<any>(document.paths)) {
    const operation = item.post;
    if (!operation?.security?.some((scheme: object) => "bearerAuth" in scheme)) continue;
    const takesKey = (operation.parameters ?? []).some(
      (parameter: { $ref?: string }) => parameter.$ref === "#/components/parameters/IdempotencyKey",
    );
    if (takesKey && operation["x-spolu-idempotent"] === true) idempotent++;
    else if (!/Ignores `Idempotency-Key` \(.+\)/.test(operation.description ?? "")) silent.push(`POST ${path}`);
  }
  // A route opts out with `idempotent: false` only where a replay cannot work, and its description says why.
  expect(silent).toEqual([]);
  expect(idempotent).toBeGreaterThan(60);
  expect(document.paths["/api/v1/tokens"].post.description).toMatch(/Ignores `Idempotency-Key`/);
});
