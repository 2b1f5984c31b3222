/**
 * The production topology as an operator runs it: `server.ts` started with the exact command of `npm start`, in
 * child processes, on PostgreSQL and Redis, with every setting at its default unless a test says otherwise.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";

/** The shared PostgreSQL server the suite creates its databases on (CI and the machine's default). */
export const POSTGRES_URL = process.env.TOPOLOGY_DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres";
/** The shared Redis, for tests that do not stop it (the outage tests start their own). */
export const SHARED_REDIS_URL = process.env.TOPOLOGY_REDIS_URL ?? "redis://127.0.0.1:6379";
/** The administrator every cluster knows (ADMIN_EMAILS), for reading /admin/jobs. */
export const ADMIN_EMAIL = "topology-admin@example.com";

/** `npm start` as package.json says it: its environment assignments and node's arguments. */
export function startCommand(): { env: Record<string, string>; args: string[] } {
  const script: string = JSON.parse(readFileSync("package.json", "utf8")).scripts.start;
  const words = script.trim().split(/\s+/);
  const env: Record<string, string> = {};
  while (words[0]?.includes("=")) {
    const [name, value] = words.shift()!.split("=") as [string, string];
    env[name] = value;
  }
  if (words.shift() !== "node") throw new Error(`npm start does not start node: ${script}`);
  return { env, args: words };
}

export interface ServerProcess {
  readonly name: string;
  readonly url: string;
  readonly pid: number;
  readonly child: ChildProcess;
  /** Everything it wrote to stdout and stderr so far. */
  output(): string;
  /** Its output's lines that are not JSON objects (every line must be one). */
  nonJsonLines(): string[];
  /** Resolves when it has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
}

export interface ProcessOptions {
  name: string;
  /** Added to (and overriding) the defaults below. */
  env: Record<string, string | undefined>;
  /** How long to wait for "Spolu is listening" (Next's start is part of it). */
  readyTimeoutMs?: number;
}

const running = new Set<ChildProcess>();

/** Kills every process still running (afterAll). */
export function killAll(): void {
  for (const child of running) child.kill("SIGKILL");
}

/**
 * Starts one process. What it is given beyond `npm start`: the port (0: any free one), the host, a data
 * directory of its own, and the log level stays at its default (info), so that the test reads what an
 * operator would read.
 */
export function startProcess(options: ProcessOptions): { process: Promise<ServerProcess>; child: ChildProcess } {
  const command = startCommand();
  const dataDir = mkdtempSync(path.join(tmpdir(), `spolu-topology-${options.name}-`));
  const { DATABASE_URL: _d, REDIS_URL: _r, LOG_LEVEL: _l, NODE_OPTIONS: _n, ...inherited } = process.env;
  const child = spawn(process.execPath, command.args, {
    env: { ...inherited, ...command.env, PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>((resolve) =>
    child.once("exit", (code, signal) => {
      running.delete(child);
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, signal, at: Date.now() });
    }),
  );
  const ready = new Promise<ServerProcess>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${options.name} did not listen within ${options.readyTimeoutMs ?? 90_000} ms:\n${output}`)),
      options.readyTimeoutMs ?? 90_000,
    );
    const look = () => {
      const url = output.match(/"msg":"Spolu is listening"[^\n]*?"url":"([^"]+)"/)?.[1];
      if (!url) return;
      clearTimeout(timer);
      child.stdout!.off("data", look);
      child.stderr!.off("data", look);
      resolve({
        name: options.name,
        url,
        pid: child.pid!,
        child,
        output: () => output,
        nonJsonLines: () =>
          output
            .split("\n")
            .filter(Boolean)
            .filter((line) => {
              try {
                return typeof JSON.parse(line) !== "object";
              } catch {
                return true;
              }
            }),
        exited,
      });
    };
    child.stdout!.on("data", look);
    child.stderr!.on("data", look);
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`${options.name} exited before listening:\n${output}`));
    });
  });
  ready.catch(() => {});
  return { process: ready, child };
}

/** A fresh, empty database on the PostgreSQL server (the processes migrate it, as on a first deployment). */
export async function createDatabase(): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `spolu_topology_${randomUUID().replaceAll("-", "")}`;
  await withClient(POSTGRES_URL, (client) => client.query(`create database ${name}`));
  const url = new URL(POSTGRES_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    async drop() {
      await withClient(POSTGRES_URL, (client) => client.query(`drop database if exists ${name} with (force)`));
    },
  };
}

export async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/** The settings a deployment of several processes must share (README and docs/operations.md, "Running several processes"). */
export function clusterEnv(databaseUrl: string, redisUrl: string): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: redisUrl,
    REDIS_PREFIX: `spolu-topology-${randomUUID()}:`,
    JWT_SECRET: randomUUID() + randomUUID(),
    ADMIN_EMAILS: ADMIN_EMAIL,
  };
}

export interface Answer<T = any> {
  status: number;
  headers: Headers;
  body: T;
  ms: number;
}

/** One HTTP request with a time limit; a request that gets no answer in time rejects (the test then fails). */
export async function call<T = any>(
  url: string,
  options: { method?: string; json?: unknown; token?: string; timeoutMs?: number } = {},
): Promise<Answer<T>> {
  const started = Date.now();
  const response = await fetch(url, {
    method: options.method ?? (options.json === undefined ? "GET" : "POST"),
    headers: {
      ...(options.json !== undefined && { "Content-Type": "application/json" }),
      ...(options.token && { Authorization: `Bearer ${options.token}` }),
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
    signal: AbortSignal.timeout(options.timeoutMs ?? 15_000),
  });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  return {
    status: response.status,
    headers: response.headers,
    body: type.includes("json") ? JSON.parse(text) : text,
    ms: Date.now() - started,
  };
}

/** Registers an account through `url`; answers its token and user. */
export async function register(url: string, email = `user-${randomUUID()}@example.com`, password = `pw-${randomUUID()}`) {
  const answer = await call(`${url}/auth/register`, { json: { email, password, name: "Topology" } });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { email, password, token: answer.body.token as string, user: answer.body.user as { id: string } };
}

/** Polls `probe` until it answers something truthy, failing after `timeoutMs` with `what` (no fixed sleeps). */
export async function waitFor<T>(
  what: string,
  probe: () => Promise<T | undefined | null | false>,
  timeoutMs: number,
  everyMs = 250,
) {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await probe();
      if (value) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > deadline)
      throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}${last ? `: ${String(last)}` : ""}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}
