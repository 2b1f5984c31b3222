import type { Actor } from "../auth/actor";
import type { ErrorLogRow } from "../db/schema/error-logs";
import { log } from "../log";
import { countErrorLogs, deleteErrorLogsBefore, insertErrorLog, listErrorLogs } from "./repo";
import type { ErrorLogOutput, ErrorReportInput, ErrorStatsOutput, RecentErrorsQuery } from "./schema";

const DAY_MS = 24 * 3600 * 1000;

export interface ServerErrorContext {
  method: string;
  route: string;
  status: number;
  requestId?: string;
  userId?: string;
}

/**
 * Records a 5xx: where it happened and the stack, never the request body or headers. Logging must not
 * fail the answer, so a failure to write is only logged.
 */
export async function recordServerError(error: unknown, context: ServerErrorContext): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const stack = error instanceof Error ? (error.stack ?? null) : null;
  log.error("Request failed", { ...context, error: message });
  await insertErrorLog({ source: "server", message: message.slice(0, 2000), stack, ...context }).catch(
    (failure: unknown) => log.error("Could not write the error log", { error: String(failure) }),
  );
}

export async function reportClientError(
  actor: Actor | undefined,
  input: ErrorReportInput,
  meta: { requestId: string; userAgent?: string },
): Promise<void> {
  await insertErrorLog({
    source: "client",
    message: input.message,
    stack: input.stack ?? null,
    route: input.url ?? null,
    userId: actor?.userId ?? null,
    requestId: meta.requestId,
    userAgent: meta.userAgent?.slice(0, 500) ?? null,
    context: { ...(input.component && { component: input.component }), ...input.context },
  });
}

function toErrorLogOutput(row: ErrorLogRow): ErrorLogOutput {
  return { ...row, createdAt: row.createdAt.toISOString(), context: row.context ?? null };
}

export async function recentErrors(query: RecentErrorsQuery): Promise<ErrorLogOutput[]> {
  return (await listErrorLogs(query.limit, query.source)).map(toErrorLogOutput);
}

export async function errorStats(days: number, now = new Date()): Promise<ErrorStatsOutput> {
  const since = new Date(now.getTime() - days * DAY_MS);
  return { since: since.toISOString(), ...(await countErrorLogs(since)) };
}

/** The retention job: forgets errors older than the given number of days. */
export async function pruneErrorLogs(retentionDays: number, now = new Date()): Promise<number> {
  return deleteErrorLogsBefore(new Date(now.getTime() - retentionDays * DAY_MS));
}
