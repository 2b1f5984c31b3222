import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { endAllSessions } from "../auth/sessions/service";
import { config } from "../config";
import { eventConsumerLags } from "../events/consumers";
import { listJobRuns } from "../jobs/repo";
import { JOB_CATALOG } from "../jobs/catalog";
import { isModuleEnabled } from "../modules/registry";
import { disconnectUser } from "../realtime/events";
import { countAdminUsers, findAdminUser, listAdminUsers, setUserDisabled, type AdminUserRow } from "./repo";
import type { AdminUserListOutput, AdminUserOutput, JobStatusListOutput, ListUsersQuery } from "./schema";

function toAdminUserOutput(row: AdminUserRow): AdminUserOutput {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    locale: row.locale as AdminUserOutput["locale"],
    createdAt: row.createdAt.toISOString(),
    lastSeenAt: row.lastSeenAt?.toISOString() ?? null,
    taskCount: row.taskCount,
    isAdmin: config().ADMIN_EMAILS.includes(row.email),
    disabledAt: row.disabledAt?.toISOString() ?? null,
  };
}

export async function listUsers(query: ListUsersQuery): Promise<AdminUserListOutput> {
  const search = query.q || undefined;
  const [rows, total] = await Promise.all([
    listAdminUsers(search, query.pageSize, (query.page - 1) * query.pageSize),
    countAdminUsers(search),
  ]);
  return { items: rows.map(toAdminUserOutput), total, page: query.page, pageSize: query.pageSize };
}

async function getAdminUserOrThrow(userId: string): Promise<AdminUserRow> {
  const user = await findAdminUser(userId);
  if (!user) throw new AppError("not_found", "No such user");
  return user;
}

/**
 * Disables an account: it can no longer sign in (any method), every token issued so far stops working and its open
 * sockets are closed at once. Its data stays. Administrators (ADMIN_EMAILS) cannot be disabled, the caller least of
 * all: that would lock the dashboard's own users out. Disabling a disabled account changes nothing.
 */
export async function disableUser(actor: Actor, userId: string): Promise<AdminUserOutput> {
  if (userId === actor.userId) throw new AppError("conflict", "You cannot disable your own account");
  const user = await getAdminUserOrThrow(userId);
  if (config().ADMIN_EMAILS.includes(user.email)) {
    throw new AppError("conflict", "This user is an administrator (ADMIN_EMAILS): take them off that list first");
  }
  if (user.disabledAt) return toAdminUserOutput(user);
  await setUserDisabled(userId, true, nowDate());
  await endAllSessions(userId);
  disconnectUser(userId);
  return toAdminUserOutput(await getAdminUserOrThrow(userId));
}

/** Lets a disabled account sign in again; the sessions it had stay ended. Enabling an enabled account changes nothing. */
export async function enableUser(userId: string): Promise<AdminUserOutput> {
  const user = await getAdminUserOrThrow(userId);
  if (!user.disabledAt) return toAdminUserOutput(user);
  await setUserDisabled(userId, false, nowDate());
  return toAdminUserOutput(await getAdminUserOrThrow(userId));
}

/** Every background job with its last run, whichever process ran it (job_runs), and whether its module pauses it. */
export async function listJobStatus(): Promise<JobStatusListOutput> {
  const runs = new Map((await listJobRuns()).map((row) => [row.name, row]));
  const items = JOB_CATALOG.map((job) => {
    const run = runs.get(job.name);
    return {
      name: job.name,
      module: job.module ?? null,
      paused: job.module ? !isModuleEnabled(job.module) : false,
      intervalMs: job.intervalMs,
      nextRunAt: run?.nextRunAt.toISOString() ?? null,
      runningOn: run?.leaseOwner ?? null,
      lastStartedAt: run?.lastStartedAt?.toISOString() ?? null,
      lastFinishedAt: run?.lastFinishedAt?.toISOString() ?? null,
      lastDurationMs: run?.lastDurationMs ?? null,
      lastOutcome: run?.lastOutcome ?? null,
      lastError: run?.lastError ?? null,
      lastRunner: run?.lastRunner ?? null,
      runCount: run?.runCount ?? 0,
      failureCount: run?.failureCount ?? 0,
    };
  }).sort((a, b) => a.name.localeCompare(b.name));
  const now = Date.now();
  const eventConsumers = (await eventConsumerLags()).map((lag) => ({
    name: lag.consumer,
    runningOn: lag.leaseOwner,
    behind: lag.behind,
    oldestPendingAt: lag.oldestAt?.toISOString() ?? null,
    lagSeconds: lag.oldestAt ? Math.max(0, (now - lag.oldestAt.getTime()) / 1000) : 0,
    updatedAt: lag.updatedAt.toISOString(),
  }));
  return { items, eventConsumers };
}
