import { index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A user's saved filters of the task list (lib/saved-filters): a name and the list page's query string
 * (`status=todo&tag=home`), opened as `/{locale}/tasks?<query>`. Private to the user; they go with the account.
 */
export const savedFilters = pgTable(
  "saved_filters",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** The task list page's query string, without the `?`. */
    query: text("query").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index("saved_filters_user_idx").on(table.userId, table.createdAt)],
);

export type SavedFilterRow = typeof savedFilters.$inferSelect;
