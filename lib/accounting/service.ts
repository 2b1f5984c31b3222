import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { getTask } from "../tasks/service";
import {
  deleteInvoiceRow,
  findInvoice,
  insertInvoice,
  listInvoices,
  updateInvoiceRow,
  type InvoiceFields,
  type InvoiceWithItems,
  type ItemFields,
} from "./repo";
import { lineTotal } from "./amounts";
import type { CreateInvoiceInput, InvoiceItemInput, InvoiceOutput, UpdateInvoiceInput } from "./schema";

/*
 * Invoices: their owner's alone (anyone else gets 404). The POHODA connector (lib/connectors/pohoda) exports them
 * and marks them paid when POHODA reports a payment.
 */

const NOT_FOUND = "No invoice with this id";

export function toInvoiceOutput({ invoice, items }: InvoiceWithItems): InvoiceOutput {
  const total = items.reduce((sum, item) => sum + Math.round(lineTotal(item.quantity, item.unitPrice) * 100), 0) / 100;
  return {
    id: invoice.id,
    number: invoice.number,
    partner: invoice.partnerCompany ? { company: invoice.partnerCompany, ico: invoice.partnerIco } : null,
    issueDate: invoice.issueDate,
    taxDate: invoice.taxDate,
    dueDate: invoice.dueDate,
    text: invoice.text,
    currency: "CZK",
    taskId: invoice.taskId,
    items: items.map((item) => ({
      text: item.text,
      quantity: item.quantity,
      unit: item.unit,
      unitPrice: item.unitPrice,
      rateVat: item.rateVat,
    })),
    totalWithoutVat: total,
    paidAt: invoice.paidAt?.toISOString() ?? null,
    createdAt: invoice.createdAt.toISOString(),
    updatedAt: invoice.updatedAt.toISOString(),
  };
}

function itemFields(items: readonly InvoiceItemInput[]): ItemFields[] {
  return items.map((item) => ({
    text: item.text,
    quantity: item.quantity,
    unit: item.unit ?? null,
    unitPrice: item.unitPrice,
    rateVat: item.rateVat,
  }));
}

async function checkTask(actor: Actor, taskId: string | null | undefined): Promise<void> {
  if (!taskId) return;
  try {
    await getTask(actor, taskId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found")
      throw invalidField("body", "/taskId", "no task with this id that you can see");
    throw error;
  }
}

export async function getInvoiceOrThrow(actor: Actor, id: string): Promise<InvoiceWithItems> {
  const found = await findInvoice(actor.userId, id);
  if (!found) throw new AppError("not_found", NOT_FOUND);
  return found;
}

export async function listOwnInvoices(actor: Actor): Promise<{ items: InvoiceOutput[] }> {
  return { items: (await listInvoices(actor.userId)).map(toInvoiceOutput) };
}

export async function getInvoice(actor: Actor, id: string): Promise<InvoiceOutput> {
  return toInvoiceOutput(await getInvoiceOrThrow(actor, id));
}

export async function createInvoice(actor: Actor, input: CreateInvoiceInput): Promise<InvoiceOutput> {
  await checkTask(actor, input.taskId);
  const fields: InvoiceFields = {
    number: input.number ?? null,
    partnerCompany: input.partner?.company ?? null,
    partnerIco: input.partner?.ico ?? null,
    issueDate: input.issueDate,
    taxDate: input.taxDate ?? input.issueDate,
    dueDate: input.dueDate,
    text: input.text ?? "",
    taskId: input.taskId ?? null,
  };
  return toInvoiceOutput(await insertInvoice(actor.userId, fields, itemFields(input.items)));
}

export async function updateInvoice(actor: Actor, id: string, input: UpdateInvoiceInput): Promise<InvoiceOutput> {
  const { invoice } = await getInvoiceOrThrow(actor, id);
  await checkTask(actor, input.taskId);
  const issueDate = input.issueDate ?? invoice.issueDate;
  const dueDate = input.dueDate ?? invoice.dueDate;
  if (dueDate < issueDate)
    throw invalidField("body", input.dueDate ? "/dueDate" : "/issueDate", "the due date must not be before the issue date");
  const patch: Partial<InvoiceFields> = {
    ...(input.number !== undefined && { number: input.number }),
    ...(input.partner !== undefined && {
      partnerCompany: input.partner?.company ?? null,
      partnerIco: input.partner?.ico ?? null,
    }),
    ...(input.issueDate !== undefined && { issueDate: input.issueDate }),
    ...(input.taxDate !== undefined && { taxDate: input.taxDate }),
    ...(input.dueDate !== undefined && { dueDate: input.dueDate }),
    ...(input.text !== undefined && { text: input.text }),
    ...(input.taskId !== undefined && { taskId: input.taskId }),
  };
  if (!(await updateInvoiceRow(actor.userId, id, patch, input.items && itemFields(input.items))))
    throw new AppError("not_found", NOT_FOUND);
  return getInvoice(actor, id);
}

export async function deleteInvoice(actor: Actor, id: string): Promise<void> {
  if (!(await deleteInvoiceRow(actor.userId, id))) throw new AppError("not_found", NOT_FOUND);
}

/** The accounting program reported the invoice paid (the POHODA webhook): answers whether it changed. */
export async function markInvoicePaid(actor: Actor, id: string, paid: boolean): Promise<boolean> {
  const { invoice } = await getInvoiceOrThrow(actor, id);
  if ((invoice.paidAt !== null) === paid) return false;
  await updateInvoiceRow(actor.userId, id, { paidAt: paid ? nowDate() : null });
  return true;
}
