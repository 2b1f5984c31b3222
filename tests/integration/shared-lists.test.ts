import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTask, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The cached task list and sharing: a write by one user must reach the cached `GET /tasks` of everyone else who
 * sees the task, whichever way they see it (docs/permissions.md). The links are arranged in SQL here, so that this
 * checks the list and its cache, not the routes that create the links (those have their own tests). With
 * DATABASE_URL and REDIS_URL (npm run test:pg) the cache is Redis; tests/integration/process.test.ts repeats the
 * check across two processes.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

type User = Awaited<ReturnType<typeof registerUser>>;

async function list(user: User) {
  const response = await server.request("/tasks", { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return {
    cache: response.headers.get("x-cache"),
    titles: (response.body.items as { title: string }[]).map((task) => task.title),
  };
}

/** Makes `viewer` see `task` through one relation, as the sharing features would. */
const LINKS: Record<string, (owner: User, viewer: User, task: { id: string; groupId: string }) => Promise<void>> = {
  assignee: async (_owner, viewer, task) => {
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [task.id, viewer.user.id]);
  },
  collaborator: async (_owner, viewer, task) => {
    await server.sql("insert into task_collaborators (task_id, user_id) values ($1, $2)", [task.id, viewer.user.id]);
  },
  "user group member": async (owner, viewer, task) => {
    const [group] = await server.sql<{ id: string }>("insert into user_groups (name) values ('Team') returning id");
    await server.sql("insert into user_group_members (group_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')", [
      group!.id,
      owner.user.id,
      viewer.user.id,
    ]);
    await server.sql("update tasks set user_group_id = $1 where id = $2", [group!.id, task.id]);
  },
  "project member": async (owner, viewer, task) => {
    const [project] = await server.sql<{ id: string }>("insert into projects (name) values ('Project') returning id");
    await server.sql("insert into project_members (project_id, user_id, role) values ($1, $2, 'owner'), ($1, $3, 'member')", [
      project!.id,
      owner.user.id,
      viewer.user.id,
    ]);
    await server.sql("update tasks set project_id = $1 where id = $2", [project!.id, task.id]);
  },
  "family member": async (owner, viewer, task) => {
    const [family] = await server.sql<{ id: string }>("insert into families (name) values ('Family') returning id");
    await server.sql("insert into family_members (family_id, user_id, role) values ($1, $2, 'parent'), ($1, $3, 'child')", [
      family!.id,
      owner.user.id,
      viewer.user.id,
    ]);
    await server.sql("update task_groups set family_id = $1 where id = $2", [family!.id, task.groupId]);
  },
};

describe.each(Object.keys(LINKS))("a task seen as %s", (relation) => {
  let owner: User;
  let viewer: User;
  let task: { id: string; groupId: string };
  beforeAll(async () => {
    [owner, viewer] = [await registerUser(server), await registerUser(server)];
    task = await createTask(server, owner.token, { title: `Shared with a ${relation}` });
    await LINKS[relation]!(owner, viewer, task);
  });

  test("is in the viewer's list, and the owner's change shows there at once (MISS, new title)", async () => {
    const first = await list(viewer);
    expect(first.titles).toEqual([`Shared with a ${relation}`]);
    expect((await list(viewer)).cache).toBe("HIT");

    const renamed = await server.request(`/tasks/${task.id}`, {
      token: owner.token,
      method: "PATCH",
      json: { title: "Renamed by the owner" },
    });
    expect(renamed.status).toBe(200);
    const after = await list(viewer);
    expect(after.cache).toBe("MISS");
    expect(after.titles).toEqual(["Renamed by the owner"]);
  });

  test("the viewer's own change (or its refusal) is what the owner's list shows next", async () => {
    expect((await list(owner)).cache).not.toBeNull();
    expect((await list(owner)).cache).toBe("HIT");
    const edit = await server.request(`/tasks/${task.id}`, {
      token: viewer.token,
      method: "PATCH",
      json: { title: "Renamed by the viewer" },
    });
    // Team members only read (they claim instead); every other relation edits.
    expect(edit.status).toBe(relation === "user group member" ? 403 : 200);
    const after = await list(owner);
    if (edit.status === 200) {
      expect(after.cache).toBe("MISS");
      expect(after.titles).toEqual(["Renamed by the viewer"]);
    } else {
      expect(after.cache).toBe("HIT");
      expect(after.titles).toEqual(["Renamed by the owner"]);
    }
  });

  test("deleting the task empties the viewer's cached list", async () => {
    expect((await list(viewer)).titles).toHaveLength(1);
    expect((await server.request(`/tasks/${task.id}`, { token: owner.token, method: "DELETE" })).status).toBe(204);
    const after = await list(viewer);
    expect(after.cache).toBe("MISS");
    expect(after.titles).toEqual([]);
  });
});

test("a member of several projects and a family opens a project task (one role per task, not per project)", async () => {
  const [owner, viewer] = [await registerUser(server), await registerUser(server)];
  const first = await createTask(server, owner.token, { title: "In the first project" });
  const second = await createTask(server, owner.token, { title: "In the second project" });
  await LINKS["project member"]!(owner, viewer, first);
  await LINKS["project member"]!(owner, viewer, second);
  await LINKS["family member"]!(owner, viewer, first);
  for (const task of [first, second]) {
    const read = await server.request(`/tasks/${task.id}`, { token: viewer.token });
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    expect(
      (await server.request(`/tasks/${task.id}`, { token: viewer.token, method: "PATCH", json: { tags: ["seen"] } })).status,
    ).toBe(200);
  }
});

test("nobody else sees a shared task, and a user who sees it several ways gets it once", async () => {
  const [owner, viewer, stranger] = [await registerUser(server), await registerUser(server), await registerUser(server)];
  const task = await createTask(server, owner.token, { title: "Seen three ways" });
  await LINKS.assignee!(owner, viewer, task);
  await LINKS.collaborator!(owner, viewer, task);
  await LINKS["project member"]!(owner, viewer, task);
  const seen = await server.request("/tasks?limit=10", { token: viewer.token });
  expect(seen.body.items.map((item: { id: string }) => item.id)).toEqual([task.id]);
  expect((await list(stranger)).titles).toEqual([]);
  expect((await server.request(`/tasks/${task.id}`, { token: stranger.token })).status).toBe(404);
});
