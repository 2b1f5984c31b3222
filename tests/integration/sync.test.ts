/**
 * GET /api/v1/sync: a sync from scratch (paged), then what changed since a cursor, with tombstones for what was
 * deleted or unshared; nothing of a stranger's; bad and expired cursors.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { syncOutput, type SyncItem, type SyncOutput } from "../../lib/sync/schema";
import { addMember, createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server.close();
});

type User = Awaited<ReturnType<typeof registerUser>>;

async function syncPage(user: User, query: Record<string, string | number> = {}): Promise<SyncOutput> {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)]));
  const response = await server.request(`/api/v1/sync?${search}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(syncOutput, response.body);
}

/** Follows `next` to the end of one sync; answers every item and the cursor to keep. */
async function syncAll(user: User, cursor?: string, limit = 100): Promise<{ items: SyncItem[]; cursor: string; pages: number }> {
  const items: SyncItem[] = [];
  let page = await syncPage(user, { ...(cursor ? { cursor } : {}), limit });
  let pages = 1;
  items.push(...page.items);
  while (page.next) {
    expect(page.cursor).toBeNull();
    page = await syncPage(user, { cursor: page.next, limit });
    pages += 1;
    items.push(...page.items);
  }
  expect(page.cursor).toEqual(expect.any(String));
  return { items, cursor: page.cursor!, pages };
}

const keys = (items: readonly SyncItem[]) =>
  items.map((item) => `${item.type}:${item.id}${item.deleted ? " deleted" : ""}`).sort();
