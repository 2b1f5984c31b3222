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

const body = Buffer.from(answer.body);
const fixed = answer.headers.filter(([name]) => !SET_BY_NODE.has(name.toLowerCase()) && name.toLowerCase() !== "x-request-id");
const withRequestId = answer.headers.some(([name]) => name.toLowerCase() === "x-request-id");

const server = createServer((_req, res) => {
  const headers: Record<string, string | number> = { "Content-Length": body.length };
  if (withRequestId) headers["X-Request-Id"] = randomUUID();
  for (const [name, value] of fixed) headers[name] = value;
  res.writeHead(answer.status, headers).end(body);
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
