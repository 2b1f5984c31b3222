import { XMLBuilder, XMLParser } from "fast-xml-parser";
import type { InvoiceOutput } from "../../accounting/schema";
import { lineTotal } from "../../accounting/amounts";

/*
 * POHODA's XML (Stormware, schema version 2): requests are a `dat:dataPack` of `dat:dataPackItem`s, each with an
 * id POHODA echoes back; answers a `rsp:responsePack` with a `rsp:responsePackItem` (state ok|warning|error) per
 * item. See ../shared/reference/protocols.md B3 and https://www.stormware.cz/pohoda/xml/.
 */

const SCHEMA = "http://www.stormware.cz/schema/version_2";
export const NAMESPACES = {
  dat: `${SCHEMA}/data.xsd`,
  inv: `${SCHEMA}/invoice.xsd`,
  typ: `${SCHEMA}/type.xsd`,
  rsp: `${SCHEMA}/response.xsd`,
  rdc: `${SCHEMA}/documentresponse.xsd`,
  lst: `${SCHEMA}/list.xsd`,
} as const;

const builder = new XMLBuilder({ ignoreAttributes: false, attributeNamePrefix: "@_", format: true, suppressEmptyNode: true });

const amount = (value: number) => value.toFixed(2);

/** One invoice as `inv:invoice` (issued invoice, CZK, POHODA computes VAT from its rate classes). */
function invoiceElement(invoice: InvoiceOutput) {
  const sums = { none: 0, low: 0, high: 0, third: 0 };
  for (const item of invoice.items)
    sums[item.rateVat] = Math.round((sums[item.rateVat] + lineTotal(item.quantity, item.unitPrice)) * 100) / 100;
  // The variable symbol is digits only (up to 10): the number's digits, when it has some.
  const symVar = invoice.number?.replace(/\D/g, "").slice(0, 10);
  return {
    "@_version": "2.0",
    "inv:invoiceHeader": {
      "inv:invoiceType": "issuedInvoice",
      ...(invoice.number && { "inv:number": { "typ:numberRequested": invoice.number } }),
      ...(symVar && { "inv:symVar": symVar }),
      "inv:date": invoice.issueDate,
      "inv:dateTax": invoice.taxDate,
      "inv:dateDue": invoice.dueDate,
      ...(invoice.text && { "inv:text": invoice.text }),
      ...(invoice.partner && {
        "inv:partnerIdentity": {
          "typ:address": {
            "typ:company": invoice.partner.company,
            ...(invoice.partner.ico && { "typ:ico": invoice.partner.ico }),
          },
        },
      }),
    },
    "inv:invoiceDetail": {
      "inv:invoiceItem": invoice.items.map((item) => ({
        "inv:text": item.text,
        "inv:quantity": String(item.quantity),
        ...(item.unit && { "inv:unit": item.unit }),
        "inv:rateVAT": item.rateVat,
        "inv:homeCurrency": { "typ:unitPrice": amount(item.unitPrice) },
      })),
    },
    "inv:invoiceSummary": {
      "inv:homeCurrency": {
        ...(sums.none && { "typ:priceNone": amount(sums.none) }),
        ...(sums.low && { "typ:priceLow": amount(sums.low) }),
        ...(sums.high && { "typ:priceHigh": amount(sums.high) }),
        ...(sums.third && { "typ:price3": amount(sums.third) }),
      },
    },
  };
}

/** A dataPack of invoices (none: an empty pack, which POHODA answers to check the IČO and the credentials). */
export function invoiceDataPack(pack: {
  id: string;
  ico: string;
  application: string;
  invoices: readonly InvoiceOutput[];
}): string {
  const root = {
    "dat:dataPack": {
      "@_xmlns:dat": NAMESPACES.dat,
      "@_xmlns:inv": NAMESPACES.inv,
      "@_xmlns:typ": NAMESPACES.typ,
      "@_version": "2.0",
      "@_id": pack.id,
      "@_ico": pack.ico,
      "@_application": pack.application,
      "@_note": "Spolu: issued invoices",
      ...(pack.invoices.length && {
        "dat:dataPackItem": pack.invoices.map((invoice) => ({
          "@_version": "2.0",
          "@_id": invoice.id,
          "inv:invoice": invoiceElement(invoice),
        })),
      }),
    },
  };
  return `<?xml version="1.0" encoding="Windows-1250"?>\n${builder.build(root)}`;
}

/** A dataPack asking for the issued invoices (`lst:listInvoiceRequest`), the whole agenda. */
export function listInvoicesDataPack(pack: { id: string; ico: string; application: string }): string {
  const root = {
    "dat:dataPack": {
      "@_xmlns:dat": NAMESPACES.dat,
      "@_xmlns:lst": NAMESPACES.lst,
      "@_version": "2.0",
      "@_id": pack.id,
      "@_ico": pack.ico,
      "@_application": pack.application,
      "@_note": "Spolu: list issued invoices",
      "dat:dataPackItem": {
        "@_version": "2.0",
        "@_id": "list-issued-invoices",
        "lst:listInvoiceRequest": {
          "@_version": "2.0",
          "@_invoiceType": "issuedInvoice",
          "@_invoiceVersion": "2.0",
          "lst:requestInvoice": "",
        },
      },
    },
  };
  return `<?xml version="1.0" encoding="Windows-1250"?>\n${listBuilder.build(root)}`;
}

