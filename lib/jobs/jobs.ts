import { expireAllDueRequests } from "../collaboration/expiry";
import { config } from "../config";
import { pruneErrorLogs } from "../errors/service";
import { log } from "../log";
import { createDueOccurrences } from "../tasks/recurring";
import type { Job } from "./runner";

const HOUR_MS = 3600 * 1000;

/** Every background job of the service. Later modules add theirs here. */
export function backgroundJobs(): Job[] {
  return [
    {
      name: "recurring-tasks",
      intervalMs: 60 * 1000,
      async run() {
        const created = await createDueOccurrences();
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
    {
      name: "prune-error-logs",
      intervalMs: HOUR_MS,
      async run() {
        const deleted = await pruneErrorLogs(config().ERROR_LOG_RETENTION_DAYS);
        if (deleted) log.info("Pruned old error logs", { deleted });
      },
    },
  ];
}
