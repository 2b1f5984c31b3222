import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from "vitest";
import { invoiceListOutput, invoiceOutput } from "../../lib/accounting/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { createdConnectionOutput, runListOutput, runOutput, statusOutput } from "../../lib/connectors/schema";
import { RETRY_DELAYS_MS, runConnectorRetries } from "../../lib/connectors/service";
import { decodeWindows1250 } from "../../lib/connectors/pohoda/windows-1250";
import { moduleOverrides } from "../../lib/modules/registry";
import { expectProblem, expectShape, registerUser, startTestServer, type RequestOptions, type TestServer } from "./harness";
import { startPohodaServer, type PohodaServer } from "./pohoda-server";

/** The local system listens on 127.0.0.1: the deployment setting that lets connectors reach that one address. */
const SYSTEM_ON_LOOPBACK = { ALLOW_PRIVATE_NETWORK_TARGETS: "127.0.0.1" };

/*
 * The POHODA connector (lib/connectors/pohoda) and the invoices it exports (lib/accounting), against a local
 * mServer (pohoda-server.ts) that speaks POHODA's XML in Windows-1250 and judges every item on its own.
 */

type User = Awaited<ReturnType<typeof registerUser>>;

let server: TestServer;
let pohoda: PohodaServer;

const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

const TEXT = "Příliš žluťoučký kůň úpěl ďábelské ódy";

function invoiceBody(fields: Record<string, unknown> = {}) {
  return {
    partner: { company: "Žluťoučká s.r.o.", ico: "87654321" },
    issueDate: "2026-01-14",
    dueDate: "2026-01-28",
    text: TEXT,
    items: [{ text: "Konzultace", quantity: 2, unit: "h", unitPrice: 500, rateVat: "high" }],
    ...fields,
  };
}

async function createInvoice(user: User, fields: Record<string, unknown> = {}) {
  const response = await api("/accounting/invoices", { token: user.token, json: invoiceBody(fields) });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(invoiceOutput, response.body);
}

