import { asc, sql } from "drizzle-orm";
import { db } from "../db/client";
import { jobRuns, type JobRunRow } from "../db/schema/modules";
import type { JobRecorder } from "./runner";

/** Records each run in job_runs (one row per job, deployment-wide), for GET /admin/jobs. */
export const databaseJobRecorder: JobRecorder = {
  async started(name, at, runner) {
    await db()
      .insert(jobRuns)
      .values({ name, lastStartedAt: at, lastOutcome: "running", lastRunner: runner })
      .onConflictDoUpdate({ target: jobRuns.name, set: { lastStartedAt: at, lastOutcome: "running", lastRunner: runner } });
  },
  async finished(name, { at, durationMs, error }) {
    await db()
      .update(jobRuns)
      .set({
        lastFinishedAt: at,
        lastDurationMs: durationMs,
        lastOutcome: error === null ? "succeeded" : "failed",
        lastError: error,
        runCount: sql`${jobRuns.runCount} + 1`,
        failureCount: sql`${jobRuns.failureCount} + ${error === null ? 0 : 1}`,
      })
      .where(sql`${jobRuns.name} = ${name}`);
  },
};

export async function listJobRuns(): Promise<JobRunRow[]> {
  return db().select().from(jobRuns).orderBy(asc(jobRuns.name));
}
