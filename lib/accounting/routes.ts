import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { statusOutput } from "../connectors/schema";
import {
  accountingStatusQuery,
  createInvoiceInput,
  invoiceListOutput,
  invoiceOutput,
  invoiceParams,
  updateInvoiceInput,
} from "./schema";
import { connectionStatusOfKind } from "../connectors/service";
import { createInvoice, deleteInvoice, getInvoice, listOwnInvoices, updateInvoice } from "./service";

const TAGS = ["Accounting"];
const OWNER_ONLY =
  "Invoices are their owner's alone: another user's invoice answers 404. Amounts are CZK without VAT; VAT goes by " +
  "POHODA's classes (`none`, `low`, `high`, `third`). The POHODA connector (`/connectors/{id}/export`) sends them " +
  "to POHODA; an invoice already exported and changed since is not sent again (the run lists it `skipped`): " +
  "correct POHODA's copy there.";
const NOT_FOUND = "No invoice with this id among yours";

const listRoute = apiRoute({
  method: "get",
  path: "/accounting/invoices",
  tags: TAGS,
  summary: "Your invoices",
  description:
    `Newest issue date first, with their lines. ${OWNER_ONLY} \`paidAt\` is set by the POHODA connection's signed ` +
    'webhook (`POST /connectors/{id}/webhook` with `{ "event": "invoice.paid" | "invoice.unpaid", "number": ' +
    "\"<POHODA's number>\" }` or `\"id\"`: POHODA's document id); the connection's import brings in POHODA's issued invoices.",
  access: "user",
  module: "accounting",
  responses: { 200: jsonContent(invoiceListOutput, "Your invoices") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/accounting/invoices",
  tags: TAGS,
  summary: "Issue an invoice",
  description: `\`taxDate\` defaults to \`issueDate\`; \`dueDate\` must not be before it. ${OWNER_ONLY}`,
  access: "user",
  module: "accounting",
  request: { body: jsonBody(createInvoiceInput) },
  responses: { 201: jsonContent(invoiceOutput, "The invoice") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/accounting/invoices/{id}",
  tags: TAGS,
  summary: "One invoice",
  description: OWNER_ONLY,
  access: "user",
  module: "accounting",
  request: { params: invoiceParams },
  responses: { 200: jsonContent(invoiceOutput, "The invoice"), 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/accounting/invoices/{id}",
  tags: TAGS,
  summary: "Change an invoice",
  description: `The fields given change; \`items\` replaces all lines. ${OWNER_ONLY}`,
  access: "user",
  module: "accounting",
  request: { params: invoiceParams, body: jsonBody(updateInvoiceInput) },
  responses: { 200: jsonContent(invoiceOutput, "The invoice"), 404: problemResponse(NOT_FOUND) },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/accounting/invoices/{id}",
  tags: TAGS,
  summary: "Delete an invoice",
  description: `Deletes it here only; a copy exported to POHODA stays there. ${OWNER_ONLY}`,
  access: "user",
  module: "accounting",
  request: { params: invoiceParams },
  responses: { 204: { description: "Deleted" }, 404: problemResponse(NOT_FOUND) },
});

const statusRoute = apiRoute({
  method: "get",
  path: "/accounting/status",
  tags: TAGS,
  summary: "Whether POHODA's mServer answers and accepts the connection",
  description:
    "Asks the mServer `GET /status` (reachable, the company open and whether it is idle or busy, in `details`), then " +
    "posts an empty dataPack with the connection's IČO: `authenticated` is true when the user name and password " +
    "are accepted and the IČO matches the open company. The connection is the one named by `connectionId`, else " +
    "your only accounting connection (400 naming `connectionId` when you have several).",
  access: "user",
  module: "accounting",
  request: { query: accountingStatusQuery },
  responses: {
    200: jsonContent(statusOutput, "What the mServer answered"),
    404: problemResponse("No accounting connection that you can see"),
  },
});

export const accountingRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listOwnInvoices(c.var.actor), 200))
  .openapi(createRoute, async (c) => c.json(await createInvoice(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => c.json(await getInvoice(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) => c.json(await updateInvoice(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => {
    await deleteInvoice(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(statusRoute, async (c) =>
    c.json(await connectionStatusOfKind(c.var.actor, "accounting", c.req.valid("query").connectionId), 200),
  );
