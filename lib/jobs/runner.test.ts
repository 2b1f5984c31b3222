import { afterEach, beforeEach, describe, expect, test, vi } from "vitest";
import { metrics } from "../metrics/registry";
import { startJobRunner, type Job, type JobSchedule } from "./runner";

/**
 * The schedule's rules in memory, as lib/jobs/repo.ts keeps them in the database (tests/integration/jobs.test.ts
 * checks that one against PGlite and PostgreSQL): a run is claimed when due and unleased, the claim sets the next
 * due time one interval on, the lease holds until renewed or released.
 */
function memorySchedule() {
  const rows = new Map<
    string,
    { nextRunAt: number; leaseOwner: string | null; leaseUntil: number; runs: string[]; errors: (string | null)[] }
  >();
  const row = (name: string) => {
    let found = rows.get(name);
    if (!found) rows.set(name, (found = { nextRunAt: 0, leaseOwner: null, leaseUntil: 0, runs: [], errors: [] }));
    return found;
  };
  const schedule: JobSchedule & { renewals: number } = {
    renewals: 0,
    async claim(job, runner, leaseMs) {
      const now = Date.now();
      const entry = row(job.name);
      if (entry.nextRunAt > now || entry.leaseUntil > now) {
        return { claimed: false, retryInMs: Math.max(entry.nextRunAt, entry.leaseUntil) - now };
      }
      Object.assign(entry, { nextRunAt: now + job.intervalMs, leaseOwner: runner, leaseUntil: now + leaseMs });
      entry.runs.push(runner);
      return { claimed: true };
    },
    async renew(job, runner, leaseMs) {
      const entry = row(job.name);
      if (entry.leaseOwner !== runner) return false;
      schedule.renewals++;
      entry.leaseUntil = Date.now() + leaseMs;
      return true;
    },
    async finish(job, runner, { error }) {
      const entry = row(job.name);
      if (entry.leaseOwner !== runner) return;
      Object.assign(entry, { leaseOwner: null, leaseUntil: 0 });
      entry.errors.push(error);
    },
  };
  return { schedule, row };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

const quiet = { jitterMs: 1 };

describe("startJobRunner", () => {
  test("runs each job after its delay and then every interval, until stopped", async () => {
    const { schedule } = memorySchedule();
    const run = vi.fn(async () => {});
    const runner = startJobRunner([{ name: "tick", intervalMs: 2000, initialDelayMs: 50, run }], schedule, quiet);
    await vi.advanceTimersByTimeAsync(49);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(2);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(4000);
    expect(run).toHaveBeenCalledTimes(3);
    expect(await runner.stop(1000)).toEqual([]);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(run).toHaveBeenCalledTimes(3);
  });

  test("staggers the first runs of the jobs instead of starting them all at once", async () => {
    const { schedule } = memorySchedule();
    const firstRuns: number[] = [];
    const started = Date.now();
    const jobs: Job[] = Array.from({ length: 5 }, (_, index) => ({
      name: `job-${index}`,
      intervalMs: 60_000,
      run: async () => void firstRuns.push(Date.now() - started),
    }));
    const runner = startJobRunner(jobs, schedule, quiet);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(firstRuns).toHaveLength(5);
    const gaps = firstRuns.slice(1).map((at, index) => at - firstRuns[index]!);
    expect(firstRuns[0]).toBeGreaterThanOrEqual(10_000);
    expect(Math.min(...gaps)).toBeGreaterThanOrEqual(1000);
    await runner.stop(1000);
  });

  test("two processes on one schedule: each run happens once per interval, in one of them", async () => {
    const { schedule, row } = memorySchedule();
    const ran: string[] = [];
    const job = (process: string): Job => ({
      name: "shared",
      intervalMs: 15_000,
      initialDelayMs: 0,
      run: async () => void ran.push(process),
    });
    const a = startJobRunner([job("a")], schedule, { runner: "a", jitterMs: 1000 });
    const b = startJobRunner([job("b")], schedule, { runner: "b", jitterMs: 1000 });
    await vi.advanceTimersByTimeAsync(15_000 * 20 - 1);
    // 20 intervals: 20 runs (the first at 0), not 40.
    expect(ran.length).toBeGreaterThanOrEqual(18);
    expect(ran.length).toBeLessThanOrEqual(20);
    expect(row("shared").runs).toEqual(ran);
    await Promise.all([a.stop(1000), b.stop(1000)]);
  });

  test("a job that another process holds is tried again when its lease may have expired", async () => {
    const { schedule, row } = memorySchedule();
    Object.assign(row("held"), { leaseOwner: "crashed", leaseUntil: Date.now() + 60_000 });
    const run = vi.fn(async () => {});
    const runner = startJobRunner([{ name: "held", intervalMs: 5000, initialDelayMs: 0, run }], schedule, quiet);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(run).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(4_000);
    expect(run).toHaveBeenCalledTimes(1);
    await runner.stop(1000);
  });

  test("a failing job is recorded with its error and runs again next interval", async () => {
    const { schedule, row } = memorySchedule();
    let fail = true;
    const runner = startJobRunner(
      [
        {
          name: "flaky",
          intervalMs: 1000,
          initialDelayMs: 0,
          run: async () => {
            if (fail) throw new Error("boom");
          },
        },
      ],
      schedule,
      quiet,
    );
    await vi.advanceTimersByTimeAsync(1);
    fail = false;
    await vi.advanceTimersByTimeAsync(1100);
    expect(row("flaky").errors).toEqual(["boom", null]);
    // GET /metrics counts the runs by outcome.
    const runs = (await metrics().jobRuns.get()).values.filter((value) => value.labels.job === "flaky");
    expect(Object.fromEntries(runs.map((value) => [value.labels.outcome, value.value]))).toEqual({ failure: 1, success: 1 });
    await runner.stop(1000);
  });

  test("a schedule that cannot be read (database down) does not stop the runner", async () => {
    const { schedule } = memorySchedule();
    let down = true;
    const flaky: JobSchedule = {
      ...schedule,
      claim: (...args) => (down ? Promise.reject(new Error("down")) : schedule.claim(...args)),
    };
    const run = vi.fn(async () => {});
    const runner = startJobRunner([{ name: "tick", intervalMs: 1000, initialDelayMs: 0, run }], flaky, quiet);
    await vi.advanceTimersByTimeAsync(2500);
    expect(run).not.toHaveBeenCalled();
    down = false;
    await vi.advanceTimersByTimeAsync(1100);
    expect(run).toHaveBeenCalledTimes(1);
    await runner.stop(1000);
  });

  test("renews the lease while a long job runs", async () => {
    const { schedule } = memorySchedule();
    let finish!: () => void;
    const runner = startJobRunner(
      [{ name: "long", intervalMs: 1000, initialDelayMs: 0, run: () => new Promise<void>((resolve) => (finish = resolve)) }],
      schedule,
      { leaseMs: 3000, jitterMs: 1 },
    );
    await vi.advanceTimersByTimeAsync(10_000);
    expect(schedule.renewals).toBeGreaterThanOrEqual(9);
    finish();
    await runner.stop(1000);
  });

  test("runs at most `concurrency` jobs at once; the others wait their turn", async () => {
    const { schedule } = memorySchedule();
    let running = 0;
    let most = 0;
    const finishers: (() => void)[] = [];
    const jobs: Job[] = Array.from({ length: 4 }, (_, index) => ({
      name: `job-${index}`,
      intervalMs: 60_000,
      initialDelayMs: 0,
      run: () =>
        new Promise<void>((resolve) => {
          most = Math.max(most, ++running);
          finishers.push(() => {
            running--;
            resolve();
          });
        }),
    }));
    const runner = startJobRunner(jobs, schedule, { concurrency: 2, jitterMs: 1 });
    await vi.advanceTimersByTimeAsync(10);
    expect(running).toBe(2);
    finishers.splice(0).forEach((finish) => finish());
    await vi.advanceTimersByTimeAsync(10);
    expect(running).toBe(2);
    finishers.splice(0).forEach((finish) => finish());
    await vi.advanceTimersByTimeAsync(10);
    expect(most).toBe(2);
    await runner.stop(1000);
  });

  test("stop tells running jobs to stop, waits for them, and abandons those still running after the grace time", async () => {
    const { schedule, row } = memorySchedule();
    const signals: AbortSignal[] = [];
    const jobs: Job[] = [
      {
        name: "obedient",
        intervalMs: 60_000,
        initialDelayMs: 0,
        run: (signal) => new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve())),
      },
      {
        name: "stuck",
        intervalMs: 60_000,
        initialDelayMs: 0,
        run: (signal) => new Promise<void>(() => void signals.push(signal)),
      },
    ];
    const runner = startJobRunner(jobs, schedule, quiet);
    await vi.advanceTimersByTimeAsync(10);
    const stopping = runner.stop(5000);
    await vi.advanceTimersByTimeAsync(4999);
    let abandoned: string[] | null = null;
    void stopping.then((names) => (abandoned = names));
    await vi.advanceTimersByTimeAsync(0);
    expect(abandoned).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    expect(await stopping).toEqual(["stuck"]);
    expect(signals[0]!.aborted).toBe(true);
    // The obedient one finished and released its lease; the stuck one's lease is left to expire.
    expect(row("obedient").leaseOwner).toBeNull();
    expect(row("stuck").leaseOwner).not.toBeNull();
  });
});
