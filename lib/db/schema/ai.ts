import { date, integer, pgTable, primaryKey, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** Requests each user made to the configured AI endpoint per UTC day (the daily budget, AI_DAILY_REQUESTS). */
export const aiUsage = pgTable(
  "ai_usage",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    day: date("day").notNull(),
    requests: integer("requests").notNull().default(0),
    /** Tokens the endpoint reported using (prompt + completion), for the operator's information. */
    tokens: integer("tokens").notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.day] })],
);
