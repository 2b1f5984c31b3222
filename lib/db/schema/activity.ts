import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * Phone usage a client reported: `seconds` spent in `app` (of `category`) between `startedAt` and `endedAt`.
 * `clientId` is the client's own id for the record, so that sending a batch again adds nothing.
 */
export const activityRecords = pgTable(
  "activity_records",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    app: text("app").notNull(),
    category: text("category").notNull(),
    seconds: integer("seconds").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    endedAt: timestamp("ended_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("activity_records_client_key").on(table.userId, table.clientId),
    index("activity_records_user_time_idx").on(table.userId, table.startedAt),
    check("activity_records_seconds", sql`${table.seconds} >= 0 and ${table.endedAt} >= ${table.startedAt}`),
  ],
);
