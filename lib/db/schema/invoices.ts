import { sql } from "drizzle-orm";
import { check, date, index, integer, numeric, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

export type VatRate = "none" | "low" | "high" | "third";

/**
 * Issued invoices (lib/accounting), their owner's alone: what the POHODA connector exports to an accounting program
 * (and imports from it). Amounts are in CZK; VAT goes by POHODA's rate classes (none, low, high, third), not percentages.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    ownerId: uuid("owner_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The invoice number asked for (POHODA's numberRequested and variable symbol); null: POHODA numbers it. */
    number: text("number"),
    partnerCompany: text("partner_company"),
    /** The partner's IČO (8 digits). */
    partnerIco: text("partner_ico"),
    issueDate: date("issue_date", { mode: "string" }).notNull(),
    taxDate: date("tax_date", { mode: "string" }).notNull(),
    dueDate: date("due_date", { mode: "string" }).notNull(),
    text: text("text").notNull().default(""),
    currency: text("currency").notNull().default("CZK"),
    /** A task the invoice bills for. */
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "set null" }),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("invoices_owner_idx").on(table.ownerId, table.issueDate),
    check("invoices_currency", sql`${table.currency} = 'CZK'`),
    check("invoices_partner_ico", sql`${table.partnerIco} ~ '^[0-9]{8}$'`),
  ],
);

export type InvoiceRow = typeof invoices.$inferSelect;

export const invoiceItems = pgTable(
  "invoice_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    position: integer("position").notNull(),
    text: text("text").notNull(),
    quantity: numeric("quantity", { precision: 14, scale: 3, mode: "number" }).notNull(),
    unit: text("unit"),
    /** Without VAT, in CZK. */
    unitPrice: numeric("unit_price", { precision: 14, scale: 2, mode: "number" }).notNull(),
    rateVat: text("rate_vat").$type<VatRate>().notNull(),
  },
  (table) => [
    index("invoice_items_invoice_idx").on(table.invoiceId, table.position),
    check("invoice_items_rate_vat", sql`${table.rateVat} in ('none', 'low', 'high', 'third')`),
  ],
);

export type InvoiceItemRow = typeof invoiceItems.$inferSelect;
