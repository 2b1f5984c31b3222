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

/**
 * Each background job's schedule and last run, across the deployment (lib/jobs). A process runs a job only after
 * claiming its row while the run is due and no lease is held (one statement: exactly one process wins); it renews
 * the lease while the job runs, and a process that dies leaves its lease to expire.
 */
export const jobRuns = pgTable("job_runs", {
  name: text("name").primaryKey(),
  /** When the next run is due. */
  nextRunAt: timestamp("next_run_at", { withTimezone: true }).notNull().defaultNow(),
  /** The process running the job now (host name and process id), and until when its claim holds. */
  leaseOwner: text("lease_owner"),
  leaseUntil: timestamp("lease_until", { withTimezone: true }),
  /** Null until the job first runs. */
  lastStartedAt: timestamp("last_started_at", { withTimezone: true }),
  lastFinishedAt: timestamp("last_finished_at", { withTimezone: true }),
  lastDurationMs: integer("last_duration_ms"),
  lastOutcome: text("last_outcome", { enum: ["running", "succeeded", "failed"] }),
  lastError: text("last_error"),
  /** Where the last run ran: host name and process id. */
  lastRunner: text("last_runner"),
  runCount: integer("run_count").notNull().default(0),
  failureCount: integer("failure_count").notNull().default(0),
});

export type JobRunRow = typeof jobRuns.$inferSelect;
