import http from "node:http";
import type { AddressInfo } from "node:net";
import { XMLBuilder, XMLParser } from "fast-xml-parser";
import { decodeWindows1250, encodeWindows1250 } from "../../lib/connectors/pohoda/windows-1250";
import { NAMESPACES } from "../../lib/connectors/pohoda/xml";

/*
 * A stand-in POHODA mServer for the tests, strict the way the real one is (protocols.md B3):
 * - XML only by POST /xml with Content-Type text/xml and `STW-Authorization: Basic base64(user:password)`
 *   (401 otherwise); GET /status answers the company and idle/busy;
 * - the body must be Windows-1250 (declared so, and not UTF-8), a `dat:dataPack` version 2.0 with the data
 *   namespace; an `ico` that is not the company's → the whole responsePack is `error`;
 * - each dataPackItem is judged alone: an issued invoice without a partner, with a bad rateVAT or without items is
 *   an item `error` with errno, note (Czech, so the answer's Windows-1250 is tested) and XPath; others are `ok`,
 *   get a document id and a number, and are kept (`documents`);
 * - `lst:listInvoiceRequest` (issued invoices, version 2.0, the list namespace declared) lists every document kept;
 * - requests are processed one at a time (a queue), like POHODA; `delayMs` holds each answer back.
 * The errno values are this stand-in's own.
 */

export interface PohodaDocument {
  id: number;
  number: string;
  text: string;
  company: string | null;
  ico?: string | null;
  date?: string;
  dateTax?: string;
  dateDue?: string;
  items: { text: string; rateVAT: string; unitPrice: string; quantity?: string; unit?: string }[];
}

export interface PohodaServer {
  url: string;
  company: { name: string; ico: string };
  user: { name: string; password: string };
  documents: PohodaDocument[];
  /** Raw bodies received on POST /xml. */
  requests: Buffer[];
  delayMs: number;
  /** The most requests that were being processed at the same time. */
  maxConcurrent: number;
  close(): Promise<void>;
}

const RATES = new Set(["none", "low", "high", "third"]);
const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", suppressEmptyNode: true });
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  parseTagValue: false,
  isArray: (name) => name === "dat:dataPackItem" || name === "inv:invoiceItem",
});

type Node = Record<string, any>;

function xmlAnswer(root: object): Buffer {
  return encodeWindows1250(`<?xml version="1.0" encoding="Windows-1250"?>\n${builder.build(root)}`);
}

