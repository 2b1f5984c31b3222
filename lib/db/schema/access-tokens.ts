import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A personal access token: a long-lived credential a user makes for a script or an integration (lib/auth/access-tokens).
 * Only the SHA-256 of its secret is kept; the secret itself is shown once, when it is made. It works as a bearer token
 * wherever a session token does, within its scopes, until it expires or is deleted (revoking deletes the row).
 */
export const accessTokens = pgTable(
  "personal_access_tokens",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** `read` (GET and HEAD only) and/or `write` (every method). */
    scopes: text("scopes").array().notNull(),
    /** Hex SHA-256 of the whole secret (`spolu_pat_…`). */
    tokenHash: text("token_hash").notNull(),
    /** The secret's first characters (`spolu_pat_AbCd`), so that the user can tell tokens apart. */
    prefix: text("prefix").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a request last used it, to within a few minutes; null until first used. */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Null: it never expires. */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("personal_access_tokens_hash_idx").on(table.tokenHash),
    index("personal_access_tokens_user_idx").on(table.userId, table.createdAt),
  ],
);

export type AccessTokenRow = typeof accessTokens.$inferSelect;
