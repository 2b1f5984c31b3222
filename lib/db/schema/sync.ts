import { index, jsonb, pgTable, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * What one of a user's clients holds after a sync (lib/sync): the version (ETag) of every item it was sent, keyed
 * `<type>:<id>`. `GET /sync?cursor=` compares what the user can see now with it, to answer what changed, and what
 * is gone (deleted or no longer shared with them), since. A cursor names one row; rows unused for 30 days go.
 */
export const syncStates = pgTable(
  "sync_states",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The state the client synced from to get this one (null for a sync from scratch): dropped once this one is used. */
    parentId: uuid("parent_id"),
    versions: jsonb("versions").$type<Record<string, string>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull(),
    /** When a client last sent a cursor naming it: a state unused for 30 days is deleted (410 for its cursor). */
    usedAt: timestamp("used_at", { withTimezone: true }).notNull(),
  },
  (table) => [index("sync_states_user_used_idx").on(table.userId, table.usedAt)],
);

export type SyncStateRow = typeof syncStates.$inferSelect;
