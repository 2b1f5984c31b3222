/**
 * The floor of the write benchmark (bench/writes.ts): a bare `node:http` server that does the least a correct
 * server must do to create a task. For every `POST` it reads the JSON body's `title`, inserts the task with ONE
 * `INSERT … RETURNING answer` into the same `tasks` table server.ts writes (so the same constraints, indexes and
 * the trigger that keeps `tasks.answer` run), and answers 201 with that answer. No authentication, validation,
 * event, transaction of its own or cache: what is left is Node, the loopback and the database.
 *
 * OWNER_ID and GROUP_ID are the task's owner and group: a user registered through server.ts for the floor alone,
 * so that its positions never meet server.ts's. Each position is the next fractional key after the last this
 * process gave (the order server.ts keeps, without reading the table: the floor is the only writer for its owner).
 * DATABASE_URL: PostgreSQL through a `pg` pool of POOL_SIZE (default 10, server.ts's default) connections; or
 * PGLITE_DIR: the embedded database's directory (`$DATA_DIR/pglite`, which server.ts must not have open).
 * `GET /count?owner=<id>` answers `{ "tasks": n }`, that user's tasks (by default the floor's owner's), so that the
 * bench can check no write was lost.
 *
 * Listens on 127.0.0.1 (any free port) and prints one JSON line with its URL when ready.
 */
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";
import { generateKeyBetween } from "fractional-indexing";
import pg from "pg";

const INSERT = `insert into tasks (owner_id, group_id, title, position) values ($1, $2, $3, $4) returning answer`;
const COUNT = "select count(*)::int as tasks from tasks where owner_id = $1";

type Query = (text: string, params: unknown[]) => Promise<Record<string, unknown>[]>;

const ownerId = required("OWNER_ID");
const groupId = required("GROUP_ID");
const { query, close } = await open();
let position: string | null = null;

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is required`);
  return value;
}

async function open(): Promise<{ query: Query; close: () => Promise<void> }> {
  if (process.env.DATABASE_URL) {
    const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.POOL_SIZE ?? 10) });
    return { query: async (text, params) => (await pool.query(text, params)).rows, close: () => pool.end() };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  // The cache server.ts gives it by default (EMBEDDED_DB_CACHE_MB).
  const pglite = new PGlite(required("PGLITE_DIR"), {
    startParams: [...PGlite.defaultStartParams, "-c", `shared_buffers=${process.env.CACHE_MB ?? 32}MB`],
  });
  await pglite.waitReady;
  return {
    query: async (text, params) => (await pglite.query<Record<string, unknown>>(text, params)).rows,
    close: () => pglite.close(),
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

const server = createServer((request, response) => {
  const answer = (status: number, body: string) =>
    response.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body) }).end(body);
  void (async () => {
    try {
      const url = new URL(request.url ?? "/", "http://floor");
      if (request.method === "GET" && url.pathname === "/count") {
        const [row] = await query(COUNT, [url.searchParams.get("owner") ?? ownerId]);
        return answer(200, JSON.stringify({ tasks: row?.tasks }));
      }
      const { title } = JSON.parse(await readBody(request)) as { title: string };
      position = generateKeyBetween(position, null);
      const [row] = await query(INSERT, [ownerId, groupId, title, position]);
      answer(201, String(row?.answer));
    } catch (error) {
      answer(500, JSON.stringify({ error: error instanceof Error ? error.message : String(error) }));
    }
  })();
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ msg: "Floor is listening", url: `http://127.0.0.1:${port}` })}\n`);
});

function stop() {
  server.close(() => void close().then(() => process.exit(0)));
  server.closeAllConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
