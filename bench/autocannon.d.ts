/**
 * The part of autocannon 8's programmatic API that bench/api.ts uses (the package ships no types).
 * Documented in node_modules/autocannon/README.md, sections "API" and "Results".
 */
declare module "autocannon" {
  export interface Options {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    headers?: Record<string, string>;
    /** Seconds before a request counts as timed out (10). */
    timeout?: number;
  }

  /** hdr-histogram-percentiles-obj: per-second counts for `requests`, milliseconds for `latency`. */
  export interface Histogram {
    average: number;
    mean: number;
    stddev: number;
    min: number;
    max: number;
    total: number;
    p50: number;
    p90: number;
    p99: number;
  }

  export interface Result {
    url: string;
    /** Seconds. */
    duration: number;
    connections: number;
    requests: Histogram & { sent: number };
    latency: Histogram;
    throughput: Histogram;
    /** Connection errors, timeouts included. */
    errors: number;
    timeouts: number;
    mismatches: number;
    non2xx: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  /** Runs one benchmark; without a callback the returned instance is also a promise of the result. */
  function autocannon(options: Options): Promise<Result> & { stop(): void };
  export default autocannon;
}
