import type { ModuleId } from "../modules/registry";

const SECOND_MS = 1000;
const MINUTE_MS = 60 * SECOND_MS;
const HOUR_MS = 60 * MINUTE_MS;

export interface JobInfo {
  name: string;
  intervalMs: number;
  /** The feature module it belongs to: skipped while that module is switched off. */
  module?: ModuleId;
}

/**
 * Every background job of the service: its name, how often it runs and the module that pauses it. What each one does
 * is in server/jobs.ts (the composition root that imports the domains), which must give every name here a run and
 * nothing else (the compiler checks both); GET /admin/jobs and the admin page list these.
 */
const CATALOG = [
  { name: "recurring-tasks", intervalMs: MINUTE_MS },
  { name: "collaboration-expiry", intervalMs: 5 * MINUTE_MS },
  // Idempotency-Key answers older than 24 hours (lib/api/idempotency.ts; a repeat of an expired key also frees it).
  { name: "purge-idempotency-keys", intervalMs: HOUR_MS },
  { name: "prune-error-logs", intervalMs: HOUR_MS },
  // Reminders, the daily summary and the weekly report (lib/notifications): each sent once, whichever process runs.
  { name: "reminders", intervalMs: MINUTE_MS },
  { name: "daily-summaries", intervalMs: MINUTE_MS },
  { name: "weekly-reports", intervalMs: MINUTE_MS },
  // Outgoing webhooks (lib/webhooks): deliveries that are due (retries, one attempt each; the `webhooks` event
  // consumer queues them).
  { name: "webhook-deliveries", intervalMs: 15 * SECOND_MS },
  // Connectors (lib/connectors): failed runs whose retry is due, webhooks that waited for a running run.
  { name: "connector-retries", intervalMs: 15 * SECOND_MS },
  // The deploy webhook (lib/deploy): runs left `running` by a stopped process fail; queued deliveries run.
  { name: "deploy-queue", intervalMs: 30 * SECOND_MS, module: "deploy" },
  // Sign-in with external accounts (lib/oauth): attempts that were used or are older than 10 minutes.
  { name: "oauth-states-purge", intervalMs: HOUR_MS },
  // Emailed links (lib/account-tokens): password resets and verifications used or expired over a day ago.
  { name: "account-tokens-purge", intervalMs: HOUR_MS },
  // Media (lib/media): transcriptions no process is working on (the uploading one stopped), a few at a time.
  { name: "media-transcriptions", intervalMs: MINUTE_MS, module: "media" },
  // The work queue (lib/queue): finished items are forgotten after a week, dead ones after 30 days.
  { name: "queue-prune", intervalMs: HOUR_MS },
  // Files of deleted media items that were not removed right after the deletion (a crash, a storage error). Not
  // paused with the media module: tasks and accounts are deleted while it is off too, and their files must go.
  { name: "media-purge", intervalMs: 5 * MINUTE_MS },
] as const satisfies readonly JobInfo[];

export type JobName = (typeof CATALOG)[number]["name"];
export const JOB_CATALOG: readonly (JobInfo & { name: JobName })[] = CATALOG;