async function connect(user: User, overrides: { credentials?: object; settings?: object } = {}) {
  const response = await api("/connectors", {
    token: user.token,
    json: {
      kind: "accounting",
      name: "POHODA",
      baseUrl: pohoda.url,
      credentials: overrides.credentials ?? { username: pohoda.user.name, password: pohoda.user.password },
      settings: overrides.settings ?? { ico: pohoda.company.ico },
    },
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdConnectionOutput, response.body);
}

async function exportNow(user: User, connectionId: string) {
  const response = await api(`/connectors/${connectionId}/export`, { token: user.token, method: "POST" });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(runOutput, response.body);
}

beforeAll(async () => {
  pohoda = await startPohodaServer();
  server = await startTestServer({ ...SYSTEM_ON_LOOPBACK, CONNECTOR_TIMEOUT_MS: "500" });
  // The local mServer stands in for a reachable host.
});

afterAll(async () => {
  await server?.close();
  await pohoda?.close();
});

beforeEach(() => {
  pohoda.delayMs = 0;
});

afterEach(() => {
  resetClock();
  moduleOverrides().delete("accounting");
});

describe("POHODA export", () => {
  test("Czech diacritics travel as Windows-1250 and arrive intact; POHODA's Czech notes are read back", async () => {
    const user = await registerUser(server);
    const invoice = await createInvoice(user, { number: "2600042" });
    const bad = await createInvoice(user, { partner: null, text: "Bez odběratele" });
    const connection = await connect(user);
    const before = pohoda.requests.length;

    const run = await exportNow(user, connection.id);
    expect(pohoda.requests.length).toBe(before + 1);
    const raw = pohoda.requests.at(-1)!;
    // ř is 0xF8 in Windows-1250 (UTF-8 would send C5 99); the declaration says so.
    expect(raw.includes(Buffer.from([0xf8]))).toBe(true);
    expect(raw.includes(Buffer.from("ř", "utf8"))).toBe(false);
    expect(decodeWindows1250(raw)).toMatch(/^<\?xml version="1.0" encoding="Windows-1250"\?>/);
    const document = pohoda.documents.find((each) => each.number === "2600042")!;
    expect(document).toMatchObject({
      text: TEXT,
      company: "Žluťoučká s.r.o.",
      items: [{ text: "Konzultace", rateVAT: "high", unitPrice: "500.00" }],
    });

    expect(run.items.find((item) => item.localId === invoice.id)).toMatchObject({
      action: "created",
      externalId: String(document.id),
    });
    // The note came back in Windows-1250 and is read as such.
    expect(run.items.find((item) => item.localId === bad.id)?.error).toMatch(
      /^POHODA refused it: errno 110: Chybí odběratel \(partnerIdentity\) \(\/dat:dataPack\/dat:dataPackItem\[\d\]\/inv:invoice\/inv:invoiceHeader\/inv:partnerIdentity\)$/,
    );
  });

  test("Hebrew and Cyrillic are transliterated, other characters outside Windows-1250 become ?", async () => {
    const user = await registerUser(server);
    await createInvoice(user, {
      number: "2600100",
      partner: { company: "Щербакова и партнёры", ico: null },
      text: "שלום Юлия 😀",
      items: [{ text: "Урок иврита", quantity: 1, unitPrice: 100, rateVat: "none" }],
    });
    const connection = await connect(user);
    expect((await exportNow(user, connection.id)).status).toBe("succeeded");
    expect(pohoda.documents.find((each) => each.number === "2600100")).toMatchObject({
      company: "Ščerbakova i partnjory",
      text: "šlwm Julija ?",
      items: [{ text: "Urok ivrita", rateVAT: "none" }],
    });
  });

  test("a batch of 3 with one item POHODA refuses: 2 linked, 1 failed, the run partial; a re-run sends only the failed one", async () => {
    const user = await registerUser(server);
    const first = await createInvoice(user, { number: "2600201" });
    const refused = await createInvoice(user, { number: "2600202", partner: null });
    const third = await createInvoice(user, { number: "2600203" });
    const connection = await connect(user);

    const run = await exportNow(user, connection.id);
    expect(run).toMatchObject({ status: "partial", counts: { created: 2, failed: 1 }, error: "1 of 3 items failed" });
    expect(run.items[0]).toMatchObject({ localId: refused.id, action: "failed" });
    expect(run.items[0]!.error).toContain("errno 110");
    const links = await server.sql<{ entity: string; external_id: string; local_id: string }>(
      "select entity, external_id, local_id from connector_links where connection_id = $1 order by entity, local_id = $2 desc",
      [connection.id, first.id],
    );
    const ids = (number: string) => String(pohoda.documents.find((each) => each.number === number)!.id);
    expect(links).toEqual([
      { entity: "invoice", external_id: ids("2600201"), local_id: first.id },
      { entity: "invoice", external_id: ids("2600203"), local_id: third.id },
      { entity: "invoice-number", external_id: "2600201", local_id: first.id },
      { entity: "invoice-number", external_id: "2600203", local_id: third.id },
    ]);

    const documents = pohoda.documents.length;
    const again = await exportNow(user, connection.id);
    expect(again).toMatchObject({ status: "partial", counts: { created: 0, unchanged: 2, failed: 1 } });
    expect(pohoda.documents.length).toBe(documents);
    const resent = decodeWindows1250(pohoda.requests.at(-1)!);
    expect(resent).toContain(refused.id);
    expect(resent).not.toContain(first.id);
    expect(resent).not.toContain(third.id);

    // Fixed: it goes through; nothing else is sent again.
    await api(`/accounting/invoices/${refused.id}`, {
      token: user.token,
      method: "PATCH",
      json: { partner: { company: "Doplněno a.s." } },
    });
    const fixed = await exportNow(user, connection.id);
    expect(fixed).toMatchObject({ status: "succeeded", counts: { created: 1, unchanged: 2 } });
    expect(pohoda.documents.filter((each) => each.number.startsWith("26002"))).toHaveLength(3);

    // Changed after the export: not sent again, reported.
    await api(`/accounting/invoices/${first.id}`, { token: user.token, method: "PATCH", json: { text: "Opraveno" } });
    const changed = await exportNow(user, connection.id);
    expect(changed).toMatchObject({ status: "succeeded", counts: { skipped: 1, unchanged: 2, created: 0 } });
    expect(changed.items.find((item) => item.localId === first.id)?.error).toMatch(
      /changed since it was exported .* not sent again/,
    );
    expect(pohoda.documents.filter((each) => each.number.startsWith("26002"))).toHaveLength(3);
  });

  test("an IČO that is not the open company's fails the run, nothing linked", async () => {
    const user = await registerUser(server);
    await createInvoice(user);
    const connection = await connect(user, { settings: { ico: "11111111" } });
    const documents = pohoda.documents.length;
    const run = await exportNow(user, connection.id);
    expect(run).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(run.error).toContain("IČ 11111111 nesouhlasí s otevřenou účetní jednotkou");
    expect(pohoda.documents.length).toBe(documents);
    expect(await server.sql("select 1 from connector_links where connection_id = $1", [connection.id])).toEqual([]);
  });

  test("a wrong password: the run fails as not authenticated (no retry), the status says so", async () => {
    const user = await registerUser(server);
    await createInvoice(user);
    const connection = await connect(user, { credentials: { username: pohoda.user.name, password: "wrong" } });
    const run = await exportNow(user, connection.id);
    expect(run).toMatchObject({ status: "failed", nextAttemptAt: null });
    expect(run.error).toContain("not authenticated");

    const status = await api(`/accounting/status?connectionId=${connection.id}`, { token: user.token });
    expect(status.status).toBe(200);
    expect(expectShape(statusOutput, status.body)).toMatchObject({
      reachable: true,
      authenticated: false,
      details: { company: pohoda.company.name },
    });
  });

  test("an mServer that does not answer in time: the run fails transient and its retry exports", async () => {
    const user = await registerUser(server);
    const invoice = await createInvoice(user, { number: "2600300" });
    const connection = await connect(user);
    pohoda.delayMs = 1500;
    const slow = await exportNow(user, connection.id);
    expect(slow.status).toBe("failed");
    expect(slow.error).toContain("did not answer within 500 ms");
    expect(slow.nextAttemptAt).not.toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 1200)); // the mServer's queue drains

    pohoda.delayMs = 0;
    advanceClock(RETRY_DELAYS_MS[0] + 1000);
    expect(await runConnectorRetries()).toBe(1);
    const runs = expectShape(runListOutput, (await api(`/connectors/${connection.id}/runs`, { token: user.token })).body);
    expect(runs.items[0]).toMatchObject({ id: slow.id, status: "succeeded", attempt: 2, counts: { created: 1 } });
    expect(runs.items[0]!.items[0]).toMatchObject({ localId: invoice.id, action: "created" });
    expect(pohoda.documents.filter((each) => each.number === "2600300")).toHaveLength(1);
  });

  test("requests reach the mServer one at a time", async () => {
    const users = await Promise.all([registerUser(server), registerUser(server)]);
    const connections: { id: string }[] = [];
    for (const user of users) {
      await createInvoice(user);
      connections.push(await connect(user));
    }
    pohoda.delayMs = 100;
    pohoda.maxConcurrent = 0;
    const runs = await Promise.all(users.map((user, index) => exportNow(user, connections[index]!.id)));
    expect(runs.map((run) => run.status)).toEqual(["succeeded", "succeeded"]);
    expect(pohoda.maxConcurrent).toBe(1);
  });
});

