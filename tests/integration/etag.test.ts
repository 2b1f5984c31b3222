/**
 * Conditional requests on tasks: GET answers an ETag and 304 for `If-None-Match`; PATCH and DELETE with a stale
 * `If-Match` change nothing and answer 412 with the current ETag; with the current one they go through.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { etagOf } from "../../lib/api/etag";
import { taskOutput } from "../../lib/tasks/schema";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

const read = async (token: string, id: string, headers: Record<string, string> = {}) =>
  server.request(`/tasks/${id}`, { token, headers });
const patch = (token: string, id: string, json: unknown, ifMatch?: string) =>
  server.request(`/tasks/${id}`, { method: "PATCH", token, json, headers: ifMatch ? { "If-Match": ifMatch } : {} });

describe("GET /tasks/{id}", () => {
  test("answers an ETag, and 304 without a body while If-None-Match names it", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token, { title: "Cached" });
    const first = await read(user.token, task.id);
    const etag = first.headers.get("etag")!;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    expect(etag).toBe(await etagOf(expectShape(taskOutput, first.body)));

    const unchanged = await read(user.token, task.id, { "If-None-Match": etag });
    expect(unchanged.status).toBe(304);
    expect(unchanged.body).toBe("");
    expect(unchanged.headers.get("etag")).toBe(etag);

    expect((await patch(user.token, task.id, { title: "Changed" })).status).toBe(200);
    const changed = await read(user.token, task.id, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.body.title).toBe("Changed");
    expect(changed.headers.get("etag")).not.toBe(etag);
  });

  test("another user's task is still a 404, whatever If-None-Match says", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const task = await createTask(server, owner.token);
    const etag = (await read(owner.token, task.id)).headers.get("etag")!;
    expectProblem(await read(other.token, task.id, { "If-None-Match": etag }), 404, "not_found");
  });
});

describe("PATCH /tasks/{id} with If-Match", () => {
  test("412 with the current ETag when someone changed the task since; their change stands", async () => {
    const alice = await registerUser(server);
    const task = await createTask(server, alice.token, { title: "Plan the trip" });
    const seen = (await read(alice.token, task.id)).headers.get("etag")!;

    // Someone else (here: another tab) changes it first.
    const first = await patch(alice.token, task.id, { title: "Plan the trip to Brno" }, seen);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const current = first.headers.get("etag")!;
    expect(current).not.toBe(seen);

    const late = await patch(alice.token, task.id, { title: "Plan the trip to Prague" }, seen);
    expectProblem(late, 412, "precondition_failed");
    expect(late.headers.get("etag")).toBe(current);
    expect((await read(alice.token, task.id)).body.title).toBe("Plan the trip to Brno");

    // With the current tag the change goes through.
    const retried = await patch(alice.token, task.id, { title: "Plan the trip to Prague" }, current);
    expect(retried.status).toBe(200);
    expect(retried.body.title).toBe("Plan the trip to Prague");
  });

  test("two changes sent at once with the same ETag: one wins, the other is a 412", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token, { title: "Race" });
    const etag = (await read(user.token, task.id)).headers.get("etag")!;
    const answers = await Promise.all([
      patch(user.token, task.id, { title: "First" }, etag),
      patch(user.token, task.id, { title: "Second" }, etag),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
    const winner = answers.find((answer) => answer.status === 200)!;
    expect((await read(user.token, task.id)).body.title).toBe(winner.body.title);
  });

  test("`*` and a list that includes the current tag go through; a garbage tag is a 412", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token);
    expect((await patch(user.token, task.id, { title: "Any" }, "*")).status).toBe(200);
    const etag = (await read(user.token, task.id)).headers.get("etag")!;
    expect((await patch(user.token, task.id, { title: "Listed" }, `"old", W/${etag}`)).status).toBe(200);
    expectProblem(await patch(user.token, task.id, { title: "No" }, "not-a-tag"), 412, "precondition_failed");
  });
});

describe("DELETE /tasks/{id} with If-Match", () => {
  test("412 and the task stays when it changed since; with the current tag it is deleted", async () => {
    const user = await registerUser(server);
    const task = await createTask(server, user.token);
    const seen = (await read(user.token, task.id)).headers.get("etag")!;
    await patch(user.token, task.id, { priority: "high" });
    const remove = (ifMatch: string) =>
      server.request(`/tasks/${task.id}`, { method: "DELETE", token: user.token, headers: { "If-Match": ifMatch } });
    expectProblem(await remove(seen), 412, "precondition_failed");
    expect((await read(user.token, task.id)).status).toBe(200);
    const current = (await read(user.token, task.id)).headers.get("etag")!;
    expect((await remove(current)).status).toBe(204);
    expectProblem(await read(user.token, task.id), 404, "not_found");
  });
});

test("the OpenAPI document declares ETag, If-Match, If-None-Match, 304 and 412 on /tasks/{id}", async () => {
  const document = (await server.request("/api/v1/openapi.json")).body;
  const path = document.paths["/api/v1/tasks/{id}"];
  expect(path.get.parameters).toContainEqual(expect.objectContaining({ name: "if-none-match", in: "header" }));
  expect(path.get.responses["304"]).toBeDefined();
  expect(path.get.responses["200"].headers.ETag).toEqual({ $ref: "#/components/headers/ETag" });
  expect(path.patch.parameters).toContainEqual(expect.objectContaining({ name: "if-match", in: "header" }));
  expect(path.patch.responses["412"]).toBeDefined();
  expect(path.delete.responses["412"]).toBeDefined();
  expect(document.components.headers.ETag).toBeDefined();
});

describe("GET of one goal, group, project and team", () => {
  test.each([
    ["/api/v1/goals", { title: "Run a marathon" }],
    ["/api/v1/groups", { names: { en: "Garden" } }],
    ["/api/v1/projects", { name: "New roof" }],
    ["/api/v1/user-groups", { name: "Crew" }],
  ])("%s/{id} answers an ETag and 304 while If-None-Match names it", async (base, json) => {
    const user = await registerUser(server);
    const created = await server.request(base, { token: user.token, json });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const first = await server.request(`${base}/${created.body.id}`, { token: user.token });
    expect(first.status).toBe(200);
    const etag = first.headers.get("etag")!;
    expect(etag).toBe(await etagOf(first.body));
    const again = await server.request(`${base}/${created.body.id}`, { token: user.token, headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe("");
  });
});

describe("PATCH and DELETE of one goal, group, project and team with If-Match", () => {
  const resources = [
    { base: "/api/v1/goals", create: { title: "Run a marathon" }, change: (name: string) => ({ title: name }) },
    { base: "/api/v1/groups", create: { names: { en: "Garden" } }, change: (name: string) => ({ names: { en: name } }) },
    { base: "/api/v1/projects", create: { name: "New roof" }, change: (name: string) => ({ name }) },
    { base: "/api/v1/user-groups", create: { name: "Crew" }, change: (name: string) => ({ name }) },
  ];
  const nameOf = (body: { title?: string; name?: string }) => body.title ?? body.name;

  test.each(resources)(
    "PATCH $base/{id} – 412 with the current ETag when it changed since; without If-Match as before",
    async ({ base, create, change }) => {
      const user = await registerUser(server);
      const { id } = (await server.request(base, { token: user.token, json: create })).body;
      const seen = (await server.request(`${base}/${id}`, { token: user.token })).headers.get("etag")!;
      const edit = (name: string, ifMatch?: string) =>
        server.request(`${base}/${id}`, {
          method: "PATCH",
          token: user.token,
          json: change(name),
          headers: ifMatch ? { "If-Match": ifMatch } : {},
        });

      // Another client changes it without If-Match: that works as it always did.
      const first = await edit("First");
      expect(first.status, JSON.stringify(first.body)).toBe(200);
      const current = first.headers.get("etag")!;
      expect(current).toBe(await etagOf(first.body));
      expect(current).not.toBe(seen);

      const late = await edit("Late", seen);
      expectProblem(late, 412, "precondition_failed");
      expect(late.headers.get("content-type")).toContain("application/problem+json");
      expect(late.headers.get("etag")).toBe(current);
      expect(nameOf((await server.request(`${base}/${id}`, { token: user.token })).body)).toBe("First");

      const retried = await edit("Retried", current);
      expect(retried.status).toBe(200);
      expect(nameOf(retried.body)).toBe("Retried");
    },
  );

  test.each(resources)(
    "PATCH $base/{id} – two changes at once with the same ETag: one wins, the other is a 412",
    async ({ base, create, change }) => {
      const user = await registerUser(server);
      const { id } = (await server.request(base, { token: user.token, json: create })).body;
      const etag = (await server.request(`${base}/${id}`, { token: user.token })).headers.get("etag")!;
      const answers = await Promise.all(
        ["One", "Two"].map((name) =>
          server.request(`${base}/${id}`, {
            method: "PATCH",
            token: user.token,
            json: change(name),
            headers: { "If-Match": etag },
          }),
        ),
      );
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 412]);
      const winner = answers.find((answer) => answer.status === 200)!;
      expect(nameOf((await server.request(`${base}/${id}`, { token: user.token })).body)).toBe(nameOf(winner.body));
    },
  );

  test.each(resources)(
    "DELETE $base/{id} – 412 and it stays when it changed since; with the current ETag it is deleted",
    async ({ base, create, change }) => {
      const user = await registerUser(server);
      const { id } = (await server.request(base, { token: user.token, json: create })).body;
      const seen = (await server.request(`${base}/${id}`, { token: user.token })).headers.get("etag")!;
      expect(
        (await server.request(`${base}/${id}`, { method: "PATCH", token: user.token, json: change("Changed") })).status,
      ).toBe(200);
      const remove = (ifMatch: string) =>
        server.request(`${base}/${id}`, { method: "DELETE", token: user.token, headers: { "If-Match": ifMatch } });
      expectProblem(await remove(seen), 412, "precondition_failed");
      const current = await server.request(`${base}/${id}`, { token: user.token });
      expect(current.status).toBe(200);
      expect((await remove(current.headers.get("etag")!)).status).toBe(204);
      expectProblem(await server.request(`${base}/${id}`, { token: user.token }), 404, "not_found");
    },
  );

  test("another user's goal, group, project or team is still a 404 with If-Match: *", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    for (const { base, create, change } of resources) {
      const { id } = (await server.request(base, { token: owner.token, json: create })).body;
      const headers = { "If-Match": "*" };
      expectProblem(
        await server.request(`${base}/${id}`, { method: "PATCH", token: other.token, json: change("Mine"), headers }),
        404,
        "not_found",
      );
      expectProblem(await server.request(`${base}/${id}`, { method: "DELETE", token: other.token, headers }), 404, "not_found");
    }
  });

  test("a group's ETag is per language: If-Match with the ETag of ?lang=cs is honoured with lang=cs", async () => {
    const user = await registerUser(server);
    const { id } = (
      await server.request("/api/v1/groups", { token: user.token, json: { names: { en: "Garden", cs: "Zahrada" } } })
    ).body;
    const czech = (await server.request(`/api/v1/groups/${id}?lang=cs`, { token: user.token })).headers.get("etag")!;
    const renamed = await server.request(`/api/v1/groups/${id}?lang=cs`, {
      method: "PATCH",
      token: user.token,
      json: { names: { cs: "Zahrádka" } },
      headers: { "If-Match": czech },
    });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(renamed.body.name).toBe("Zahrádka");
    const current = renamed.headers.get("etag")!;
    const removed = await server.request(`/api/v1/groups/${id}?lang=cs`, {
      method: "DELETE",
      token: user.token,
      headers: { "If-Match": current },
    });
    expect(removed.status).toBe(204);
  });

  test("the OpenAPI document declares If-Match and 412 on each of them", async () => {
    const document = (await server.request("/api/v1/openapi.json")).body;
    for (const path of ["/api/v1/goals/{id}", "/api/v1/groups/{id}", "/api/v1/projects/{id}", "/api/v1/user-groups/{id}"]) {
      for (const method of ["patch", "delete"]) {
        const operation = document.paths[path][method];
        expect(operation.parameters, `${method} ${path}`).toContainEqual(
          expect.objectContaining({ name: "if-match", in: "header" }),
        );
        expect(operation.responses["412"], `${method} ${path}`).toBeDefined();
      }
      expect(document.paths[path].patch.responses["200"].headers.ETag).toEqual({ $ref: "#/components/headers/ETag" });
    }
  });
});
