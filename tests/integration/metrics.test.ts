import { io, type Socket } from "socket.io-client";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTask, registerUser, startTestServer, type TestServer } from "./harness";

const METRICS_TOKEN = "metrics-token-for-the-tests-0123456789";

/** The value of one sample (`name{labels} value`) in a Prometheus text exposition; 0 when it is absent. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number {
  for (const line of text.split("\n")) {
    const match = line.match(/^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/);
    if (!match || match[1] !== name) continue;
    const given = Object.fromEntries([...(match[2] ?? "").matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([key, value]) => given[key] === value)) return Number(match[3]);
  }
  return 0;
}

async function scrape(server: TestServer, token = METRICS_TOKEN) {
  const response = await fetch(`${server.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } });
  return { status: response.status, type: response.headers.get("content-type"), text: await response.text() };
}

describe("GET /metrics with METRICS_TOKEN", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN, RATE_LIMIT_POINTS: "40" });
  });
  afterAll(() => server.close());

  test("counts requests by route pattern and status, never by raw path", async () => {
    const before = (await scrape(server)).text;
    const { token } = await registerUser(server);
    const task = await createTask(server, token);
    for (let i = 0; i < 3; i++) expect((await server.request(`/api/v1/tasks/${task.id}`, { token })).status).toBe(200);
    expect((await server.request(`/api/v1/tasks/00000000-0000-4000-8000-000000000000`, { token })).status).toBe(404);
    expect((await server.request("/api/v1/no-such-thing", { token })).status).toBe(404);

    const scraped = await scrape(server);
    expect(scraped.status).toBe(200);
    expect(scraped.type).toMatch(/^text\/plain; version=0\.0\.4/);
    const delta = (labels: Record<string, string>) =>
      sample(scraped.text, "spolu_http_requests_total", labels) - sample(before, "spolu_http_requests_total", labels);
    expect(delta({ method: "GET", route: "/api/v1/tasks/:id", status: "200" })).toBe(3);
    expect(delta({ method: "GET", route: "/api/v1/tasks/:id", status: "404" })).toBe(1);
    expect(delta({ method: "POST", route: "/api/v1/tasks", status: "201" })).toBe(1);
    expect(delta({ method: "GET", route: "(no route)", status: "404" })).toBe(1);
    expect(scraped.text).not.toContain(task.id);
    expect(scraped.text).not.toContain("no-such-thing");
    // The durations histogram counts the same requests.
    const count = (text: string) =>
      sample(text, "spolu_http_request_duration_seconds_count", { method: "GET", route: "/api/v1/tasks/:id", status: "200" });
    expect(count(scraped.text) - count(before)).toBe(3);
  });

  test("has process memory and CPU, the queue's depths, the event consumers' lag, and no pool figures on PGlite", async () => {
    const { text } = await scrape(server);
    expect(sample(text, "process_resident_memory_bytes")).toBeGreaterThan(10_000_000);
    expect(text).toMatch(/^process_cpu_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_heap_size_used_bytes \d/m);
    expect(text).toMatch(/^spolu_queue_items\{kind="[\w.-]+",state="pending"\} \d+$/m);
    // Each event consumer's lag (lib/events/consumers.ts), in events and seconds.
    for (const consumer of ["gamification", "notifications", "reminder-settings", "socket", "webhooks"]) {
      expect(text).toMatch(new RegExp(`^spolu_event_consumer_lag_events\\{consumer="${consumer}"\\} \\d+$`, "m"));
      expect(text).toMatch(new RegExp(`^spolu_event_consumer_lag_seconds\\{consumer="${consumer}"\\} [\\d.e+-]+$`, "m"));
    }
    if (!process.env.DATABASE_URL) expect(text).not.toMatch(/^spolu_db_pool_connections\{/m);
    else expect(sample(text, "spolu_db_pool_connections", { state: "total" })).toBeGreaterThan(0);
  });

  test("counts open socket connections", async () => {
    const { token } = await registerUser(server);
    const socket: Socket = io(server.url, { path: "/ws", transports: ["websocket"], auth: { token }, reconnection: false });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.on("connect", resolve);
        socket.on("connect_error", reject);
      });
      expect(sample((await scrape(server)).text, "spolu_socket_connections")).toBe(1);
    } finally {
      socket.disconnect();
    }
    await expect.poll(async () => sample((await scrape(server)).text, "spolu_socket_connections")).toBe(0);
  });

  test("401 without the token or with another one", async () => {
    const without = await fetch(`${server.url}/metrics`);
    expect(without.status).toBe(401);
    expect(without.headers.get("www-authenticate")).toMatch(/^Bearer/);
    expect((await scrape(server, "not-the-metrics-token-at-all")).status).toBe(401);
    // A user's session token is no metrics token.
    const { token } = await registerUser(server);
    expect((await scrape(server, token)).status).toBe(401);
  });

  test("not rate limited: scrapes go on while the API answers 429", async () => {
    let limited = false;
    for (let i = 0; i < 60 && !limited; i++) limited = (await fetch(`${server.url}/api/v1/openapi.json`)).status === 429;
    expect(limited).toBe(true);
    for (let i = 0; i < 5; i++) expect((await scrape(server)).status).toBe(200);
  });
});

describe("GET /metrics without METRICS_TOKEN", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ METRICS_TOKEN: "" });
  });
  afterAll(() => server.close());

  test("404: the path does not exist", async () => {
    expect((await scrape(server)).status).toBe(404);
    expect((await fetch(`${server.url}/metrics`)).status).toBe(404);
  });

  test("GET /openapi.json does not list /metrics", async () => {
    const document = await server.request("/api/v1/openapi.json");
    expect(Object.keys(document.body.paths)).not.toContain("/metrics");
    expect(Object.keys(document.body.paths).filter((path) => path.includes("metrics"))).toEqual([]);
  });
});
