import { z } from "@hono/zod-openapi";

export const VAT_RATES = ["none", "low", "high", "third"] as const;

function hasDecimals(value: number, places: number): boolean {
  const scaled = value * 10 ** places;
  return Math.abs(scaled - Math.round(scaled)) < 1e-6;
}

const localDate = z.iso.date("must be a date such as 2026-01-14");
const ico = z
  .string()
  .regex(/^\d{8}$/, "must be an IČO of 8 digits")
  .openapi({ description: "The company's IČO (Czech company number)", example: "27082440" });
const money = z
  .number({ error: "must be a number" })
  .min(0, "must not be negative")
  .max(1_000_000_000, "must be at most 1,000,000,000")
  .refine((value) => hasDecimals(value, 2), "must have at most 2 decimals");
const quantity = z
  .number({ error: "must be a number" })
  .positive("must be above 0")
  .max(1_000_000_000, "must be at most 1,000,000,000")
  .refine((value) => hasDecimals(value, 3), "must have at most 3 decimals");

export const invoiceItemInput = z.strictObject({
  text: z.string().trim().min(1, "must not be empty").max(90, "must be at most 90 characters (POHODA's limit)"),
  quantity,
  unit: z.string().trim().max(10, "must be at most 10 characters").nullable().optional(),
  unitPrice: money.openapi({ description: "CZK without VAT" }),
  rateVat: z.enum(VAT_RATES, { message: `must be one of ${VAT_RATES.join(", ")}` }).openapi({
    description: "POHODA's VAT class: `none` (0 %), `low`, `high` (21 %), `third` (the second reduced rate)",
  }),
});
export type InvoiceItemInput = z.infer<typeof invoiceItemInput>;

const partner = z
  .strictObject({
    company: z.string().trim().min(1, "must not be empty").max(255, "must be at most 255 characters"),
    ico: ico.nullable().optional(),
  })
  .nullable()
  .openapi({ description: "Whom the invoice is issued to; POHODA refuses an invoice without one (the item fails)" });

const number = z
  .string()
  .regex(/^[0-9A-Za-z/-]{1,32}$/, "must be 1-32 letters, digits, / or -")
  .nullable()
  .openapi({ description: "The number asked for (POHODA's numberRequested); null: POHODA numbers it" });

const fields = {
  number: number.optional(),
  partner: partner.optional(),
  issueDate: localDate,
  taxDate: localDate.optional().openapi({ description: "The taxable supply date; defaults to issueDate" }),
  dueDate: localDate,
  text: z.string().trim().max(240, "must be at most 240 characters").optional(),
  currency: z.literal("CZK", "must be CZK (the only currency so far)").optional(),
  taskId: z.uuid("must be a task id").nullable().optional().openapi({ description: "A task you can see that it bills for" }),
  items: z.array(invoiceItemInput).min(1, "must have at least 1 item").max(100, "must have at most 100 items"),
};

export const createInvoiceInput = z
  .strictObject(fields)
  .refine((input) => input.dueDate >= input.issueDate, { path: ["dueDate"], message: "must not be before issueDate" })
  .openapi("CreateInvoiceInput");
export type CreateInvoiceInput = z.infer<typeof createInvoiceInput>;

export const updateInvoiceInput = z
  .strictObject({
    ...fields,
    issueDate: fields.issueDate.optional(),
    dueDate: fields.dueDate.optional(),
    items: fields.items.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "give at least one field" })
  .openapi("UpdateInvoiceInput", { description: "The fields given change; `items` replaces all lines" });
export type UpdateInvoiceInput = z.infer<typeof updateInvoiceInput>;

export const invoiceParams = z.object({ id: z.uuid("must be an invoice id") });

export const invoiceItemOutput = z.object({
  text: z.string(),
  quantity: z.number(),
  unit: z.string().nullable(),
  unitPrice: z.number(),
  rateVat: z.enum(VAT_RATES),
});

export const invoiceOutput = z
  .object({
    id: z.uuid(),
    number: z.string().nullable(),
    partner: z.object({ company: z.string(), ico: z.string().nullable() }).nullable(),
    issueDate: z.string(),
    taxDate: z.string(),
    dueDate: z.string(),
    text: z.string(),
    currency: z.literal("CZK"),
    taskId: z.uuid().nullable(),
    items: z.array(invoiceItemOutput),
    totalWithoutVat: z.number().openapi({ description: "Sum of quantity × unit price, CZK" }),
    paidAt: z.iso.datetime().nullable().openapi({ description: "When the accounting program reported it paid" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("Invoice");
export type InvoiceOutput = z.infer<typeof invoiceOutput>;

export const invoiceListOutput = z.object({ items: z.array(invoiceOutput) }).openapi("InvoiceList");

export const accountingStatusQuery = z.strictObject({
  connectionId: z
    .uuid("must be a connection id")
    .optional()
    .openapi({ description: "Needed only when you see several accounting connections" }),
});
