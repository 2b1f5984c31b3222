import { PGlite } from "@electric-sql/pglite";
import { expect, test } from "vitest";
import { maintainPglite } from "./client";

/** Whether the planner knows how many rows the table holds, and when it was last vacuumed. */
async function tableState(pglite: PGlite) {
  const {
    rows: [row],
  } = await pglite.query<{ reltuples: number; last_vacuum: Date | null }>(
    "select c.reltuples, s.last_vacuum from pg_class c join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'items'",
  );
  return row!;
}

/** Polls until `check` holds, for up to 10 s (a busy machine may take seconds for a run); the expects then judge. */
async function waitFor(check: () => Promise<boolean>) {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline && !(await check())) await new Promise((resolve) => setTimeout(resolve, 20));
}

// Starting PGlite takes a few seconds, more on a busy machine: a longer limit than vitest's 5 s.
test(
  "the embedded database gathers planner statistics on a schedule and vacuums every so many runs",
  { timeout: 30_000 },
  async () => {
    const pglite = new PGlite();
    await pglite.exec("create table items (id int primary key); insert into items select generate_series(1, 5000)");
    // Never analysed: PostgreSQL does not know the row count (-1) and would plan as if the table were tiny.
    expect((await tableState(pglite)).reltuples).toBe(-1);
    // Every 100 ms here (two minutes in the service), a vacuum on every third run (every 30th).
    const stop = maintainPglite(pglite, 100, 3);
    try {
      await waitFor(async () => (await tableState(pglite)).reltuples !== -1);
      expect((await tableState(pglite)).reltuples).toBe(5000);
      expect((await tableState(pglite)).last_vacuum).toBeNull();
      await waitFor(async () => (await tableState(pglite)).last_vacuum !== null);
      expect((await tableState(pglite)).last_vacuum).not.toBeNull();
    } finally {
      stop();
      await pglite.close();
    }
  },
);
