/**
 * The job schedule in job_runs (lib/jobs/repo.ts) on the test's real database: the claims several processes make
 * at once, leases, and what /admin/jobs shows. The runner's timing is unit-tested in lib/jobs/runner.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { jobStatusListOutput } from "../../lib/admin/schema";
import { databaseJobSchedule } from "../../lib/jobs/repo";
import type { Job } from "../../lib/jobs/runner";
import { ADMIN_EMAIL, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const job = (name: string, intervalMs = 60_000): Job => ({ name, intervalMs, run: async () => {} });

describe("the job schedule", () => {
  test("of ten claims made at once by ten processes, exactly one runs the job; the others learn when it is next due", async () => {
    const shared = job("schedule-test-concurrent", 60_000);
    const claims = await Promise.all(
      Array.from({ length: 10 }, (_, index) => databaseJobSchedule.claim(shared, `host:${index}`, 30_000)),
    );
    expect(claims.filter((claim) => claim.claimed)).toHaveLength(1);
    for (const claim of claims.filter((each) => !each.claimed)) {
      // Due again in an interval at most (the lease, 30 s, ends before that).
      expect(claim.claimed ? 0 : claim.retryInMs).toBeGreaterThan(50_000);
      expect(claim.claimed ? 0 : claim.retryInMs).toBeLessThanOrEqual(60_000);
    }
  });

  test("a due run is not claimed while another process's lease holds; it is once the lease has expired", async () => {
    const held = job("schedule-test-lease", 1000);
    expect(await databaseJobSchedule.claim(held, "host:a", 60_000)).toEqual({ claimed: true });
    await server.sql("update job_runs set next_run_at = now() - interval '1 second' where name = $1", [held.name]);
    const blocked = await databaseJobSchedule.claim(held, "host:b", 60_000);
    expect(blocked.claimed).toBe(false);
    expect(blocked.claimed ? 0 : blocked.retryInMs).toBeGreaterThan(50_000);
    // host:a died: its lease runs out.
    await server.sql("update job_runs set lease_until = now() - interval '1 second' where name = $1", [held.name]);
    expect(await databaseJobSchedule.claim(held, "host:b", 60_000)).toEqual({ claimed: true });
    // The dead process's renewal and finish no longer touch the row.
    expect(await databaseJobSchedule.renew(held, "host:a", 60_000)).toBe(false);
    await databaseJobSchedule.finish(held, "host:a", { durationMs: 5, error: "late" });
    const [row] = await server.sql<{ lease_owner: string; run_count: number }>(
      "select lease_owner, run_count from job_runs where name = $1",
      [held.name],
    );
    expect(row).toEqual({ lease_owner: "host:b", run_count: 0 });
    expect(await databaseJobSchedule.renew(held, "host:b", 60_000)).toBe(true);
    await databaseJobSchedule.finish(held, "host:b", { durationMs: 7, error: null });
    const [finished] = await server.sql<{ lease_owner: string | null; run_count: number; last_outcome: string }>(
      "select lease_owner, run_count, last_outcome from job_runs where name = $1",
      [held.name],
    );
    expect(finished).toEqual({ lease_owner: null, run_count: 1, last_outcome: "succeeded" });
  });

  test("GET /admin/jobs shows when a job runs next and which process is running it", async () => {
    const admin = await registerUser(server, { email: ADMIN_EMAIL });
    const reminders = job("reminders", 60_000);
    await server.sql("update job_runs set next_run_at = now() where name = $1", [reminders.name]);
    expect(await databaseJobSchedule.claim(reminders, "web-1:4242", 60_000)).toEqual({ claimed: true });
    const list = expectShape(
      jobStatusListOutput,
      (await server.request("/api/v1/admin/jobs", { token: admin.token })).body,
    ).items;
    const entry = list.find((item) => item.name === "reminders")!;
    expect(entry).toMatchObject({ runningOn: "web-1:4242", lastRunner: "web-1:4242", lastOutcome: "running" });
    expect(Date.parse(entry.nextRunAt!) - Date.parse(entry.lastStartedAt!)).toBe(60_000);
    await databaseJobSchedule.finish(reminders, "web-1:4242", { durationMs: 12, error: "SMTP said no" });
    const after = expectShape(
      jobStatusListOutput,
      (await server.request("/api/v1/admin/jobs", { token: admin.token })).body,
    ).items;
    expect(after.find((item) => item.name === "reminders")).toMatchObject({
      runningOn: null,
      lastOutcome: "failed",
      lastError: "SMTP said no",
      lastDurationMs: 12,
    });
  });
});
