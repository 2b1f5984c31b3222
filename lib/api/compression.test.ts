import { gunzipSync } from "node:zlib";
import { Hono } from "hono";
import { describe, expect, test } from "vitest";
import { chooseEncoding, compressAnswers, compressibleType, PrecompressedBody } from "./compression";
import type { ApiEnv } from "./env";

describe("chooseEncoding", () => {
  test.each([
    [undefined, null],
    ["", null],
    ["identity", null],
    ["gzip", "gzip"],
    ["gzip, deflate, br", "br"],
    ["br;q=0.5, gzip", "gzip"],
    ["br;q=0, gzip;q=0", null],
    ["*", "br"],
    ["*;q=0.1, gzip;q=0.2", "gzip"],
    ["deflate", null],
    [" GZIP ; q=1 ", "gzip"],
  ])("Accept-Encoding %j → %s", (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});

describe("compressibleType", () => {
  test.each([
    ["application/json; charset=utf-8", true],
    ["application/problem+json", true],
    ["text/calendar; charset=utf-8", true],
    ["text/plain", true],
    ["image/svg+xml", true],
    ["text/event-stream", false],
    ["image/png", false],
    ["image/jpeg", false],
    ["application/zip", false],
    ["audio/wav", false],
    ["application/octet-stream", false],
    [null, false],
  ])("%s → %s", (type, expected) => {
    expect(compressibleType(type)).toBe(expected);
  });

  test("Cache-Control: no-transform keeps an answer as it is", () => {
    expect(compressibleType("application/json", "private, no-transform")).toBe(false);
  });
});

describe("compressAnswers", () => {
  const big = JSON.stringify({ items: Array.from({ length: 100 }, (_, index) => ({ index, title: "A task title" })) });
  const app = new Hono<ApiEnv>()
    .use("*", compressAnswers)
    .get("/big", (c) => c.body(big, 200, { "Content-Type": "application/json", ETag: '"v1"' }))
    .get("/small", (c) => c.json({ ok: true }))
    .get("/events", (c) => c.body(`data: ${"x".repeat(2000)}\n\n`, 200, { "Content-Type": "text/event-stream" }))
    .get("/zip", (c) => c.body(new Uint8Array(4096), 200, { "Content-Type": "application/zip" }));

  test("a big JSON answer: gzip, Vary, the compressed length, its strong ETag made weak", async () => {
    const response = await app.request("/big", { headers: { "Accept-Encoding": "gzip" } });
    expect(response.headers.get("content-encoding")).toBe("gzip");
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(response.headers.get("etag")).toBe('W/"v1"');
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(Number(response.headers.get("content-length"))).toBe(bytes.length);
    expect(gunzipSync(bytes).toString("utf8")).toBe(big);
  });

  test("without Accept-Encoding: as it is, strong ETag kept, Vary still said", async () => {
    const response = await app.request("/big");
    expect(response.headers.get("content-encoding")).toBeNull();
    expect(response.headers.get("etag")).toBe('"v1"');
    expect(response.headers.get("vary")).toBe("Accept-Encoding");
    expect(await response.text()).toBe(big);
  });

  test("a small answer, an event stream and a ZIP are sent as they are", async () => {
    for (const path of ["/small", "/events", "/zip"]) {
      const response = await app.request(path, { headers: { "Accept-Encoding": "gzip, br" } });
      expect(response.headers.get("content-encoding"), path).toBeNull();
    }
  });
});

describe("PrecompressedBody", () => {
  test("each encoding made once, with its own ETag", async () => {
    const body = new PrecompressedBody(Buffer.from("x".repeat(5000)));
    const gzip = await body.for("gzip");
    expect(gzip.encoding).toBe("gzip");
    expect(gzip.etag).toBe(`${body.etag.slice(0, -1)}-gzip"`);
    expect((await body.for("gzip")).body).toBe(gzip.body);
    expect((await body.for(undefined)).body).toBe(body.body);
    expect(gunzipSync(gzip.body).toString()).toBe("x".repeat(5000));
  });
});
