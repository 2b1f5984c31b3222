import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { advanceClock, resetClock } from "../../lib/clock";
import { driverOf } from "../../lib/connectors/drivers";
import {
  CONNECTOR_KINDS,
  connectionOutput,
  createdConnectionOutput,
  runListOutput,
  runOutput,
  statusOutput,
} from "../../lib/connectors/schema";
import { runConnectorRetries, RETRY_DELAYS_MS } from "../../lib/connectors/service";
import { moduleOverrides } from "../../lib/modules/registry";
import {
  addMember as joinAs,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";
import { ODOO_ADMIN, ODOO_DATABASE, startOdooServer, type OdooServer } from "./odoo-server";

/*
 * The connector framework (lib/connectors): connections, access, runs item by item, retries and the signed
 * incoming webhook, through the `erp` kind against a local Odoo (odoo-server.ts: its switches make it answer 503,
 * hang or refuse the key). The drivers' own protocols have their own tests (odoo, moodle, pohoda).
 */

/** The local Odoo listens on 127.0.0.1: the deployment setting that lets connectors reach that one address. */
const SYSTEM_ON_LOOPBACK = { ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1" };

let odoo: OdooServer;
let systemUrl: string;
const system = { credentials: { login: ODOO_ADMIN.login, apiKey: ODOO_ADMIN.key } };

let server: TestServer;
type User = Awaited<ReturnType<typeof registerUser>>;
let alice: User;
let bob: User;

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function connect(user: User, json: Record<string, unknown> = {}) {
  const response = await api("/connectors", {
    token: user.token,
    json: {
      kind: "erp",
      name: "Our ERP",
      baseUrl: systemUrl,
      credentials: system.credentials,
      settings: { database: ODOO_DATABASE },
      ...json,
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdConnectionOutput, response.body);
}

async function run(user: User, id: string, operation = "import") {
  const response = await api(`/connectors/${id}/${operation}`, { token: user.token, json: undefined, method: "POST" });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(runOutput, response.body);
}

async function ownTaskTitles(user: User): Promise<string[]> {
  const rows = await server.sql<{ title: string }>("select title from tasks where owner_id = $1 order by title", [user.user.id]);
  return rows.map((row) => row.title);
}

function sign(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

async function postWebhook(id: string, body: string, headers: Record<string, string>) {
  return api(`/connectors/${id}/webhook`, { method: "POST", body, headers: { "content-type": "application/json", ...headers } });
}

/** An Odoo record event for the webhook: the tasks with these ids changed. */
const recordEvent = (...ids: number[]) => JSON.stringify({ _model: "project.task", ids });

beforeAll(async () => {
  odoo = await startOdooServer();
  systemUrl = odoo.url;
  server = await startTestServer({ ...SYSTEM_ON_LOOPBACK, CONNECTOR_TIMEOUT_MS: "400" });
  alice = await registerUser(server);
  bob = await registerUser(server);
});

afterAll(async () => {
  await server.close();
  await odoo.close();
});

beforeEach(() => {
  odoo.reset(17);
});

afterEach(() => {
  resetClock();
  moduleOverrides().delete("erp");
});

describe("connections", () => {
  test("are created with validated credentials, stored encrypted and never answered back", async () => {
    const created = await connect(alice, { settings: { database: ODOO_DATABASE, projectId: 5 } });
    expect(created).toMatchObject({
      kind: "erp",
      status: "new",
      teamId: null,
      canManage: true,
      credentialsHint: `${ODOO_ADMIN.login}, key …${ODOO_ADMIN.key.slice(-4)}`,
    });
    expect(created.webhookSecret).toMatch(/^whsec_/);
    expect(created.settings).toEqual({ database: ODOO_DATABASE, projectId: 5 });

    const [row] = await server.sql<{ credentials: string; webhook_secret: string }>(
      "select credentials, webhook_secret from connector_connections where id = $1",
      [created.id],
    );
    expect(row!.credentials).not.toContain(ODOO_ADMIN.key);
    expect(row!.webhook_secret).not.toContain(created.webhookSecret);

    const read = await api(`/connectors/${created.id}`, { token: alice.token });
    expect(JSON.stringify(read.body)).not.toContain(ODOO_ADMIN.key);
    expect(read.body).not.toHaveProperty("webhookSecret");
    expectShape(connectionOutput, read.body);
  });

  test("bad input is a 400 naming the field, inside the kind's credentials and settings too", async () => {
    const bad = async (json: Record<string, unknown>, pointer: string) => {
      const response = await api("/connectors", {
        token: alice.token,
        json: {
          kind: "erp",
          name: "ERP",
          baseUrl: systemUrl,
          credentials: system.credentials,
          settings: { database: ODOO_DATABASE },
          ...json,
        },
      });
      expectProblem(response, 400, "validation_failed");
      expect(response.body.errors.map((error: { pointer: string }) => error.pointer)).toContain(pointer);
    };
    await bad({ credentials: { login: "admin", apiKey: "" } }, "/credentials/apiKey");
    await bad({ credentials: {} }, "/credentials/login");
    await bad({ settings: { database: ODOO_DATABASE, unknown: 1 } }, "/settings/unknown");
    await bad({ settings: { database: ODOO_DATABASE, projectId: -1 } }, "/settings/projectId");
    await bad({ kind: "crm" }, "/kind");
    await bad({ name: "" }, "/name");
    await bad({ baseUrl: "ftp://erp.example.com" }, "/baseUrl");
    await bad({ baseUrl: "https://user:pw@erp.example.com" }, "/baseUrl");
    await bad({ baseUrl: "http://10.0.0.5:8069" }, "/baseUrl");
    await bad({ baseUrl: "http://169.254.169.254" }, "/baseUrl");
    expect(await server.sql("select 1 from connector_connections where name = 'ERP'")).toHaveLength(0);
  });

  test("another user's connection is a 404 on every route; a team's members see it and only its admins manage it", async () => {
    const own = await connect(alice);
    for (const [method, path] of [
      ["GET", ""],
      ["PATCH", ""],
      ["DELETE", ""],
      ["POST", "/check"],
      ["POST", "/import"],
      ["GET", "/runs"],
      ["POST", "/webhook-secret"],
    ] as const) {
      const response = await api(`/connectors/${own.id}${path}`, {
        token: bob.token,
        method,
        ...(method === "PATCH" && { json: { name: "Mine" } }),
      });
      expectProblem(response, 404, "not_found");
    }
    expect((await api("/connectors", { token: bob.token })).body.items).toEqual([]);

    const team = await api("/user-groups", { token: alice.token, json: { name: "Office" } });
    await joinAs(server, `/api/v1/user-groups/${team.body.id}/members`, alice, bob);
    const shared = await connect(alice, { teamId: team.body.id, name: "Office ERP" });
    const seen = await api("/connectors", { token: bob.token });
    expect(seen.body.items.map((item: { id: string; canManage: boolean }) => [item.id, item.canManage])).toEqual([
      [shared.id, false],
    ]);
    expectProblem(await api(`/connectors/${shared.id}/import`, { token: bob.token, method: "POST" }), 403, "forbidden");
    expectProblem(
      await api(`/connectors/${shared.id}`, { token: bob.token, method: "PATCH", json: { name: "X" } }),
      403,
      "forbidden",
    );
    // A member may not add a team connection; a stranger's team is a 404.
    const bobTeamConnection = await api("/connectors", {
      token: bob.token,
      json: {
        kind: "erp",
        name: "ERP",
        baseUrl: systemUrl,
        credentials: system.credentials,
        settings: { database: ODOO_DATABASE },
        teamId: team.body.id,
      },
    });
    expectProblem(bobTeamConnection, 403, "forbidden");
    const carol = await registerUser(server);
    const strangers = await api("/connectors", {
      token: carol.token,
      json: {
        kind: "erp",
        name: "ERP",
        baseUrl: systemUrl,
        credentials: system.credentials,
        settings: { database: ODOO_DATABASE },
        teamId: team.body.id,
      },
    });
    expectProblem(strangers, 404, "not_found");
  });

  test("a check reports the version and whether the credentials work, and sets the status", async () => {
    const connection = await connect(alice);
    const good = expectShape(
      statusOutput,
      (await api(`/connectors/${connection.id}/check`, { token: alice.token, method: "POST" })).body,
    );
    expect(good).toMatchObject({ reachable: true, authenticated: true, version: "17.0", error: null });
    expect((await api(`/connectors/${connection.id}`, { token: alice.token })).body.status).toBe("ok");

    await api(`/connectors/${connection.id}`, {
      token: alice.token,
      method: "PATCH",
      json: { credentials: { login: ODOO_ADMIN.login, apiKey: "wrong-key" } },
    });
    const bad = (await api(`/connectors/${connection.id}/check`, { token: alice.token, method: "POST" })).body;
    expect(bad).toMatchObject({ reachable: true, authenticated: false, error: expect.stringMatching(/AccessDenied/) });
    expect((await api(`/connectors/${connection.id}`, { token: alice.token })).body).toMatchObject({
      status: "error",
      lastError: bad.error,
    });
  });

  test("a switched-off module hides its connections and answers 404 module_disabled", async () => {
    const connection = await connect(alice);
    moduleOverrides().set("erp", false);
    const response = await api(`/connectors/${connection.id}`, { token: alice.token });
    expectProblem(response, 404, "module_disabled");
    expect(response.body.detail).toContain("erp");
    expect((await api("/connectors", { token: alice.token })).body.items).toEqual([]);
    moduleOverrides().delete("erp");
    expect((await api(`/connectors/${connection.id}`, { token: alice.token })).status).toBe(200);
  });
});

describe("runs", () => {
  test("an import run twice creates each record once; a changed record is updated", async () => {
    const bobConnection = await connect(bob);
    odoo.addTask({ name: "Invoice customer A" });
    const supplier = odoo.addTask({ name: "Call supplier B" });
    const first = await run(bob, bobConnection.id);
    expect(first).toMatchObject({ status: "succeeded", attempt: 1, counts: { created: 2, updated: 0, unchanged: 0, failed: 0 } });
    const again = await run(bob, bobConnection.id);
    expect(again.counts).toMatchObject({ created: 0, unchanged: 2 });
    supplier.name = "Call supplier B again";
    const changed = await run(bob, bobConnection.id);
    expect(changed.counts).toMatchObject({ created: 0, updated: 1, unchanged: 1 });
    expect(await ownTaskTitles(bob)).toEqual(["Call supplier B again", "Invoice customer A"]);
    expect((await api(`/connectors/${bobConnection.id}`, { token: bob.token })).body.lastSyncAt).not.toBeNull();
  });

  test("one failing item makes the run partial, with the item's error, and the others go through", async () => {
    const carol = await registerUser(server);
    const connection = await connect(carol);
    odoo.addTask({ name: "Good one" });
    const nameless = odoo.addTask({ name: "" });
    odoo.addTask({ name: "Good two" });
    const result = await run(carol, connection.id);
    expect(result.status).toBe("partial");
    expect(result.counts).toMatchObject({ created: 2, failed: 1 });
    expect(result.items[0]).toMatchObject({ externalId: String(nameless.id), action: "failed", error: expect.any(String) });
    expect(result.error).toBe("1 of 3 items failed");
    expect(await ownTaskTitles(carol)).toEqual(["Good one", "Good two"]);
    const runs = expectShape(runListOutput, (await api(`/connectors/${connection.id}/runs`, { token: carol.token })).body);
    expect(runs.items[0]!.id).toBe(result.id);
  });

  test("a 503 fails the run with a retry time; the retry job runs it again once the time has come", async () => {
    const dave = await registerUser(server);
    const connection = await connect(dave);
    odoo.addTask({ name: "After the outage" });
    odoo.down = true;
    const failed = await run(dave, connection.id);
    expect(failed).toMatchObject({ status: "failed", attempt: 1 });
    expect(failed.error).toContain("HTTP 503");
    expect(Date.parse(failed.nextAttemptAt!) - Date.parse(failed.finishedAt!)).toBeGreaterThanOrEqual(RETRY_DELAYS_MS[0] - 1000);
    expect((await api(`/connectors/${connection.id}`, { token: dave.token })).body.status).toBe("error");

    odoo.down = false;
    expect(await runConnectorRetries()).toBe(0); // not yet
    advanceClock(RETRY_DELAYS_MS[0] + 1000);
    expect(await runConnectorRetries()).toBe(1);
    expect(await runConnectorRetries()).toBe(0); // once
    const [retried] = (await api(`/connectors/${connection.id}/runs`, { token: dave.token })).body.items;
    expect(retried).toMatchObject({
      id: failed.id,
      status: "succeeded",
      attempt: 2,
      nextAttemptAt: null,
      counts: { created: 1 },
    });
    expect(await ownTaskTitles(dave)).toEqual(["After the outage"]);
  });

  test("a system that does not answer in time fails the run (transient); a 401 is not retried", async () => {
    const erin = await registerUser(server);
    const connection = await connect(erin);
    odoo.delayMs = 1500;
    const slow = await run(erin, connection.id);
    expect(slow.status).toBe("failed");
    expect(slow.error).toContain("did not answer within 400 ms");
    expect(slow.nextAttemptAt).not.toBeNull();

    odoo.delayMs = 0;
    await api(`/connectors/${connection.id}`, {
      token: erin.token,
      method: "PATCH",
      json: { credentials: { login: ODOO_ADMIN.login, apiKey: "wrong-key" } },
    });
    advanceClock(RETRY_DELAYS_MS[0] + 1000);
    await runConnectorRetries();
    const [refused] = (await api(`/connectors/${connection.id}/runs`, { token: erin.token })).body.items;
    expect(refused).toMatchObject({ status: "failed", attempt: 2, nextAttemptAt: null });
    expect(refused.error).toMatch(/AccessDenied/);
  });

  test("every kind of connector has an import, an export and a webhook (the interface specification asks for all three)", () => {
    for (const kind of CONNECTOR_KINDS) {
      const driver = driverOf(kind);
      expect(driver, kind).not.toBeNull();
      expect([typeof driver!.import, typeof driver!.export, typeof driver!.webhook], kind).toEqual([
        "function",
        "function",
        "function",
      ]);
    }
  });
});

describe("the incoming webhook", () => {
  test("unsigned or wrongly signed requests get 401 and run nothing; a signed one runs once per delivery id", async () => {
    const frank = await registerUser(server);
    const connection = await connect(frank);
    const body = recordEvent(odoo.addTask({ name: "From the webhook" }).id);

    expectProblem(await postWebhook(connection.id, body, {}), 401, "unauthenticated");
    expectProblem(
      await postWebhook(connection.id, body, { "x-hub-signature-256": sign("whsec_wrong", body) }),
      401,
      "unauthenticated",
    );
    expectProblem(
      await postWebhook(connection.id, body, { "x-hub-signature-256": sign(connection.webhookSecret, `${body} `) }),
      401,
      "unauthenticated",
    );
    expectProblem(
      await postWebhook("00000000-0000-4000-8000-000000000000", body, {
        "x-hub-signature-256": sign(connection.webhookSecret, body),
      }),
      401,
      "unauthenticated",
    );
    expect((await api(`/connectors/${connection.id}/runs`, { token: frank.token })).body.items).toEqual([]);

    const headers = { "x-hub-signature-256": sign(connection.webhookSecret, body), "x-delivery-id": "delivery-1" };
    const first = await postWebhook(connection.id, body, headers);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toMatchObject({
      duplicate: false,
      run: { operation: "webhook", trigger: "webhook", status: "succeeded" },
    });
    const again = await postWebhook(connection.id, body, headers);
    expect(again.body).toEqual({ duplicate: true, run: null });
    expect(await ownTaskTitles(frank)).toEqual(["From the webhook"]);

    // A system that cannot sign passes the secret as ?token= instead; a wrong token is a 401 like a wrong signature.
    const byToken = recordEvent(odoo.addTask({ name: "By token" }).id);
    expectProblem(
      await api(`/connectors/${connection.id}/webhook?token=whsec_wrong`, {
        method: "POST",
        body: byToken,
        headers: { "content-type": "application/json" },
      }),
      401,
      "unauthenticated",
    );
    const tokenRun = await api(`/connectors/${connection.id}/webhook?token=${encodeURIComponent(connection.webhookSecret)}`, {
      method: "POST",
      body: byToken,
      headers: { "content-type": "application/json" },
    });
    expect(tokenRun.body.run.status).toBe("succeeded");
    expect(await ownTaskTitles(frank)).toEqual(["By token", "From the webhook"]);

    // After a rotation the old secret no longer verifies.
    const rotated = await api(`/connectors/${connection.id}/webhook-secret`, { token: frank.token, method: "POST" });
    const next = recordEvent(odoo.addTask({ name: "Second" }).id);
    expectProblem(
      await postWebhook(connection.id, next, { "x-hub-signature-256": sign(connection.webhookSecret, next) }),
      401,
      "unauthenticated",
    );
    const fresh = await postWebhook(connection.id, next, { "x-hub-signature-256": sign(rotated.body.webhookSecret, next) });
    expect(fresh.body.run.status).toBe("succeeded");
  });
});
