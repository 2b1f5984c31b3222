import { createHash, randomUUID } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { AppError } from "../../api/app-error";
import { createInvoiceInput, type InvoiceOutput } from "../../accounting/schema";
import { createInvoice, listOwnInvoices, markInvoicePaid } from "../../accounting/service";
import type { ConnectorDriver, SyncContext } from "../driver";
import { ConnectorError, expectSuccess } from "../http";
import { decodeWindows1250, encodeWindows1250 } from "./windows-1250";
import {
  invoiceDataPack,
  listInvoicesDataPack,
  parseInvoiceList,
  parseResponsePack,
  parseStatus,
  type ListedInvoice,
  type ResponseItem,
  type ResponsePack,
} from "./xml";

/*
 * POHODA through its mServer (kind `accounting`): XML over HTTP, `POST {base}/xml`, `Content-Type: text/xml`,
 * Windows-1250 both ways, `STW-Authorization: Basic base64(user:password)`. Requests are processed one at a time
 * by POHODA; the framework already runs one operation per connection.
 *
 * - Export: the owner's invoices not exported yet go in one dataPack (one dataPackItem per invoice, its id the
 *   invoice's id); every responsePackItem is read: ok or warning → linked (`invoice` → POHODA's document id,
 *   `invoice-number` → its number), error → the item fails with POHODA's errno, note and XPath; the rest of the pack
 *   stands. A pack POHODA refuses as a whole (an IČO that is not the open company's) fails the run.
 * - Re-runs: an exported invoice whose content is unchanged is `unchanged` and not sent; one changed since is
 *   `skipped` and not sent again (POHODA would create a second document; updating it through actionType needs a
 *   filter on POHODA's own id and rights most mServer users lack): correct it in POHODA.
 * - Import: a `lst:listInvoiceRequest` for the issued invoices; each one not linked yet becomes a local invoice of
 *   the connection's owner (linked by POHODA's id, so never twice; one that does not fit the local model, e.g.
 *   without lines, fails alone). POHODA's later changes to a linked invoice are not brought in.
 * - Webhook: `{ "event": "invoice.paid" | "invoice.unpaid", "number": "<POHODA number>" }` (or `"id"`: POHODA's
 *   document id) marks the linked local invoice paid or unpaid.
 */

const credentials = z.strictObject({
  username: z.string().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  password: z.string().max(200, "must be at most 200 characters"),
});
type Credentials = z.infer<typeof credentials>;

const settings = z.strictObject({
  ico: z.string().regex(/^\d{8}$/, "must be the company's IČO: 8 digits"),
  application: z.string().trim().min(1).max(50, "must be at most 50 characters").optional(),
});
type Settings = z.infer<typeof settings>;

type Context = SyncContext<Credentials, Settings>;

const webhookPayload = z
  .object({
    event: z.enum(["invoice.paid", "invoice.unpaid"]),
    number: z.string().min(1).max(32).optional(),
    id: z.string().min(1).max(32).optional(),
  })
  .refine((payload) => payload.number || payload.id, "give number or id");

function headers(context: Context): Record<string, string> {
  const { username, password } = context.connection.credentials;
  return {
    "STW-Authorization": `Basic ${Buffer.from(`${username}:${password}`, "utf8").toString("base64")}`,
    "STW-Application": application(context),
  };
}

const application = (context: Context) => context.connection.settings.application ?? "Spolu";

/** Posts a dataPack and answers the decoded answer; throws ConnectorError for HTTP failures. */
async function post(context: Context, xml: string): Promise<string> {
  const response = await context.request({
    method: "POST",
    url: `${context.connection.baseUrl}/xml`,
    headers: { ...headers(context), "Content-Type": "text/xml; charset=Windows-1250" },
    body: encodeWindows1250(xml),
  });
  if (response.status === 401 || response.status === 403) {
    throw new ConnectorError(
      `POHODA did not accept the user name or password (HTTP ${response.status}): not authenticated`,
      false,
      response.status,
    );
  }
  expectSuccess(response, "POHODA mServer");
  return decodeWindows1250(response.body);
}

function unreadable(error: unknown): ConnectorError {
  return new ConnectorError(
    `POHODA's answer is not a responsePack: ${error instanceof Error ? error.message : String(error)}`,
    false,
  );
}

