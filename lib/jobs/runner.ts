import { hostname } from "node:os";
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

/** Where each run is written down (lib/jobs/repo.ts: the job_runs table, for GET /admin/jobs). */
export interface JobRecorder {
  /** A run began, in the process named `runner` (host name and process id). */
  started(name: string, at: Date, runner: string): Promise<void>;
  /** It ended: `error` is the failure's message, null when it succeeded. */
  finished(name: string, outcome: { at: Date; durationMs: number; error: string | null }): Promise<void>;
}

const RUNNER = `${hostname()}:${process.pid}`;
/** The longest error message kept for a failed run. */
const ERROR_MAX = 2000;

export function startJobRunner(jobs: readonly Job[], runExclusive: RunExclusive, recorder?: JobRecorder): JobRunner {
  const timers = new Set<NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;

  const schedule = (job: Job, delay: number) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      const run = runOnce(job, runExclusive, recorder).finally(() => {
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

/** Writes a run down; a failure to do so is logged and never stops the job. */
async function record(write: (() => Promise<void>) | undefined, job: string): Promise<void> {
  try {
    await write?.();
  } catch (error) {
    log.warn("Could not record a job run", { job, error: error instanceof Error ? error.message : String(error) });
  }
}

async function runOnce(job: Job, runExclusive: RunExclusive, recorder: JobRecorder | undefined): Promise<void> {
  if (job.module && !isModuleEnabled(job.module)) return;
  try {
    const ran = await runExclusive(`spolu.job.${job.name}`, async () => {
      const started = Date.now();
      await record(recorder && (() => recorder.started(job.name, new Date(started), RUNNER)), job.name);
      let failure: string | null = null;
      try {
        await job.run();
      } catch (error) {
        failure = (error instanceof Error ? error.message : String(error)).slice(0, ERROR_MAX);
        log.error("Job failed", { job: job.name, error: failure });
      }
      const durationMs = Date.now() - started;
      await record(recorder && (() => recorder.finished(job.name, { at: new Date(), durationMs, error: failure })), job.name);
      if (failure === null) log.debug("Job ran", { job: job.name, ms: durationMs });
    });
    if (!ran) log.debug("Job skipped: another process runs it", { job: job.name });
  } catch (error) {
    log.error("Job could not run", { job: job.name, error: error instanceof Error ? error.message : String(error) });
  }
}
