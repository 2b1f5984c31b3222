/**
 * The floor of bench/api.ts: a bare `node:http` server that answers every request with the body of
 * `GET /healthz`, so that the benchmark can tell what Node, the loopback and the load generator
 * allow on this machine before any framework, middleware or database runs.
 *
 * Listens on 127.0.0.1 (PORT, default: any free port) and prints one JSON line with its URL when ready.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";

const BODY = JSON.stringify({ status: "ok" });
const HEADERS = {
  "Content-Type": "application/json; charset=utf-8",
  "Content-Length": String(Buffer.byteLength(BODY)),
};

const server = createServer((_req, res) => {
  res.writeHead(200, HEADERS).end(BODY);
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