const packId = () => `spolu-${randomUUID()}`;

/** Sends invoices (none: an empty pack) and reads every item of the responsePack. */
async function exchange(context: Context, invoices: readonly InvoiceOutput[]): Promise<ResponsePack> {
  const answer = await post(
    context,
    invoiceDataPack({ id: packId(), ico: context.connection.settings.ico, application: application(context), invoices }),
  );
  try {
    return parseResponsePack(answer);
  } catch (error) {
    throw unreadable(error);
  }
}

function packRefusal(pack: ResponsePack, ico: string): string {
  return `POHODA refused the whole dataPack${pack.note ? `: ${pack.note}` : ""} (is ${ico} the IČO of the company open in POHODA?)`;
}

function fingerprint(invoice: InvoiceOutput): string {
  const { id: _id, paidAt: _paid, createdAt: _created, updatedAt: _updated, ...content } = invoice;
  return createHash("sha256").update(JSON.stringify(content)).digest("hex");
}

function itemError(item: ResponseItem): string {
  const details = item.details.filter((detail) => detail.state !== "ok");
  const described = details.map(
    (detail) =>
      `${detail.errno ? `errno ${detail.errno}: ` : ""}${detail.note ?? "no note"}${detail.xpath ? ` (${detail.xpath})` : ""}`,
  );
  return `POHODA refused it: ${described.join("; ") || item.note || "no reason given"}`;
}

async function exportInvoices(context: Context): Promise<void> {
  const { items: invoices } = await listOwnInvoices(context.connection.actor);
  const toSend: { invoice: InvoiceOutput; fingerprint: string }[] = [];
  for (const invoice of invoices) {
    const print = fingerprint(invoice);
    const link = await context.links.findByLocal("invoice", invoice.id);
    if (!link) toSend.push({ invoice, fingerprint: print });
    else if (link.fingerprint === print)
      context.item({ entity: "invoice", externalId: link.externalId, localId: invoice.id, action: "unchanged" });
    else {
      context.item({
        entity: "invoice",
        externalId: link.externalId,
        localId: invoice.id,
        action: "skipped",
        error: `changed since it was exported as POHODA document ${link.externalId}: not sent again; correct it in POHODA`,
      });
    }
  }
  if (toSend.length === 0) return;
  const pack = await exchange(
    context,
    toSend.map((each) => each.invoice),
  );
  if (pack.state === "error" && pack.items.length === 0)
    throw new ConnectorError(packRefusal(pack, context.connection.settings.ico), false);
  const answers = new Map(pack.items.map((item) => [item.id, item]));
  for (const { invoice, fingerprint: print } of toSend) {
    const answer = answers.get(invoice.id);
    if (!answer) {
      context.item({
        entity: "invoice",
        externalId: null,
        localId: invoice.id,
        action: "failed",
        error: "POHODA's answer has no item for it",
      });
    } else if (answer.state === "error" || !answer.producedId) {
      context.item({ entity: "invoice", externalId: null, localId: invoice.id, action: "failed", error: itemError(answer) });
    } else {
      await context.links.save("invoice", answer.producedId, invoice.id, print);
      if (answer.producedNumber) await context.links.save("invoice-number", answer.producedNumber, invoice.id, null);
      const warnings = answer.state === "warning" ? itemError(answer).replace("POHODA refused it", "POHODA warned") : undefined;
      context.item({
        entity: "invoice",
        externalId: answer.producedId,
        localId: invoice.id,
        action: "created",
        ...(warnings && { error: warnings }),
      });
    }
  }
}

/** A listed POHODA invoice as a new local one, or why it cannot be one. */
function localInput(listed: ListedInvoice) {
  const parsed = createInvoiceInput.safeParse({
    number: listed.number,
    partner: listed.partner,
    issueDate: listed.issueDate,
    taxDate: listed.taxDate ?? listed.issueDate ?? undefined,
    dueDate: listed.dueDate ?? listed.issueDate,
    text: listed.text?.slice(0, 240) ?? "",
    items: listed.items.map((item) => ({
      text: item.text?.slice(0, 90),
      quantity: Number(item.quantity ?? "1"),
      unit: item.unit,
      unitPrice: Number(item.unitPrice),
      rateVat: item.rateVat,
    })),
  });
  if (parsed.success) return { input: parsed.data, error: null };
  const issue = parsed.error.issues[0]!;
  return { input: null, error: `cannot be kept here: ${issue.path.join(".") || "invoice"} ${issue.message}` };
}

