import { index, integer, jsonb, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** Server errors (5xx, written by the API's error handler) and errors that clients report. */
export const errorLogs = pgTable(
  "error_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    source: text("source", { enum: ["server", "client"] }).notNull(),
    status: integer("status"),
    method: text("method"),
    /** The route pattern (`/api/v1/tasks/:id`), or the page a client was on. */
    route: text("route"),
    requestId: text("request_id"),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    message: text("message").notNull(),
    stack: text("stack"),
    userAgent: text("user_agent"),
    context: jsonb("context").$type<Record<string, unknown>>(),
  },
  (table) => [index("error_logs_created_at_idx").on(table.createdAt)],
);

export type ErrorLogRow = typeof errorLogs.$inferSelect;
