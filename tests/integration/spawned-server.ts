/** server.ts started as its own process, as an operator runs it (tests/integration/process.test.ts, modules.test.ts). */
import { spawn, type ChildProcess } from "node:child_process";

export interface Spawned {
  child: ChildProcess;
  /** The server's address once it logs that it listens. */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; output: string }>;
}

const killers = new Set<() => void>();

/** Kills every server still running (call it in afterAll). */
export function killSpawnedServers(): void {
  killers.forEach((kill) => kill());
}

function watch(child: ChildProcess, kill: () => void): Spawned {
  killers.add(kill);
  let output = "";
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const url = output.match(/"msg":"Spolu is listening"[^\n]*?"url":"([^"]+)"/)?.[1];
      if (url) resolve(url);
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
    child.once("exit", () => reject(new Error(`exited before listening:\n${output}`)));
  });
  ready.catch(() => {});
  // "close", not "exit": the output is complete only once every process writing to the pipes is gone (npm exits
  // before the node process it started has written its last lines).
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("close", (code) => {
      killers.delete(kill);
      resolve({ code, output });
    }),
  );
  return { child, ready, exited };
}

/** Starts `node --import tsx server.ts` without pages on a free port, with `env` over the test process's (minus DATABASE_URL). */
export function spawnServer(env: Record<string, string | undefined>): Spawned {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: { ...inherited, NODE_ENV: "production", SERVE_PAGES: "false", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  return watch(child, () => child.kill("SIGKILL"));
}

/**
 * Runs `npm run <script>` in `cwd` as an operator types it, with only `env` over PATH, HOME and NODE_ENV=production
 * (none of the test process's settings). npm and its shell sit between the test and node: `signal` goes to the
 * whole process group.
 */
export function spawnNpmScript(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Spawned & { signal(name: NodeJS.Signals): void } {
  const child = spawn("npm", ["run", "--silent", script], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, NODE_ENV: "production", NPM_CONFIG_UPDATE_NOTIFIER: "false", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-child.pid!, name);
    } catch {
      // already gone
    }
  };
  return { ...watch(child, () => signal("SIGKILL")), signal };
}
