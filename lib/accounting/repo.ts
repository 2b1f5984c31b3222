import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { invoiceItems, invoices, type InvoiceItemRow, type InvoiceRow } from "../db/schema/invoices";

export type { InvoiceItemRow, InvoiceRow };
export type InvoiceFields = Pick<
  InvoiceRow,
  "number" | "partnerCompany" | "partnerIco" | "issueDate" | "taxDate" | "dueDate" | "text" | "taskId"
>;
export type ItemFields = Pick<InvoiceItemRow, "text" | "quantity" | "unit" | "unitPrice" | "rateVat">;
export interface InvoiceWithItems {
  invoice: InvoiceRow;
  items: InvoiceItemRow[];
}

const own = (ownerId: string, id: string) => and(eq(invoices.id, id), eq(invoices.ownerId, ownerId));

async function replaceItems(executor: Executor, invoiceId: string, items: readonly ItemFields[]): Promise<InvoiceItemRow[]> {
  await executor.delete(invoiceItems).where(eq(invoiceItems.invoiceId, invoiceId));
  return executor
    .insert(invoiceItems)
    .values(items.map((item, position) => ({ ...item, invoiceId, position })))
    .returning();
}

export async function insertInvoice(
  ownerId: string,
  fields: InvoiceFields,
  items: readonly ItemFields[],
): Promise<InvoiceWithItems> {
  return db().transaction(async (tx) => {
    const now = nowDate();
    const [invoice] = await tx
      .insert(invoices)
      .values({ ...fields, ownerId, createdAt: now, updatedAt: now })
      .returning();
    return { invoice: invoice!, items: await replaceItems(tx, invoice!.id, items) };
  });
}

export async function findInvoice(ownerId: string, id: string): Promise<InvoiceWithItems | null> {
  const [invoice] = await db().select().from(invoices).where(own(ownerId, id));
  if (!invoice) return null;
  const items = await db().select().from(invoiceItems).where(eq(invoiceItems.invoiceId, id)).orderBy(asc(invoiceItems.position));
  return { invoice, items };
}

export async function listInvoices(ownerId: string): Promise<InvoiceWithItems[]> {
  const rows = await db()
    .select()
    .from(invoices)
    .where(eq(invoices.ownerId, ownerId))
    .orderBy(desc(invoices.issueDate), desc(invoices.createdAt));
  if (rows.length === 0) return [];
  const items = await db()
    .select()
    .from(invoiceItems)
    .where(
      inArray(
        invoiceItems.invoiceId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(invoiceItems.position));
  return rows.map((invoice) => ({ invoice, items: items.filter((item) => item.invoiceId === invoice.id) }));
}

export async function updateInvoiceRow(
  ownerId: string,
  id: string,
  patch: Partial<InvoiceFields & Pick<InvoiceRow, "paidAt">>,
  items?: readonly ItemFields[],
): Promise<boolean> {
  return db().transaction(async (tx) => {
    const [row] = await tx
      .update(invoices)
      .set({ ...patch, updatedAt: nowDate() })
      .where(own(ownerId, id))
      .returning({ id: invoices.id });
    if (!row) return false;
    if (items) await replaceItems(tx, id, items);
    return true;
  });
}

export async function deleteInvoiceRow(ownerId: string, id: string): Promise<boolean> {
  const rows = await db().delete(invoices).where(own(ownerId, id)).returning({ id: invoices.id });
  return rows.length > 0;
}
