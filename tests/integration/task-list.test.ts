import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { taskListOutput } from "../../lib/tasks/schema";
import { createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => resetClock());

async function list(token: string, query = "") {
  const response = await server.request(`/tasks${query}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...expectShape(taskListOutput, response.body), cache: response.headers.get("x-cache") };
}

const titles = (page: { items: { title: string }[] }) => page.items.map((task) => task.title);

describe("GET /tasks filters and sorts", () => {
  let token: string;
  let groups: { id: string; key: string }[];
  beforeAll(async () => {
    const user = await registerUser(server);
    token = user.token;
    groups = (await server.request("/groups", { token })).body.items;
    const work = groups.find((group) => group.key === "work")!.id;
    await createTask(server, token, { title: "Buy milk", tags: ["shop"], dueAt: "2026-12-02T10:00:00Z", priority: "low" });
    await createTask(server, token, { title: "Pay rent", status: "done", dueAt: "2026-12-01T10:00:00Z", priority: "urgent" });
    await createTask(server, token, {
      title: "Quarterly report",
      description: "numbers for the board",
      groupId: work,
      tags: ["q4", "shop"],
    });
    await createTask(server, token, {
      title: "Call 100% of clients",
      status: "in_progress",
      dueAt: "2026-12-03T10:00:00Z",
      priority: "high",
    });
  });

  test("by status, group, tag, due window and words", async () => {
    expect(titles(await list(token, "?status=todo,in_progress"))).toEqual([
      "Buy milk",
      "Quarterly report",
      "Call 100% of clients",
    ]);
    expect(titles(await list(token, "?status=done"))).toEqual(["Pay rent"]);
    const work = groups.find((group) => group.key === "work")!.id;
    expect(titles(await list(token, `?groupId=${work}`))).toEqual(["Quarterly report"]);
    expect(titles(await list(token, "?tag=shop"))).toEqual(["Buy milk", "Quarterly report"]);
    expect(titles(await list(token, "?dueAfter=2026-12-02T10:00:00Z"))).toEqual(["Buy milk", "Call 100% of clients"]);
    expect(titles(await list(token, "?dueBefore=2026-12-02T10:00:00Z"))).toEqual(["Pay rent"]);
    expect(titles(await list(token, "?q=BOARD%20numbers"))).toEqual(["Quarterly report"]);
    // % and _ are searched for as themselves.
    expect(titles(await list(token, "?q=100%25"))).toEqual(["Call 100% of clients"]);
    expect(titles(await list(token, "?q=_"))).toEqual([]);
  });

  test("sorts by due date (undated last), priority and creation", async () => {
    expect(titles(await list(token, "?sort=dueAt"))).toEqual([
      "Pay rent",
      "Buy milk",
      "Call 100% of clients",
      "Quarterly report",
    ]);
    expect(titles(await list(token, "?sort=-dueAt"))).toEqual([
      "Call 100% of clients",
      "Buy milk",
      "Pay rent",
      "Quarterly report",
    ]);
    expect(titles(await list(token, "?sort=-priority")).slice(0, 2)).toEqual(["Pay rent", "Call 100% of clients"]);
    expect(titles(await list(token, "?sort=-createdAt"))[0]).toBe("Call 100% of clients");
  });

  test("pages with a cursor through every sort without gaps or repeats", async () => {
    for (const sort of ["position", "dueAt", "-dueAt", "priority", "-priority", "createdAt", "-updatedAt"]) {
      const all = titles(await list(token, `?sort=${sort}`));
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const page = await list(token, `?sort=${sort}&limit=1${cursor ? `&cursor=${cursor}` : ""}`);
        paged.push(...titles(page));
        cursor = page.nextCursor;
      } while (cursor);
      expect(paged, sort).toEqual(all);
    }
    const wrongSort = (await list(token, "?sort=dueAt&limit=1")).nextCursor!;
    const problem = expectProblem(
      await server.request(`/tasks?sort=priority&cursor=${wrongSort}`, { token }),
      400,
      "validation_failed",
    );
    expect(problem.errors?.[0]).toMatchObject({ in: "query", pointer: "/cursor" });
    expectProblem(await server.request("/tasks?cursor=garbage", { token }), 400, "validation_failed");
  });
});

describe("the list's items", () => {
  test("are exactly the tasks as GET /tasks/{id} answers them", async () => {
    const { token, user } = await registerUser(server);
    const rich = await createTask(server, token, {
      title: "Rich",
      description: 'with "quotes", emoji 🎉 and a\nnew line',
      status: "done",
      priority: "urgent",
      dueAt: "2026-12-24T17:30:00.123Z",
      startDate: "2026-12-20",
      tags: ["home", "q4"],
      assigneeIds: [user.id],
      recurrence: { frequency: "monthly", interval: 2, until: "2027-12-31" },
    });
    await server.request(`/tasks/${rich.id}/subtasks`, { token, json: { title: "one", done: true } });
    await server.request(`/tasks/${rich.id}/subtasks`, { token, json: { title: "two" } });
    const plain = await createTask(server, token, { title: "Plain" });
    const listed = await list(token);
    for (const task of [rich, plain]) {
      const single = (await server.request(`/tasks/${task.id}`, { token })).body;
      expect(listed.items.find((item) => item.id === task.id)).toEqual(single);
    }
  });
});

describe("the 30-second cache", () => {
  test("a hit is the same answer as the miss: body, headers, the request id and the rate-limit count", async () => {
    const { token } = await registerUser(server);
    await createTask(server, token, { title: "Only" });
    const get = (requestId: string) =>
      server.request("/api/v1/tasks?limit=10", { token, headers: { "X-Request-Id": requestId } });
    const miss = await get("first-request");
    const hit = await get("second-request");
    expect([miss.headers.get("x-cache"), hit.headers.get("x-cache")]).toEqual(["MISS", "HIT"]);
    expect(hit.body).toEqual(miss.body);
    const names = (headers: Headers) =>
      [...headers.keys()].filter((name) => !["date", "connection", "keep-alive"].includes(name)).sort();
    expect(names(hit.headers)).toEqual(names(miss.headers));
    for (const name of [
      "content-type",
      "content-security-policy",
      "x-content-type-options",
      "referrer-policy",
      "cross-origin-resource-policy",
      "ratelimit-limit",
    ]) {
      expect(hit.headers.get(name), name).toBe(miss.headers.get(name));
    }
    expect([miss.headers.get("x-request-id"), hit.headers.get("x-request-id")]).toEqual(["first-request", "second-request"]);
    expect(Number(hit.headers.get("ratelimit-remaining"))).toBe(Number(miss.headers.get("ratelimit-remaining")) - 1);
    // Through the root alias too.
    expect((await server.request("/tasks?limit=10", { token })).headers.get("x-cache")).toBe("HIT");
  });

  test("MISS, then HIT, then MISS after a write, and the write is in the answer", async () => {
    const { token } = await registerUser(server);
    await createTask(server, token, { title: "First" });
    expect((await list(token)).cache).toBe("MISS");
    const hit = await list(token);
    expect(hit.cache).toBe("HIT");
    expect(titles(hit)).toEqual(["First"]);

    const second = await createTask(server, token, { title: "Second" });
    const afterCreate = await list(token);
    expect(afterCreate.cache).toBe("MISS");
    expect(titles(afterCreate)).toEqual(["First", "Second"]);
    expect((await list(token)).cache).toBe("HIT");

    await server.request(`/tasks/${second.id}`, { method: "PATCH", token, json: { title: "Second, renamed" } });
    const afterUpdate = await list(token);
    expect(afterUpdate.cache).toBe("MISS");
    expect(titles(afterUpdate)).toEqual(["First", "Second, renamed"]);

    await server.request(`/tasks/${second.id}/subtasks`, { token, json: { title: "a step" } });
    const afterSubtask = await list(token);
    expect(afterSubtask.cache).toBe("MISS");
    expect(afterSubtask.items[1]!.subtasks).toEqual({ total: 1, done: 0 });

    await server.request(`/tasks/${second.id}`, { method: "DELETE", token });
    const afterDelete = await list(token);
    expect(afterDelete.cache).toBe("MISS");
    expect(titles(afterDelete)).toEqual(["First"]);
  });

  test("each query is cached on its own", async () => {
    const { token } = await registerUser(server);
    await createTask(server, token);
    expect((await list(token, "?status=todo")).cache).toBe("MISS");
    expect((await list(token, "?status=done")).cache).toBe("MISS");
    expect((await list(token, "?status=todo")).cache).toBe("HIT");
    expect((await list(token, "?status=todo&limit=1")).cache).toBe("MISS");
    // An invalid query is refused whatever was cached, and never cached itself.
    expectProblem(await server.request("/tasks?status=todo&limit=0", { token }), 400, "validation_failed");
    expectProblem(await server.request("/tasks?status=todo&limit=0", { token }), 400, "validation_failed");
  });

  test("an answer expires after 30 seconds (moving the clock, not sleeping)", async () => {
    const { token } = await registerUser(server);
    await createTask(server, token);
    expect((await list(token)).cache).toBe("MISS");
    advanceClock(29_000);
    expect((await list(token)).cache).toBe("HIT");
    advanceClock(1_500);
    expect((await list(token)).cache).toBe("MISS");
    expect((await list(token)).cache).toBe("HIT");
  });

  test("a change to a shared task refreshes every user who can see it, and nobody else", async () => {
    const owner = await registerUser(server);
    const assignee = await registerUser(server);
    const bystander = await registerUser(server);
    const task = await createTask(server, owner.token, { title: "Shared" });
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [task.id, assignee.user.id]);
    for (const user of [owner, assignee, bystander]) await list(user.token);
    for (const user of [owner, assignee, bystander]) expect((await list(user.token)).cache).toBe("HIT");

    // The assignee's change reaches the owner's list, and the owner's the assignee's.
    await server.request(`/tasks/${task.id}`, { method: "PATCH", token: assignee.token, json: { status: "in_progress" } });
    const ownerView = await list(owner.token);
    expect(ownerView.cache).toBe("MISS");
    expect(ownerView.items[0]).toMatchObject({ title: "Shared", status: "in_progress" });
    expect((await list(assignee.token)).cache).toBe("MISS");
    expect((await list(bystander.token)).cache).toBe("HIT");

    // Removing the assignee drops the task from their cached list at once.
    await server.request(`/tasks/${task.id}`, { method: "PATCH", token: owner.token, json: { assigneeIds: [] } });
    const removed = await list(assignee.token);
    expect(removed.cache).toBe("MISS");
    expect(removed.items).toEqual([]);
  });

  test("a list read while a write happens is not served after it", async () => {
    const { token } = await registerUser(server);
    await createTask(server, token, { title: "Before" });
    // Many reads racing with a write: whatever they stored, the next read shows the write.
    const reads = Array.from({ length: 5 }, () => server.request("/tasks", { token }));
    const write = createTask(server, token, { title: "During" });
    await Promise.all([...reads, write]);
    expect(titles(await list(token))).toEqual(["Before", "During"]);
  });
});
