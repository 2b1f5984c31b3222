import { createHash } from "node:crypto";
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { fillPlaceholders, is, Placeholder, sql, type SQL } from "drizzle-orm";
import { PgDialect, type PgDatabase, type PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import { config } from "../config";
import { log } from "../log";
import { MemoryCache, stringBytes } from "../memory-cache";
import { startPgliteThread, THREAD_STOPPED, type EmbeddedClient } from "./pglite-thread";
import * as schema from "./schema/all";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

/** The database or an open transaction: repo functions that take one work inside either. */
export type Executor = Db | Parameters<Parameters<Db["transaction"]>[0]>[0];

export interface Database {
  readonly kind: "pglite" | "postgres";
  readonly db: Db;
  /** Throws when the database does not answer or the migrations have not all been applied. */
  check(): Promise<void>;
  /** Runs a compiled statement (see `statementRows`) and answers its raw rows. */
  preparedRows<T>(statement: CompiledStatement, params: unknown[]): Promise<T[]>;
  /** Runs `read`'s compiled statements in one read-only snapshot, on generic plans (see `statementSnapshot`). */
  preparedSnapshot<T>(read: (run: PreparedRunner) => Promise<T>): Promise<T>;
  /** PostgreSQL's connection pool: connections open, idle, and callers waiting for one (PGlite has no pool). */
  poolUsage?(): PoolUsage;
  close(): Promise<void>;
}

type PreparedRunner = <T>(statement: CompiledStatement, params: unknown[]) => Promise<T[]>;

export interface PoolUsage {
  total: number;
  idle: number;
  waiting: number;
}

const dialect = new PgDialect();

const MIGRATIONS_FOLDER = path.join(process.cwd(), "db/migrations");
/** Any fixed number: the PostgreSQL advisory lock that serialises migrations across processes. */
const MIGRATION_LOCK = 7_461_001;

function journalLength(): number {
  const journal = JSON.parse(readFileSync(path.join(MIGRATIONS_FOLDER, "meta/_journal.json"), "utf8"));
  return (journal.entries as unknown[]).length;
}

async function checkDb(db: Db) {
  const rows = await db.execute(sql`select count(*)::int as applied from drizzle.__drizzle_migrations`);
  const applied = (rows as unknown as { rows: { applied: number }[] }).rows[0]?.applied ?? 0;
  if (applied < journalLength()) throw new Error(`Migrations pending: ${applied} of ${journalLength()} applied`);
}

/**
 * PGlite is one process's database: a lock file keeps a second process off the same data directory
 * (it would corrupt it). A lock left by a process that died is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, "spolu.lock");
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, "wx");
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const holder = Number(readFileSync(file, "utf8"));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `The data directory ${dataDir} is in use by process ${holder}. ` +
            "Run one process per data directory, or set DATABASE_URL to run several.",
        );
      }
      rmSync(file, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

const ANALYZE_EVERY_MS = 2 * 60_000;
const VACUUM_EVERY = 30; // analyses: once an hour

/**
 * PGlite runs no autovacuum, so nothing gathers the planner's statistics or clears dead rows. Without statistics
 * a user's 10,000 tasks were planned as 9 rows, and the task list read and sorted all of them (20 ms a page
 * instead of well under one). The embedded database therefore does what autovacuum would: ANALYZE every two
 * minutes (it samples at most 30,000 rows a table, so its cost stays small) and VACUUM once an hour.
 */
export function maintainPglite(
  pglite: Pick<EmbeddedClient, "exec">,
  analyzeEveryMs = ANALYZE_EVERY_MS,
  vacuumEvery = VACUUM_EVERY,
): () => void {
  let runs = 0;
  const timer = setInterval(() => {
    const statement = ++runs % vacuumEvery === 0 ? "VACUUM (ANALYZE)" : "ANALYZE";
    pglite.exec(statement).catch((error: unknown) => {
      log.warn("Embedded database maintenance failed", {
        statement,
        error: error instanceof Error ? error.message : String(error),
      });
    });
  }, analyzeEveryMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Creates a new PGlite data directory (initdb) in a short-lived child process. Creating one grows PGlite's
 * WebAssembly memory and compiles initdb: about 100 MB that this process would otherwise keep for good (a
 * WebAssembly instance never gives memory back, and a worker thread's freed memory stayed with the process).
 */
async function createPgliteDataDir(dataDir: string, options: object): Promise<void> {
  const { execFile } = await import("node:child_process");
  // The package is found from the working directory, as this process found it (the child runs in the same one);
  // not through import.meta.resolve, which Next's bundle of the API does not provide.
  const script = `const { PGlite } = await import("@electric-sql/pglite");
    const created = new PGlite(process.argv[1], JSON.parse(process.argv[2]));
    await created.waitReady;
    await created.close();`;
  await new Promise<void>((resolve, reject) =>
    execFile(
      process.execPath,
      ["--input-type=module", "-e", script, dataDir, JSON.stringify(options)],
      (error, _stdout, stderr) =>
        error ? reject(new Error(`Creating the embedded database failed: ${stderr || error.message}`)) : resolve(),
    ),
  );
}

/**
 * The embedded database, on a thread of its own (lib/db/pglite-thread.ts): a statement that runs for a while (a
 * large list, a board, ANALYZE) no longer holds the event loop, so the requests that need no database (health,
 * cached lists, sockets) are answered meanwhile. Pass `client` to use an existing one (tests start from a migrated
 * copy); `maintain` runs the statistics and vacuum that autovacuum runs on a PostgreSQL server.
 */
async function openPglite(client: EmbeddedClient | undefined, options: { maintain: boolean }): Promise<Database> {
  // Loaded here, not at the top: a process on PostgreSQL has no use for PGlite's modules (Drizzle's pglite driver
  // imports PGlite's type table; the database itself runs on its own thread).
  const [{ PGlite }, { drizzle: drizzlePglite }, { migrate: migratePglite }] = await Promise.all([
    import("@electric-sql/pglite"),
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
  ]);
  let unlock = () => {};
  if (!client) {
    const dataDir = path.resolve(config().DATA_DIR, "pglite");
    mkdirSync(dataDir, { recursive: true });
    unlock = lockDataDir(path.dirname(dataDir));
    const options = { startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${config().EMBEDDED_DB_CACHE_MB}MB`] };
    if (!existsSync(path.join(dataDir, "PG_VERSION"))) await createPgliteDataDir(dataDir, options);
    try {
      client = await startPgliteThread({ dataDir, options });
    } catch (error) {
      unlock();
      throw error;
    }
  }
  const pglite = client;
  const db = drizzlePglite({ client: pglite as never, schema }) as unknown as Db;
  await migratePglite(db as never, { migrationsFolder: MIGRATIONS_FOLDER });
  const stopMaintenance = options.maintain ? maintainPglite(pglite) : () => {};
  return {
    kind: "pglite",
    async preparedRows<T>(statement: CompiledStatement, params: unknown[]) {
      return (await pglite.query<T>(statement.text, params)).rows;
    },
    // One connection that runs one statement at a time: every read already sees the same state.
    preparedSnapshot: (read) => read(async (statement, params) => (await pglite.query(statement.text, params)).rows as never),
    db,
    check: () => checkDb(db),
    async close() {
      stopMaintenance();
      await pglite.close();
      unlock();
    },
  };
}

/**
 * A pooled PostgreSQL connection that is dropped when a statement's answer does not come in time (`query_timeout`).
 * pg then rejects the statement but keeps the connection, still waiting for that answer: the next statement on it
 * would queue behind the lost one, and a transaction's ROLLBACK would never be sent. Dropping the socket makes the
 * pool discard the connection instead (a network partition leaves no stuck connections behind).
 */
class BoundedClient extends pg.Client {
  override query(...args: unknown[]): never {
    const last = args.at(-1);
    if (typeof last === "function") {
      args[args.length - 1] = (error: Error | null, result: unknown) => {
        this.dropIfTimedOut(error);
        (last as (error: Error | null, result: unknown) => void)(error, result);
      };
      return (super.query as (...a: unknown[]) => never)(...args);
    }
    const result = (super.query as (...a: unknown[]) => unknown)(...args);
    if (result instanceof Promise) result.then(undefined, (error: unknown) => this.dropIfTimedOut(error));
    return result as never;
  }

  private dropIfTimedOut(error: unknown): void {
    if (error instanceof Error && error.message === QUERY_READ_TIMEOUT) {
      (this as unknown as { connection?: { stream?: { destroy(): void } } }).connection?.stream?.destroy();
    }
  }
}

/** pg's message for a statement whose answer did not come within `query_timeout`. */
const QUERY_READ_TIMEOUT = "Query read timeout";

/** PostgreSQL's error codes (SQLSTATE) that mean "not now" rather than "wrong": answered 503 with Retry-After. */
const UNAVAILABLE_CODES = new Set([
  "57014", // query_canceled: statement_timeout
  "57P01", // admin_shutdown
  "57P02", // crash_shutdown
  "57P03", // cannot_connect_now (starting up, shutting down, recovering)
  "53300", // too_many_connections
  "53400", // configuration_limit_exceeded
  "55P03", // lock_not_available: lock_timeout
  "40P01", // deadlock_detected
]);

/** Failures of the driver itself (no SQLSTATE): no connection, a lost one, or no answer in time. */
const UNAVAILABLE_MESSAGES = [
  "timeout exceeded when trying to connect", // pg-pool: no free connection within connectionTimeoutMillis
  "Connection terminated", // lost, or could not open within connectionTimeoutMillis
  QUERY_READ_TIMEOUT,
  THREAD_STOPPED, // the embedded database's thread ended (it ran out of memory, say)
  "Client has encountered a connection error and is not queryable",
  "Connection terminated unexpectedly",
];
const UNAVAILABLE_NETWORK = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
]);

/**
 * Whether an error (as thrown, or as the `cause` Drizzle wraps it in) means the database could not be reached or
 * did not answer in time: the API answers 503 with Retry-After instead of 500 (lib/api/problem.ts).
 */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || UNAVAILABLE_NETWORK.has(code))) return true;
    if (typeof message === "string" && UNAVAILABLE_MESSAGES.some((known) => message.startsWith(known))) return true;
  }
  return false;
}

/**
 * Applies pending migrations on a connection of its own, outside the pool and without the pool's time limits (a
 * migration may rewrite a large table), under an advisory lock: two processes starting together wait for each
 * other, and the second finds nothing left to apply.
 */
async function migratePostgres(url: string, options: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, options, connectionTimeoutMillis: config().DATABASE_ACQUIRE_TIMEOUT_MS });
  client.on("error", (error) => log.debug("PostgreSQL migration connection closed", { error: error.message }));
  await client.connect();
  try {
    await client.query("select pg_advisory_lock($1)", [MIGRATION_LOCK]);
    await migratePg(drizzlePg({ client, schema }) as never, { migrationsFolder: MIGRATIONS_FOLDER });
  } finally {
    await client.end().catch(() => {});
  }
}

async function openPostgres(url: string): Promise<Database> {
  const settings = config();
  // JIT compilation off (kept: any `options` of the URL): Spolu's statements are short OLTP reads whose planned
  // cost can still pass jit_above_cost, as the task list's union does when a user's tasks share one task group;
  // PostgreSQL then spent 80-100 ms compiling for a query that runs in 1 ms (docs/performance.md, "Task list").
  const options = [new URL(url).searchParams.get("options"), "-c jit=off"].filter(Boolean).join(" ");
  await migratePostgres(url, options);
  // Every wait is bounded, so that a database that is down, full or silent gives a 503 in seconds, never a hang:
  // waiting for a pooled connection or opening one (connectionTimeoutMillis), a statement on the server
  // (statement_timeout, lock_timeout), its answer on the client (query_timeout, a second later: a server that
  // stopped answering), and a transaction left open by a stuck caller (idle_in_transaction_session_timeout).
  const pool = new pg.Pool({
    Client: BoundedClient,
    connectionString: url,
    options,
    max: settings.DATABASE_POOL_MAX,
    connectionTimeoutMillis: settings.DATABASE_ACQUIRE_TIMEOUT_MS,
    statement_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS,
    lock_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS,
    query_timeout: settings.DATABASE_STATEMENT_TIMEOUT_MS + 1000,
    idle_in_transaction_session_timeout: Math.max(60_000, settings.DATABASE_STATEMENT_TIMEOUT_MS * 4),
    keepAlive: true,
  });
  pool.on("error", (error) => log.warn("PostgreSQL connection lost", { error: error.message }));
  // A connection that fails while the pool is ending (pool.end() does not wait for the server to hang up) has no
  // pool listener left: without its own it would be an unhandled 'error' event.
  pool.on("connect", (client) =>
    client.on("error", (error) => log.debug("PostgreSQL connection closed", { error: error.message })),
  );
  const db = drizzlePg({ client: pool, schema }) as unknown as Db;
  return {
    kind: "postgres",
    async preparedRows<T>(statement: CompiledStatement, params: unknown[]) {
      return (await pool.query({ name: statement.name, text: statement.text, values: params })).rows as T[];
    },
    async preparedSnapshot(read) {
      const client = await pool.connect();
      let failure: Error | undefined;
      try {
        await client.query("begin isolation level repeatable read read only");
        await client.query("set local plan_cache_mode = force_generic_plan");
        const answer = await read(
          async (statement, params) =>
            (await client.query({ name: statement.name, text: statement.text, values: params })).rows as never,
        );
        await client.query("commit");
        return answer;
      } catch (error) {
        failure = error as Error;
        await client.query("rollback").catch(() => {});
        throw error;
      } finally {
        // A connection whose transaction may still be open (the rollback failed too) is discarded, not reused.
        client.release(failure);
      }
    },
    db,
    check: () => checkDb(db),
    poolUsage: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    // pool.end() waits for every borrowed connection to come back: a job abandoned at shutdown may never return its.
    close: () => Promise.race([pool.end(), new Promise<void>((resolve) => setTimeout(resolve, 2000).unref())]),
  };
}

/** Something to do once a transaction has committed; the transaction's caller waits for it. */
type CommitHook = () => void | Promise<void>;

const commitHooks = new WeakMap<object, CommitHook[]>();

/**
 * Runs `hook` once the transaction `executor` belongs to has committed (never if it rolls back), before
 * `db.transaction` resolves, so that what a hook does is done by the time the change is acknowledged; outside a
 * transaction, where every statement commits by itself, right away (the answer settles with the hook). Domain
 * events are announced this way: only what is in the database is ever announced.
 */
export async function afterCommit(executor: Executor, hook: CommitHook): Promise<void> {
  const hooks = commitHooks.get(executor);
  if (hooks) hooks.push(hook);
  else await hook();
}

/**
 * Makes `db.transaction` (and nested transactions) collect `afterCommit` hooks and run them after the commit. A
 * hook that fails is logged: the change is committed whatever happens after it.
 */
function trackCommits(database: Db): void {
  const begin = database.transaction.bind(database);
  const tracked = (async (work: (tx: Executor) => Promise<unknown>, options?: unknown) => {
    const hooks: CommitHook[] = [];
    const result = await begin(async (tx) => {
      commitHooks.set(tx, hooks);
      const nested = tx.transaction.bind(tx);
      // A savepoint's hooks wait for the outer commit; a rolled-back savepoint drops its own.
      tx.transaction = (async (inner: (savepoint: Executor) => Promise<unknown>) => {
        const own: CommitHook[] = [];
        const value = await nested(async (savepoint) => {
          commitHooks.set(savepoint, own);
          return inner(savepoint);
        });
        hooks.push(...own);
        return value;
      }) as typeof tx.transaction;
      return work(tx);
    }, options as never);
    await Promise.all(
      hooks.map(async (hook) => {
        try {
          await hook();
        } catch (error) {
          log.error("An after-commit hook failed", { error: error instanceof Error ? error.message : String(error) });
        }
      }),
    );
    return result;
  }) as Db["transaction"];
  database.transaction = tracked;
}

const DATABASE = Symbol.for("spolu.database");
type Holder = { [DATABASE]?: { opening: Promise<Database>; open?: Database } };
const holder = globalThis as Holder;

/**
 * Opens the database once per process and applies pending migrations: PostgreSQL with DATABASE_URL,
 * otherwise PGlite under DATA_DIR. Kept on globalThis so that server.ts and Next's bundle share it.
 */
export function openDatabase(options: { pglite?: EmbeddedClient } = {}): Promise<Database> {
  const existing = holder[DATABASE];
  if (existing) return existing.opening;
  const url = config().DATABASE_URL;
  const entry: { opening: Promise<Database>; open?: Database } = {
    opening: (url && !options.pglite ? openPostgres(url) : openPglite(options.pglite, { maintain: !options.pglite })).then(
      (opened) => {
        trackCommits(opened.db);
        return (entry.open = opened);
      },
      (error: unknown) => {
        delete holder[DATABASE];
        throw error;
      },
    ),
  };
  holder[DATABASE] = entry;
  return entry.opening;
}

/** A statement's SQL text, its parameters (values or `sql.placeholder`s) and the name it is prepared under. */
export interface CompiledStatement {
  readonly text: string;
  readonly params: readonly unknown[];
  readonly name: string;
}

/** Shapes are few (a list query's filters and sort); the bound only guards against a caller's mistake. */
const compiledStatements = new MemoryCache<CompiledStatement>(
  8 * 1024 * 1024,
  (shape, statement) =>
    stringBytes(shape) + stringBytes(statement.text) + stringBytes(statement.name) + 64 * statement.params.length,
);

function compile(build: () => SQL): CompiledStatement {
  const query = shareParameters(dialect.sqlToQuery(build()));
  return { text: query.sql, params: query.params, name: `q_${createHash("sha1").update(query.sql).digest("base64url")}` };
}

/**
 * One parameter per placeholder name: Drizzle numbers every use of `sql.placeholder("userId")` as a parameter of
 * its own, and the task list's statement bound the same user id 20 times and the limit 7 times (37 parameters
 * where 4 differ), each serialised by the driver and parsed by PostgreSQL on every run. Left as it is when the
 * text's `$n` are not exactly `$1`...`$n` in order (a `$` in a literal, say), which this rewrite relies on.
 */
export function shareParameters(query: { sql: string; params: unknown[] }): { sql: string; params: unknown[] } {
  const uses = [...query.sql.matchAll(/\$(\d+)/g)];
  if (uses.length !== query.params.length || uses.some((use, index) => Number(use[1]) !== index + 1)) return query;
  const numbers = new Map<string, number>();
  const params: unknown[] = [];
  const renumbered = query.params.map((param) => {
    if (!is(param, Placeholder)) return params.push(param);
    let number = numbers.get(param.name);
    if (number === undefined) numbers.set(param.name, (number = params.push(param)));
    return number;
  });
  let next = 0;
  return { sql: query.sql.replace(/\$(\d+)/g, () => `$${renumbered[next++]}`), params };
}

/**
 * Runs the hottest reads: `build` makes the statement with `sql.placeholder(name)` for every value and is called
 * once per `shape` (a key naming everything that changes the SQL text); each call then only fills in `values`.
 * Drizzle spends more CPU building a large statement than PostgreSQL spends running it, and on PostgreSQL the
 * statement is prepared (parsed and planned once per connection) under a name derived from its text.
 * Outside production (development and the tests) the statement is rebuilt every time, and a shape that missed a
 * difference in the text throws: a development check, like React's, that production skips for speed.
 */
export function statementRows<T>(shape: string, build: () => SQL, values: Record<string, unknown>): Promise<T[]> {
  const open = holder[DATABASE]?.open;
  if (!open) throw new Error("The database is not open: await openDatabase() first");
  const statement = compiledStatement(shape, build);
  return open.preparedRows<T>(statement, fillPlaceholders(statement.params as unknown[], values));
}

/** The statement of a shape, compiled on its first use (see `statementRows`). */
function compiledStatement(shape: string, build: () => SQL): CompiledStatement {
  let statement = compiledStatements.get(shape);
  if (!statement) {
    statement = compile(build);
    compiledStatements.set(shape, statement);
  } else if (config().NODE_ENV !== "production" && compile(build).text !== statement.text) {
    throw new Error(`Statement shape ${shape} has more than one SQL text`);
  }
  return statement;
}

/** Runs a statement inside `statementSnapshot` (the same arguments as `statementRows`). */
export type SnapshotRows = <T>(shape: string, build: () => SQL, values: Record<string, unknown>) => Promise<T[]>;

/**
 * Runs several `statementRows` reads in one read-only, repeatable-read transaction (every statement sees the same
 * snapshot: a board's totals always match its cards) on one connection, with PostgreSQL's generic plans
 * (`plan_cache_mode = force_generic_plan`, for this transaction only). The board's statement (eight of them before:
 * a page and a count per column) is made of unions of six branches whose custom plan takes 1-1.3 ms to make and
 * 0.1-0.3 ms to run; on a table whose statistics are skewed (one person with most of the tasks, one task group
 * holding them) PostgreSQL's cost estimate kept choosing
 * a custom plan on every run, so a board cost 10 ms of planning with 100,000 other tasks in the table and 0.1 ms
 * with 100. The generic plans of these statements read the same indexes: measured on that table, 0.12-0.25 ms a
 * run for a user with 50 tasks and 0.2 ms (page) and 30 ms (count) for the one with 100,000, against 0.35 and
 * 50 ms with custom plans (docs/performance.md, "Board and single reads").
 */
export function statementSnapshot<T>(read: (rows: SnapshotRows) => Promise<T>): Promise<T> {
  const open = holder[DATABASE]?.open;
  if (!open) throw new Error("The database is not open: await openDatabase() first");
  return open.preparedSnapshot((run) =>
    read((shape, build, values) => {
      const statement = compiledStatement(shape, build);
      return run(statement, fillPlaceholders(statement.params as unknown[], values));
    }),
  );
}

/** The open database's Drizzle handle, for repo.ts files. The API awaits openDatabase() before any route. */
export function db(): Db {
  const open = holder[DATABASE]?.open;
  if (!open) throw new Error("The database is not open: await openDatabase() first");
  return open.db;
}

/**
 * Runs several reads in one read-only, repeatable-read transaction: on PostgreSQL every statement sees the same
 * snapshot, so a page built from several queries never shows half of a write that committed in between.
 */
export function readSnapshot<T>(read: (tx: Executor) => Promise<T>): Promise<T> {
  return db().transaction(read, { isolationLevel: "repeatable read", accessMode: "read only" });
}

/** The open database's pool usage; null on PGlite or before the database is open. */
export function databasePoolUsage(): PoolUsage | null {
  return holder[DATABASE]?.open?.poolUsage?.() ?? null;
}

export async function closeDatabase(): Promise<void> {
  const entry = holder[DATABASE];
  if (!entry) return;
  delete holder[DATABASE];
  await (await entry.opening).close();
}
