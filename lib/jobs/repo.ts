import { asc, sql } from "drizzle-orm";
import { db } from "../db/client";
import { jobRuns, type JobRunRow } from "../db/schema/modules";
import type { JobSchedule } from "./runner";

const ms = (value: number) => sql`(${value}::double precision * interval '1 millisecond')`;

/**
 * The schedule in job_runs, shared by every process through the database (PostgreSQL, or PGlite's one process).
 * Claiming is one statement: it creates the job's row on its first run, or takes it when the run is due and no
 * lease is held; under concurrent claims PostgreSQL re-checks the condition on the row the winner wrote, so exactly
 * one process gets the row back. Nothing is held between statements: a job's own queries have the whole pool.
 */
export const databaseJobSchedule: JobSchedule = {
  async claim(job, runner, leaseMs) {
    const result = await db().execute<{ claimed: number; wait_ms: number | null }>(sql`
      with claimed as (
        insert into job_runs as j (name, next_run_at, lease_owner, lease_until, last_started_at, last_outcome, last_runner)
        values (${job.name}, now() + ${ms(job.intervalMs)}, ${runner}, now() + ${ms(leaseMs)}, now(), 'running', ${runner})
        on conflict (name) do update set
          next_run_at = excluded.next_run_at,
          lease_owner = excluded.lease_owner,
          lease_until = excluded.lease_until,
          last_started_at = excluded.last_started_at,
          last_outcome = 'running',
          last_runner = excluded.last_runner
        where j.next_run_at <= now() and (j.lease_until is null or j.lease_until <= now())
        returning 1
      )
      select
        (select count(*)::int from claimed) as claimed,
        (select extract(epoch from greatest(next_run_at, coalesce(lease_until, next_run_at)) - now()) * 1000
           from job_runs where name = ${job.name})::float8 as wait_ms`);
    const row = (result as unknown as { rows: { claimed: number; wait_ms: number | null }[] }).rows[0]!;
    if (row.claimed > 0) return { claimed: true };
    // No row in this statement's snapshot: another process inserted it (the job's first claim ever) after the
    // snapshot was taken, and this insert then found its row. It runs the job now and leases it, so it is due again
    // an interval from now, or when that lease ends if it is longer.
    return { claimed: false, retryInMs: row.wait_ms === null ? Math.max(job.intervalMs, leaseMs) : Math.max(0, row.wait_ms) };
  },

  async renew(job, runner, leaseMs) {
    const rows = await db()
      .update(jobRuns)
      .set({ leaseUntil: sql`now() + ${ms(leaseMs)}` })
      .where(sql`${jobRuns.name} = ${job.name} and ${jobRuns.leaseOwner} = ${runner}`)
      .returning({ name: jobRuns.name });
    return rows.length > 0;
  },

  async finish(job, runner, { durationMs, error }) {
    await db()
      .update(jobRuns)
      .set({
        leaseOwner: null,
        leaseUntil: null,
        lastFinishedAt: sql`now()`,
        lastDurationMs: durationMs,
        lastOutcome: error === null ? "succeeded" : "failed",
        lastError: error,
        runCount: sql`${jobRuns.runCount} + 1`,
        failureCount: sql`${jobRuns.failureCount} + ${error === null ? 0 : 1}`,
      })
      .where(sql`${jobRuns.name} = ${job.name} and ${jobRuns.leaseOwner} = ${runner}`);
  },
};

export async function listJobRuns(): Promise<JobRunRow[]> {
  return db().select().from(jobRuns).orderBy(asc(jobRuns.name));
}
