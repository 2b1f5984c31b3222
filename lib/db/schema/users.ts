import { integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Normalised: trimmed and lower-cased. */
    email: text("email").notNull(),
    name: text("name").notNull(),
    /** argon2id PHC string; null for accounts that only sign in another way. */
    passwordHash: text("password_hash"),
    locale: text("locale").notNull().default("en"),
    timeZone: text("time_zone").notNull().default("UTC"),
    avatarUrl: text("avatar_url"),
    /** Raised on password change: tokens carrying an older version stop working. */
    tokenVersion: integer("token_version").notNull().default(0),
    /** Set by an administrator: the account cannot sign in and its sessions ended (lib/admin). */
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    /** When a session of the user was last used, to within a few minutes (lib/auth/repo.ts); null: not since recorded. */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true }),
    /**
     * When the person proved the address is theirs (a verification link, a password reset link, or a provider that
     * verified it); null: not verified. Cleared when the email changes. Accounts older than the column start
     * unverified, except those whose address an external provider vouched for (docs/password-reset.md).
     */
    emailVerifiedAt: timestamp("email_verified_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("users_email_key").on(table.email)],
);

export type UserRow = typeof users.$inferSelect;
