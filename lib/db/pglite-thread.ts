import path from "node:path";
import { Worker } from "node:worker_threads";
import type { PGlite, QueryOptions, Results, Transaction } from "@electric-sql/pglite";

/**
 * What lib/db/client.ts and Drizzle's pglite driver use of a PGlite: both a PGlite of this thread (the unit tests')
 * and the embedded database's thread (`startPgliteThread`) provide it.
 */
export type EmbeddedClient = Pick<PGlite, "query" | "exec" | "transaction" | "close">;

/** Where the embedded database runs: a data directory (with PGlite's options), or a tarball loaded into memory. */
export interface PgliteThreadOptions {
  dataDir?: string;
  options?: Record<string, unknown>;
  /** A `dumpDataDir` tarball to start from, in memory (the integration tests' migrated copy). */
  loadDataDir?: Uint8Array;
}

/** The embedded database's thread, seen from the main thread: PGlite's calls, and its data directory's tarball. */
export interface PgliteThread extends EmbeddedClient {
  dumpDataDir(): Promise<Uint8Array>;
}

/** Found from the working directory, as the migrations are: Next's bundle of the API has no import.meta.url of its own. */
const WORKER_FILE = path.join(process.cwd(), "lib/db/pglite-worker.mjs");

/** The start of the message of every failure of the thread itself: lib/db/client.ts answers it 503. */
export const THREAD_STOPPED = "The embedded database's thread stopped";

type Reply = { id: number; ok: true; result: unknown } | { id: number; ok: false; error: Record<string, unknown> };

/** An error answered by the thread, with PostgreSQL's fields (code, detail, constraint...) as PGlite gave them. */
function errorFrom(plain: Record<string, unknown>): Error {
  const { name, message, stack, ...fields } = plain;
  const error = Object.assign(new Error(String(message)), fields);
  error.name = String(name ?? "Error");
  if (typeof stack === "string") error.stack = stack;
  return error;
}

/**
 * The type OIDs whose parser answers the text as it is. Functions cannot cross to another thread; Drizzle's pglite
 * driver passes only such parsers (timestamps, dates and intervals kept as text), so the thread reproduces them from
 * the OIDs. Any other parser is refused rather than silently ignored.
 */
function rawTypes(options: QueryOptions | undefined): number[] | undefined {
  if (options?.serializers && Object.keys(options.serializers).length > 0) {
    throw new Error("Serializers cannot cross to the embedded database's thread");
  }
  const parsers = options?.parsers;
  if (!parsers) return undefined;
  const probe = "2001-02-03 04:05:06+00";
  return Object.entries(parsers).map(([oid, parse]) => {
    if (parse(probe, Number(oid)) !== probe) {
      throw new Error(`The parser of type ${oid} is not the identity: it cannot cross to the embedded database's thread`);
    }
    return Number(oid);
  });
}

/**
 * Starts PGlite on a worker thread and answers once it is ready. Statements cross as messages (structured clones):
 * about 0.05 ms a round trip (docs/performance.md, "The embedded database's thread"). A transaction stays open on
 * the thread while the main thread sends its statements, tagged with its id; the others wait as PGlite makes them.
 * The thread keeps the process alive only while something waits for it.
 */
export async function startPgliteThread(settings: PgliteThreadOptions): Promise<PgliteThread> {
  const worker = new Worker(WORKER_FILE, { workerData: settings });
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  let lastId = 0;
  let stopped: Error | null = null;

  const stop = (error: Error) => {
    stopped ??= error;
    for (const waiting of pending.values()) waiting.reject(stopped);
    pending.clear();
    worker.unref();
  };
  const ready = new Promise<void>((resolve, reject) => {
    worker.on("message", (message: Reply | { ready: boolean; error?: Record<string, unknown> }) => {
      if ("ready" in message) return message.ready ? resolve() : reject(errorFrom(message.error ?? {}));
      const waiting = pending.get(message.id);
      if (!waiting) return;
      pending.delete(message.id);
      if (pending.size === 0) worker.unref();
      if (message.ok) waiting.resolve(message.result);
      else waiting.reject(errorFrom(message.error));
    });
    worker.on("error", (error) => {
      stop(new Error(`${THREAD_STOPPED}: ${error.message}`, { cause: error }));
      reject(stopped);
    });
    worker.on("exit", (code) => {
      stop(new Error(`${THREAD_STOPPED} (exit code ${code})`));
      reject(stopped);
    });
  });

  const request = <T>(message: Record<string, unknown>): Promise<T> => {
    if (stopped) return Promise.reject(stopped);
    const id = ++lastId;
    if (pending.size === 0) worker.ref();
    return new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: unknown) => void, reject });
      worker.postMessage({ id, ...message });
    });
  };

  const query = <T>(tx: number | undefined, sql: string, params: unknown[] = [], options?: QueryOptions) => {
    let raw: number[] | undefined;
    try {
      raw = rawTypes(options);
    } catch (error) {
      return Promise.reject(error as Error);
    }
    return request<Results<T>>({ op: "query", sql, params, rowMode: options?.rowMode, raw, tx });
  };
  const exec = (tx: number | undefined, sql: string) => request<Results[]>({ op: "exec", sql, tx });

  const client: PgliteThread = {
    query: (sql, params, options) => query(undefined, sql, params, options),
    exec: (sql) => exec(undefined, sql),
    async transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T> {
      const id = await request<number>({ op: "begin" });
      let closed = false;
      const tx = {
        query: (sql: string, params?: unknown[], options?: QueryOptions) => query(id, sql, params, options),
        exec: (sql: string) => exec(id, sql),
        sql: () => Promise.reject(new Error("tx.sql is not available across threads: use tx.query")),
        async rollback() {
          await exec(id, "ROLLBACK");
          closed = true;
        },
        listen: () => Promise.reject(new Error("LISTEN is not available across threads")),
        get closed() {
          return closed;
        },
      } as unknown as Transaction;
      let result: T;
      try {
        result = await work(tx);
      } catch (error) {
        closed = true;
        await request({ op: "end", tx: id, commit: false }).catch(() => {});
        throw error;
      }
      closed = true;
      await request({ op: "end", tx: id, commit: true });
      return result;
    },
    dumpDataDir: () => request<Uint8Array>({ op: "dump" }),
    async close() {
      if (stopped) return;
      await request({ op: "close" }).catch(() => {});
      stopped = new Error(`${THREAD_STOPPED}: the database was closed`);
      await worker.terminate();
    },
  } as PgliteThread;

  try {
    await ready;
  } catch (error) {
    await worker.terminate();
    throw error;
  }
  if (pending.size === 0) worker.unref();
  return client;
}
