import { expireAllDueRequests } from "../collaboration/expiry";
import { purgeIdempotencyKeys } from "../api/idempotency";
import { config } from "../config";
import { runConnectorRetries } from "../connectors/service";
import { runDeployQueue } from "../deploy/service";
import { pruneErrorLogs } from "../errors/service";
import { log } from "../log";
import { purgeDeletedMedia } from "../media/purge";
import { runPendingTranscriptions } from "../media/transcription";
import { runReminders } from "../notifications/reminders";
import { runDailySummaries, runWeeklyReports } from "../notifications/summaries";
import { purgeOAuthStates } from "../oauth/service";
import { purgeAccountTokens } from "../account-tokens/service";
import { pruneQueue } from "../queue/service";
import { createDueOccurrences } from "../tasks/recurring";
import { runWebhookDeliveries } from "../webhooks/service";
import type { Job } from "./runner";

const HOUR_MS = 3600 * 1000;

/** Every background job of the service. Later modules add theirs here. */
export function backgroundJobs(): Job[] {
  return [
    {
      name: "recurring-tasks",
      intervalMs: 60 * 1000,
      async run(signal) {
        const created = await createDueOccurrences(undefined, signal);
        if (created) log.info("Created occurrences of recurring tasks", { created });
      },
    },
    {
      name: "collaboration-expiry",
      intervalMs: 5 * 60 * 1000,
      async run() {
        const expired = await expireAllDueRequests();
        if (expired) log.info("Expired collaboration requests", { expired });
      },
    },
    // Idempotency-Key answers older than 24 hours (lib/api/idempotency.ts; a repeat of an expired key also frees it).
    {
      name: "purge-idempotency-keys",
      intervalMs: HOUR_MS,
      async run() {
        const deleted = await purgeIdempotencyKeys();
        if (deleted) log.info("Purged expired idempotency keys", { deleted });
      },
    },
    {
      name: "prune-error-logs",
      intervalMs: HOUR_MS,
      async run() {
        const deleted = await pruneErrorLogs(config().ERROR_LOG_RETENTION_DAYS);
        if (deleted) log.info("Pruned old error logs", { deleted });
      },
    },
    // Reminders, the daily summary and the weekly report (lib/notifications): each sent once, whichever process runs.
    {
      name: "reminders",
      intervalMs: 60 * 1000,
      async run(signal) {
        const { sent, missed } = await runReminders(undefined, signal);
        if (sent || missed) log.info("Sent task reminders", { sent, missed });
      },
    },
    {
      name: "daily-summaries",
      intervalMs: 60 * 1000,
      async run() {
        const sent = await runDailySummaries();
        if (sent) log.info("Sent daily summaries", { sent });
      },
    },
    {
      name: "weekly-reports",
      intervalMs: 60 * 1000,
      async run() {
        const sent = await runWeeklyReports();
        if (sent) log.info("Sent weekly reports", { sent });
      },
    },
    // Outgoing webhooks (lib/webhooks): deliveries that are due (retries, one attempt each; the `webhooks` event
    // consumer queues them).
    {
      name: "webhook-deliveries",
      intervalMs: 15 * 1000,
      async run(signal) {
        const { attempted } = await runWebhookDeliveries(signal);
        if (attempted) log.info("Ran webhook deliveries", { attempted });
      },
    },
    // Connectors (lib/connectors): failed runs whose retry is due, webhooks that waited for a running run.
    {
      name: "connector-retries",
      intervalMs: 15 * 1000,
      async run(signal) {
        const started = await runConnectorRetries(signal);
        if (started) log.info("Ran connector retries", { started });
      },
    },
    // The deploy webhook (lib/deploy): runs left `running` by a stopped process fail; queued deliveries run.
    {
      name: "deploy-queue",
      intervalMs: 30 * 1000,
      module: "deploy",
      async run(signal) {
        const ran = await runDeployQueue(signal);
        if (ran) log.info("Ran queued deploys", { ran });
      },
    },
    // Sign-in with external accounts (lib/oauth): attempts that were used or are older than 10 minutes.
    {
      name: "oauth-states-purge",
      intervalMs: HOUR_MS,
      async run() {
        const deleted = await purgeOAuthStates();
        if (deleted) log.info("Forgot finished sign-in attempts", { deleted });
      },
    },
    // Emailed links (lib/account-tokens): password resets and verifications used or expired over a day ago.
    {
      name: "account-tokens-purge",
      intervalMs: HOUR_MS,
      async run() {
        const deleted = await purgeAccountTokens();
        if (deleted) log.info("Forgot spent emailed links", { deleted });
      },
    },
    // Media (lib/media): transcriptions no process is working on (the uploading one stopped), a few at a time.
    {
      name: "media-transcriptions",
      module: "media",
      intervalMs: 60 * 1000,
      async run(signal) {
        const transcribed = await runPendingTranscriptions(signal);
        if (transcribed) log.info("Transcribed media items", { transcribed });
      },
    },
    // The work queue (lib/queue): finished items are forgotten after a week, dead ones after 30 days.
    {
      name: "queue-prune",
      intervalMs: HOUR_MS,
      async run() {
        const deleted = await pruneQueue();
        if (deleted) log.info("Forgot finished queue items", { deleted });
      },
    },
    // Files of deleted media items that were not removed right after the deletion (a crash, a storage error). Not
    // paused with the media module: tasks and accounts are deleted while it is off too, and their files must go.
    {
      name: "media-purge",
      intervalMs: 5 * 60 * 1000,
      async run() {
        const removed = await purgeDeletedMedia();
        if (removed) log.info("Removed files of deleted media items", { removed });
      },
    },
  ];
}
