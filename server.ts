/**
 * The Spolu process: one HTTP server that hands API paths straight to the Hono app (the fast path:
 * Next's request pipeline costs about 1 ms of CPU per request), everything else to Next.js, socket.io
 * on /ws, and the background job runner. SIGTERM drains in-flight requests and closes the database.
 */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getRequestListener } from "@hono/node-server";
import { apiApp } from "./server/api";
import { logWhenAnswered, markRoutePattern, pagePattern, routePatternOf } from "./lib/api/access-log";
import { answerBeforeRouting, cachedGetAt } from "./lib/api/cached-get";
import { requestIdFor } from "./lib/api/middleware";
import { answerMalformedPath, isMalformedPath } from "./lib/api/malformed-path";
import { toApiPath } from "./lib/api/paths";
import { ConfigError, config, loadConfig, readDotEnvFile } from "./lib/config";
import { closeDatabase, openDatabase } from "./lib/db/client";
import type { EmbeddedClient } from "./lib/db/pglite-thread";
import { startEventConsumers } from "./lib/events/consumers";
import { registerEventHandlers } from "./server/subscribers";
import { backgroundJobs } from "./server/jobs";
import { databaseJobSchedule } from "./lib/jobs/repo";
import { startJobRunner } from "./lib/jobs/runner";
import { errorText, flushLog, log, routeConsoleToLog } from "./lib/log";
import { answerMetrics, countSocketsWith, METRICS_PATH } from "./lib/metrics/endpoint";
import { observeRequest } from "./lib/metrics/registry";
import { startModuleSync } from "./lib/modules/service";
import { resetLimiters } from "./lib/rate-limit/limiter";
import { attachSocket, SOCKET_PATH } from "./lib/realtime/socket";
import { closeRedis, redisReady } from "./lib/redis/client";

/** How long after SHUTDOWN_TIMEOUT_MS a stopping process exits whatever it still waits for. */
const FORCED_EXIT_MARGIN_MS = 4000;

/** How long the start waits for the Redis connection before it listens anyway (Redis down: not ready). */
const REDIS_START_WAIT_MS = 3000;
/** How long an idle keep-alive connection stays open (Node's default is 5 s). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export interface StartOptions {
  port?: number;
  hostname?: string;
  /** Serve the pages too (default: SERVE_PAGES). Integration tests start the API, socket and jobs alone. */
  pages?: boolean;
  dev?: boolean;
  /** An already open embedded database (tests start each file from a migrated copy, on its own thread). */
  pglite?: EmbeddedClient;
  /** Run the background jobs (default: RUN_JOBS). The event consumers follow RUN_EVENT_CONSUMERS. */
  jobs?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, waits for in-flight requests (up to SHUTDOWN_TIMEOUT_MS), closes everything. */
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

/**
 * The route label of an answered request for the metrics: the API route's pattern, or for pages the path with its
 * values replaced; what no route or page answered shares one label, so that random paths cannot grow the series.
 */
function metricsRoute(res: ServerResponse, path: string, api: boolean): string {
  if (api) return routePatternOf(res) ?? "(no route)";
  if (path === METRICS_PATH) return METRICS_PATH;
  if (path.startsWith("/_next/")) return "/_next/*";
  return res.statusCode === 404 ? "(no route)" : pagePattern(path);
}

/** Counts the request in the metrics when its answer is sent (or the client hangs up). */
function observeWhenAnswered(req: IncomingMessage, res: ServerResponse, path: string, api: boolean): void {
  const started = process.hrtime.bigint();
  res.once("close", () =>
    observeRequest(
      req.method ?? "GET",
      metricsRoute(res, path, api),
      res.statusCode,
      Number(process.hrtime.bigint() - started) / 1e9,
    ),
  );
}

async function startNext(dev: boolean, hostname: string, port: number) {
  const { default: next } = await import("next");
  // In production Next runs with the configuration its build wrote down, handed over the way the server that
  // `output: "standalone"` generates does: reading next.config.ts again would compile it with SWC at every start
  // and keep two SWC libraries loaded (36 MB of memory, 0.3 s). Without a build, Next reads next.config.ts.
  const built = dev ? null : builtNextConfig();
  if (built) process.env.__NEXT_PRIVATE_STANDALONE_CONFIG = JSON.stringify(built);
  const app = next({ dev, dir: process.cwd(), hostname, port });
  await app.prepare();
  return { handle: app.getRequestHandler() as Handler, upgrade: app.getUpgradeHandler(), close: () => app.close() };
}

