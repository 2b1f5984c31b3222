/** server.ts started as its own process, as an operator runs it (tests/integration/process.test.ts, modules.test.ts). */
import { spawn, type ChildProcess } from "node:child_process";

export interface Spawned {
  child: ChildProcess;
  /** The server's address once it logs that it listens. */
  ready: Promise<string>;
  exited: Promise<{ code: number | null; output: string }>;
}

const children = new Set<ChildProcess>();

/** Kills every server still running (call it in afterAll). */
export function killSpawnedServers(): void {
  children.forEach((child) => child.kill("SIGKILL"));
}

/** Starts `node --import tsx server.ts` without pages on a free port, with `env` over the test process's (minus DATABASE_URL). */
export function spawnServer(env: Record<string, string | undefined>): Spawned {
  const { DATABASE_URL: _ignored, ...inherited } = process.env;
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    env: { ...inherited, NODE_ENV: "production", SERVE_PAGES: "false", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.add(child);
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
  const exited = new Promise<{ code: number | null; output: string }>((resolve) =>
    child.once("exit", (code) => {
      children.delete(child);
      resolve({ code, output });
    }),
  );
  return { child, ready, exited };
}
