/**
 * The Spolu process: one HTTP server that hands API paths straight to the Hono app (the fast path:
 * Next's request pipeline costs about 1 ms of CPU per request), everything else to Next.js, socket.io
 * on /ws, and the background job runner. SIGTERM drains in-flight requests and closes the database.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { pathToFileURL } from "node:url";
import type { PGlite } from "@electric-sql/pglite";
import { getRequestListener } from "@hono/node-server";
import { apiApp } from "./lib/api/app";
import { API_PREFIX, toApiPath } from "./lib/api/paths";
import { ConfigError, config, loadConfig } from "./lib/config";
import { closeDatabase, openDatabase } from "./lib/db/client";
import { registerEventHandlers } from "./lib/realtime/handlers";
import { backgroundJobs } from "./lib/jobs/jobs";
import { databaseJobRecorder } from "./lib/jobs/repo";
import { startJobRunner } from "./lib/jobs/runner";
import { log } from "./lib/log";
import { startModuleSync } from "./lib/modules/service";
import { resetLimiters } from "./lib/rate-limit/limiter";
import { attachSocket, SOCKET_PATH } from "./lib/realtime/socket";
import { closeRedis } from "./lib/redis/client";
import { answerTaskList } from "./lib/tasks/list-hits";

/** The task list, whose plain requests (hits and valid misses) are answered before the API (lib/tasks/list-hits.ts). */
const TASK_LIST_PATH = `${API_PREFIX}/tasks`;

export interface StartOptions {
  port?: number;
  hostname?: string;
  /** Serve the pages too (default: SERVE_PAGES). Integration tests start the API, socket and jobs alone. */
  pages?: boolean;
  dev?: boolean;
  /** An already open PGlite (tests start each file from a migrated copy). */
  pglite?: PGlite;
  /** Run the background jobs (default: RUN_JOBS). */
  jobs?: boolean;
}

export interface RunningServer {
  url: string;
  port: number;
  /** Stops accepting, waits for in-flight requests (up to SHUTDOWN_TIMEOUT_MS), closes everything. */
  close(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => unknown;

async function startNext(dev: boolean, hostname: string, port: number) {
  const { default: next } = await import("next");
  const app = next({ dev, dir: process.cwd(), hostname, port });
  await app.prepare();
  return { handle: app.getRequestHandler() as Handler, upgrade: app.getUpgradeHandler(), close: () => app.close() };
}

export async function startServer(options: StartOptions = {}): Promise<RunningServer> {
  const settings = config();
  const hostname = options.hostname ?? settings.HOST;
  const dev = options.dev ?? settings.NODE_ENV === "development";
  const database = await openDatabase({ pglite: options.pglite });
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
      .catch((error: unknown) => log.error("Request handler failed", { error: String(error) }))
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
    const apiPath = toApiPath(queryAt === -1 ? url : url.slice(0, queryAt));
    if (apiPath) {
      req.url = queryAt === -1 ? apiPath : apiPath + url.slice(queryAt);
      if (apiPath === TASK_LIST_PATH && req.method === "GET") {
        const queryString = queryAt === -1 ? "" : url.slice(queryAt + 1);
        return track(answerTaskList(req, res, queryString).then((answered) => (answered ? undefined : api(req, res))));
      }
      return track(api(req, res));
    }
    if (pages) return track(pages.handle(req, res));
    res.writeHead(404, { "Content-Type": "text/plain" }).end("Not found");
  });
  server.on("upgrade", (req, socket, head) => {
    if (req.url?.startsWith(`${SOCKET_PATH}/`)) return; // socket.io's own listener takes it
    if (pages) return pages.upgrade(req, socket, head);
    socket.destroy();
  });
  const socket = attachSocket(server);
  const stopEventHandlers = registerEventHandlers(socket.io);
  const runner = !(options.jobs ?? settings.RUN_JOBS)
    ? null
    : startJobRunner(backgroundJobs(), database.runExclusive, databaseJobRecorder);

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? settings.PORT, hostname, resolve);
  });
  const port = (server.address() as AddressInfo).port;

  return {
    port,
    url: `http://${hostname === "0.0.0.0" ? "127.0.0.1" : hostname}:${port}`,
    async close() {
      draining = true;
      stopEventHandlers();
      await socket.close(); // disconnects sockets and stops the listener
      server.closeIdleConnections();
      if (inFlight > 0) {
        await Promise.race([
          new Promise<void>((resolve) => idle.push(resolve)),
          new Promise((resolve) => setTimeout(resolve, settings.SHUTDOWN_TIMEOUT_MS).unref()),
        ]);
      }
      server.closeAllConnections();
      await runner?.stop();
      await moduleSync.stop();
      await pages?.close();
      await closeDatabase();
      await closeRedis();
      resetLimiters();
    },
  };
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

async function main() {
  try {
    loadConfig();
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  }
  if (config().NODE_ENV === "production" && config().SERVE_PAGES) ensureProductionBuild();
  const running = await startServer();
  log.info("Spolu is listening", { url: running.url, database: config().embedded ? "pglite" : "postgres" });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log.info("Shutting down", { signal });
    try {
      await running.close();
      process.exit(0);
    } catch (error) {
      log.error("Shutdown failed", { error: String(error) });
      process.exit(1);
    }
  };
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  main().catch((error: unknown) => {
    log.error("Could not start", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    process.exit(1);
  });
}
