/**
 * The part of autocannon 8's programmatic API that the benchmarks use (the package ships no types).
 * Documented in node_modules/autocannon/README.md, sections "API" and "Results".
 */
declare module "autocannon" {
  /** One request of `Options.requests`; each connection loops over them. */
  export interface RequestSpec {
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    /** Changes the request before each send (it may be modified in place) and returns it. */
    setupRequest?: (request: RequestSpec, context: Record<string, unknown>) => RequestSpec;
    /** Called with every answer to this request; header names as the server sent them. */
    onResponse?: (status: number, body: string, context: Record<string, unknown>, headers: Record<string, string>) => void;
  }

  export interface Options {
    url: string;
    connections: number;
    /** Seconds. */
    duration: number;
    method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
    headers?: Record<string, string>;
    body?: string;
    requests?: RequestSpec[];
    /** Send this many requests, then stop (instead of `duration`). */
    amount?: number;
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
  function autocannon(options: Options): Promise<Result> & {
    stop(): void;
    /** Emitted for every completed answer. */
    on(event: "response", listener: (client: unknown, statusCode: number, bytes: number, ms: number) => void): void;
  };
  export default autocannon;
}