export async function startPohodaServer(): Promise<PohodaServer> {
  let queue = Promise.resolve();
  let concurrent = 0;
  const state: Omit<PohodaServer, "url" | "close"> = {
    company: { name: "Účetní firma s.r.o.", ico: "12345678" },
    user: { name: "admin", password: "tajné heslo" },
    documents: [],
    requests: [],
    delayMs: 0,
    maxConcurrent: 0,
  };

  function responsePack(packId: string, packState: "ok" | "error", items: object[], note?: string) {
    return {
      "rsp:responsePack": {
        "@_xmlns:rsp": NAMESPACES.rsp,
        "@_xmlns:rdc": NAMESPACES.rdc,
        "@_xmlns:inv": NAMESPACES.inv,
        "@_xmlns:lst": NAMESPACES.lst,
        "@_xmlns:typ": NAMESPACES.typ,
        "@_version": "2.0",
        "@_id": packId,
        "@_state": packState,
        "@_programVersion": "14000.5 (12.1.2026)",
        "@_ico": state.company.ico,
        ...(note && { "@_note": note }),
        ...(items.length && { "rsp:responsePackItem": items }),
      },
    };
  }

  /** `lst:listInvoiceRequest`: every document of the asked type (only issued invoices are kept here). */
  function list(item: Node, request: Node, declared: boolean): object {
    const id = item["@_id"];
    if (
      !declared ||
      request["@_version"] !== "2.0" ||
      request["@_invoiceType"] !== "issuedInvoice" ||
      !("lst:requestInvoice" in request)
    ) {
      return { "@_id": id, "@_state": "error", "@_note": "Neplatný požadavek na seznam faktur" };
    }
    const invoices = state.documents.map((document) => ({
      "@_version": "2.0",
      "inv:invoiceHeader": {
        "inv:id": document.id,
        "inv:invoiceType": "issuedInvoice",
        "inv:number": { "typ:id": 1, "typ:ids": document.number, "typ:numberRequested": document.number },
        "inv:date": document.date,
        "inv:dateTax": document.dateTax,
        "inv:dateDue": document.dateDue,
        "inv:text": document.text,
        ...(document.company && {
          "inv:partnerIdentity": {
            "typ:address": { "typ:company": document.company, ...(document.ico && { "typ:ico": document.ico }) },
          },
        }),
      },
      "inv:invoiceDetail": {
        "inv:invoiceItem": document.items.map((line) => ({
          "inv:text": line.text,
          "inv:quantity": line.quantity ?? "1",
          ...(line.unit && { "inv:unit": line.unit }),
          "inv:rateVAT": line.rateVAT,
          "inv:homeCurrency": { "typ:unitPrice": line.unitPrice },
        })),
      },
    }));
    return {
      "@_id": id,
      "@_state": "ok",
      "lst:listInvoice": { "@_version": "2.0", "@_state": "ok", ...(invoices.length && { "lst:invoice": invoices }) },
    };
  }

  function judge(item: Node, index: number, pack: Node): object {
    const id = item["@_id"];
    if (item["lst:listInvoiceRequest"] !== undefined)
      return list(item, item["lst:listInvoiceRequest"] as Node, pack["@_xmlns:lst"] === NAMESPACES.lst);
    const invoice = item["inv:invoice"] as Node | undefined;
    const path = `/dat:dataPack/dat:dataPackItem[${index + 1}]/inv:invoice`;
    const problems: { errno: number; note: string; xpath: string }[] = [];
    if (item["@_version"] !== "2.0")
      problems.push({ errno: 101, note: "Nepodporovaná verze položky", xpath: `/dat:dataPack/dat:dataPackItem[${index + 1}]` });
    if (!invoice)
      problems.push({ errno: 102, note: "Položka neobsahuje doklad", xpath: `/dat:dataPack/dat:dataPackItem[${index + 1}]` });
    const header = (invoice?.["inv:invoiceHeader"] ?? {}) as Node;
    if (invoice && header["inv:invoiceType"] !== "issuedInvoice")
      problems.push({ errno: 103, note: "Neplatný typ faktury", xpath: `${path}/inv:invoiceHeader/inv:invoiceType` });
    const company = header["inv:partnerIdentity"]?.["typ:address"]?.["typ:company"];
    if (invoice && !company)
      problems.push({
        errno: 110,
        note: "Chybí odběratel (partnerIdentity)",
        xpath: `${path}/inv:invoiceHeader/inv:partnerIdentity`,
      });
    const lines = (invoice?.["inv:invoiceDetail"]?.["inv:invoiceItem"] ?? []) as Node[];
    if (invoice && lines.length === 0)
      problems.push({ errno: 111, note: "Doklad nemá položky", xpath: `${path}/inv:invoiceDetail` });
    lines.forEach((line, at) => {
      if (!RATES.has(line["inv:rateVAT"])) {
        problems.push({
          errno: 120,
          note: `Neplatná sazba DPH „${line["inv:rateVAT"]}“`,
          xpath: `${path}/inv:invoiceDetail/inv:invoiceItem[${at + 1}]/inv:rateVAT`,
        });
      }
    });
    if (problems.length) {
      const details = problems.map((problem) => ({
        "rdc:state": "error",
        "rdc:errno": problem.errno,
        "rdc:note": problem.note,
        "rdc:XPath": problem.xpath,
      }));
      return {
        "@_id": id,
        "@_state": "error",
        "@_note": problems[0]!.note,
        "inv:invoiceResponse": { "@_version": "2.0", "@_state": "error", "rdc:importDetails": { "rdc:detail": details } },
      };
    }
    const documentId = 400 + state.documents.length + 1;
    const number = String(
      header["inv:number"]?.["typ:numberRequested"] ?? `26${String(state.documents.length + 1).padStart(4, "0")}`,
    );
    state.documents.push({
      id: documentId,
      number,
      text: String(header["inv:text"] ?? ""),
      company: company ?? null,
      ico: header["inv:partnerIdentity"]?.["typ:address"]?.["typ:ico"] ?? null,
      date: header["inv:date"],
      dateTax: header["inv:dateTax"],
      dateDue: header["inv:dateDue"],
      items: lines.map((line) => ({
        text: line["inv:text"],
        rateVAT: line["inv:rateVAT"],
        unitPrice: line["inv:homeCurrency"]?.["typ:unitPrice"],
        quantity: line["inv:quantity"],
        unit: line["inv:unit"],
      })),
    });
    return {
      "@_id": id,
      "@_state": "ok",
      "inv:invoiceResponse": {
        "@_version": "2.0",
        "@_state": "ok",
        "rdc:producedDetails": { "rdc:id": documentId, "rdc:number": number, "rdc:actionType": "add" },
      },
    };
  }

  function process(body: Buffer): { status: number; body: Buffer | string } {
    const text = decodeWindows1250(body);
    if (!/^<\?xml version="1.0" encoding="Windows-1250"\?>/i.test(text))
      return { status: 400, body: "XML must be declared Windows-1250" };
    let document: Node;
    try {
      document = parser.parse(text, true) as Node;
    } catch {
      return { status: 400, body: "Malformed XML" };
    }
    const pack = document["dat:dataPack"] as Node | undefined;
    if (!pack || pack["@_xmlns:dat"] !== NAMESPACES.dat || pack["@_version"] !== "2.0" || !pack["@_id"]) {
      return { status: 200, body: xmlAnswer(responsePack(String(pack?.["@_id"] ?? ""), "error", [], "Neplatný dataPack")) };
    }
    if (pack["@_ico"] !== state.company.ico) {
      return {
        status: 200,
        body: xmlAnswer(responsePack(pack["@_id"], "error", [], `IČ ${pack["@_ico"]} nesouhlasí s otevřenou účetní jednotkou`)),
      };
    }
    const items = ((pack["dat:dataPackItem"] ?? []) as Node[]).map((item, index) => judge(item, index, pack));
    return { status: 200, body: xmlAnswer(responsePack(pack["@_id"], "ok", items)) };
  }

  const expectedAuth = () => `Basic ${Buffer.from(`${state.user.name}:${state.user.password}`, "utf8").toString("base64")}`;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks);
      const send = (status: number, answer: Buffer | string, type = "text/xml; charset=Windows-1250") => {
        response.writeHead(status, { "content-type": type });
        response.end(answer);
      };
      if (request.method === "GET" && request.url === "/status") {
        return send(
          200,
          xmlAnswer({
            mServer: { name: "Spolu test mServer", company: state.company.name, status: concurrent ? "busy" : "idle" },
          }),
        );
      }
      if (request.url !== "/xml") return send(404, "Not found", "text/plain");
      if (request.method !== "POST") return send(405, "XML only by POST", "text/plain");
      if (request.headers["stw-authorization"] !== expectedAuth()) return send(401, "Unauthorized", "text/plain");
      if (!/^text\/xml\b/i.test(request.headers["content-type"] ?? ""))
        return send(415, "Content-Type must be text/xml", "text/plain");
      // Serialized, as POHODA processes requests.
      queue = queue.then(async () => {
        concurrent += 1;
        state.maxConcurrent = Math.max(state.maxConcurrent, concurrent);
        state.requests.push(body);
        if (state.delayMs) await new Promise((resolve) => setTimeout(resolve, state.delayMs));
        concurrent -= 1;
        // A client that gave up before the answer: this stand-in then imports nothing (the real one may have).
        if (response.destroyed || request.socket.destroyed) return;
        const answer = process(body);
        send(answer.status, answer.body, answer.status === 200 ? undefined : "text/plain");
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(state, {
    url,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
