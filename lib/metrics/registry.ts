import { Counter, Histogram, Registry } from "prom-client";

/*
 * The process's Prometheus metrics (prom-client), scraped at GET /metrics (lib/metrics/endpoint.ts). Each process
 * keeps its own: with several processes, scrape each one. This file holds the counters other modules add to and
 * imports no domain, so that the job runner and the HTTP server can use it without an import cycle.
 */

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
  jobRuns: Counter<"job" | "outcome">;
  jobDuration: Histogram<"job">;
}

const METRICS = Symbol.for("spolu.metrics");
type Holder = { [METRICS]?: Metrics };

function createMetrics(): Metrics {
  const registry = new Registry();
  return {
    registry,
    httpRequests: new Counter({
      name: "spolu_http_requests_total",
      help: "HTTP requests answered, by method, route pattern (never the raw path) and status",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "spolu_http_request_duration_seconds",
      help: "Time from a request's arrival until its answer was sent, by method, route pattern and status",
      labelNames: ["method", "route", "status"],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
      registers: [registry],
    }),
    jobRuns: new Counter({
      name: "spolu_job_runs_total",
      help: "Background job runs (lib/jobs) this process made, by job and outcome (success or failure)",
      labelNames: ["job", "outcome"],
      registers: [registry],
    }),
    jobDuration: new Histogram({
      name: "spolu_job_run_duration_seconds",
      help: "How long background job runs took, by job",
      labelNames: ["job"],
      buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
      registers: [registry],
    }),
  };
}

/** The process's metrics (one set, also when Next's bundle loads this module a second time). */
export function metrics(): Metrics {
  return ((globalThis as Holder)[METRICS] ??= createMetrics());
}

/** Counts an answered request and its duration. */
export function observeRequest(method: string, route: string, status: number, seconds: number): void {
  const labels = { method, route, status: String(status) };
  const { httpRequests, httpDuration } = metrics();
  httpRequests.inc(labels);
  httpDuration.observe(labels, seconds);
}

/** Counts a background job's run. */
export function observeJobRun(job: string, failed: boolean, seconds: number): void {
  const { jobRuns, jobDuration } = metrics();
  jobRuns.inc({ job, outcome: failed ? "failure" : "success" });
  jobDuration.observe({ job }, seconds);
}