describe("GET /accounting/status", () => {
  test("the company and idle state, authenticated with the right IČO", async () => {
    const user = await registerUser(server);
    await connect(user);
    const response = await api("/accounting/status", { token: user.token });
    expect(expectShape(statusOutput, response.body)).toMatchObject({
      reachable: true,
      authenticated: true,
      details: { company: "Účetní firma s.r.o.", state: "idle" },
      error: null,
    });
  });

  test("404 without an accounting connection; 400 for settings without an 8-digit IČO", async () => {
    const user = await registerUser(server);
    expectProblem(await api("/accounting/status", { token: user.token }), 404, "not_found");
    const response = await api("/connectors", {
      token: user.token,
      json: {
        kind: "accounting",
        name: "POHODA",
        baseUrl: pohoda.url,
        credentials: { username: "a", password: "b" },
        settings: { ico: "1234" },
      },
    });
    expect(expectProblem(response, 400, "validation_failed").errors).toEqual([
      expect.objectContaining({ pointer: "/settings/ico" }),
    ]);
  });
});

describe("POHODA webhook", () => {
  test("invoice.paid with POHODA's number marks the exported invoice paid; an unknown number fails the item", async () => {
    const user = await registerUser(server);
    const invoice = await createInvoice(user, { number: "2600400" });
    const connection = await connect(user);
    await exportNow(user, connection.id);

    const post = (payload: object, delivery: string) => {
      const body = JSON.stringify(payload);
      return api(`/connectors/${connection.id}/webhook`, {
        method: "POST",
        body,
        headers: {
          "content-type": "application/json",
          "x-delivery-id": delivery,
          "x-hub-signature-256": `sha256=${createHmac("sha256", connection.webhookSecret).update(body).digest("hex")}`,
        },
      });
    };
    const paid = await post({ event: "invoice.paid", number: "2600400" }, "paid-1");
    expect(paid.body.run).toMatchObject({ status: "succeeded", counts: { updated: 1 } });
    const after = expectShape(invoiceOutput, (await api(`/accounting/invoices/${invoice.id}`, { token: user.token })).body);
    expect(after.paidAt).not.toBeNull();

    const unknown = await post({ event: "invoice.paid", number: "9999999" }, "paid-2");
    expect(unknown.body.run).toMatchObject({ status: "failed", error: "1 of 1 items failed" });
    expect(unknown.body.run.items[0].error).toBe("no exported invoice with POHODA number 9999999");
  });
});

