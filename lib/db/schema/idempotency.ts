import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * `Idempotency-Key`s of POST requests (lib/api/idempotency.ts): per user and key, the request it was first sent with
 * (a hash of method, path and body) and, once answered, that answer, replayed to every repeat for 24 hours. A row
 * without `responseStatus` is a request still running (`lockedAt` says since when).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    /** Hex SHA-256 of the method, the path and the body bytes. */
    requestHash: text("request_hash").notNull(),
    lockedAt: timestamp("locked_at", { withTimezone: true }).notNull(),
    responseStatus: integer("response_status"),
    /** The answer's Content-Type, Location and ETag. */
    responseHeaders: jsonb("response_headers").$type<Record<string, string>>(),
    responseBody: text("response_body"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.key] }), index("idempotency_keys_expires_idx").on(table.expiresAt)],
);

export type IdempotencyKeyRow = typeof idempotencyKeys.$inferSelect;
