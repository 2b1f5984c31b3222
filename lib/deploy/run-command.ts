import { spawn } from "node:child_process";

/*
 * Runs the deploy command: argv without a shell, in its own process group (so that a timeout kills what it started
 * too: SIGTERM, then SIGKILL after 5 s), with only the environment it is given, keeping the last 4 KB of its output
 * (stdout and stderr interleaved as they came).
 */

export const OUTPUT_KEPT_BYTES = 4096;
const KILL_GRACE_MS = 5000;

export interface CommandResult {
  /** null when it did not exit by itself (killed, or never started). */
  exitCode: number | null;
  timedOut: boolean;
  /** Why it could not start (ENOENT...). */
  startError: string | null;
  output: string;
}

class OutputTail {
  private buffer = Buffer.alloc(0);
  private dropped = false;

  add(chunk: Buffer): void {
    const joined = Buffer.concat([this.buffer, chunk]);
    this.dropped ||= joined.length > OUTPUT_KEPT_BYTES;
    this.buffer = joined.subarray(Math.max(0, joined.length - OUTPUT_KEPT_BYTES));
  }

  text(): string {
    // A cut through a multi-byte character decodes as U+FFFD at the start: drop it.
    const text = this.buffer.toString("utf8");
    return this.dropped ? text.replace(/^\uFFFD+/, "") : text;
  }
}

export function runCommand(
  argv: readonly string[],
  options: { timeoutMs: number; env: Record<string, string> },
): Promise<CommandResult> {
  return new Promise((resolve) => {
    const tail = new OutputTail();
    let timedOut = false;
    let startError: string | null = null;
    const child = spawn(argv[0]!, argv.slice(1), {
      env: options.env as NodeJS.ProcessEnv,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
      shell: false,
    });
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid) process.kill(-child.pid, signal);
      } catch {
        // Already gone.
      }
    };
    let killTimer: NodeJS.Timeout | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup("SIGTERM");
      killTimer = setTimeout(() => killGroup("SIGKILL"), KILL_GRACE_MS);
    }, options.timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => tail.add(chunk));
    child.stderr.on("data", (chunk: Buffer) => tail.add(chunk));
    child.on("error", (error) => {
      startError = error.message;
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      clearTimeout(killTimer);
      // Whatever it left running in its group goes with it.
      killGroup("SIGKILL");
      resolve({ exitCode: timedOut || startError ? null : code, timedOut, startError, output: tail.text() });
    });
  });
}
