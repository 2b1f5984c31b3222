import { describe, expect, test } from "vitest";
import { MemoryCache, stringBytes } from "./memory-cache";

describe("MemoryCache", () => {
  test("keeps at most maxBytes: the oldest entries go first", () => {
    const cache = new MemoryCache<string>(100, (key, value) => stringBytes(key) + stringBytes(value));
    for (let index = 0; index < 10; index++) cache.set(`k${index}`, "x".repeat(8)); // 20 bytes each
    expect(cache.bytes).toBeLessThanOrEqual(100);
    expect(cache.size).toBe(5);
    expect(cache.get("k4")).toBeUndefined();
    expect(cache.get("k5")).toBe("xxxxxxxx");
    expect(cache.get("k9")).toBe("xxxxxxxx");
  });

  test("setting a key again replaces it and moves it to the newest end", () => {
    const cache = new MemoryCache<number>(30, () => 10);
    cache.set("a", 1);
    cache.set("b", 2);
    cache.set("a", 3);
    cache.set("c", 4);
    cache.set("d", 5);
    expect(cache.get("b")).toBeUndefined();
    expect(cache.get("a")).toBe(3);
    expect(cache.bytes).toBe(30);
  });

  test("an entry larger than the whole cache is not kept; entries expire after ttlMs", () => {
    const cache = new MemoryCache<string>(10, (_key, value) => value.length, 1000);
    cache.set("big", "x".repeat(11));
    expect(cache.get("big")).toBeUndefined();
    cache.set("small", "x", 0);
    expect(cache.get("small", 999)).toBe("x");
    expect(cache.get("small", 1000)).toBeUndefined();
    expect(cache.bytes).toBe(0);
  });
});
