import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { collectDefaultMetrics, Gauge } from "prom-client";
import { config } from "../config";
import { databasePoolUsage } from "../db/client";
import { eventConsumerLags } from "../events/consumers";
import type { ConsumerLag } from "../events/repo";
import { errorText, log } from "../log";
import { queueSummary } from "../queue/service";
import { metrics } from "./registry";

/*
 * GET /metrics, answered by server.ts before the API (so: no rate limit, not in /openapi.json): this process's
 * metrics in the Prometheus text format, for `Authorization: Bearer <METRICS_TOKEN>`. Without METRICS_TOKEN the path
 * does not exist (404); with it, any other Authorization is a 401. Besides the counters of lib/metrics/registry.ts,
 * the gauges below are read at each scrape, and prom-client's default metrics (memory, CPU, event loop, handles).
 */

export const METRICS_PATH = "/metrics";

const GAUGES = Symbol.for("spolu.metrics.gauges");
type Holder = { [GAUGES]?: { sockets: { count: () => number } } };

let lagRead: { at: number; lags: Promise<ConsumerLag[]> } | null = null;

/** The event consumers' lags, read once per scrape for both gauges; none when the database cannot be read. */
function scrapeLags(): Promise<ConsumerLag[]> {
  if (lagRead && Date.now() - lagRead.at < 1000) return lagRead.lags;
  const lags = eventConsumerLags().catch((error: unknown) => {
    log.warn("Metrics: the event consumers' cursors could not be read", { error: errorText(error) });
    return [];
  });
  lagRead = { at: Date.now(), lags };
  return lags;
}

/** Registers the gauges and default metrics once per process; answers where the socket count is read from. */
function gauges() {
  const holder = globalThis as Holder;
  if (holder[GAUGES]) return holder[GAUGES];
  const { registry } = metrics();
  const sockets = { count: () => 0 };
  collectDefaultMetrics({ register: registry });
  new Gauge({
    name: "spolu_socket_connections",
    help: "socket.io connections (signed in) open on this process",
    registers: [registry],
    collect() {
      this.set(sockets.count());
    },
  });
  new Gauge({
    name: "spolu_db_pool_connections",
    help: "PostgreSQL pool of this process: connections open (total), idle, and callers waiting for one (absent on PGlite)",
    labelNames: ["state"],
    registers: [registry],
    collect() {
      this.reset();
      const usage = databasePoolUsage();
      if (!usage) return;
      this.set({ state: "total" }, usage.total);
      this.set({ state: "idle" }, usage.idle);
      this.set({ state: "waiting" }, usage.waiting);
    },
  });
  new Gauge({
    name: "spolu_queue_items",
    help: "Work-queue items (lib/queue, shared by every process) waiting (pending), running, or given up on (dead), by kind",
    labelNames: ["kind", "state"],
    registers: [registry],
    async collect() {
      this.reset();
      try {
        for (const kind of (await queueSummary()).kinds) {
          for (const state of ["pending", "running", "dead"] as const) this.set({ kind: kind.kind, state }, kind[state]);
        }
      } catch (error) {
        // The database is down: the scrape still answers, without the queue's figures.
        log.warn("Metrics: the queue could not be read", { error: errorText(error) });
      }
    },
  });
  new Gauge({
    name: "spolu_event_consumer_lag_events",
    help: "Domain events each durable event consumer (lib/events/consumers.ts, shared by every process) has not handled yet",
    labelNames: ["consumer"],
    registers: [registry],
    async collect() {
      this.reset();
      for (const lag of await scrapeLags()) this.set({ consumer: lag.consumer }, lag.behind);
    },
  });
  new Gauge({
    name: "spolu_event_consumer_lag_seconds",
    help: "How long the oldest domain event each durable event consumer has not handled has waited (0: up to date)",
    labelNames: ["consumer"],
    registers: [registry],
    async collect() {
      this.reset();
      const now = Date.now();
      for (const lag of await scrapeLags()) {
        this.set({ consumer: lag.consumer }, lag.oldestAt ? Math.max(0, (now - lag.oldestAt.getTime()) / 1000) : 0);
      }
    },
  });
  return (holder[GAUGES] = { sockets });
}

/** Where the number of open socket.io connections is read from at each scrape (server.ts). */
export function countSocketsWith(count: () => number): void {
  gauges().sockets.count = count;
}

const digest = (text: string) => createHash("sha256").update(text).digest();

/** Whether the Authorization header carries the metrics token (compared in constant time). */
function authorized(header: string | undefined, token: string): boolean {
  const given = header?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return !!given && timingSafeEqual(digest(given), digest(token));
}

/** Answers GET /metrics (404 without METRICS_TOKEN, 401 without the token, 405 for other methods). */
export async function answerMetrics(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const token = config().METRICS_TOKEN;
  if (!token) {
    response.writeHead(404, { "Content-Type": "text/plain; charset=utf-8" }).end("Not found");
    return;
  }
  if (!authorized(request.headers.authorization, token)) {
    response
      .writeHead(401, { "Content-Type": "text/plain; charset=utf-8", "WWW-Authenticate": 'Bearer realm="metrics"' })
      .end("Unauthorized: send Authorization: Bearer <METRICS_TOKEN>");
    return;
  }
  if (request.method !== "GET" && request.method !== "HEAD") {
    response.writeHead(405, { Allow: "GET, HEAD", "Content-Type": "text/plain; charset=utf-8" }).end("Method not allowed");
    return;
  }
  gauges();
  const { registry } = metrics();
  const body = await registry.metrics();
  response.writeHead(200, { "Content-Type": registry.contentType, "Cache-Control": "no-store" });
  response.end(request.method === "HEAD" ? undefined : body);
}
