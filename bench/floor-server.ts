/**
 * The floor of the benchmarks: a bare `node:http` server that answers every request with the same bytes as
 * the answer being measured, so that a benchmark can tell what Node, the loopback and the load generator
 * allow on this machine before any framework, middleware or database runs.
 *
 * FLOOR_RESPONSE is the answer to replay, as JSON `{ status, headers: [[name, value]...], body }` (a
 * benchmark captures it from server.ts before measuring); without it, `{"status":"ok"}` with a JSON content
 * type. The headers are sent as given, except that an `X-Request-Id` gets a fresh random id on every answer,
 * as server.ts gives one, and that Node adds Date, Connection, Keep-Alive and Content-Length itself.
 *
 * FLOOR_ANSWERS, when set, replaces FLOOR_RESPONSE with several answers by request path: a JSON object
 * `{ "<path and query>": answer }`; each request gets the answer of its exact path (as sent, query included) with
 * the same treatment, and a path not in it gets an empty 404. One floor then serves every route a benchmark
 * measures (bench/api.ts replays each family's GET this way).
 *
 * Listens on 127.0.0.1 (PORT, default: any free port) and prints one JSON line with its URL when ready.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

interface Answer {
  status: number;
  headers: [string, string][];
  body: string;
}

/** Headers Node writes on its own: replaying them would send them twice. */
const SET_BY_NODE = new Set(["date", "connection", "keep-alive", "content-length", "transfer-encoding"]);

const answer: Answer = process.env.FLOOR_RESPONSE
  ? (JSON.parse(process.env.FLOOR_RESPONSE) as Answer)
  : { status: 200, headers: [["content-type", "application/json; charset=utf-8"]], body: '{"status":"ok"}' };

/** An answer ready to write: its body's bytes and the headers sent as they are. */
interface Prepared {
  status: number;
  body: Buffer;
  fixed: [string, string][];
  withRequestId: boolean;
}

function prepare(each: Answer): Prepared {
  return {
    status: each.status,
    body: Buffer.from(each.body),
    fixed: each.headers.filter(([name]) => !SET_BY_NODE.has(name.toLowerCase()) && name.toLowerCase() !== "x-request-id"),
    withRequestId: each.headers.some(([name]) => name.toLowerCase() === "x-request-id"),
  };
}

const single = prepare(answer);
const byPath = process.env.FLOOR_ANSWERS
  ? new Map(
      Object.entries(JSON.parse(process.env.FLOOR_ANSWERS) as Record<string, Answer>).map(([path, each]) => [
        path,
        prepare(each),
      ]),
    )
  : null;

const server = createServer((req, res) => {
  const prepared = byPath ? byPath.get(req.url ?? "") : single;
  if (!prepared) {
    res.writeHead(404, { "Content-Length": 0 }).end();
    return;
  }
  const headers: Record<string, string | number> = { "Content-Length": prepared.body.length };
  if (prepared.withRequestId) headers["X-Request-Id"] = randomUUID();
  for (const [name, value] of prepared.fixed) headers[name] = value;
  res.writeHead(prepared.status, headers).end(prepared.body);
});

server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const { port } = server.address() as AddressInfo;
  process.stdout.write(`${JSON.stringify({ msg: "Floor is listening", url: `http://127.0.0.1:${port}` })}\n`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
}
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
