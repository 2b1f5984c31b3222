import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { SAVED_FILTERS_MAX, savedFilterListOutput, savedFilterOutput } from "../../lib/saved-filters/schema";
import { expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const PATH = "/api/v1/saved-filters";

async function save(token: string, name: string, query: string) {
  const response = await server.request(PATH, { token, json: { name, query } });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(savedFilterOutput, response.body);
}

describe("/saved-filters", () => {
  test("POST /saved-filters – saves a name and the list's query; GET lists them in the order saved", async () => {
    const { token } = await registerUser(server);
    const home = await save(token, "  Home this week ", "?status=todo&status=in_progress&tag=home&until=2026-12-06&sort=dueAt");
    expect(home).toMatchObject({
      name: "Home this week",
      query: "status=todo&status=in_progress&tag=home&until=2026-12-06&sort=dueAt",
    });
    const today = await save(token, "Mine today", "view=today&assignee=me");
    const empty = await save(token, "Everything", "");
    const list = expectShape(savedFilterListOutput, (await server.request(PATH, { token })).body);
    expect(list.items.map((item) => item.id)).toEqual([home.id, today.id, empty.id]);
    expectProblem(await server.request(PATH, {}), 401, "unauthenticated");
  });

  test("POST /saved-filters – 400 naming the field for a bad name or a query the list does not take", async () => {
    const { token } = await registerUser(server);
    for (const [body, pointer, detail] of [
      [{ name: " ", query: "" }, "/name", /empty/],
      [{ name: "x".repeat(101), query: "" }, "/name", /100/],
      [{ name: "Bad", query: "color=red" }, "/query", /unknown filter "color"/],
      [{ name: "Bad", query: "status=doing" }, "/query", /bad "status"/],
      [{ name: "Bad", query: "from=2026-02-30" }, "/query", /bad "from"/],
      [{ name: "Bad", query: "view=tomorrow" }, "/query", /bad "view"/],
      [{ name: "Bad", query: "sort=title" }, "/query", /bad "sort"/],
      [{ name: "Bad", query: "tag=a&tag=b" }, "/query", /more than once/],
      [{ name: "Bad", query: "group=mine" }, "/query", /bad "group"/],
      [{ name: "Bad" }, "/query", /.+/],
    ] as const) {
      const problem = expectProblem(await server.request(PATH, { token, json: body }), 400, "validation_failed");
      expect(problem.errors?.[0]?.pointer, JSON.stringify(body)).toBe(pointer);
      expect(problem.errors?.[0]?.detail).toMatch(detail);
    }
    expect((await server.request(PATH, { token })).body.items).toEqual([]);
  });

  test("PATCH /saved-filters/{id} – renames and changes the query; 404 for another user's filter", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const filter = await save(owner.token, "Work", "status=todo");
    const changed = await server.request(`${PATH}/${filter.id}`, {
      method: "PATCH",
      token: owner.token,
      json: { name: "Work, urgent first", query: "status=todo&sort=-priority" },
    });
    expect(changed.status).toBe(200);
    expect(expectShape(savedFilterOutput, changed.body)).toMatchObject({
      name: "Work, urgent first",
      query: "status=todo&sort=-priority",
    });
    expectProblem(
      await server.request(`${PATH}/${filter.id}`, { method: "PATCH", token: other.token, json: { name: "Mine now" } }),
      404,
      "not_found",
    );
    const bad = expectProblem(
      await server.request(`${PATH}/${filter.id}`, {
        method: "PATCH",
        token: owner.token,
        json: { query: "q=" + "x".repeat(201) },
      }),
      400,
      "validation_failed",
    );
    expect(bad.errors?.[0]?.pointer).toBe("/query");
    expect((await server.request(PATH, { token: owner.token })).body.items[0].name).toBe("Work, urgent first");
  });

  test("DELETE /saved-filters/{id} – deletes; 404 for another user's filter and afterwards", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const filter = await save(owner.token, "Errands", "tag=errands");
    expectProblem(await server.request(`${PATH}/${filter.id}`, { method: "DELETE", token: other.token }), 404, "not_found");
    expect((await server.request(PATH, { token: other.token })).body.items).toEqual([]);
    expect((await server.request(`${PATH}/${filter.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expectProblem(await server.request(`${PATH}/${filter.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");
    expect((await server.request(PATH, { token: owner.token })).body.items).toEqual([]);
  });

  test(`POST /saved-filters – 409 naming the limit past ${SAVED_FILTERS_MAX} filters; deleting one makes room`, async () => {
    const { token } = await registerUser(server);
    const saved = [];
    for (let index = 0; index < SAVED_FILTERS_MAX; index++) saved.push(await save(token, `Filter ${index}`, `q=word${index}`));
    const problem = expectProblem(await server.request(PATH, { token, json: { name: "One more", query: "" } }), 409, "conflict");
    expect(problem.detail).toContain(String(SAVED_FILTERS_MAX));
    // Another user's limit is their own.
    const other = await registerUser(server);
    await save(other.token, "First", "");
    expect((await server.request(`${PATH}/${saved[0]!.id}`, { method: "DELETE", token })).status).toBe(204);
    await save(token, "One more", "");
  });
});
