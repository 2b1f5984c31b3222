import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { complete } from "../../lib/ai/provider";
import { AppError } from "../../lib/api/app-error";
import { loadConfig } from "../../lib/config";
import { connectorRequest } from "../../lib/connectors/http";
import { OutboundError, outboundFetch, outboundRequest } from "../../lib/net/client";
import { startChatCompletionsServer, type ChatCompletionsServer } from "./chat-completions-server";
import { startDnsServer, type DnsServer } from "./dns-server";
import { registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The one outbound client (lib/net/client.ts) against local servers: what each setting lets through, redirects,
 * deadlines and size limits, and the AI endpoint going through it. The webhook, push and connector tests check the
 * same rules through their features.
 */

interface Target {
  url: string;
  hits: string[];
  close(): Promise<void>;
}

/** A local HTTP server answering each path its own way. */
async function startTarget(
  routes: Record<string, (request: IncomingMessage, response: ServerResponse) => void>,
): Promise<Target> {
  const hits: string[] = [];
  const server = createServer((request, response) => {
    hits.push(`${request.method} ${request.url}`);
    const route = routes[request.url ?? ""];
    if (route) return route(request, response);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let target: Target;
let dns: DnsServer;

/** The settings of a deployment, as the server reads them at start. */
function settings(env: Record<string, string>) {
  loadConfig({ ...process.env, NODE_ENV: "test", DATA_DIR: "/tmp", JWT_SECRET: "x".repeat(32), ...env });
}

async function refusal(promise: Promise<unknown>): Promise<OutboundError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(OutboundError);
  return error as OutboundError;
}

beforeAll(async () => {
  dns = await startDnsServer();
  target = await startTarget({
    "/ok": (_, response) => response.end("fine"),
    "/big": (_, response) => response.end("x".repeat(100_000)),
    "/slow-headers": (_, response) => setTimeout(() => response.end("late"), 2000),
    "/slow-body": (_, response) => {
      response.writeHead(200);
      response.write("a beginning...");
      setTimeout(() => response.end("and an end"), 2000);
    },
    "/to-ok": (_, response) => response.writeHead(302, { location: "/ok" }).end(),
    "/to-metadata": (_, response) => response.writeHead(307, { location: "http://169.254.169.254/latest/meta-data" }).end(),
    "/loop": (_, response) => response.writeHead(301, { location: "/loop" }).end(),
    "/echo": (request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => response.end(`${request.method} ${Buffer.concat(chunks).toString()}`));
    },
  });
});

afterAll(async () => {
  await target.close();
  await dns.close();
});

afterEach(() => {
  target.hits.length = 0;
});

const call = (path: string, extra: Partial<Parameters<typeof outboundRequest>[1]> = {}) =>
  outboundRequest("webhooks", { method: "GET", url: `${target.url}${path}`, timeoutMs: 1000, maxBytes: 1024, ...extra });

describe("what the settings let through", () => {
  test("by default a private target is refused before anything is sent", async () => {
    settings({});
    const refused = await refusal(call("/ok"));
    expect(refused).toMatchObject({ reason: "refused", address: "127.0.0.1" });
    expect(refused.message).toBe("127.0.0.1 is a loopback address: only public addresses are allowed");
    expect(target.hits).toEqual([]);
  });

  test("ALLOW_PRIVATE_NETWORK_TARGETS: true, a purpose, or the address itself lets it through", async () => {
    for (const allowed of ["true", "webhooks", "127.0.0.1", "127.0.0.0/8,10.0.0.0/8"]) {
      settings({ ALLOW_PRIVATE_NETWORK_TARGETS: allowed });
      expect((await call("/ok")).body.toString(), allowed).toBe("fine");
    }
    settings({ ALLOW_PRIVATE_NETWORK_TARGETS: "ai,connectors,10.0.0.0/8" });
    expect((await refusal(call("/ok"))).reason).toBe("refused");
  });

  test("CONNECTOR_ALLOW_PRIVATE_NETWORK opens private targets to the connectors only", async () => {
    settings({ CONNECTOR_ALLOW_PRIVATE_NETWORK: "true" });
    const answer = await connectorRequest({ method: "GET", url: `${target.url}/ok` });
    expect(answer.body.toString()).toBe("fine");
    expect((await refusal(call("/ok"))).reason).toBe("refused");
  });

  test("a connector call to a private address without the setting fails for good (no retry), naming the address", async () => {
    settings({});
    const error = await connectorRequest({ method: "GET", url: `${target.url}/ok` }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ name: "ConnectorError", transient: false, message: expect.stringMatching(/loopback address/) });
    expect(target.hits).toEqual([]);
  });

  test("a name is resolved once per call, every address checked: one private address among public ones refuses it", async () => {
    settings({ ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1", OUTBOUND_DNS_SERVERS: dns.address });
    const port = new URL(target.url).port;
    dns.answer("mixed.spolu.test", ["127.0.0.1", "192.168.7.7"]);
    dns.answer("fine.spolu.test", ["127.0.0.1"]);
    const refused = await refusal(call("/ok", { url: `http://mixed.spolu.test:${port}/ok` }));
    expect(refused).toMatchObject({ reason: "refused", address: "192.168.7.7" });
    expect(refused.message).toBe(
      "mixed.spolu.test resolves to 192.168.7.7, a private address: only public addresses are allowed",
    );
    expect((await call("/ok", { url: `http://fine.spolu.test:${port}/ok` })).body.toString()).toBe("fine");
    expect(target.hits).toEqual(["GET /ok"]);
    const unknown = await refusal(call("/ok", { url: `http://nowhere.spolu.test:${port}/ok` }));
    expect(unknown).toMatchObject({ reason: "unreachable", message: expect.stringMatching(/ENOTFOUND/) });
  });

  test("schemes other than http(s) and URLs with credentials are refused whatever the setting", async () => {
    settings({ ALLOW_PRIVATE_NETWORK_TARGETS: "true" });
    expect((await refusal(call("", { url: "file:///etc/passwd" }))).message).toBe("not an http(s) URL");
    expect((await refusal(call("", { url: target.url.replace("http://", "http://a:b@") + "/ok" }))).message).toMatch(
      /user name or password/,
    );
  });
});

describe("redirects", () => {
  beforeAll(() => settings({ ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1" }));

  test("are not followed unless asked: the 3xx is the answer", async () => {
    const answer = await call("/to-ok");
    expect(answer).toMatchObject({ status: 302, headers: { location: "/ok" } });
    expect(target.hits).toEqual(["GET /to-ok"]);
  });

  test("followed when asked, each with the same method and body, up to the number asked", async () => {
    const answer = await call("/to-ok", { redirects: 1 });
    expect(answer).toMatchObject({ status: 200, url: `${target.url}/ok` });
    const looping = await call("/loop", { redirects: 2 });
    expect(looping.status).toBe(301);
    expect(target.hits.filter((hit) => hit === "GET /loop")).toHaveLength(3);
  });

  test("each target is checked like the first: a redirect to a private address is refused", async () => {
    const refused = await refusal(call("/to-metadata", { redirects: 3 }));
    expect(refused.message).toBe(
      "redirect to http://169.254.169.254/latest/meta-data refused: 169.254.169.254 is a link-local address: only public addresses are allowed",
    );
  });
});

describe("limits", () => {
  beforeAll(() => settings({ ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1" }));

  test("a target slow to answer, or slow to finish its answer, times out at the caller's deadline", async () => {
    for (const path of ["/slow-headers", "/slow-body"]) {
      const started = Date.now();
      const error = await refusal(call(path, { timeoutMs: 300 }));
      expect(error).toMatchObject({ reason: "timeout", message: "timed out after 300 ms" });
      expect(Date.now() - started).toBeLessThan(1500);
    }
    const error = await connectorRequest({ method: "GET", url: `${target.url}/slow-headers`, timeoutMs: 300 }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toMatchObject({ transient: true, message: "did not answer within 300 ms" });
  });

  test("an answer over the size limit fails, or is cut where the caller only wants its start", async () => {
    expect(await refusal(call("/big", { maxBytes: 1000 }))).toMatchObject({
      reason: "too_large",
      message: "answered more than 1000 bytes",
    });
    const cut = await call("/big", { maxBytes: 1000, overflow: "truncate" });
    expect(cut).toMatchObject({ status: 200, truncated: true });
    expect(cut.body.length).toBe(1000);
  });

  test("the fetch given to SDKs keeps the same rules: no redirects, the size limit, refused targets", async () => {
    const fetch = outboundFetch("webhooks", { timeoutMs: () => 1000, maxBytes: 1000 });
    expect((await fetch(`${target.url}/to-ok`)).status).toBe(302);
    expect(await (await fetch(`${target.url}/echo`, { method: "POST", body: "hello" })).text()).toBe("POST hello");
    const big = await fetch(`${target.url}/big`);
    await expect(big.text()).rejects.toMatchObject({ reason: "too_large" });
    settings({});
    await expect(fetch(`${target.url}/ok`)).rejects.toMatchObject({ reason: "refused" });
  });
});

describe("the AI endpoint", () => {
  let ai: ChatCompletionsServer;
  let server: TestServer;
  beforeAll(async () => {
    ai = await startChatCompletionsServer();
  });
  afterAll(async () => {
    await ai.close();
  });
  afterEach(async () => {
    await server?.close();
  });

  test("on a loopback address (a local Ollama) it is refused without the setting, and never called", async () => {
    server = await startTestServer({ AI_BASE_URL: ai.url });
    const user = await registerUser(server);
    const error = await complete({ userId: user.user.id, purpose: "chat", messages: [{ role: "user", content: "Hi" }] }).catch(
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({
      code: "unavailable",
      message: "The AI service address is refused: 127.0.0.1 is a loopback address: only public addresses are allowed",
    });
    expect(ai.requests).toEqual([]);
  });

  test("with ALLOW_PRIVATE_NETWORK_TARGETS=ai it answers", async () => {
    server = await startTestServer({ AI_BASE_URL: ai.url, ALLOW_PRIVATE_NETWORK_TARGETS: "ai" });
    const user = await registerUser(server);
    const answer = await complete({ userId: user.user.id, purpose: "chat", messages: [{ role: "user", content: "Hi" }] });
    expect(answer.text).toBe("You said: Hi");
    expect(ai.requests).toHaveLength(1);
  });
});
