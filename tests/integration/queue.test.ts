import { randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { queueItemListOutput, queueItemOutput, queueSummaryOutput } from "../../lib/queue/schema";
import {
  BACKOFF_MS,
  cancelQueued,
  defineQueue,
  done,
  enqueue,
  fail,
  later,
  retry,
  runNow,
  work,
  type JobOutcome,
  type QueueJob,
} from "../../lib/queue/service";
import { ADMIN_EMAIL, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The work queue (lib/queue) on a real database: kinds of work defined here the way the domains define theirs,
 * worked as the background jobs work them, and its administrators' routes.
 */

let server: TestServer;
let adminToken: string;

/** What a test kind's handler does on each attempt, and what it saw. */
interface Script {
  seen: { key: string; attempt: number }[];
  answer: (job: QueueJob<{ note?: string }>) => Promise<JobOutcome>;
  abandoned: string[];
}

/** A kind of work of its own for each test (kinds are names: each test's items stay apart). */
function testQueue(options: { maxAttempts?: number; leaseMs?: number } = {}) {
  const script: Script = { seen: [], answer: async () => done(), abandoned: [] };
  const queue = defineQueue<{ note?: string }>({
    kind: `test.${randomUUID().slice(0, 8)}`,
    maxAttempts: options.maxAttempts ?? 3,
    leaseMs: () => options.leaseMs ?? 60_000,
    async run(job) {
      script.seen.push({ key: job.key, attempt: job.attempt });
      return script.answer(job);
    },
    async onAbandoned(job) {
      script.abandoned.push(job.key);
    },
  });
  return { queue, script };
}

async function items(kind: string, query = "") {
  const response = await server.request(`/api/v1/admin/queue/items?kind=${kind}${query}`, { token: adminToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(queueItemListOutput, response.body).items;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeAll(async () => {
  server = await startTestServer();
  adminToken = (await registerUser(server, { email: ADMIN_EMAIL })).token;
});

afterAll(async () => {
  await server.close();
});

afterEach(() => {
  resetClock();
});

describe("claiming", () => {
  test("two workers never take the same item: three at once run each of 30 items exactly once", async () => {
    const { queue, script } = testQueue();
    const keys = Array.from({ length: 30 }, (_, index) => `item-${index}`);
    for (const key of keys) await enqueue(queue, key, {});
    script.answer = async () => {
      await sleep(5);
      return done();
    };
    const ran = await Promise.all([
      work(queue, { batch: 4, concurrency: 2 }),
      work(queue, { batch: 4, concurrency: 2 }),
      work(queue, { batch: 4, concurrency: 2 }),
    ]);
    expect(ran.reduce((sum, count) => sum + count, 0)).toBe(30);
    expect(script.seen.map((seen) => seen.key).sort()).toEqual([...keys].sort());
    expect((await items(queue.kind, "&limit=100")).every((item) => item.state === "done" && item.attempts === 1)).toBe(true);
  });

  test("one item per record: enqueueing the same key while it is active adds nothing", async () => {
    const { queue, script } = testQueue();
    expect(await enqueue(queue, "same", {})).toBe(true);
    expect(await enqueue(queue, "same", { note: "again" })).toBe(false);
    expect(await work(queue)).toBe(1);
    expect(script.seen).toEqual([{ key: "same", attempt: 1 }]);
    // Once it has finished, new work for the record is new.
    expect(await enqueue(queue, "same", {})).toBe(true);
  });

  test("an item not yet due is not taken, by work or by runNow", async () => {
    const { queue, script } = testQueue();
    await enqueue(queue, "tomorrow", {}, { runAt: new Date(Date.now() + 86_400_000) });
    expect(await work(queue)).toBe(0);
    expect(await runNow(queue, "tomorrow")).toBe(false);
    advanceClock(86_400_000 + 1000);
    expect(await runNow(queue, "tomorrow")).toBe(true);
    expect(script.seen).toHaveLength(1);
  });

  test("a lease that runs out is taken again; the first holder's late answer changes nothing", async () => {
    const { queue, script } = testQueue({ leaseMs: 30_000 });
    await enqueue(queue, "slow", {});
    let secondRun = 0;
    script.answer = async (job) => {
      if (job.attempt === 1) {
        // This process stalls past its lease; another one takes the item meanwhile.
        advanceClock(31_000);
        secondRun = await work(queue);
        return retry("the first holder answers late");
      }
      return done();
    };
    await work(queue);
    expect(secondRun).toBe(1);
    expect(script.seen).toEqual([
      { key: "slow", attempt: 1 },
      { key: "slow", attempt: 2 },
    ]);
    const [item] = await items(queue.kind);
    expect(item).toMatchObject({ state: "done", attempts: 2, lastError: null });
  });

  test("a lease that runs out on the last attempt makes the item dead, and its domain is told", async () => {
    const { queue, script } = testQueue({ maxAttempts: 1, leaseMs: 30_000 });
    await enqueue(queue, "crashed", {});
    script.answer = async () => {
      advanceClock(31_000);
      await work(queue); // another process finds the item abandoned
      return done();
    };
    await work(queue);
    expect(script.abandoned).toEqual(["crashed"]);
    const [item] = await items(queue.kind);
    expect(item).toMatchObject({ state: "dead", attempts: 1, lastError: expect.stringMatching(/lease ran out/) });
  });
});

describe("retries", () => {
  test("follow the one back-off table, are not taken before they are due, and end dead after the last attempt", async () => {
    const { queue, script } = testQueue({ maxAttempts: 4 });
    script.answer = async (job) => retry(`failure ${job.attempt}`);
    await enqueue(queue, "flaky", {});
    expect(await work(queue)).toBe(1);
    for (let attempt = 1; attempt < 4; attempt++) {
      const [item] = await items(queue.kind);
      expect(item).toMatchObject({ state: "pending", attempts: attempt, lastError: `failure ${attempt}` });
      expect(Date.parse(item!.runAt!) - Date.parse(item!.updatedAt)).toBe(BACKOFF_MS[attempt - 1]);
      advanceClock(BACKOFF_MS[attempt - 1]! - 5000);
      expect(await work(queue), `attempt ${attempt + 1} too early`).toBe(0);
      advanceClock(6000);
      expect(await work(queue)).toBe(1);
    }
    const [dead] = await items(queue.kind);
    expect(dead).toMatchObject({ state: "dead", attempts: 4, lastError: "failure 4", runAt: null });
    advanceClock(BACKOFF_MS.at(-1)! * 2);
    expect(await work(queue)).toBe(0);
    expect(script.seen.map((seen) => seen.attempt)).toEqual([1, 2, 3, 4]);
  });

  test("a handler that throws is retried; one that fails for good is dead at once; a postponement is not an attempt", async () => {
    const { queue, script } = testQueue({ maxAttempts: 3 });
    script.answer = async (job) => {
      if (job.key === "throws") throw new Error("boom");
      if (job.key === "hopeless") return fail("the credentials were refused");
      return job.attempt === 1 && script.seen.filter((seen) => seen.key === "busy").length < 3
        ? later(new Date(Date.now() + 1), "the connection is busy")
        : done();
    };
    for (const key of ["throws", "hopeless", "busy"]) await enqueue(queue, key, {});
    await work(queue);
    const byKey = Object.fromEntries((await items(queue.kind)).map((item) => [item.key, item]));
    expect(byKey.throws).toMatchObject({ state: "pending", attempts: 1, lastError: "boom" });
    expect(byKey.hopeless).toMatchObject({ state: "dead", attempts: 1, lastError: "the credentials were refused" });
    expect(byKey.busy).toMatchObject({ state: "pending", attempts: 0, lastError: "the connection is busy" });
    await work(queue);
    await work(queue);
    const busy = (await items(queue.kind)).find((item) => item.key === "busy");
    expect(busy).toMatchObject({ state: "done", attempts: 1 });
  });
});

describe("cancelling", () => {
  test("by the domain: cancelled work never runs", async () => {
    const { queue, script } = testQueue();
    await enqueue(queue, "deleted-record", {});
    await enqueue(queue, "kept-record", {});
    expect(await cancelQueued(queue, ["deleted-record"], "The record was deleted")).toBe(1);
    await work(queue);
    expect(script.seen.map((seen) => seen.key)).toEqual(["kept-record"]);
    const [cancelled] = await items(queue.kind, "&state=cancelled");
    expect(cancelled).toMatchObject({ key: "deleted-record", lastError: "The record was deleted" });
  });

  test("POST /admin/queue/items/{id}/cancel – cancels a pending item; 409 once finished, 404 for none", async () => {
    const { queue, script } = testQueue();
    await enqueue(queue, "to-cancel", {}, { runAt: new Date(Date.now() + 60_000) });
    const [item] = await items(queue.kind);
    const response = await server.request(`/api/v1/admin/queue/items/${item!.id}/cancel`, { method: "POST", token: adminToken });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(expectShape(queueItemOutput, response.body)).toMatchObject({ state: "cancelled", runAt: null });
    advanceClock(120_000);
    expect(await work(queue)).toBe(0);
    expect(script.seen).toEqual([]);

    expectProblem(
      await server.request(`/api/v1/admin/queue/items/${item!.id}/cancel`, { method: "POST", token: adminToken }),
      409,
      "conflict",
    );
    expectProblem(
      await server.request(`/api/v1/admin/queue/items/${randomUUID()}/cancel`, { method: "POST", token: adminToken }),
      404,
      "not_found",
    );
  });
});

describe("GET /admin/queue and /admin/queue/items", () => {
  test("list items by kind and state with their attempts and last error, a page at a time", async () => {
    const { queue, script } = testQueue({ maxAttempts: 2 });
    script.answer = async (job) => (job.key.startsWith("bad") ? retry(`${job.key} failed`) : done());
    for (const key of ["good-1", "bad-1", "good-2", "bad-2", "good-3"]) await enqueue(queue, key, {});
    await work(queue);

    const pending = await items(queue.kind, "&state=pending");
    expect(pending.map((item) => [item.key, item.attempts, item.maxAttempts, item.lastError]).sort()).toEqual([
      ["bad-1", 1, 2, "bad-1 failed"],
      ["bad-2", 1, 2, "bad-2 failed"],
    ]);
    const first = await server.request(`/api/v1/admin/queue/items?kind=${queue.kind}&state=done&limit=2`, { token: adminToken });
    const page = expectShape(queueItemListOutput, first.body);
    expect(page.items).toHaveLength(2);
    const second = await server.request(
      `/api/v1/admin/queue/items?kind=${queue.kind}&state=done&limit=2&cursor=${page.nextCursor}`,
      { token: adminToken },
    );
    const rest = expectShape(queueItemListOutput, second.body);
    expect(rest).toMatchObject({ nextCursor: null });
    expect([...page.items, ...rest.items].map((item) => item.key).sort()).toEqual(["good-1", "good-2", "good-3"]);

    const summary = expectShape(queueSummaryOutput, (await server.request("/api/v1/admin/queue", { token: adminToken })).body);
    expect(summary.backoffMs).toEqual([...BACKOFF_MS]);
    expect(summary.kinds.find((kind) => kind.kind === queue.kind)).toEqual({
      kind: queue.kind,
      maxAttempts: 2,
      pending: 2,
      running: 0,
      done: 3,
      dead: 0,
      cancelled: 0,
    });
  });

  test("400 naming the field for a bad state or cursor", async () => {
    const state = expectProblem(
      await server.request("/api/v1/admin/queue/items?state=stuck", { token: adminToken }),
      400,
      "validation_failed",
    );
    expect(state.errors?.[0]).toMatchObject({ in: "query", pointer: "/state" });
    const cursor = expectProblem(
      await server.request("/api/v1/admin/queue/items?cursor=nonsense", { token: adminToken }),
      400,
      "validation_failed",
    );
    expect(cursor.errors?.[0]).toMatchObject({ in: "query", pointer: "/cursor" });
  });

  test("403 for a user who is not an administrator, 401 without a session", async () => {
    const user = await registerUser(server);
    const { queue } = testQueue();
    await enqueue(queue, "secret", {});
    const [item] = await items(queue.kind);
    for (const [path, method] of [
      ["/api/v1/admin/queue", "GET"],
      ["/api/v1/admin/queue/items", "GET"],
      [`/api/v1/admin/queue/items/${item!.id}/cancel`, "POST"],
    ] as const) {
      expectProblem(await server.request(path, { method, token: user.token }), 403, "forbidden");
      expectProblem(await server.request(path, { method }), 401, "unauthenticated");
    }
    expect((await items(queue.kind))[0]).toMatchObject({ state: "pending" });
  });
});
