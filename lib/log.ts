import { hostname } from "node:os";
import { format, stripVTControlCharacters } from "node:util";
import { config } from "./config";

const LEVELS = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 } as const;
type Level = Exclude<keyof typeof LEVELS, "silent">;

/** Every line names its process, so that the lines of several processes can be told apart once collected. */
const PROCESS = { pid: process.pid, hostname: hostname() };

/**
 * Lines wait for the end of the event loop's turn and go out together: under load one write carries the access
 * lines of every request that finished in that turn, instead of one system call each. `flushLog` writes what
 * waits at once (before the process exits).
 */
const pending = { stdout: [] as string[], stderr: [] as string[] };
let flushScheduled = false;

export function flushLog(): void {
  flushScheduled = false;
  if (pending.stdout.length) process.stdout.write(pending.stdout.splice(0).join(""));
  if (pending.stderr.length) process.stderr.write(pending.stderr.splice(0).join(""));
}

process.once("exit", flushLog);

function write(level: Level, message: string, fields?: Record<string, unknown>) {
  if (LEVELS[level] < LEVELS[config().LOG_LEVEL]) return;
  const line = JSON.stringify({ time: new Date().toISOString(), level, msg: message, ...PROCESS, ...fields });
  pending[level === "error" || level === "warn" ? "stderr" : "stdout"].push(`${line}\n`);
  if (!flushScheduled) {
    flushScheduled = true;
    setImmediate(flushLog);
  }
}

/** One JSON line per event. Never pass request bodies, passwords or tokens. */
export const log = {
  debug: (message: string, fields?: Record<string, unknown>) => write("debug", message, fields),
  info: (message: string, fields?: Record<string, unknown>) => write("info", message, fields),
  warn: (message: string, fields?: Record<string, unknown>) => write("warn", message, fields),
  error: (message: string, fields?: Record<string, unknown>) => write("error", message, fields),
};

/** An error's message (with its stack for `error` lines' `stack` field), for log fields. */
export function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Makes every line the process writes one JSON object: what libraries print through `console` (Next.js's
 * notices, warnings of dependencies) goes through the log with its level, colours removed. server.ts calls it
 * at start; tests and scripts keep the plain console.
 */
export function routeConsoleToLog(): void {
  const through =
    (level: Level) =>
    (...args: unknown[]) =>
      write(level, stripVTControlCharacters(format(...args)).trim(), { source: "console" });
  console.log = through("info");
  console.info = through("info");
  console.debug = through("debug");
  console.warn = through("warn");
  console.error = through("error");
}