describe("/accounting/invoices", () => {
  test("CRUD for the owner; another user's invoice is 404 everywhere", async () => {
    const owner = await registerUser(server);
    const stranger = await registerUser(server);
    const invoice = await createInvoice(owner, {
      items: [
        { text: "A", quantity: 1.5, unitPrice: 99.99, rateVat: "low" },
        { text: "B", quantity: 2, unitPrice: 10, rateVat: "none" },
      ],
    });
    expect(invoice).toMatchObject({ taxDate: "2026-01-14", currency: "CZK", totalWithoutVat: 169.99, paidAt: null });
    const list = expectShape(invoiceListOutput, (await api("/accounting/invoices", { token: owner.token })).body);
    expect(list.items.map((each) => each.id)).toEqual([invoice.id]);
    expect(expectShape(invoiceListOutput, (await api("/accounting/invoices", { token: stranger.token })).body).items).toEqual([]);

    expectProblem(await api(`/accounting/invoices/${invoice.id}`, { token: stranger.token }), 404, "not_found");
    expectProblem(
      await api(`/accounting/invoices/${invoice.id}`, { token: stranger.token, method: "PATCH", json: { text: "x" } }),
      404,
      "not_found",
    );
    expectProblem(await api(`/accounting/invoices/${invoice.id}`, { token: stranger.token, method: "DELETE" }), 404, "not_found");

    const patched = await api(`/accounting/invoices/${invoice.id}`, {
      token: owner.token,
      method: "PATCH",
      json: { items: [{ text: "C", quantity: 1, unitPrice: 5, rateVat: "third" }] },
    });
    expect(expectShape(invoiceOutput, patched.body)).toMatchObject({
      items: [{ text: "C", rateVat: "third" }],
      totalWithoutVat: 5,
    });
    expect((await api(`/accounting/invoices/${invoice.id}`, { token: owner.token, method: "DELETE" })).status).toBe(204);
    expectProblem(await api(`/accounting/invoices/${invoice.id}`, { token: owner.token }), 404, "not_found");
  });

  test("400 naming each bad field", async () => {
    const user = await registerUser(server);
    const response = await api("/accounting/invoices", {
      token: user.token,
      json: invoiceBody({
        dueDate: "2026-01-01",
        partner: { company: "X", ico: "12" },
        items: [{ text: "", quantity: 0, unitPrice: 1.234, rateVat: "bad" }],
      }),
    });
    const pointers = expectProblem(response, 400, "validation_failed")
      .errors!.map((error) => error.pointer)
      .sort();
    expect(pointers).toEqual(
      ["/items/0/quantity", "/items/0/rateVat", "/items/0/text", "/items/0/unitPrice", "/partner/ico"].sort(),
    );
    const late = await api("/accounting/invoices", { token: user.token, json: invoiceBody({ dueDate: "2026-01-01" }) });
    expect(expectProblem(late, 400, "validation_failed").errors).toEqual([expect.objectContaining({ pointer: "/dueDate" })]);
    const task = await api("/accounting/invoices", {
      token: user.token,
      json: invoiceBody({ taskId: "00000000-0000-4000-8000-000000000000" }),
    });
    expect(expectProblem(task, 400, "validation_failed").errors).toEqual([expect.objectContaining({ pointer: "/taskId" })]);
  });

  test("404 module_disabled while the accounting module is off", async () => {
    const user = await registerUser(server);
    moduleOverrides().set("accounting", false);
    expectProblem(await api("/accounting/invoices", { token: user.token }), 404, "module_disabled");
    expectProblem(await api("/accounting/status", { token: user.token }), 404, "module_disabled");
  });
});

