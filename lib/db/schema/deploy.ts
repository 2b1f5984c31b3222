import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";

export type DeployRunStatus = "queued" | "running" | "succeeded" | "failed" | "skipped";

/**
 * One delivery of the deploy webhook (lib/deploy): GitHub's delivery id (unique, so that a redelivery runs nothing
 * again), what it asked for, and how the configured command ended. At most one row is `running` at a time, across
 * processes (the partial unique index): the others wait `queued`, oldest first.
 */
export const deployRuns = pgTable(
  "deploy_runs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** X-GitHub-Delivery. */
    deliveryId: text("delivery_id").notNull(),
    /** X-GitHub-Event: `push`, ... */
    event: text("event").notNull(),
    /** The pushed ref (`refs/heads/main`), null for events without one. */
    ref: text("ref"),
    /** The commit pushed (`after`), when the event names one. */
    commitSha: text("commit_sha"),
    status: text("status").$type<DeployRunStatus>().notNull().default("queued"),
    /** Why it was skipped, or why it failed without an exit code (a timeout, a command that could not start). */
    reason: text("reason"),
    exitCode: integer("exit_code"),
    /** The last 4 KB of the command's output (stdout and stderr as they came). */
    output: text("output"),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("deploy_runs_delivery_key").on(table.deliveryId),
    index("deploy_runs_received_idx").on(table.receivedAt),
    // One command at a time across every process: a second row cannot become `running` while one is.
    uniqueIndex("deploy_runs_one_running_key")
      .on(table.status)
      .where(sql`${table.status} = 'running'`),
    check("deploy_runs_status", sql`${table.status} in ('queued', 'running', 'succeeded', 'failed', 'skipped')`),
  ],
);

export type DeployRunRow = typeof deployRuns.$inferSelect;
