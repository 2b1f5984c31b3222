import { afterEach, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../clock";
import { memoryStore, TASK_LIST_TTL_MS } from "./list-cache";

/** A body that says which store wrote it, so that bytes from another answer cannot pass for it. */
const bodyOf = (n: number, length: number) => Buffer.from(`<${n}>`.padEnd(length, String.fromCharCode(97 + (n % 26))));

async function expectHit(store: ReturnType<typeof memoryStore>, user: string, query: string, body: Buffer) {
  const found = await store.get(user, query);
  expect(found.hit && found.body.equals(body)).toBe(true);
}

describe("memory cache of task lists", () => {
  afterEach(() => resetClock());

  test("answers exactly the bytes stored under a user and query, and nothing for another user's query", async () => {
    const store = memoryStore(1024);
    const body = bodyOf(1, 100);
    await store.set("u1", "limit=5", 0, body);
    await expectHit(store, "u1", "limit=5", body);
    expect((await store.get("u2", "limit=5")).hit).toBe(false);
    expect((await store.get("u1", "limit=6")).hit).toBe(false);
  });

  test("a hit is a copy: writing over the ring later does not change an answer already handed out", async () => {
    const store = memoryStore(256);
    await store.set("u", "a", 0, bodyOf(1, 200));
    const first = await store.get("u", "a");
    await store.set("u", "b", 0, bodyOf(2, 200));
    expect(first.hit && first.body.equals(bodyOf(1, 200))).toBe(true);
    expect((await store.get("u", "a")).hit).toBe(false);
  });

  test("around the ring, every hit is the latest answer stored for its key and the newest answer is always kept", async () => {
    const store = memoryStore(1000);
    const latest = new Map<string, Buffer>();
    let seed = 7;
    const random = (below: number) => (seed = (seed * 48271) % 2147483647) % below;
    let hits = 0;
    for (let n = 0; n < 5000; n++) {
      const key = `q${random(40)}`;
      const body = bodyOf(n, 5 + random(300));
      await store.set("u", key, 0, body);
      latest.set(key, body);
      await expectHit(store, "u", key, body);
      for (const [other, expected] of latest) {
        const found = await store.get("u", other);
        if (found.hit) {
          hits++;
          expect(found.body.equals(expected)).toBe(true);
        }
      }
    }
    // The ring held several answers at a time, not only the newest.
    expect(hits).toBeGreaterThan(5000 * 2);
  });

  test("answers expire after 30 seconds and a newer generation hides older answers", async () => {
    const store = memoryStore(1024);
    await store.set("u", "a", 0, bodyOf(1, 10));
    // The clock is real time plus an offset: a margin keeps the test independent of how long a step takes.
    advanceClock(TASK_LIST_TTL_MS - 1000);
    expect((await store.get("u", "a")).hit).toBe(true);
    advanceClock(1000);
    expect(await store.get("u", "a")).toEqual({ hit: false, generation: 0 });

    await store.set("u", "b", 0, bodyOf(2, 10));
    await store.invalidate(["u"]);
    expect(await store.get("u", "b")).toEqual({ hit: false, generation: 1 });
    // An answer computed before the change (generation 0) is not stored.
    await store.set("u", "b", 0, bodyOf(3, 10));
    expect((await store.get("u", "b")).hit).toBe(false);
  });

  test("an answer larger than the ring is not cached", async () => {
    const store = memoryStore(100);
    await store.set("u", "big", 0, bodyOf(1, 101));
    expect((await store.get("u", "big")).hit).toBe(false);
  });
});
