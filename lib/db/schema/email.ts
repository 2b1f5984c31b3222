import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** Every email the service sent or tried to send, by which transport, and what came of it. */
export const emailLog = pgTable(
  "email_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The user it was for, when it was for one. */
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    /** `reminder`, `admin`, `daily_summary`... */
    kind: text("kind").notNull(),
    transport: text("transport").notNull(),
    status: text("status").$type<"sent" | "failed">().notNull(),
    error: text("error"),
    providerMessageId: text("provider_message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("email_log_created_idx").on(table.createdAt), index("email_log_user_idx").on(table.userId)],
);

export type EmailLogRow = typeof emailLog.$inferSelect;
