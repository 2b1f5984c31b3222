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

/** Drizzle puts a failed query's parameters (emails, password hashes) in its message: never keep them. */
function redact(text: string): string {
  return text.replace(/^params: .*$/gm, "params: [redacted]");
}

/** An error's message with its cause (the database's own complaint), and its stack, without secrets. */
function describe(error: unknown): { message: string; stack: string | null } {
  if (!(error instanceof Error)) return { message: String(error), stack: null };
  const cause = error.cause instanceof Error ? `\ncaused by: ${error.cause.message}` : "";
  return { message: redact(error.message + cause), stack: error.stack ? redact(error.stack) : null };
}

/**
 * Records a 5xx: where it happened and the stack, never the request body, headers or query parameters.
 * Logging must not fail the answer, so a failure to write is only logged.
 */
export async function recordServerError(error: unknown, context: ServerErrorContext): Promise<void> {
  const { message, stack } = describe(error);
  log.error("Request failed", { ...context, error: message });
  await insertErrorLog({ source: "server", message: message.slice(0, 4000), stack, ...context }).catch((failure: unknown) =>
    log.error("Could not write the error log", { error: String(failure) }),
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
