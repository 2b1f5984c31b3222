import { boolean, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * An administrator's choice for a feature module (lib/modules): on or off, beating MODULES_DISABLED. No row: the
 * configuration decides ("reset to configuration" deletes the row). Every process polls this table.
 */
export const moduleSettings = pgTable("module_settings", {
  moduleId: text("module_id").primaryKey(),
  enabled: boolean("enabled").notNull(),
  updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  /** The administrator who switched it; null once their account is deleted. */
  updatedBy: uuid("updated_by").references(() => users.id, { onDelete: "set null" }),
});

export type ModuleSettingRow = typeof moduleSettings.$inferSelect;

/** The last run of each background job across the deployment (lib/jobs/runner.ts writes it, whichever process ran it). */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }).notNull(),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastDurationMs: integer("last_duration_ms"),
  lastOutcome: text("last_outcome", { enum: ["running", "succeeded", "failed"] }).notNull(),
  lastError: text("last_error"),
  /** Where the last run ran: host name and process id. */
  lastRunner: text("last_runner"),
  runCount: integer("run_count").notNull().default(0),
  failureCount: integer("failure_count").notNull().default(0),
});

export type JobRunRow = typeof jobRuns.$inferSelect;
