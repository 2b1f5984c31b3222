/**
 * The faults the topology suite puts the processes through: a Redis server of the test's own (stopped and started
 * again on the same port), and a TCP proxy in front of PostgreSQL that can refuse connections or go silent (a
 * network partition: connections accepted, nothing answered).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createServer, connect, type Server, type Socket } from "node:net";

/** A free TCP port on 127.0.0.1 (asked of the kernel, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface OwnRedis {
  readonly url: string;
  readonly port: number;
  start(): Promise<void>;
  /** Stops it at once (SIGKILL: nothing is saved, clients see the connection drop). */
  stop(): Promise<void>;
}

/** A `redis-server` on a port of its own, keeping nothing on disk. Not started until `start()`. */
export async function ownRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const stop = async () => {
    if (!child) return;
    const stopping = child;
    child = null;
    const exited = new Promise((resolve) => stopping.once("exit", resolve));
    stopping.kill("SIGKILL");
    await exited;
  };
  process.once("exit", () => child?.kill("SIGKILL"));
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    async start() {
      if (child) return;
      const started = spawn("redis-server", ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"], {
        stdio: ["ignore", "pipe", "pipe"],
      });
      child = started;
      await new Promise<void>((resolve, reject) => {
        let output = "";
        const onData = (chunk: Buffer) => {
          output += chunk.toString();
          if (output.includes("Ready to accept connections")) resolve();
        };
        started.stdout!.on("data", onData);
        started.once("exit", (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
      });
    },
    stop,
  };
}

export type ProxyMode = "pass" | "refuse" | "silent";

export interface TcpProxy {
  readonly port: number;
  readonly mode: ProxyMode;
  /**
   * `pass`: forwards both ways. `refuse`: stops listening (new connections are refused) and drops every open one.
   * `silent`: keeps accepting, but forwards nothing either way, on new and open connections (a partition).
   * Back to `pass`, held connections are forwarded again.
   */
  setMode(mode: ProxyMode): Promise<void>;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket | null;
}

/** A proxy on a free port in front of `targetPort` on 127.0.0.1. */
export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  const port = await freePort();
  const pairs = new Set<Pair>();
  let mode: ProxyMode = "pass";
  let server: Server | null = null;

  const link = (pair: Pair) => {
    if (!pair.upstream) {
      const upstream = connect(targetPort, "127.0.0.1");
      pair.upstream = upstream;
      upstream.on("error", () => pair.client.destroy());
      upstream.on("close", () => pair.client.destroy());
    }
    pair.client.pipe(pair.upstream);
    pair.upstream.pipe(pair.client);
    pair.client.resume();
    pair.upstream.resume();
  };
  const hold = (pair: Pair) => {
    pair.client.unpipe();
    pair.upstream?.unpipe();
    pair.client.pause();
    pair.upstream?.pause();
  };

  const listen = async () => {
    server = createServer((client) => {
      const pair: Pair = { client, upstream: null };
      pairs.add(pair);
      client.on("error", () => pair.upstream?.destroy());
      client.on("close", () => {
        pair.upstream?.destroy();
        pairs.delete(pair);
      });
      if (mode === "pass") link(pair);
      else client.pause();
    });
    await new Promise<void>((resolve) => server!.listen(port, "127.0.0.1", resolve));
  };
  await listen();

  return {
    port,
    get mode() {
      return mode;
    },
    async setMode(next) {
      if (next === mode) return;
      const previous = mode;
      mode = next;
      if (next === "refuse") {
        const closing = server!;
        server = null;
        const closed = new Promise((resolve) => closing.close(resolve));
        for (const pair of pairs) {
          pair.client.destroy();
          pair.upstream?.destroy();
        }
        await closed;
        return;
      }
      if (previous === "refuse") await listen();
      for (const pair of pairs) (next === "pass" ? link : hold)(pair);
    },
    async close() {
      for (const pair of pairs) {
        pair.client.destroy();
        pair.upstream?.destroy();
      }
      const open = server;
      server = null;
      if (open) await new Promise((resolve) => open.close(resolve));
    },
  };
}
