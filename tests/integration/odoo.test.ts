import { createHmac } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { erpModuleListOutput, erpStatusOutput, installModuleOutput } from "../../lib/connectors/odoo/schema";
import { createdConnectionOutput, runOutput } from "../../lib/connectors/schema";
import { moduleOverrides } from "../../lib/modules/registry";
import { ADMIN_EMAIL, createTask, expectProblem, expectShape, registerUser, startTestServer, type TestServer } from "./harness";
import { ODOO_ADMIN, ODOO_CLERK, ODOO_DATABASE, startOdooServer, type OdooServer, type OdooUser } from "./odoo-server";

/** The local system listens on 127.0.0.1: the deployment setting that lets connectors reach that one address. */
const SYSTEM_ON_LOOPBACK = { ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1" };

/*
 * The `erp` connector (lib/connectors/odoo) against a local Odoo (odoo-server.ts) speaking JSON-RPC (Odoo 17) and
 * JSON-2 (Odoo 19): status, modules, install, task import/export and the signed webhook.
 */

let server: TestServer;
let odoo: OdooServer;
type User = Awaited<ReturnType<typeof registerUser>>;
let admin: User;

const api = (path: string, options?: Parameters<TestServer["request"]>[1]) => server.request(`/api/v1${path}`, options);

async function connect(user: User, options: { odooUser?: OdooUser; settings?: Record<string, unknown>; baseUrl?: string } = {}) {
  const odooUser = options.odooUser ?? ODOO_ADMIN;
  const response = await api("/connectors", {
    token: user.token,
    json: {
      kind: "erp",
      name: "Odoo",
      baseUrl: options.baseUrl ?? odoo.url,
      credentials: { login: odooUser.login, apiKey: odooUser.key },
      settings: { database: ODOO_DATABASE, ...options.settings },
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdConnectionOutput, response.body);
}

async function status(user: User, connectionId?: string) {
  const response = await api(`/erp/status${connectionId ? `?connectionId=${connectionId}` : ""}`, { token: user.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(erpStatusOutput, response.body);
}

async function run(user: User, id: string, operation: "import" | "export") {
  const response = await api(`/connectors/${id}/${operation}`, { token: user.token, method: "POST" });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(runOutput, response.body);
}

interface TaskRow {
  id: string;
  title: string;
  description: string;
  status: string;
  priority: number;
  due_at: Date | string | null;
}

async function tasksOf(user: User): Promise<TaskRow[]> {
  return server.sql<TaskRow>(
    "select id, title, description, status, priority, due_at from tasks where owner_id = $1 order by title",
    [user.user.id],
  );
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

function sign(secret: string, body: string): string {
  return `sha256=${createHmac("sha256", secret).update(body).digest("hex")}`;
}

beforeAll(async () => {
  odoo = await startOdooServer();
  server = await startTestServer({ ...SYSTEM_ON_LOOPBACK, CONNECTOR_TIMEOUT_MS: "500", ADMIN_EMAILS: ADMIN_EMAIL });
  // The local Odoo stands in for a public host.
  admin = await registerUser(server, { email: ADMIN_EMAIL });
});

afterAll(async () => {
  await server.close();
  await odoo.close();
});

beforeEach(() => odoo.reset(17));

afterEach(() => {
  moduleOverrides().delete("erp");
});

describe("GET /erp/status", () => {
  test("Odoo 17: JSON-RPC, version read without signing in, then authenticate", async () => {
    const user = await registerUser(server);
    const connection = await connect(user);
    const answer = await status(user);
    expect(answer).toMatchObject({
      connectionId: connection.id,
      reachable: true,
      authenticated: true,
      version: "17.0",
      apiFlavour: "jsonrpc",
      error: null,
    });
    expect(odoo.calls).toEqual(["/web/webclient/version_info", "/jsonrpc"]);
    expect((await api(`/connectors/${connection.id}`, { token: user.token })).body.status).toBe("ok");
  });

  test("Odoo 19: `auto` uses JSON-2 with the bearer key; `jsonrpc` can still be forced", async () => {
    odoo.reset(19);
    const user = await registerUser(server);
    const auto = await connect(user);
    expect(await status(user, auto.id)).toMatchObject({ authenticated: true, version: "19.0", apiFlavour: "json2" });
    expect(odoo.calls).toContain("/json/2/res.users/context_get");
    expect(odoo.calls).not.toContain("/jsonrpc");

    const forced = await connect(user, { settings: { apiFlavour: "jsonrpc" } });
    odoo.calls = [];
    expect(await status(user, forced.id)).toMatchObject({ authenticated: true, apiFlavour: "jsonrpc" });
    expect(odoo.calls).toContain("/jsonrpc");
  });

  test("wrong key: reachable but not authenticated, in both flavours; the connection shows the error", async () => {
    const user = await registerUser(server);
    const wrong = { ...ODOO_ADMIN, key: "not-the-key" };
    const rpc = await connect(user, { odooUser: wrong });
    const answer = await status(user, rpc.id);
    expect(answer).toMatchObject({ reachable: true, authenticated: false, apiFlavour: "jsonrpc" });
    expect(answer.error).toMatch(/AccessDenied/);
    expect((await api(`/connectors/${rpc.id}`, { token: user.token })).body).toMatchObject({
      status: "error",
      lastError: answer.error,
    });

    odoo.reset(19);
    const json2 = await connect(user, { odooUser: wrong });
    const answer19 = await status(user, json2.id);
    expect(answer19).toMatchObject({ reachable: true, authenticated: false, apiFlavour: "json2" });
    expect(answer19.error).toMatch(/Unauthorized: Invalid apikey/);
  });

  test("JSON-2 forced on Odoo 17 says the API is missing", async () => {
    const user = await registerUser(server);
    await connect(user, { settings: { apiFlavour: "json2" } });
    const answer = await status(user);
    expect(answer).toMatchObject({ reachable: true, authenticated: false, apiFlavour: "json2" });
    expect(answer.error).toMatch(/no JSON-2 API/);
  });

  test("unreachable and too slow: not reachable, with the reason", async () => {
    const user = await registerUser(server);
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const gone = await connect(user, { baseUrl: `http://127.0.0.1:${port}` });
    const unreachable = await status(user, gone.id);
    expect(unreachable).toMatchObject({ reachable: false, authenticated: false, apiFlavour: null });
    expect(unreachable.error).toMatch(/could not be reached/);

    const slow = await connect(user);
    odoo.delayMs = 1500;
    const timedOut = await status(user, slow.id);
    expect(timedOut).toMatchObject({ reachable: false, authenticated: false });
    expect(timedOut.error).toMatch(/did not answer within 500 ms/);
  });

  test("several connections: 400 naming connectionId; another user's connection: 404", async () => {
    const user = await registerUser(server);
    const stranger = await registerUser(server);
    const mine = await connect(user);
    await connect(user);
    expectProblem(await api("/erp/status", { token: user.token }), 400, "validation_failed");
    expectProblem(await api(`/erp/status?connectionId=${mine.id}`, { token: stranger.token }), 404, "not_found");
    expectProblem(await api("/erp/status?connectionId=nope", { token: user.token }), 400, "validation_failed");
  });
});

describe("GET /erp/modules", () => {
  test("applications by default, every module with all=true, filtered by state", async () => {
    const user = await registerUser(server);
    await connect(user);
    const apps = expectShape(erpModuleListOutput, (await api("/erp/modules", { token: user.token })).body);
    expect(apps.items.map((module) => module.name)).toEqual(["crm", "mail", "project"]);
    expect(apps.items.find((module) => module.name === "project")).toEqual({
      name: "project",
      shortdesc: "Project",
      state: "installed",
      latestVersion: "17.0.1.3",
      installedVersion: "17.0.1.3",
    });
    expect(apps.items.find((module) => module.name === "crm")?.installedVersion).toBeNull();

    const all = expectShape(erpModuleListOutput, (await api("/erp/modules?all=true", { token: user.token })).body);
    expect(all.items.map((module) => module.name)).toEqual(["base", "crm", "l10n_cz", "mail", "project"]);
    const uninstalled = expectShape(
      erpModuleListOutput,
      (await api("/erp/modules?all=true&state=uninstalled", { token: user.token })).body,
    );
    expect(uninstalled.items.map((module) => module.name)).toEqual(["crm", "l10n_cz", "mail"]);

    const bad = expectProblem(await api("/erp/modules?state=broken", { token: user.token }), 400, "validation_failed");
    expect(bad.errors?.[0]?.pointer).toBe("/state");
  });
});

describe("POST /erp/modules/install", () => {
  const install = (user: User, name: string) => api("/erp/modules/install", { token: user.token, json: { name } });

  test("a Spolu administrator installs a module and its dependencies; again is a no-op", async () => {
    await connect(admin);
    odoo.installDelayMs = 800; // longer than CONNECTOR_TIMEOUT_MS: the install has its own, longer limit
    const first = await install(admin, "crm");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(expectShape(installModuleOutput, first.body)).toEqual({
      name: "crm",
      previousState: "uninstalled",
      state: "installed",
      changed: true,
    });
    expect(odoo.modules.find((module) => module.name === "mail")?.state).toBe("installed");

    odoo.calls = [];
    const again = await install(admin, "crm");
    expect(again.body).toEqual({ name: "crm", previousState: "installed", state: "installed", changed: false });
    expect(odoo.calls).not.toContain("ir.module.module.button_immediate_install");

    expectProblem(await install(admin, "no_such_module"), 404, "not_found");
    expectProblem(await install(admin, "Bad Name!"), 400, "validation_failed");
    await api(`/connectors/${(await api("/connectors", { token: admin.token })).body.items[0].id}`, {
      token: admin.token,
      method: "DELETE",
    });
  });

  test("not a Spolu administrator: 403, Odoo is not called", async () => {
    const user = await registerUser(server);
    await connect(user);
    odoo.calls = [];
    expectProblem(await install(user, "crm"), 403, "forbidden");
    expect(odoo.calls).toEqual([]);
  });

  test("Odoo's own refusals: a non-admin Odoo user (AccessDenied) 403, a cron holding the lock 409, on JSON-2 too", async () => {
    const connection = await connect(admin, { odooUser: ODOO_CLERK });
    const denied = expectProblem(await install(admin, "crm"), 403, "forbidden");
    expect(denied.detail).toMatch(/AccessDenied: Access Denied/);
    await api(`/connectors/${connection.id}`, { token: admin.token, method: "DELETE" });

    odoo.reset(19);
    const json2 = await connect(admin);
    odoo.cronLock = true;
    const locked = expectProblem(await install(admin, "crm"), 409, "conflict");
    expect(locked.detail).toMatch(/currently processing a scheduled action/);
    expect(odoo.modules.find((module) => module.name === "crm")?.state).toBe("uninstalled");
    odoo.cronLock = false;
    expect((await install(admin, "crm")).body).toMatchObject({ state: "installed", changed: true });
    expect(odoo.calls).toContain("/json/2/ir.module.module/button_immediate_install");
    await api(`/connectors/${json2.id}`, { token: admin.token, method: "DELETE" });
  });
});

describe("import", () => {
  test("tasks come in once: a second run creates nothing, a changed record updates only what changed", async () => {
    const user = await registerUser(server);
    const connection = await connect(user);
    odoo.addTask({
      name: "Write offer",
      description: "<p>For <b>ACME</b> &amp; co</p><p>Second line</p>",
      date_deadline: "2026-05-01 09:30:00",
      priority: "1",
    });
    const finished = odoo.addTask({ name: "Call supplier", state: "1_done" });
    odoo.addTask({ name: "Someone else's", user_ids: [ODOO_CLERK.id] });

    const first = await run(user, connection.id, "import");
    expect(first).toMatchObject({ status: "succeeded", counts: { created: 2, updated: 0, unchanged: 0, failed: 0 } });
    const tasks = await tasksOf(user);
    expect(tasks.map((task) => [task.title, task.description, task.status, task.priority, iso(task.due_at)])).toEqual([
      ["Call supplier", "", "done", 1, null],
      ["Write offer", "For ACME & co\nSecond line", "todo", 2, "2026-05-01T09:30:00.000Z"],
    ]);

    const second = await run(user, connection.id, "import");
    expect(second).toMatchObject({ status: "succeeded", counts: { created: 0, updated: 0, unchanged: 2 } });
    expect(await tasksOf(user)).toHaveLength(2);

    // Renamed in Odoo and reopened; the local description edit stays (Odoo did not change it).
    Object.assign(odoo.tasks.get(finished.id)!, { name: "Call supplier again", state: "01_in_progress" });
    const local = tasks.find((task) => task.title === "Call supplier")!;
    await api(`/tasks/${local.id}`, { token: user.token, method: "PATCH", json: { description: "Ask about prices" } });
    const third = await run(user, connection.id, "import");
    expect(third).toMatchObject({ counts: { created: 0, updated: 1, unchanged: 1 } });
    const updated = (await tasksOf(user)).find((task) => task.id === local.id)!;
    expect(updated).toMatchObject({ title: "Call supplier again", status: "todo", description: "Ask about prices" });
  });

  test("one record with an invalid deadline fails alone: the run is partial", async () => {
    const user = await registerUser(server);
    const connection = await connect(user, { settings: { projectId: 5 } });
    odoo.addTask({ name: "Fine" });
    const broken = odoo.addTask({ name: "Broken", date_deadline: "2026-02-30 10:00:00" });
    odoo.addTask({ name: "Other project", project_id: 1 });
    const result = await run(user, connection.id, "import");
    expect(result).toMatchObject({ status: "partial", counts: { created: 1, failed: 1 } });
    expect(result.items[0]).toMatchObject({ externalId: String(broken.id), action: "failed" });
    expect(result.items[0]!.error).toMatch(/date_deadline "2026-02-30 10:00:00" is not a date/);
    expect((await tasksOf(user)).map((task) => task.title)).toEqual(["Fine"]);
  });

  test("Odoo 19 over JSON-2, and a wrong key fails the run without retrying", async () => {
    odoo.reset(19);
    const user = await registerUser(server);
    const connection = await connect(user);
    odoo.addTask({ name: "From nineteen", date_deadline: "2026-07-01 08:00:00" });
    expect(await run(user, connection.id, "import")).toMatchObject({ status: "succeeded", counts: { created: 1 } });
    expect(odoo.calls).toContain("/json/2/project.task/search_read");
    expect(odoo.calls).toContain("/json/2/res.users/search_read");

    const wrong = await connect(user, { odooUser: { ...ODOO_ADMIN, key: "expired" } });
    const failed = await run(user, wrong.id, "import");
    expect(failed).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(failed.error).toMatch(/Invalid apikey/);
  });

  test("Odoo answering 503 fails the run for a retry", async () => {
    const user = await registerUser(server);
    const connection = await connect(user);
    odoo.down = true;
    const failed = await run(user, connection.id, "import");
    expect(failed.status).toBe("failed");
    expect(failed.nextAttemptAt).not.toBeNull();
  });
});

describe("export", () => {
  test("tasks tagged odoo are created in the project once, then only their changes are written", async () => {
    const user = await registerUser(server);
    const connection = await connect(user, { settings: { projectId: 5 } });
    const tagged = await createTask(server, user.token, {
      title: "Prepare invoice",
      tags: ["odoo"],
      dueAt: "2026-06-01T10:00:00Z",
      priority: "urgent",
      description: "Two lines\n<with markup>",
    });
    await createTask(server, user.token, { title: "Private", tags: ["home"] });

    const first = await run(user, connection.id, "export");
    expect(first).toMatchObject({ status: "succeeded", counts: { created: 1 } });
    const created = [...odoo.tasks.values()];
    expect(created).toHaveLength(1);
    expect(created[0]).toMatchObject({
      name: "Prepare invoice",
      project_id: 5,
      user_ids: [ODOO_ADMIN.id],
      date_deadline: "2026-06-01 10:00:00",
      priority: "1",
      state: "01_in_progress",
      description: "<p>Two lines</p><p>&lt;with markup&gt;</p>",
    });

    const second = await run(user, connection.id, "export");
    expect(second).toMatchObject({ counts: { created: 0, updated: 0, unchanged: 1 } });
    expect(odoo.tasks.size).toBe(1);

    odoo.calls = [];
    await api(`/tasks/${tagged.id}`, {
      token: user.token,
      method: "PATCH",
      json: { title: "Prepare the invoice", status: "done" },
    });
    expect(await run(user, connection.id, "export")).toMatchObject({ counts: { updated: 1 } });
    expect(created[0]).toMatchObject({
      name: "Prepare the invoice",
      state: "1_done",
      description: "<p>Two lines</p><p>&lt;with markup&gt;</p>",
    });
    expect(odoo.calls.filter((call) => call === "project.task.write")).toHaveLength(1);

    // Importing what was exported changes nothing.
    expect(await run(user, connection.id, "import")).toMatchObject({ counts: { created: 0, updated: 0, unchanged: 1 } });
    expect(await tasksOf(user)).toHaveLength(2);
  });

  test("an Odoo record deleted meanwhile fails that item only", async () => {
    const user = await registerUser(server);
    const connection = await connect(user);
    const gone = odoo.addTask({ name: "Will vanish" });
    const stays = odoo.addTask({ name: "Stays" });
    await run(user, connection.id, "import");
    for (const task of await tasksOf(user))
      await api(`/tasks/${task.id}`, { token: user.token, method: "PATCH", json: { title: `${task.title}!` } });
    odoo.tasks.delete(gone.id);
    const result = await run(user, connection.id, "export");
    expect(result).toMatchObject({ status: "partial", counts: { updated: 1, failed: 1 } });
    expect(result.items[0]!.error).toMatch(/MissingError: Record does not exist/);
    expect(odoo.tasks.get(stays.id)?.name).toBe("Stays!");
  });
});

describe("POST /connectors/{id}/webhook", () => {
  test("a signed Odoo event imports the records named; unsigned or wrongly signed: 401, nothing read", async () => {
    const user = await registerUser(server);
    const connection = await connect(user);
    const task = odoo.addTask({ name: "Pushed by Odoo" });
    const body = JSON.stringify({ _model: "project.task", _id: task.id, event: "on_create" });

    odoo.calls = [];
    const unsigned = await api(`/connectors/${connection.id}/webhook`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json" },
    });
    expectProblem(unsigned, 401, "unauthenticated");
    const forged = await api(`/connectors/${connection.id}/webhook`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-hub-signature-256": sign("whsec_wrong", body) },
    });
    expectProblem(forged, 401, "unauthenticated");
    expect(odoo.calls).toEqual([]);

    const signed = await api(`/connectors/${connection.id}/webhook`, {
      method: "POST",
      body,
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(connection.webhookSecret, body) },
    });
    expect(signed.status, JSON.stringify(signed.body)).toBe(200);
    expect(signed.body.run).toMatchObject({ operation: "webhook", status: "succeeded", counts: { created: 1 } });
    expect((await tasksOf(user)).map((row) => row.title)).toEqual(["Pushed by Odoo"]);

    task.name = "Pushed again";
    const many = JSON.stringify({ model: "project.task", ids: [task.id, 99999] });
    const second = await api(`/connectors/${connection.id}/webhook`, {
      method: "POST",
      body: many,
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(connection.webhookSecret, many) },
    });
    expect(second.body.run).toMatchObject({ status: "succeeded", counts: { updated: 1, skipped: 1 } });
    expect((await tasksOf(user)).map((row) => row.title)).toEqual(["Pushed again"]);

    const other = JSON.stringify({ model: "res.partner", id: 3 });
    const refused = await api(`/connectors/${connection.id}/webhook`, {
      method: "POST",
      body: other,
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(connection.webhookSecret, other) },
    });
    expect(refused.body.run).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(refused.body.run.error).toMatch(/Only project.task/);
  });
});

describe("the erp module switched off", () => {
  test("its routes answer 404 module_disabled", async () => {
    const user = await registerUser(server);
    await connect(user);
    moduleOverrides().set("erp", false);
    expectProblem(await api("/erp/status", { token: user.token }), 404, "module_disabled");
    expectProblem(await api("/erp/modules", { token: user.token }), 404, "module_disabled");
    expectProblem(await api("/erp/modules/install", { token: admin.token, json: { name: "crm" } }), 404, "module_disabled");
  });
});
