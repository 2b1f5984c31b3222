import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { users } from "./users";

/**
 * A single-use link sent by email: a password reset (valid one hour) or an email verification (48 hours). Only the
 * SHA-256 of the token is kept, so that a copy of the database opens no account; `used_at` is set when it is used,
 * and a newer token of the same purpose does not end older ones (each expires on its own).
 */
export const accountTokens = pgTable(
  "account_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** `password_reset` or `email_verification`. */
    purpose: text("purpose").notNull(),
    /** Hex SHA-256 of the token that went out in the email. */
    tokenHash: text("token_hash").notNull(),
    /** The address the link was sent to: a verification counts only while the account still has it. */
    email: text("email").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("account_tokens_hash_key").on(table.tokenHash),
    index("account_tokens_user_idx").on(table.userId, table.purpose),
    index("account_tokens_expires_idx").on(table.expiresAt),
    check("account_tokens_purpose_check", sql`${table.purpose} in ('password_reset', 'email_verification')`),
  ],
);

export type AccountTokenRow = typeof accountTokens.$inferSelect;
