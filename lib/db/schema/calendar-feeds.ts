import { index, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A secret iCalendar feed of a user's open tasks with a due date (lib/calendar-feeds). The secret in its URL is the
 * only credential a calendar app sends: only its SHA-256 is kept, so the URL is shown once, when the feed is made.
 * Revoking deletes the row: the URL then answers 404.
 */
export const calendarFeeds = pgTable(
  "calendar_feeds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** What the user called it ("Phone", "Work calendar"). */
    name: text("name").notNull(),
    /** SHA-256 of the secret, hex. */
    secretHash: text("secret_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /** When a calendar app last fetched it (to within a few minutes). */
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("calendar_feeds_secret_hash_key").on(table.secretHash),
    index("calendar_feeds_user_idx").on(table.userId),
  ],
);

export type CalendarFeedRow = typeof calendarFeeds.$inferSelect;
