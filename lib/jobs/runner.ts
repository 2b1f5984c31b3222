import type { Database } from "../db/client";
import { log } from "../log";
import { isModuleEnabled, type ModuleId } from "../modules/registry";

/** A background job: runs every `intervalMs`, in one process at a time across the deployment. */
export interface Job {
  name: string;
  intervalMs: number;
  /** Delay before the first run after start. */
  initialDelayMs?: number;
  /** The feature module it belongs to: skipped while that module is switched off. */
  module?: ModuleId;
  run(): Promise<void>;
}

export interface JobRunner {
  /** Stops scheduling and waits for the runs in progress. */
  stop(): Promise<void>;
}

/** Runs a task unless another process holds the lock of that name (see Database.runExclusive). */
type RunExclusive = Database["runExclusive"];

export function startJobRunner(jobs: readonly Job[], runExclusive: RunExclusive): JobRunner {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const schedule = (job: Job, delay: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = runOnce(job, runExclusive).finally(() => {
        running.delete(run);
        if (!stopped) schedule(job, job.intervalMs);
      });
      running.add(run);
    }, delay);
    timer.unref();
    timers.add(timer);
  };

  for (const job of jobs) schedule(job, job.initialDelayMs ?? 10_000);

  return {
    async stop() {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await Promise.all(running);
    },
  };
}

async function runOnce(job: Job, runExclusive: RunExclusive): Promise<void> {
  if (job.module && !isModuleEnabled(job.module)) return;
  const started = Date.now();
  try {
    const ran = await runExclusive(`spolu.job.${job.name}`, () => job.run());
    if (ran) log.debug("Job ran", { job: job.name, ms: Date.now() - started });
  } catch (error) {
    log.error("Job failed", { job: job.name, error: error instanceof Error ? error.message : String(error) });
  }
}
