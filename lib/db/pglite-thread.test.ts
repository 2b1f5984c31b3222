import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { isUniqueViolation } from "../api/app-error";
import { isDatabaseUnavailable } from "./client";
import { startPgliteThread, type PgliteThread } from "./pglite-thread";

// Starting PGlite takes a few seconds, more on a busy machine: a longer limit than vitest's 5 s.
const START_MS = 60_000;

let thread: PgliteThread;

beforeAll(async () => {
  thread = await startPgliteThread({});
  await thread.exec("create table items (id int primary key, at timestamptz not null default now())");
}, START_MS);

afterAll(() => thread.close());

describe("the embedded database's thread", () => {
  test("answers rows as objects or arrays, and keeps the types Drizzle asks to keep as text", async () => {
    await thread.query("insert into items (id, at) values ($1, $2)", [1, new Date("2026-01-02T03:04:05Z")]);
    const objects = await thread.query<{ id: number; at: Date }>("select id, at from items where id = $1", [1]);
    expect(objects.rows).toEqual([{ id: 1, at: new Date("2026-01-02T03:04:05Z") }]);
    const arrays = await thread.query("select id, at from items where id = 1", [], {
      rowMode: "array",
      parsers: { 1184: (value: string) => value },
    });
    expect(arrays.rows).toEqual([[1, "2026-01-02 03:04:05+00"]]);
    expect(arrays.fields.map((field) => field.name)).toEqual(["id", "at"]);
  });

  test("refuses a parser it cannot reproduce on its thread instead of ignoring it", async () => {
    await expect(thread.query("select 1", [], { parsers: { 23: (value: string) => Number(value) * 2 } })).rejects.toThrow(
      /not the identity/,
    );
  });

  test("gives PostgreSQL's error fields to the main thread: a unique violation is recognised", async () => {
    const error = await thread.query("insert into items (id) values (1)").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      code: "23505",
      constraint: "items_pkey",
      table: "items",
      detail: "Key (id)=(1) already exists.",
    });
    expect((error as Error).message).toContain("duplicate key value");
    expect(isUniqueViolation(error)).toBe(true);
  });

  test("holds a transaction open while the main thread sends its statements; others wait for it to end", async () => {
    const order: string[] = [];
    let outside: Promise<unknown> = Promise.resolve();
    await thread.transaction(async (tx) => {
      await tx.query("insert into items (id) values (2)");
      outside = thread.query<{ n: number }>("select count(*)::int as n from items").then((result) => {
        order.push(`outside saw ${result.rows[0]?.n}`);
      });
      // The statement outside is sent now but runs only after the commit, as PGlite's own queue makes it.
      await tx.query("insert into items (id) values (3)");
      order.push("inside done");
    });
    await outside;
    expect(order).toEqual(["inside done", "outside saw 3"]);
  });

  test("rolls a transaction back when its callback throws, and answers the callback's error", async () => {
    const failure = thread.transaction(async (tx) => {
      await tx.query("insert into items (id) values (4)");
      throw new Error("changed my mind");
    });
    await expect(failure).rejects.toThrow("changed my mind");
    expect((await thread.query("select id from items where id = 4")).rows).toEqual([]);
  });

  test("runs other statements while a slow one holds the database, without holding this thread", async () => {
    const started = performance.now();
    let sleptFor = 0;
    const sleeping = thread.query("select pg_sleep(1)").then(() => (sleptFor = performance.now() - started));
    // The event loop turns while PGlite sleeps: timers fire on time (on the main thread they waited for the sleep).
    const ticks: number[] = [];
    while (sleptFor === 0) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      ticks.push(performance.now() - started);
    }
    await sleeping;
    expect(sleptFor).toBeGreaterThanOrEqual(950);
    expect(ticks.filter((at) => at < sleptFor).length).toBeGreaterThan(5);
  });

  test(
    "a thread that stopped answers an error that the API turns into 503, not a hang",
    async () => {
      const other = await startPgliteThread({});
      await other.close();
      const error = await other.query("select 1").catch((caught: unknown) => caught);
      expect(isDatabaseUnavailable(error)).toBe(true);
    },
    START_MS,
  );

  test(
    "dumps its data directory, which a new thread starts from",
    async () => {
      const dump = await thread.dumpDataDir();
      const copy = await startPgliteThread({ loadDataDir: dump });
      try {
        expect((await copy.query<{ id: number }>("select id from items order by id")).rows.map((row) => row.id)).toEqual([
          1, 2, 3,
        ]);
      } finally {
        await copy.close();
      }
    },
    START_MS,
  );
});
