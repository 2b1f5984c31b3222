import { expireAllDueRequests } from "../lib/collaboration/expiry";
import { purgeIdempotencyKeys } from "../lib/api/idempotency";
import { config } from "../lib/config";
import { runConnectorRetries } from "../lib/connectors/service";
import { runDeployQueue } from "../lib/deploy/service";
import { pruneErrorLogs } from "../lib/errors/service";
import { log } from "../lib/log";
import { purgeDeletedMedia } from "../lib/media/purge";
import { runPendingTranscriptions } from "../lib/media/transcription";
import { runReminders } from "../lib/notifications/reminders";
import { runDailySummaries, runWeeklyReports } from "../lib/notifications/summaries";
import { purgeOAuthStates } from "../lib/oauth/service";
import { purgeAccountTokens } from "../lib/account-tokens/service";
import { pruneQueue } from "../lib/queue/service";
import { createDueOccurrences } from "../lib/tasks/recurring";
import { runWebhookDeliveries } from "../lib/webhooks/service";
import { JOB_CATALOG, type JobName } from "../lib/jobs/catalog";
import type { Job } from "../lib/jobs/runner";

/** What each background job of lib/jobs/catalog.ts does: one run per name, no more, no less. */
const RUNS: Record<JobName, Job["run"]> = {
  "recurring-tasks": async (signal) => {
    const created = await createDueOccurrences(undefined, signal);
    if (created) log.info("Created occurrences of recurring tasks", { created });
  },
  "collaboration-expiry": async () => {
    const expired = await expireAllDueRequests();
    if (expired) log.info("Expired collaboration requests", { expired });
  },
  "purge-idempotency-keys": async () => {
    const deleted = await purgeIdempotencyKeys();
    if (deleted) log.info("Purged expired idempotency keys", { deleted });
  },
  "prune-error-logs": async () => {
    const deleted = await pruneErrorLogs(config().ERROR_LOG_RETENTION_DAYS);
    if (deleted) log.info("Pruned old error logs", { deleted });
  },
  reminders: async (signal) => {
    const { sent, missed } = await runReminders(undefined, signal);
    if (sent || missed) log.info("Sent task reminders", { sent, missed });
  },
  "daily-summaries": async () => {
    const sent = await runDailySummaries();
    if (sent) log.info("Sent daily summaries", { sent });
  },
  "weekly-reports": async () => {
    const sent = await runWeeklyReports();
    if (sent) log.info("Sent weekly reports", { sent });
  },
  "webhook-deliveries": async (signal) => {
    const { attempted } = await runWebhookDeliveries(signal);
    if (attempted) log.info("Ran webhook deliveries", { attempted });
  },
  "connector-retries": async (signal) => {
    const started = await runConnectorRetries(signal);
    if (started) log.info("Ran connector retries", { started });
  },
  "deploy-queue": async (signal) => {
    const ran = await runDeployQueue(signal);
    if (ran) log.info("Ran queued deploys", { ran });
  },
  "oauth-states-purge": async () => {
    const deleted = await purgeOAuthStates();
    if (deleted) log.info("Forgot finished sign-in attempts", { deleted });
  },
  "account-tokens-purge": async () => {
    const deleted = await purgeAccountTokens();
    if (deleted) log.info("Forgot spent emailed links", { deleted });
  },
  "media-transcriptions": async (signal) => {
    const transcribed = await runPendingTranscriptions(signal);
    if (transcribed) log.info("Transcribed media items", { transcribed });
  },
  "queue-prune": async () => {
    const deleted = await pruneQueue();
    if (deleted) log.info("Forgot finished queue items", { deleted });
  },
  "media-purge": async () => {
    const removed = await purgeDeletedMedia();
    if (removed) log.info("Removed files of deleted media items", { removed });
  },
};

/** Every background job of the service: the catalogue's names, intervals and modules with their runs. */
export function backgroundJobs(): Job[] {
  return JOB_CATALOG.map((job) => ({ ...job, run: RUNS[job.name] }));
}