// An empty element (`<lst:requestInvoice/>`: no filter, every issued invoice) must stay in the request.
const listBuilder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  format: true,
  suppressEmptyNode: false,
});

/** An issued invoice as POHODA lists it. */
export interface ListedInvoice {
  id: string;
  number: string | null;
  issueDate: string | null;
  taxDate: string | null;
  dueDate: string | null;
  text: string | null;
  partner: { company: string; ico: string | null } | null;
  items: {
    text: string | null;
    quantity: string | null;
    unit: string | null;
    rateVat: string | null;
    unitPrice: string | null;
  }[];
}

const listParser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  isArray: (name) => name === "responsePackItem" || name === "invoice" || name === "invoiceItem" || name === "detail",
});

/** Reads the answer to `listInvoicesDataPack`: the pack's and the list's state, and every invoice listed. */
export function parseInvoiceList(xml: string): {
  state: "ok" | "warning" | "error";
  note: string | null;
  invoices: ListedInvoice[];
} {
  const pack = (listParser.parse(xml) as Node).responsePack as Node | undefined;
  if (!pack || typeof pack !== "object") throw new Error("the answer is not a responsePack");
  const item = ((pack.responsePackItem as Node[] | undefined) ?? [])[0];
  const list = (item?.listInvoice ?? {}) as Node;
  const listState = state(list["@_state"] ?? item?.["@_state"] ?? pack["@_state"]);
  const invoices = ((list.invoice as Node[] | undefined) ?? []).map((invoice): ListedInvoice => {
    const header = (invoice.invoiceHeader ?? {}) as Node;
    const numbers = (header.number ?? {}) as Node;
    const address = ((header.partnerIdentity as Node | undefined)?.address ?? {}) as Node;
    const lines = ((invoice.invoiceDetail as Node | undefined)?.invoiceItem as Node[] | undefined) ?? [];
    return {
      id: text(header.id) ?? "",
      number: text(numbers.numberRequested) ?? text(numbers.ids),
      issueDate: text(header.date),
      taxDate: text(header.dateTax),
      dueDate: text(header.dateDue),
      text: text(header.text),
      partner: text(address.company) ? { company: text(address.company)!, ico: text(address.ico) } : null,
      items: lines.map((line) => ({
        text: text(line.text),
        quantity: text(line.quantity),
        unit: text(line.unit),
        rateVat: text(line.rateVAT),
        unitPrice: text((line.homeCurrency as Node | undefined)?.unitPrice),
      })),
    };
  });
  return {
    state: item ? listState : state(pack["@_state"]),
    note: (item?.["@_note"] ?? pack["@_note"] ?? null) as string | null,
    invoices,
  };
}

export interface ImportDetail {
  state: string;
  errno: string | null;
  note: string | null;
  xpath: string | null;
}

export interface ResponseItem {
  id: string;
  state: "ok" | "warning" | "error";
  note: string | null;
  producedId: string | null;
  producedNumber: string | null;
  details: ImportDetail[];
}

export interface ResponsePack {
  state: "ok" | "warning" | "error";
  note: string | null;
  items: ResponseItem[];
}

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: "@_",
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  isArray: (name) => name === "responsePackItem" || name === "detail",
});

type Node = Record<string, unknown>;
const text = (value: unknown): string | null =>
  typeof value === "string" || typeof value === "number"
    ? String(value)
    : (((value as Node | undefined)?.["#text"] as string | undefined) ?? null);
const state = (value: unknown): "ok" | "warning" | "error" => (value === "ok" || value === "warning" ? value : "error");

/** Reads a responsePack and every item in it; throws when the text is not one. */
export function parseResponsePack(xml: string): ResponsePack {
  const document = parser.parse(xml) as Node;
  const pack = document.responsePack as Node | undefined;
  if (!pack || typeof pack !== "object") throw new Error("the answer is not a responsePack");
  const items = ((pack.responsePackItem as Node[] | undefined) ?? []).map((item): ResponseItem => {
    // The document's own response (inv:invoiceResponse...) holds what was produced and what went wrong.
    const response = (Object.entries(item).find(([key, value]) => key.endsWith("Response") && typeof value === "object")?.[1] ??
      {}) as Node;
    const produced = (response.producedDetails ?? {}) as Node;
    const details = (((response.importDetails ?? item.importDetails) as Node | undefined)?.detail as Node[] | undefined) ?? [];
    return {
      id: String(item["@_id"] ?? ""),
      state: state(item["@_state"]),
      note: (item["@_note"] as string | undefined) ?? null,
      producedId: text(produced.id),
      producedNumber: text(produced.number),
      details: details.map((detail) => ({
        state: text(detail.state) ?? "error",
        errno: text(detail.errno),
        note: text(detail.note),
        xpath: text(detail.XPath),
      })),
    };
  });
  return { state: state(pack["@_state"]), note: (pack["@_note"] as string | undefined) ?? null, items };
}

/** The mServer's `GET /status` answer: the company open and whether it is idle or busy (read leniently). */
export function parseStatus(xml: string): Record<string, string> {
  const document = parser.parse(xml) as Node;
  const root = Object.entries(document).find(
    ([key, value]) => !key.startsWith("?") && value && typeof value === "object",
  )?.[1] as Node | undefined;
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(root ?? {})) {
    const kept = text(value);
    if (kept !== null && !key.startsWith("@_")) fields[key] = kept;
  }
  return fields;
}