/** Brings POHODA's issued invoices in: those not linked yet become local invoices (linked, so never twice). */
async function importInvoices(context: Context): Promise<void> {
  const answer = await post(
    context,
    listInvoicesDataPack({ id: packId(), ico: context.connection.settings.ico, application: application(context) }),
  );
  let list;
  try {
    list = parseInvoiceList(answer);
  } catch (error) {
    throw unreadable(error);
  }
  if (list.state === "error")
    throw new ConnectorError(packRefusal({ state: "error", note: list.note, items: [] }, context.connection.settings.ico), false);
  for (const listed of list.invoices) {
    if (!listed.id) {
      context.item({
        entity: "invoice",
        externalId: null,
        localId: null,
        action: "failed",
        error: "POHODA listed an invoice without its id",
      });
      continue;
    }
    const link = await context.links.find("invoice", listed.id);
    if (link) {
      context.item({ entity: "invoice", externalId: listed.id, localId: link.localId, action: "unchanged" });
      continue;
    }
    const { input, error } = localInput(listed);
    if (!input) {
      context.item({ entity: "invoice", externalId: listed.id, localId: null, action: "failed", error });
      continue;
    }
    const created = await createInvoice(context.connection.actor, input);
    // Its fingerprint as the export computes it: the next export finds it unchanged and does not send it back.
    await context.links.save("invoice", listed.id, created.id, fingerprint(created));
    if (listed.number) await context.links.save("invoice-number", listed.number, created.id, null);
    context.item({ entity: "invoice", externalId: listed.id, localId: created.id, action: "created" });
  }
}

export const pohodaDriver: ConnectorDriver<Credentials, Settings> = {
  kind: "accounting",
  module: "accounting",
  credentials,
  settings,
  describeCredentials: (stored) => `POHODA user ${stored.username}`,

  async check(context) {
    const response = await context.request({
      method: "GET",
      url: `${context.connection.baseUrl}/status`,
      headers: headers(context),
    });
    expectSuccess(response, "POHODA mServer /status");
    const status = parseStatus(decodeWindows1250(response.body));
    const details = {
      company: status.company ?? null,
      state: status.status ?? status.state ?? null,
      server: status.name ?? null,
    };
    try {
      const pack = await exchange(context, []);
      if (pack.state === "error")
        return { reachable: true, authenticated: false, details, error: packRefusal(pack, context.connection.settings.ico) };
    } catch (error) {
      if (error instanceof ConnectorError && (error.status === 401 || error.status === 403)) {
        return { reachable: true, authenticated: false, details, error: error.message };
      }
      throw error;
    }
    return { reachable: true, authenticated: true, version: status.version ?? null, details };
  },

  import: importInvoices,
  export: exportInvoices,

  async webhook(context, payload) {
    const parsed = webhookPayload.safeParse(payload);
    if (!parsed.success)
      throw new ConnectorError(
        `The webhook's body is not a POHODA invoice event: ${parsed.error.issues[0]?.message ?? "invalid"}`,
        false,
      );
    const { event, number, id } = parsed.data;
    const externalId = id ?? number!;
    const link = id ? await context.links.find("invoice", id) : await context.links.find("invoice-number", number!);
    if (!link?.localId) {
      context.item({
        entity: "invoice",
        externalId,
        localId: null,
        action: "failed",
        error: `no exported invoice with POHODA ${id ? "id" : "number"} ${externalId}`,
      });
      return;
    }
    try {
      const changed = await markInvoicePaid(context.connection.actor, link.localId, event === "invoice.paid");
      context.item({ entity: "invoice", externalId, localId: link.localId, action: changed ? "updated" : "unchanged" });
    } catch (error) {
      if (!(error instanceof AppError && error.code === "not_found")) throw error;
      context.item({
        entity: "invoice",
        externalId,
        localId: link.localId,
        action: "failed",
        error: "the invoice was deleted here",
      });
    }
  },
};