/** Resolves after `ms`, or with the work when it settles first: every step of shutdown is bounded. */
function atMost(ms: number, work: Promise<unknown>): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work.catch((error: unknown) => log.warn("A shutdown step failed", { error: errorText(error) })),
    new Promise((resolve) => (timer = setTimeout(resolve, Math.max(0, ms)))),
  ]).finally(() => clearTimeout(timer));
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const settings = config();
  const hostname = options.hostname ?? settings.HOST;
  const dev = options.dev ?? settings.NODE_ENV === "development";
  await openDatabase({ pglite: options.pglite });
  // Connects now (with REDIS_URL), not at the first request, and waits a moment for it: commands never queue, so a
  // request answered before the connection is ready is counted in this process's memory instead of in Redis.
  await redisReady(REDIS_START_WAIT_MS);
  // The administrators' module switches, before the first request is answered (lib/modules/service.ts).
  const moduleSync = await startModuleSync();

  const api = getRequestListener(apiApp().fetch, { overrideGlobalObjects: true });
  const pages = !(options.pages ?? settings.SERVE_PAGES) ? null : await startNext(dev, hostname, options.port ?? settings.PORT);

  // In-flight work is counted until its handler settles, not until its socket closes: a handler whose
  // client hung up may still be using the database, which shutdown closes last.
  let inFlight = 0;
  let draining = false;
  const idle: (() => void)[] = [];
  const track = (work: unknown) => {
    inFlight++;
    void Promise.resolve(work)
      .catch((error: unknown) => log.error("Request handler failed", { error: errorText(error) }))
      .finally(() => {
        if (--inFlight === 0) idle.splice(0).forEach((resolve) => resolve());
      });
  };
  const server = createServer((req, res) => {
    if (draining) res.setHeader("Connection", "close");
    if (req.method === "TRACE" || req.method === "TRACK") {
      res.writeHead(405, { Allow: "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS" }).end();
      return;
    }
    const url = req.url ?? "/";
    const queryAt = url.indexOf("?");
    const path = queryAt === -1 ? url : url.slice(0, queryAt);
    const apiPath = toApiPath(path);
    if (settings.ACCESS_LOG) logWhenAnswered(req, res, path, apiPath !== null);
    observeWhenAnswered(req, res, path, apiPath !== null);
    // Before the API: not rate limited, not a route of /openapi.json (lib/metrics/endpoint.ts).
    if (path === METRICS_PATH) return track(answerMetrics(req, res));
    if (apiPath) {
      req.url = queryAt === -1 ? apiPath : apiPath + url.slice(queryAt);
      // A cacheable GET (GET /tasks, GET /board) is answered before routing when it can be (lib/api/cached-get.ts).
      const cached = req.method === "GET" ? cachedGetAt(apiPath) : undefined;
      if (cached) {
        const queryString = queryAt === -1 ? "" : url.slice(queryAt + 1);
        return track(
          answerBeforeRouting(cached, req, res, queryString).then((answered) =>
            answered ? markRoutePattern(res, apiPath) : api(req, res),
          ),
        );
      }
      return track(api(req, res));
    }
    res.setHeader("X-Request-Id", requestIdFor(req.headers["x-request-id"] as string | undefined));
    if (isMalformedPath(path)) return answerMalformedPath(path, res);
    if (pages) return track(pages.handle(req, res));
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
  });
  // Idle keep-alive connections stay open longer than clients and proxies keep theirs (browsers, undici's 4 s,
  // nginx's and load balancers' 60 s), so that it is always the client that closes an idle connection: a server
  // closing first races a request just written to it, which then fails with ECONNRESET. Shutdown closes idle
  // connections at once (closeIdleConnections below).
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.on("upgrade", (req, socket, head) => {
    if (req.url?.startsWith(`${SOCKET_PATH}/`)) return; // socket.io's own listener takes it
    if (pages) return pages.upgrade(req, socket, head);
    socket.destroy();
  });
  const socket = attachSocket(server);
  countSocketsWith(() => socket.io.of("/").sockets.size);
  const stopEventHandlers = registerEventHandlers(socket.io);
  // The durable consumers of the event log (notifications, awards, webhooks, socket pushes), one process at a time.
  const consumers = settings.RUN_EVENT_CONSUMERS ? startEventConsumers() : null;
  const runner = !(options.jobs ?? settings.RUN_JOBS) ? null : startJobRunner(backgroundJobs(), databaseJobSchedule);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? settings.PORT, hostname, resolve);
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}`,
    async close() {
      const deadline = Date.now() + settings.SHUTDOWN_TIMEOUT_MS;
      const left = () => deadline - Date.now();
      draining = true;
      // Jobs are told to stop now and waited for alongside the requests, up to the same deadline.
      const jobsStopped = runner?.stop(settings.SHUTDOWN_TIMEOUT_MS) ?? Promise.resolve([]);
      server.close(); // no new connections
      await socket.close(); // disconnects the sockets
      server.closeIdleConnections();
      if (inFlight > 0) await atMost(left(), new Promise<void>((resolve) => idle.push(resolve)));
      server.closeAllConnections();
      // Requests that finished during the drain have published their events: only now do the consumers stop (what
      // they leave, another process or the next start takes from their cursors).
      await atMost(left(), consumers?.stop() ?? Promise.resolve());
      stopEventHandlers();
      await atMost(left(), jobsStopped);
      await atMost(1000, moduleSync.stop());
      if (pages) await atMost(2000, pages.close());
      await atMost(3000, closeDatabase());
      await closeRedis();
      resetLimiters();
    },
  };
}

/** The configuration `next build` wrote into .next (null without a build: Next then reads next.config.ts). */
function builtNextConfig(): object | null {
  try {
    return JSON.parse(readFileSync(path.join(process.cwd(), ".next", "required-server-files.json"), "utf8")).config;
  } catch {
    return null;
  }
}

/** `npm start` on a fresh clone: build the pages once when there is no production build yet. */
function ensureProductionBuild() {
  if (existsSync(path.join(process.cwd(), ".next", "BUILD_ID"))) return;
  log.info("No production build yet: running `next build` once (later: `npm run build` after updates)");
  const build = spawnSync(process.execPath, [path.join("node_modules", "next", "dist", "bin", "next"), "build"], {
    stdio: "inherit",
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

/** Leaves now, with what the log holds written out. */
function exit(code: number): never {
  flushLog();
  process.exit(code);
}

async function main() {
  try {
    readDotEnvFile();
    loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  // From here on every line the process writes is one JSON object (lib/log.ts), whoever writes it.
  routeConsoleToLog();
  process.on("uncaughtException", (error) => {
    log.error("Uncaught exception: stopping", { error: errorText(error), stack: error.stack });
    exit(1);
  });
  process.on("unhandledRejection", (reason) => {
    // A promise nobody waited for failed (typically a library's fire-and-forget call): logged, the process goes on.
    log.error("Unhandled promise rejection", {
      error: errorText(reason),
      stack: reason instanceof Error ? reason.stack : undefined,
    });
  });
  if (config().NODE_ENV === "production" && config().SERVE_PAGES) ensureProductionBuild();
  const running = await startServer();
  log.info("Spolu is listening", { url: running.url, database: config().embedded ? "pglite" : "postgres" });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("Shutting down", { signal, timeoutMs: config().SHUTDOWN_TIMEOUT_MS });
    // Whatever a step of the shutdown waits for, the process is gone a few seconds after the limit.
    setTimeout(() => {
      log.error("Shutdown took too long: exiting", { timeoutMs: config().SHUTDOWN_TIMEOUT_MS });
      exit(1);
    }, config().SHUTDOWN_TIMEOUT_MS + FORCED_EXIT_MARGIN_MS).unref();
    try {
      await running.close();
      log.info("Stopped");
      exit(0);
    } catch (error) {
      log.error("Shutdown failed", { error: errorText(error) });
      exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    log.error("Could not start", { error: errorText(error), stack: error instanceof Error ? error.stack : undefined });
    exit(1);
  });
}
