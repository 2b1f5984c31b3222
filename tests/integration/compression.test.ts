import { request as httpRequest } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { taskListOutput } from "../../lib/tasks/schema";
import { createTask, expectShape, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * fetch decompresses on its own and always sends Accept-Encoding: these tests speak plain HTTP to see the bytes on
 * the wire, and decompress them themselves.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function raw(path: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const sent = httpRequest(new URL(path, server.url), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("end", () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on("error", reject);
    });
    sent.on("error", reject);
    sent.end();
  });
}

function decoded(answer: RawAnswer): string {
  const encoding = answer.headers["content-encoding"];
  if (encoding === "br") return brotliDecompressSync(answer.body).toString("utf8");
  if (encoding === "gzip") return gunzipSync(answer.body).toString("utf8");
  expect(encoding).toBeUndefined();
  return answer.body.toString("utf8");
}

function expectConsistentLength(answer: RawAnswer) {
  if (answer.headers["content-length"] !== undefined) expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
}

describe("GET /openapi.json", () => {
  let plain: RawAnswer;
  beforeAll(async () => {
    plain = await raw("/api/v1/openapi.json");
  });

  test("without Accept-Encoding – sent as is, with Vary and a strong ETag", () => {
    expect(plain.status).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expect(plain.headers.etag).toMatch(/^"[\w-]+"$/);
    expectConsistentLength(plain);
    expect(plain.body.length).toBeGreaterThan(100_000);
    expect(JSON.parse(plain.body.toString("utf8")).openapi).toBe("3.1.0");
  });

  test.each([
    ["br", "gzip, deflate, br"],
    ["gzip", "gzip, deflate"],
    ["gzip", "br;q=0.5, gzip"],
    ["br", "*"],
  ])("%s for Accept-Encoding: %s – decompresses to the same document, much smaller, its own ETag", async (encoding, accept) => {
    const answer = await raw("/api/v1/openapi.json", { "Accept-Encoding": accept });
    expect(answer.status).toBe(200);
    expect(answer.headers["content-encoding"]).toBe(encoding);
    expect(answer.headers.vary).toMatch(/accept-encoding/i);
    expectConsistentLength(answer);
    expect(answer.body.length).toBeLessThan(plain.body.length / 5);
    expect(decoded(answer)).toBe(plain.body.toString("utf8"));
    expect(answer.headers.etag).not.toBe(plain.headers.etag);
    expect(answer.headers.etag).toBe(`${(plain.headers.etag as string).slice(0, -1)}-${encoding}"`);
  });

  test("compressed once: a second request gives the same bytes", async () => {
    const first = await raw("/api/v1/openapi.json", { "Accept-Encoding": "br" });
    const second = await raw("/api/v1/openapi.json", { "Accept-Encoding": "br" });
    expect(second.body.equals(first.body)).toBe(true);
  });

  test("If-None-Match with the representation's ETag – 304 without a body", async () => {
    const first = await raw("/api/v1/openapi.json", { "Accept-Encoding": "gzip" });
    const again = await raw("/api/v1/openapi.json", { "Accept-Encoding": "gzip", "If-None-Match": first.headers.etag as string });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(first.headers.etag);
  });

  test("identity;q=1, gzip;q=0, br;q=0 – sent as is", async () => {
    const answer = await raw("/api/v1/openapi.json", { "Accept-Encoding": "identity, gzip;q=0, br;q=0" });
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.body.equals(plain.body)).toBe(true);
  });
});

describe("GET /tasks (the fast path) and the Hono routes", () => {
  let token: string;
  beforeAll(async () => {
    token = (await registerUser(server)).token;
    for (let i = 0; i < 8; i++)
      await createTask(server, token, { title: `Task number ${i} with a long enough title`, description: "x".repeat(200) });
  });

  test("GET /tasks – a list above 1 KB is compressed on a miss and on a cache hit alike", async () => {
    const headers = { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip, br" };
    const miss = await raw("/api/v1/tasks", headers);
    const hit = await raw("/api/v1/tasks", headers);
    expect([miss.headers["x-cache"], hit.headers["x-cache"]]).toEqual(["MISS", "HIT"]);
    for (const answer of [miss, hit]) {
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe("br");
      expect(answer.headers.vary).toMatch(/accept-encoding/i);
      expectConsistentLength(answer);
      const list = expectShape(taskListOutput, JSON.parse(decoded(answer)));
      expect(list.items).toHaveLength(8);
    }
    expect(decoded(hit)).toBe(decoded(miss));
  });

  test("GET /tasks – the compressed list is kept per encoding and dropped with the list when a task changes", async () => {
    const gzipHeaders = { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" };
    const first = await raw("/api/v1/tasks?limit=20", gzipHeaders);
    const again = await raw("/api/v1/tasks?limit=20", gzipHeaders);
    expect(again.headers["x-cache"]).toBe("HIT");
    expect(again.headers["content-encoding"]).toBe("gzip");
    expect(decoded(again)).toBe(decoded(first));
    // Another encoding of the same list is its own representation, decoding to the same JSON.
    const brotli = await raw("/api/v1/tasks?limit=20", { Authorization: `Bearer ${token}`, "Accept-Encoding": "br" });
    expect(brotli.headers["content-encoding"]).toBe("br");
    expect(decoded(brotli)).toBe(decoded(first));

    const added = await createTask(server, token, { title: "Added after the list was kept" });
    const after = await raw("/api/v1/tasks?limit=20", gzipHeaders);
    expect(after.headers["x-cache"]).toBe("MISS");
    const list = expectShape(taskListOutput, JSON.parse(decoded(after)));
    expect(list.items.map((item) => item.id)).toContain(added.id);
    const afterAgain = await raw("/api/v1/tasks?limit=20", gzipHeaders);
    expect(afterAgain.headers["x-cache"]).toBe("HIT");
    expect(decoded(afterAgain)).toBe(decoded(after));
  });

  test("GET /tasks – without Accept-Encoding the same list is sent as is", async () => {
    const compressed = await raw("/api/v1/tasks", { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" });
    const plain = await raw("/api/v1/tasks", { Authorization: `Bearer ${token}` });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.headers.vary).toMatch(/accept-encoding/i);
    expectConsistentLength(plain);
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(decoded(compressed)).toBe(plain.body.toString("utf8"));
  });

  test("GET /tasks/{id} (a Hono route) – a task above 1 KB is compressed and decompresses to the route's JSON", async () => {
    const task = await createTask(server, token, { title: "Long", description: "A long description. ".repeat(100) });
    const compressed = await raw(`/api/v1/tasks/${task.id}`, { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip" });
    const plain = await raw(`/api/v1/tasks/${task.id}`, { Authorization: `Bearer ${token}` });
    expect(compressed.status).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("gzip");
    expect(compressed.headers.vary).toMatch(/accept-encoding/i);
    expectConsistentLength(compressed);
    expect(compressed.body.length).toBeLessThan(plain.body.length / 3);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(decoded(compressed)).toBe(plain.body.toString("utf8"));
    expect(JSON.parse(decoded(compressed)).description).toBe(task.description);
  });

  test("GET /tasks/{id} – an answer below 1 KB is not compressed", async () => {
    const task = await createTask(server, token, { title: "Small" });
    const answer = await raw(`/api/v1/tasks/${task.id}`, { Authorization: `Bearer ${token}`, "Accept-Encoding": "gzip, br" });
    expect(answer.status).toBe(200);
    expect(answer.body.length).toBeLessThan(1024);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expectConsistentLength(answer);
    expect(JSON.parse(decoded(answer)).title).toBe("Small");
  });
});
