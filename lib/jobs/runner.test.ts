import { describe, expect, test, vi } from "vitest";
import { startJobRunner, type Job } from "./runner";

const runAlways = async (_name: string, task: () => Promise<void>) => {
  await task();
  return true;
};

describe("startJobRunner", () => {
  test("runs each job after its delay and then every interval, until stopped", async () => {
    vi.useFakeTimers();
    try {
      const run = vi.fn(async () => {});
      const runner = startJobRunner([{ name: "tick", intervalMs: 1000, initialDelayMs: 50, run }], runAlways);
      await vi.advanceTimersByTimeAsync(49);
      expect(run).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(1);
      expect(run).toHaveBeenCalledTimes(1);
      await vi.advanceTimersByTimeAsync(2000);
      expect(run).toHaveBeenCalledTimes(3);
      await runner.stop();
      await vi.advanceTimersByTimeAsync(5000);
      expect(run).toHaveBeenCalledTimes(3);
    } finally {
      vi.useRealTimers();
    }
  });

  test("skips a run another process holds the lock for, and survives a failing job", async () => {
    vi.useFakeTimers();
    try {
      const ran: string[] = [];
      const jobs: Job[] = [
        { name: "locked", intervalMs: 100, initialDelayMs: 0, run: async () => void ran.push("locked") },
        {
          name: "failing",
          intervalMs: 100,
          initialDelayMs: 0,
          run: async () => {
            ran.push("failing");
            throw new Error("boom");
          },
        },
      ];
      const runner = startJobRunner(jobs, async (name, task) => {
        if (name === "spolu.job.locked") return false;
        await task();
        return true;
      });
      await vi.advanceTimersByTimeAsync(250);
      expect(ran).toEqual(["failing", "failing", "failing"]);
      await runner.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  test("stop waits for a run in progress", async () => {
    vi.useFakeTimers();
    let finish!: () => void;
    const runner = startJobRunner(
      [{ name: "slow", intervalMs: 1000, initialDelayMs: 0, run: () => new Promise<void>((resolve) => (finish = resolve)) }],
      runAlways,
    );
    await vi.advanceTimersByTimeAsync(1);
    vi.useRealTimers();
    let stopped = false;
    const stopping = runner.stop().then(() => (stopped = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stopped).toBe(false);
    finish();
    await stopping;
    expect(stopped).toBe(true);
  });

  test("writes each run down: its start, then its duration and error (null when it succeeded); a lost lock writes nothing", async () => {
    vi.useFakeTimers();
    try {
      const records: unknown[] = [];
      const recorder = {
        started: async (name: string, _at: Date, runner: string) =>
          void records.push(["started", name, runner.endsWith(`:${process.pid}`)]),
        finished: async (name: string, outcome: { durationMs: number; error: string | null }) =>
          void records.push(["finished", name, outcome.error]),
      };
      let fail = true;
      const jobs: Job[] = [
        {
          name: "flaky",
          intervalMs: 100,
          initialDelayMs: 0,
          run: async () => {
            if (fail) throw new Error("boom");
          },
        },
        { name: "locked", intervalMs: 100, initialDelayMs: 0, run: async () => {} },
      ];
      const runner = startJobRunner(
        jobs,
        async (name, task) => (name === "spolu.job.locked" ? false : (await task(), true)),
        recorder,
      );
      await vi.advanceTimersByTimeAsync(1);
      fail = false;
      await vi.advanceTimersByTimeAsync(100);
      await runner.stop();
      expect(records).toEqual([
        ["started", "flaky", true],
        ["finished", "flaky", "boom"],
        ["started", "flaky", true],
        ["finished", "flaky", null],
      ]);
    } finally {
      vi.useRealTimers();
    }
  });

  test("a recorder that fails does not stop the job", async () => {
    vi.useFakeTimers();
    try {
      const run = vi.fn(async () => {});
      const broken = {
        started: async () => Promise.reject(new Error("database down")),
        finished: async () => Promise.reject(new Error("database down")),
      };
      const runner = startJobRunner([{ name: "tick", intervalMs: 1000, initialDelayMs: 0, run }], runAlways, broken);
      await vi.advanceTimersByTimeAsync(1);
      expect(run).toHaveBeenCalledTimes(1);
      await runner.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