describe("POHODA import", () => {
  test("issued invoices listed by POHODA become local invoices once; an unfit one fails alone; export sends none back", async () => {
    pohoda.documents.length = 0;
    pohoda.documents.push(
      {
        id: 900,
        number: "2609001",
        text: "Zadáno přímo v POHODĚ",
        company: "Odběratel ř s.r.o.",
        ico: "11223344",
        date: "2026-02-01",
        dateTax: "2026-02-01",
        dateDue: "2026-02-15",
        items: [{ text: "Licence", quantity: "3", unit: "ks", rateVAT: "high", unitPrice: "1200.00" }],
      },
      {
        id: 901,
        number: "2609002",
        text: "Bez položek",
        company: "X",
        date: "2026-02-02",
        dateTax: "2026-02-02",
        dateDue: "2026-02-16",
        items: [],
      },
    );
    const user = await registerUser(server);
    const connection = await connect(user);
    const run = await api(`/connectors/${connection.id}/import`, { token: user.token, method: "POST" });
    expect(run.status, JSON.stringify(run.body)).toBe(200);
    expect(expectShape(runOutput, run.body)).toMatchObject({ status: "partial", counts: { created: 1, failed: 1 } });
    expect(run.body.items[0]).toMatchObject({
      externalId: "901",
      action: "failed",
      error: "cannot be kept here: items must have at least 1 item",
    });
    // The request was a list request, in Windows-1250.
    expect(decodeWindows1250(pohoda.requests.at(-1)!)).toContain(
      '<lst:listInvoiceRequest version="2.0" invoiceType="issuedInvoice" invoiceVersion="2.0">',
    );

    const list = expectShape(invoiceListOutput, (await api("/accounting/invoices", { token: user.token })).body);
    expect(list.items).toEqual([
      expect.objectContaining({
        number: "2609001",
        partner: { company: "Odběratel ř s.r.o.", ico: "11223344" },
        issueDate: "2026-02-01",
        dueDate: "2026-02-15",
        text: "Zadáno přímo v POHODĚ",
        items: [{ text: "Licence", quantity: 3, unit: "ks", unitPrice: 1200, rateVat: "high" }],
        totalWithoutVat: 3600,
      }),
    ]);

    const again = expectShape(
      runOutput,
      (await api(`/connectors/${connection.id}/import`, { token: user.token, method: "POST" })).body,
    );
    expect(again).toMatchObject({ counts: { created: 0, unchanged: 1, failed: 1 } });
    expect(expectShape(invoiceListOutput, (await api("/accounting/invoices", { token: user.token })).body).items).toHaveLength(1);

    const requests = pohoda.requests.length;
    const exported = await exportNow(user, connection.id);
    expect(exported).toMatchObject({ status: "succeeded", counts: { unchanged: 1, created: 0 } });
    expect(pohoda.requests.length).toBe(requests);
    expect(pohoda.documents).toHaveLength(2);
  });
});
