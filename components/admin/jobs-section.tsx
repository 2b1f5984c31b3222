import type { createFormatter } from "next-intl";
import { getTranslations } from "next-intl/server";
import type { JobStatusOutput } from "@/lib/admin/schema";
import { AdminTableSection } from "./admin-table-section";

/*
 * The background jobs of /{locale}/admin (`GET /admin/jobs`): how often each runs, its module (and whether that
 * module's being off pauses it), and its last run across the deployment: when, how long, how it ended and why it
 * failed, with the counts of runs and failures.
 */
export async function JobsSection({ jobs, format }: { jobs: JobStatusOutput[]; format: ReturnType<typeof createFormatter> }) {
  const t = await getTranslations("Admin");
  const columns = {
    job: t("columnJob"),
    module: t("columnJobModule"),
    interval: t("columnInterval"),
    lastRun: t("columnLastRun"),
    outcome: t("columnOutcome"),
    runs: t("columnRuns"),
  };
  const interval = (ms: number) =>
    ms >= 60_000
      ? t("everyMinutes", { minutes: Math.round(ms / 60_000) })
      : t("everySeconds", { seconds: Math.round(ms / 1000) });
  const outcome = (job: JobStatusOutput) => {
    if (job.lastOutcome === "succeeded") return <span className="admin-badge active">{t("outcomeSucceeded")}</span>;
    if (job.lastOutcome === "failed") return <span className="admin-badge disabled">{t("outcomeFailed")}</span>;
    if (job.lastOutcome === "running") return <span className="admin-badge admin">{t("outcomeRunning")}</span>;
    return t("neverRan");
  };
  return (
    <AdminTableSection id="jobs" title={t("jobsTitle")} lead={t("jobsLead")} className="admin-jobs" columns={columns}>
      {jobs.map((job) => (
        <tr key={job.name} data-job={job.name}>
          <th scope="row" data-label={columns.job} className="admin-code" dir="ltr">
            {job.name}
          </th>
          <td data-label={columns.module}>
            <span className="admin-badges">
              {job.module ? t(`moduleNames.${job.module}`) : t("jobCore")}
              {job.paused && <span className="admin-badge disabled">{t("jobPaused")}</span>}
            </span>
          </td>
          <td data-label={columns.interval}>{interval(job.intervalMs)}</td>
          <td data-label={columns.lastRun}>
            {job.lastStartedAt ? (
              <>
                <time dateTime={job.lastStartedAt}>
                  {format.dateTime(new Date(job.lastStartedAt), { dateStyle: "short", timeStyle: "medium" })}
                </time>
                {job.lastDurationMs !== null && job.lastOutcome !== "running" && ` · ${t("tookMs", { ms: job.lastDurationMs })}`}
              </>
            ) : (
              "–"
            )}
          </td>
          <td data-label={columns.outcome}>
            {outcome(job)}
            {job.lastError && (
              <span className="admin-message admin-job-error" dir="auto">
                {job.lastError}
              </span>
            )}
          </td>
          <td data-label={columns.runs}>{t("runCounts", { runs: job.runCount, failures: job.failureCount })}</td>
        </tr>
      ))}
    </AdminTableSection>
  );
}
