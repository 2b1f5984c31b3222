import { hostname } from "node:os";
import { errorText, log } from "../log";
import { observeJobRun } from "../metrics/registry";
import { isModuleEnabled } from "../modules/registry";
import type { JobInfo } from "./catalog";

/** A background job: runs every `intervalMs`, once per interval across the deployment. */
export interface Job extends JobInfo {
  /** Delay before this process first tries to run it (default: staggered from 10 s after start). */
  initialDelayMs?: number;
  /** `signal` aborts when the process stops: a long job should return soon after (it is abandoned otherwise). */
  run(signal: AbortSignal): Promise<void>;
}

export type ClaimResult = { claimed: true } | { claimed: false; retryInMs: number };

/**
 * Who runs what when, shared by every process (lib/jobs/repo.ts keeps it in the database). A run is claimed when
 * it is due and nobody holds the job's lease; the lease is renewed while the job runs, and left to expire when the
 * process running it dies or abandons it.
 */
export interface JobSchedule {
  /** Claims the job's run for `runner` if it is due; otherwise says in how long it may be. */
  claim(job: Job, runner: string, leaseMs: number): Promise<ClaimResult>;
  /** Extends `runner`'s lease; false when it no longer holds it. */
  renew(job: Job, runner: string, leaseMs: number): Promise<boolean>;
  /** Records the run's end and releases the lease. */
  finish(job: Job, runner: string, outcome: { durationMs: number; error: string | null }): Promise<void>;
}

export interface JobRunnerOptions {
  /** This process's name in the schedule (default: host name and process id). */
  runner?: string;
  /** How long a claim holds without renewal (renewed every third of it while the job runs). */
  leaseMs?: number;
  /** Jobs this process runs at once: the rest wait their turn, so that jobs never take the whole pool. */
  concurrency?: number;
  /** Random delay added to every attempt, so that processes do not ask at the same instant. */
  jitterMs?: number;
}

export interface JobRunner {
  /**
   * Stops scheduling, tells running jobs to stop (their signal aborts) and waits for them at most `graceMs`; the
   * answer names the jobs still running then, which are abandoned (their leases expire for another process).
   */
  stop(graceMs: number): Promise<string[]>;
}

export const RUNNER = `${hostname()}:${process.pid}`;
const LEASE_MS = 60_000;
/** The first job is tried 10 s after start, the next ones this much later each. */
const FIRST_DELAY_MS = 10_000;
const STAGGER_MS = 1_500;
/** The shortest wait between two attempts of one job. */
const MIN_WAIT_MS = 1_000;
/** The longest error message kept for a failed run. */
const ERROR_MAX = 2000;

export function startJobRunner(jobs: readonly Job[], schedule: JobSchedule, options: JobRunnerOptions = {}): JobRunner {
  const { runner = RUNNER, leaseMs = LEASE_MS, concurrency = 2, jitterMs = 1000 } = options;
  const timers = new Set<NodeJS.Timeout>();
  const running = new Map<string, Promise<void>>();
  const controller = new AbortController();
  const waiting: (() => void)[] = [];
  let active = 0;
  let stopped = false;

  const jitter = () => Math.floor(Math.random() * jitterMs);

  const later = (delayMs: number, work: () => void) => {
    if (stopped) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (!stopped) work();
    }, delayMs);
    timer.unref();
    timers.add(timer);
  };

  /** Waits for one of the `concurrency` slots; answers the function that frees it. */
  const slot = async (): Promise<() => void> => {
    if (active >= concurrency) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    return () => {
      active--;
      waiting.shift()?.();
    };
  };

  const attempt = (job: Job) => {
    if (job.module && !isModuleEnabled(job.module)) return later(job.intervalMs + jitter(), () => attempt(job));
    const work = (async () => {
      const release = await slot();
      try {
        if (stopped) return;
        const claim = await schedule.claim(job, runner, leaseMs);
        if (!claim.claimed) {
          log.debug("Job not due here", { job: job.name, retryInMs: claim.retryInMs });
          return later(Math.min(Math.max(claim.retryInMs, MIN_WAIT_MS), job.intervalMs) + jitter(), () => attempt(job));
        }
        const durationMs = await runClaimed(job);
        later(Math.max(MIN_WAIT_MS, job.intervalMs - durationMs) + jitter(), () => attempt(job));
      } catch (error) {
        // The schedule could not be read (the database is down): try again after an interval.
        log.warn("Job could not be scheduled", { job: job.name, error: errorText(error) });
        later(job.intervalMs + jitter(), () => attempt(job));
      } finally {
        release();
      }
    })();
    running.set(job.name, work);
    void work.finally(() => {
      if (running.get(job.name) === work) running.delete(job.name);
    });
  };

  /** Runs a claimed job, renewing its lease meanwhile; answers how long it ran. */
  const runClaimed = async (job: Job): Promise<number> => {
    const started = Date.now();
    const renewal = setInterval(() => {
      schedule.renew(job, runner, leaseMs).then(
        (held) => held || log.warn("Job lease lost while running", { job: job.name }),
        (error: unknown) => log.warn("Could not renew a job's lease", { job: job.name, error: errorText(error) }),
      );
    }, leaseMs / 3);
    renewal.unref();
    let failure: string | null = null;
    try {
      await job.run(controller.signal);
    } catch (error) {
      failure = errorText(error).slice(0, ERROR_MAX);
      log.error("Job failed", { job: job.name, error: failure });
    } finally {
      clearInterval(renewal);
    }
    const durationMs = Date.now() - started;
    observeJobRun(job.name, failure !== null, durationMs / 1000);
    try {
      await schedule.finish(job, runner, { durationMs, error: failure });
    } catch (error) {
      log.warn("Could not record a job run", { job: job.name, error: errorText(error) });
    }
    if (failure === null) log.debug("Job ran", { job: job.name, ms: durationMs });
    return durationMs;
  };

  jobs.forEach((job, index) => later((job.initialDelayMs ?? FIRST_DELAY_MS + index * STAGGER_MS) + jitter(), () => attempt(job)));

  return {
    async stop(graceMs) {
      stopped = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      waiting.splice(0).forEach((wake) => wake());
      controller.abort(new Error("The process is stopping"));
      const pending = [...running.entries()];
      if (pending.length === 0) return [];
      let graceTimer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(pending.map(([, work]) => work)),
        new Promise((resolve) => (graceTimer = setTimeout(resolve, graceMs))),
      ]);
      clearTimeout(graceTimer);
      const abandoned = [...running.keys()];
      if (abandoned.length) log.warn("Abandoned running jobs at shutdown; their leases expire", { jobs: abandoned, leaseMs });
      return abandoned;
    },
  };
}
