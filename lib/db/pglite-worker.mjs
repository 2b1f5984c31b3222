// @ts-check
/**
 * The embedded database's thread (a node:worker_threads Worker started by lib/db/pglite-thread.ts): PGlite runs
 * here, so that its statements (compiled WebAssembly that holds its thread for as long as a statement runs) never
 * stall the server's event loop. Plain JavaScript, not TypeScript: the thread starts under `node --import tsx`,
 * Vitest and Next's server alike, and none of them has to compile it.
 *
 * Messages from the main thread: `{ id, op, ... }`; every one is answered with `{ id, ok: true, result }` or
 * `{ id, ok: false, error }`. `op` is one of:
 *   query  { sql, params, rowMode, raw, tx }  raw: the type OIDs whose text is answered as it is (Drizzle's parsers)
 *   exec   { sql, tx }
 *   begin  {}                                 answers a transaction id once PGlite has opened the transaction
 *   end    { tx, commit }                     answers once it has committed (or rolled back)
 *   dump   {}                                 the data directory as a tarball (an ArrayBuffer, transferred)
 *   close  {}
 * Statements tagged with `tx` run inside that transaction; the others wait for it as PGlite makes them wait.
 */
import { Blob } from "node:buffer";
import { parentPort, workerData } from "node:worker_threads";
import { PGlite } from "@electric-sql/pglite";

if (!parentPort) throw new Error("lib/db/pglite-worker.mjs runs as a worker thread");
const port = parentPort;

/** @type {{ dataDir?: string, options?: Record<string, unknown>, loadDataDir?: Uint8Array }} */
const settings = workerData ?? {};
const pglite = new PGlite({
  ...settings.options,
  ...(settings.dataDir ? { dataDir: settings.dataDir } : {}),
  ...(settings.loadDataDir ? { loadDataDir: new Blob([settings.loadDataDir]) } : {}),
});

/** @typedef {{ query: PGlite["query"], exec: PGlite["exec"] }} Runner */
/** @type {Map<number, { tx: Runner, finish: (commit: boolean) => void, settled: Promise<void> }>} */
const transactions = new Map();
let lastTransaction = 0;
const ROLLBACK = Symbol("rollback");

const identity = (/** @type {string} */ value) => value;
/** @type {Map<string, Record<number, (value: string) => string>>} */
const parserSets = new Map();

/** The parsers that answer the text of `raw`'s types as it is, one object per set (Drizzle uses one set). */
function parsersFor(/** @type {number[] | undefined} */ raw) {
  if (!raw || raw.length === 0) return undefined;
  const key = raw.join(",");
  let parsers = parserSets.get(key);
  if (!parsers) parserSets.set(key, (parsers = Object.fromEntries(raw.map((oid) => [oid, identity]))));
  return parsers;
}

/** @returns {Runner} */
function runner(/** @type {number | undefined} */ tx) {
  if (tx === undefined) return pglite;
  const open = transactions.get(tx);
  if (!open) throw new Error(`No open transaction ${tx} on the embedded database`);
  return open.tx;
}

/**
 * A PostgreSQL error as plain data: its message and every field PGlite gives it (code, detail, constraint,
 * table...), without the statement's parameters and options (which may hold what cannot be cloned).
 */
function plainError(/** @type {unknown} */ error) {
  if (!(error instanceof Error)) return { name: "Error", message: String(error) };
  /** @type {Record<string, unknown>} */
  const plain = { name: error.name, message: error.message, stack: error.stack };
  for (const [key, value] of Object.entries(error)) {
    if (key === "params" || key === "queryOptions") continue;
    if (value === null || ["string", "number", "boolean"].includes(typeof value)) plain[key] = value;
  }
  return plain;
}

/** Opens a transaction and holds it until the main thread ends it; answers `reply` with its id once open. */
function begin(/** @type {(result: unknown) => void} */ reply) {
  const id = ++lastTransaction;
  /** @type {(commit: boolean) => void} */
  let finish = () => {};
  const ended = new Promise((resolve, reject) => (finish = (commit) => (commit ? resolve(undefined) : reject(ROLLBACK))));
  const settled = pglite
    .transaction(async (tx) => {
      transactions.set(id, { tx, finish, settled });
      reply(id);
      await ended;
    })
    .then(
      () => {},
      (error) => {
        if (error !== ROLLBACK) throw error;
      },
    )
    .finally(() => transactions.delete(id));
  // Until the main thread ends it, a failure to open is answered to `begin` (the caller's catch below).
  return settled;
}

/** @param {any} message */
async function handle(message) {
  switch (message.op) {
    case "query": {
      const options = { rowMode: message.rowMode, parsers: parsersFor(message.raw) };
      return runner(message.tx).query(message.sql, message.params, options);
    }
    case "exec":
      return runner(message.tx).exec(message.sql);
    case "end": {
      const open = transactions.get(message.tx);
      if (!open) throw new Error(`No open transaction ${message.tx} on the embedded database`);
      open.finish(message.commit);
      return open.settled;
    }
    case "dump": {
      const dump = await pglite.dumpDataDir("none");
      return new Uint8Array(await dump.arrayBuffer());
    }
    case "close":
      await pglite.close();
      return undefined;
    default:
      throw new Error(`Unknown embedded database operation ${message.op}`);
  }
}

function answer(/** @type {number} */ id, /** @type {unknown} */ result) {
  if (result instanceof Uint8Array) port.postMessage({ id, ok: true, result }, [result.buffer]);
  else port.postMessage({ id, ok: true, result });
}

function fail(/** @type {number} */ id, /** @type {unknown} */ error) {
  port.postMessage({ id, ok: false, error: plainError(error) });
}

port.on("message", (message) => {
  if (message.op === "begin") {
    let opened = false;
    begin((txId) => {
      opened = true;
      answer(message.id, txId);
    }).catch((error) => {
      if (!opened) fail(message.id, error);
    });
    return;
  }
  handle(message).then(
    (result) => answer(message.id, result),
    (error) => fail(message.id, error),
  );
});

pglite.waitReady.then(
  () => port.postMessage({ ready: true }),
  (error) => port.postMessage({ ready: false, error: plainError(error) }),
);
