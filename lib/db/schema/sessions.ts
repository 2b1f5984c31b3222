import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A sign-in: one per device or client that signed in. Its id travels in the session token (`sid`); a token works only
 * while its session has not ended (signed out, ended from the security settings, a password change, an
 * administrator disabling the account) and not expired. Another kind of credential (personal access tokens) gets
 * its own table beside this one and its own `kind` of token claims (lib/auth/tokens.ts).
 */
export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** How it began: `password`, `registration`, `passkey`, `oauth:<provider>`, `invitation`, `password-change`. */
    method: text("method").notNull(),
    /** The User-Agent it signed in with (cut to 500 characters), and the client address. */
    userAgent: text("user_agent"),
    ipAddress: text("ip_address"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a request last used it, to within a few minutes (lib/auth/sessions/repo.ts). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }).notNull().defaultNow(),
    /** Its token's expiry: created + JWT_TTL_SECONDS. */
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }),
  },
  (table) => [index("sessions_user_idx").on(table.userId, table.createdAt), index("sessions_expires_idx").on(table.expiresAt)],
);

export type SessionRow = typeof sessions.$inferSelect;