const create = async (user: User, path: string, json: unknown) => {
  const response = await server.request(`/api/v1${path}`, { token: user.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body as { id: string };
};

describe("GET /sync without a cursor", () => {
  test("pages through everything the user sees once, tasks first, each as its GET answers it with that ETag", async () => {
    const user = await registerUser(server);
    const tasks = [
      await createTask(server, user.token, { title: "One" }),
      await createTask(server, user.token, { title: "Two" }),
    ];
    const goal = await create(user, "/goals", { title: "Read more" });
    const project = await create(user, "/projects", { name: "House" });
    const team = await create(user, "/user-groups", { name: "Crew" });
    const groups = (await server.request("/api/v1/groups?includeArchived=true", { token: user.token })).body.items as {
      id: string;
    }[];

    const { items, cursor, pages } = await syncAll(user, undefined, 3);
    expect(pages).toBe(Math.ceil((tasks.length + groups.length + 3) / 3));
    expect(keys(items)).toEqual(
      [
        ...tasks.map((task) => `task:${task.id}`),
        ...groups.map((group) => `group:${group.id}`),
        `goal:${goal.id}`,
        `project:${project.id}`,
        `userGroup:${team.id}`,
      ].sort(),
    );
    expect(items.slice(0, 2).map((item) => item.type)).toEqual(["task", "task"]);

    const paths = { task: "tasks", group: "groups", project: "projects", userGroup: "user-groups", goal: "goals" };
    for (const item of items) {
      if (item.deleted) throw new Error("no tombstones in a sync from scratch");
      const read = await server.request(`/api/v1/${paths[item.type]}/${item.id}`, { token: user.token });
      expect(item.data, item.type).toEqual(read.body);
      expect(item.etag, item.type).toBe(read.headers.get("etag"));
    }

    // Nothing changed: no items, and the same cursor.
    const again = await syncPage(user, { cursor });
    expect(again).toEqual({ items: [], next: null, cursor });
  });
});

describe("GET /sync with a cursor", () => {
  test("answers what was created, changed and deleted since, paged, and only that", async () => {
    const user = await registerUser(server);
    const kept = await createTask(server, user.token, { title: "Kept" });
    const changed = await createTask(server, user.token, { title: "Before" });
    const removed = await createTask(server, user.token, { title: "Removed" });
    const goal = await create(user, "/goals", { title: "Gone soon" });
    const { cursor } = await syncAll(user);

    const added = await createTask(server, user.token, { title: "Added" });
    expect(
      (await server.request(`/api/v1/tasks/${changed.id}`, { method: "PATCH", token: user.token, json: { title: "After" } }))
        .status,
    ).toBe(200);
    expect((await server.request(`/api/v1/tasks/${removed.id}`, { method: "DELETE", token: user.token })).status).toBe(204);
    expect((await server.request(`/api/v1/goals/${goal.id}`, { method: "DELETE", token: user.token })).status).toBe(204);

    const since = await syncAll(user, cursor, 2);
    expect(since.pages).toBe(2);
    expect(keys(since.items)).toEqual(
      [`task:${added.id}`, `task:${changed.id}`, `task:${removed.id} deleted`, `goal:${goal.id} deleted`].sort(),
    );
    expect(since.items.find((item) => item.id === changed.id)).toMatchObject({ deleted: false, data: { title: "After" } });
    expect(since.items.find((item) => item.id === removed.id)).toEqual({ type: "task", id: removed.id, deleted: true });
    expect(since.items.some((item) => item.id === kept.id)).toBe(false);
    expect(since.cursor).not.toBe(cursor);

    expect((await syncPage(user, { cursor: since.cursor })).items).toEqual([]);
  });

  test("a project and its tasks come as tombstones once another user removes you from it", async () => {
    const owner = await registerUser(server);
    const member = await registerUser(server);
    const project = await create(owner, "/projects", { name: "Shared" });
    expect((await addMember(server, `/projects/${project.id}/members`, owner, member)).status).toBe(201);
    const task = await createTask(server, owner.token, { title: "Shared work", projectId: project.id });

    const first = await syncAll(member);
    expect(keys(first.items)).toEqual(expect.arrayContaining([`project:${project.id}`, `task:${task.id}`]));

    const removal = await server.request(`/api/v1/projects/${project.id}/members/${member.user.id}`, {
      method: "DELETE",
      token: owner.token,
    });
    expect(removal.status, JSON.stringify(removal.body)).toBe(204);

    const since = await syncAll(member, first.cursor);
    expect(keys(since.items)).toEqual([`project:${project.id} deleted`, `task:${task.id} deleted`].sort());
  });

  test("a stranger's changes never appear", async () => {
    const user = await registerUser(server);
    const stranger = await registerUser(server);
    await createTask(server, user.token, { title: "Mine" });
    const { cursor } = await syncAll(user);

    await createTask(server, stranger.token, { title: "Theirs" });
    await create(stranger, "/goals", { title: "Their goal" });
    await create(stranger, "/projects", { name: "Their project" });
    await create(stranger, "/user-groups", { name: "Their team" });

    expect(await syncPage(user, { cursor })).toEqual({ items: [], next: null, cursor });
  });
});

describe("GET /sync – bad and expired cursors", () => {
  test("a cursor it never gave is a 400 naming `cursor`; a bad limit a 400 naming `limit`", async () => {
    const user = await registerUser(server);
    for (const cursor of [
      "nonsense",
      Buffer.from('{"v":1,"s":"not-a-uuid"}').toString("base64url"),
      Buffer.from("[1,2]").toString("base64url"),
    ]) {
      const problem = expectProblem(
        await server.request(`/api/v1/sync?cursor=${cursor}`, { token: user.token }),
        400,
        "validation_failed",
      );
      expect(problem.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/cursor" })]);
    }
    const problem = expectProblem(await server.request("/api/v1/sync?limit=0", { token: user.token }), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ pointer: "/limit" })]);
  });

  test("a cursor the server no longer keeps, or another user's, is a 410: sync from scratch", async () => {
    const user = await registerUser(server);
    const other = await registerUser(server);
    await createTask(server, user.token);
    const first = await syncAll(user);

    // Another user's cursor says nothing about their data.
    expectProblem(await server.request(`/api/v1/sync?cursor=${first.cursor}`, { token: other.token }), 410, "gone");

    // A later sync replaces the first: once the client has used the cursor that followed, the first is forgotten.
    await createTask(server, user.token);
    const second = await syncAll(user, first.cursor);
    expect(second.items).toHaveLength(1);
    await syncPage(user, { cursor: second.cursor });
    const gone = expectProblem(await server.request(`/api/v1/sync?cursor=${first.cursor}`, { token: user.token }), 410, "gone");
    expect(gone.detail).toMatch(/from scratch/);
  });
});
