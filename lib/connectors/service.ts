import { createHash, randomBytes, randomUUID, timingSafeEqual } from "node:crypto";
import { z } from "@hono/zod-openapi";
import { AppError, invalidField } from "../api/app-error";
import { validationError } from "../api/problem";
import { actorForUser, type Actor } from "../auth/actor";
import { now, nowDate } from "../clock";
import type { ConnectorKind, ConnectorRunCounts, ConnectorRunItem } from "../db/schema/connectors";
import { db } from "../db/client";
import { log } from "../log";
import { isModuleEnabled } from "../modules/registry";
import { hubSignatureMatches } from "../net/hub-signature";
import { TargetRefused } from "../net/addresses";
import {
  BACKOFF_MS,
  cancelQueued,
  defineQueue,
  done,
  enqueue,
  fail,
  later,
  retry,
  runNow,
  work,
  type JobOutcome,
  type QueueJob,
} from "../queue/service";
import { findMemberRole } from "../teams/repo";
import type { AnyDriver, SyncContext } from "./driver";
import { driverOf } from "./drivers";
import { checkBaseUrl, connectorRequest, ConnectorError } from "./http";
import {
  activeRunIds,
  deleteConnectionRow,
  deliverySeen,
  findConnection,
  findRun,
  findLink,
  findLinkByLocal,
  finishRun,
  insertConnection,
  insertRun,
  listLinks,
  listRuns,
  listVisibleConnections,
  restartRun,
  saveLink,
  updateConnectionRow,
  type ConnectorConnectionRow,
  type ConnectorRunRow,
} from "./repo";
import {
  CONNECTOR_KINDS,
  type ConnectionOutput,
  type CreateConnectionInput,
  type RunOutput,
  type StatusOutput,
  type UpdateConnectionInput,
} from "./schema";
import { decryptSecret, encryptSecret } from "./secrets";

/*
 * The connector framework: connections (personal or a team's), their encrypted credentials, and the runs of their
 * import, export and incoming webhook. Each kind's protocol lives in its driver (lib/connectors/<kind>/); this file
 * decides who may do what, records every run item by item, and retries runs that failed for a reason that may pass.
 *
 * - Who: a personal connection is its owner's alone; a team's connection is seen by the team's members and
 *   managed (changed, run, deleted) by its creator and the team's owners and admins. Anyone else gets 404.
 * - Runs: one at a time per connection (a second start answers 409; a webhook waits `queued`). Every run is an item
 *   of the work queue (lib/queue, kind `connector.run`): a user's run and a webhook's are taken at once, in the
 *   request. A run whose failure may pass (no answer, a timeout, HTTP 5xx or 429) is tried again on the queue's
 *   back-off (1, 5 and 30 minutes), then left failed; one cut off by a stopped process is taken again.
 *   A failed item does not fail the run: it ends `partial`, the item's error recorded. Drivers map external ids to
 *   local records (connector_links), so a run repeated creates nothing twice.
 */

/** A run is tried at most this often: the first time, then after the first delays of the queue's back-off table. */
export const MAX_ATTEMPTS = 4;
export const RETRY_DELAYS_MS = [BACKOFF_MS[0], BACKOFF_MS[1], BACKOFF_MS[2]] as const;
/** How long one attempt of a run holds its queue item: a run still going after this was cut off (its process stopped). */
const RUN_LEASE_MS = 15 * 60_000;
const QUEUED_WAIT_MS = 10_000;
const ITEMS_KEPT = 200;
const RUNS_LISTED = 50;
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

// Drivers and access

function enabledDriver(kind: ConnectorKind): AnyDriver {
  const driver = driverOf(kind);
  if (!driver) throw new AppError("not_found", `This server has no ${kind} connector`);
  if (!isModuleEnabled(driver.module))
    throw new AppError("module_disabled", `The ${driver.module} module is switched off on this server`);
  return driver;
}

function enabledKinds(): ConnectorKind[] {
  return CONNECTOR_KINDS.filter((kind) => {
    const driver = driverOf(kind);
    return driver !== null && isModuleEnabled(driver.module);
  });
}

export interface Visible {
  row: ConnectorConnectionRow;
  driver: AnyDriver;
  canManage: boolean;
}

async function canManageRow(actor: Actor, row: ConnectorConnectionRow): Promise<boolean | null> {
  if (row.userGroupId === null) return row.ownerId === actor.userId ? true : null;
  const role = await findMemberRole(row.userGroupId, actor.userId);
  if (!role) return null;
  return row.ownerId === actor.userId || role === "owner" || role === "admin";
}

const NO_CONNECTION = "No connection with this id";

async function visibleConnection(actor: Actor, id: string): Promise<Visible> {
  const row = await findConnection(id);
  const canManage = row && (await canManageRow(actor, row));
  if (!row || canManage === null) throw new AppError("not_found", NO_CONNECTION);
  return { row, driver: enabledDriver(row.kind), canManage };
}

async function managedConnection(actor: Actor, id: string): Promise<Visible> {
  const visible = await visibleConnection(actor, id);
  if (!visible.canManage)
    throw new AppError("forbidden", "Only the connection's creator and the team's owners and admins may change or run it");
  return visible;
}

// Answers

function credentialsHint(row: ConnectorConnectionRow, driver: AnyDriver): string {
  try {
    return driver.describeCredentials(JSON.parse(decryptSecret(row.credentials, row.id)));
  } catch {
    return "unreadable: the encryption key changed; enter the credentials again";
  }
}

function toOutput({ row, driver, canManage }: Visible): ConnectionOutput {
  return {
    id: row.id,
    kind: row.kind,
    name: row.name,
    baseUrl: row.baseUrl,
    teamId: row.userGroupId,
    settings: row.settings,
    credentialsHint: credentialsHint(row, driver),
    status: row.status,
    lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
    lastError: row.lastError,
    webhookPath: `/api/v1/connectors/${row.id}/webhook`,
    canManage,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export function toRunOutput(run: ConnectorRunRow): RunOutput {
  return {
    id: run.id,
    operation: run.operation,
    trigger: run.trigger,
    status: run.status,
    attempt: run.attempt,
    nextAttemptAt: run.nextAttemptAt?.toISOString() ?? null,
    counts: run.counts,
    items: run.items,
    error: run.error,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
  };
}

// Input

/** Validates a kind's credentials or settings with its driver's schema; errors point into the request body. */
function parsePart<T>(schema: z.ZodType<T>, field: "credentials" | "settings", value: unknown): T {
  const parsed = z.object({ [field]: schema }).safeParse({ [field]: value });
  if (!parsed.success) throw validationError(parsed.error, "json");
  return parsed.data[field] as T;
}

function checkedBaseUrl(raw: string): string {
  try {
    return checkBaseUrl(raw);
  } catch (error) {
    if (error instanceof TargetRefused) throw invalidField("body", "/baseUrl", error.message);
    throw error;
  }
}

function newWebhookSecret(): string {
  return `whsec_${randomBytes(24).toString("base64url")}`;
}

// Connections

export async function listConnections(actor: Actor, kind?: ConnectorKind): Promise<{ items: ConnectionOutput[] }> {
  const kinds = enabledKinds().filter((each) => !kind || each === kind);
  if (kind && !kinds.includes(kind)) enabledDriver(kind);
  const rows = await listVisibleConnections(actor.userId, kinds);
  const items: ConnectionOutput[] = [];
  for (const row of rows) {
    const canManage = await canManageRow(actor, row);
    if (canManage !== null) items.push(toOutput({ row, driver: enabledDriver(row.kind), canManage }));
  }
  return { items };
}

export async function getConnection(actor: Actor, id: string): Promise<ConnectionOutput> {
  return toOutput(await visibleConnection(actor, id));
}

export async function createConnection(
  actor: Actor,
  input: CreateConnectionInput,
): Promise<ConnectionOutput & { webhookSecret: string }> {
  const driver = enabledDriver(input.kind);
  const baseUrl = checkedBaseUrl(input.baseUrl);
  const credentials = parsePart(driver.credentials, "credentials", input.credentials);
  const settings = parsePart(driver.settings, "settings", input.settings ?? {});
  const teamId = input.teamId ?? null;
  if (teamId) {
    const role = await findMemberRole(teamId, actor.userId);
    if (!role) throw new AppError("not_found", "No team with this id");
    if (role === "member") throw new AppError("forbidden", "Only the team's owners and admins may add its connections");
  }
  const id = randomUUID();
  const webhookSecret = newWebhookSecret();
  const row = await insertConnection({
    id,
    kind: input.kind,
    name: input.name,
    ownerId: actor.userId,
    userGroupId: teamId,
    baseUrl,
    credentials: encryptSecret(JSON.stringify(credentials), id),
    settings: settings as Record<string, unknown>,
    webhookSecret: encryptSecret(webhookSecret, id),
  });
  return { ...toOutput({ row, driver, canManage: true }), webhookSecret };
}

export async function updateConnection(actor: Actor, id: string, input: UpdateConnectionInput): Promise<ConnectionOutput> {
  const { driver } = await managedConnection(actor, id);
  const reachChanged = input.baseUrl !== undefined || input.credentials !== undefined;
  const updated = await updateConnectionRow(id, {
    ...(input.name !== undefined && { name: input.name }),
    ...(input.baseUrl !== undefined && { baseUrl: checkedBaseUrl(input.baseUrl) }),
    ...(input.credentials !== undefined && {
      credentials: encryptSecret(JSON.stringify(parsePart(driver.credentials, "credentials", input.credentials)), id),
    }),
    ...(input.settings !== undefined && {
      settings: parsePart(driver.settings, "settings", input.settings) as Record<string, unknown>,
    }),
    // New address or credentials: what the last check said no longer holds.
    ...(reachChanged && { status: "new" as const, lastError: null }),
  });
  if (!updated) throw new AppError("not_found", NO_CONNECTION);
  return toOutput({ row: updated, driver, canManage: true });
}

/** Deletes the connection with its links and runs (their queued retries cancelled); what it imported stays. */
export async function deleteConnection(actor: Actor, id: string): Promise<void> {
  await managedConnection(actor, id);
  await db().transaction(async (tx) => {
    const runs = await activeRunIds(id, tx);
    await deleteConnectionRow(id, tx);
    await cancelQueued(connectorRunQueue, runs, "The connection was deleted", tx);
  });
}

export async function rotateWebhookSecret(actor: Actor, id: string): Promise<{ webhookSecret: string }> {
  await managedConnection(actor, id);
  const webhookSecret = newWebhookSecret();
  await updateConnectionRow(id, { webhookSecret: encryptSecret(webhookSecret, id) });
  return { webhookSecret };
}

export async function listConnectionRuns(actor: Actor, id: string): Promise<{ items: RunOutput[] }> {
  await visibleConnection(actor, id);
  return { items: (await listRuns(id, RUNS_LISTED)).map(toRunOutput) };
}

/**
 * The connection of a kind that a kind's own routes (`GET /erp/status`...) act on: the one named, else the caller's
 * only one of that kind (personal first, then a team's). 404 when there is none; 400 naming `connectionId` when
 * several could be meant.
 */
export async function connectionOfKind(
  actor: Actor,
  kind: ConnectorKind,
  connectionId?: string,
  manage = false,
): Promise<Visible> {
  enabledDriver(kind);
  if (connectionId) {
    const visible = manage ? await managedConnection(actor, connectionId) : await visibleConnection(actor, connectionId);
    if (visible.row.kind !== kind) throw new AppError("not_found", `No ${kind} connection with this id`);
    return visible;
  }
  const rows = await listVisibleConnections(actor.userId, [kind]);
  const personal = rows.filter((row) => row.userGroupId === null);
  const candidates = personal.length ? personal : rows;
  if (candidates.length === 0) throw new AppError("not_found", `You have no ${kind} connection; add one under /connectors`);
  if (candidates.length > 1)
    throw invalidField("query", "/connectionId", `you have ${candidates.length} ${kind} connections: name one`);
  const visible = await visibleConnection(actor, candidates[0]!.id);
  if (manage && !visible.canManage)
    throw new AppError("forbidden", "Only the connection's creator and the team's owners and admins may do this");
  return visible;
}

// Running a driver

async function ownerActor(row: ConnectorConnectionRow): Promise<Actor> {
  const actor = await actorForUser(row.ownerId);
  if (!actor) throw new ConnectorError("The connection's owner can no longer sign in (disabled)", false);
  return actor;
}

/** The connection's credentials and settings as the driver expects them; a permanent failure when unreadable. */
function storedParts(row: ConnectorConnectionRow, driver: AnyDriver): { credentials: unknown; settings: unknown } {
  try {
    return { credentials: JSON.parse(decryptSecret(row.credentials, row.id)), settings: driver.settings.parse(row.settings) };
  } catch {
    throw new ConnectorError(
      "The stored credentials or settings cannot be read (the encryption key changed?): enter them again",
      false,
    );
  }
}

/** The context a driver works in, collecting what happens to each item. */
function syncContext(row: ConnectorConnectionRow, actor: Actor, driver: AnyDriver) {
  const items: ConnectorRunItem[] = [];
  const counts: ConnectorRunCounts = { created: 0, updated: 0, unchanged: 0, skipped: 0, failed: 0 };
  const context: SyncContext = {
    connection: {
      id: row.id,
      kind: row.kind,
      name: row.name,
      baseUrl: row.baseUrl,
      ...storedParts(row, driver),
      actor,
      userGroupId: row.userGroupId,
    },
    links: {
      async find(entity, externalId) {
        const link = await findLink(row.id, entity, externalId);
        return link && { localId: link.localId, fingerprint: link.fingerprint };
      },
      async findByLocal(entity, localId) {
        const link = await findLinkByLocal(row.id, entity, localId);
        return link && { externalId: link.externalId, fingerprint: link.fingerprint };
      },
      async list(entity) {
        return (await listLinks(row.id, entity)).map((link) => ({
          externalId: link.externalId,
          localId: link.localId,
          fingerprint: link.fingerprint,
        }));
      },
      save: (entity, externalId, localId, fingerprint) => saveLink(row.id, entity, externalId, localId, fingerprint),
    },
    request: connectorRequest,
    item(item) {
      counts[item.action] += 1;
      items.push(item);
    },
  };
  const keptItems = () =>
    [...items.filter((item) => item.action === "failed"), ...items.filter((item) => item.action !== "failed")].slice(
      0,
      ITEMS_KEPT,
    );
  return { context, counts, keptItems };
}

/**
 * Runs the operation of a run that is `running` and records how it ended (a failure that may pass with the time of
 * its retry, `retryAt`, null after the last attempt); never throws for the driver's failures.
 */
async function perform(
  row: ConnectorConnectionRow,
  driver: AnyDriver,
  run: ConnectorRunRow,
  retryAt: (from: Date) => Date | null,
): Promise<ConnectorRunRow> {
  let outcome: Pick<ConnectorRunRow, "status" | "counts" | "items" | "error" | "nextAttemptAt">;
  try {
    const { context, counts, keptItems } = syncContext(row, await ownerActor(row), driver);
    try {
      if (run.operation === "webhook") await driver.webhook!(context, run.payload);
      else await driver[run.operation]!(context);
      const done = counts.created + counts.updated + counts.unchanged + counts.skipped;
      const status = counts.failed === 0 ? "succeeded" : done > 0 ? "partial" : "failed";
      const error = counts.failed ? `${counts.failed} of ${counts.failed + done} items failed` : null;
      outcome = { status, counts, items: keptItems(), error, nextAttemptAt: null };
    } catch (error) {
      outcome = { ...failure(error, retryAt), counts, items: keptItems() };
    }
  } catch (error) {
    outcome = { ...failure(error, retryAt), counts: run.counts, items: [] };
  }
  const finished = await finishRun(run.id, { ...outcome, keepPayload: outcome.nextAttemptAt !== null });
  const failed = finished.status === "failed";
  await updateConnectionRow(row.id, {
    status: failed ? "error" : "ok",
    lastError: finished.error,
    ...(!failed && { lastSyncAt: finished.finishedAt }),
  });
  return finished;
}

function failure(
  error: unknown,
  retryAt: (from: Date) => Date | null,
): Pick<ConnectorRunRow, "status" | "error" | "nextAttemptAt"> {
  const known = error instanceof ConnectorError;
  if (!known)
    log.error("A connector run failed unexpectedly", {
      error: error instanceof Error ? (error.stack ?? error.message) : String(error),
    });
  const transient = known ? error.transient : true;
  return {
    status: "failed",
    error: known ? error.message : "Unexpected error (logged on the server)",
    nextAttemptAt: transient ? retryAt(nowDate()) : null,
  };
}

/** A user's import or export: runs now and answers the finished run. */
export async function runOperation(actor: Actor, id: string, operation: "import" | "export"): Promise<RunOutput> {
  const { row, driver } = await managedConnection(actor, id);
  if (!driver[operation]) throw new AppError("not_found", `The ${row.kind} connector has no ${operation}`);
  const run = await insertQueuedRun({ connectionId: id, operation, trigger: "user", status: "running" });
  if (!run) throw new AppError("conflict", "A run of this connection is in progress; try again when it has finished");
  return toRunOutput(await runQueuedNow(run));
}

/**
 * A driver's context for a kind's own read-only routes (`GET /learning/courses`...): the connection's decrypted
 * credentials, acting as its owner; what it records as items goes nowhere (no run).
 */
export async function driverContext<Credentials = unknown, Settings = unknown>({
  row,
  driver,
}: Visible): Promise<SyncContext<Credentials, Settings>> {
  try {
    return syncContext(row, await ownerActor(row), driver).context as SyncContext<Credentials, Settings>;
  } catch (error) {
    if (error instanceof ConnectorError) throw new AppError("unavailable", error.message);
    throw error;
  }
}

/** A status check (nothing recorded as a run; the connection's status and last error follow it). */
export async function checkConnection(actor: Actor, id: string): Promise<StatusOutput> {
  return checkVisible(await visibleConnection(actor, id));
}

/**
 * The check of the caller's connection of one kind (the one named, or their own, else their team's): for example
 * `GET /accounting/status` for POHODA.
 */
export async function connectionStatusOfKind(actor: Actor, kind: ConnectorKind, connectionId?: string): Promise<StatusOutput> {
  return checkVisible(await connectionOfKind(actor, kind, connectionId));
}

export async function checkVisible({ row, driver }: Visible): Promise<StatusOutput> {
  let report;
  try {
    const { context } = syncContext(row, await ownerActor(row), driver);
    report = await driver.check(context);
  } catch (error) {
    const message = error instanceof ConnectorError ? error.message : "Unexpected error (logged on the server)";
    if (!(error instanceof ConnectorError)) log.error("A connector check failed unexpectedly", { error: String(error) });
    report = { reachable: false, authenticated: false, error: message };
  }
  const ok = report.reachable && report.authenticated;
  await updateConnectionRow(row.id, {
    status: ok ? "ok" : "error",
    lastError: ok ? null : (report.error ?? "Not authenticated"),
  });
  return {
    connectionId: row.id,
    reachable: report.reachable,
    authenticated: report.authenticated,
    version: report.version ?? null,
    details: report.details ?? {},
    error: report.error ?? null,
    checkedAt: nowDate().toISOString(),
  };
}

// The incoming webhook

const UNVERIFIED =
  "The request is not signed with this connection's webhook secret (X-Hub-Signature-256: sha256=<hex>), nor does it carry it as ?token=";

/** The secret itself in the URL (for systems that cannot sign: Odoo's and Moodle's webhook actions), compared in constant time. */
function tokenMatches(secret: string, token: string | undefined): boolean {
  if (!token) return false;
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(secret), digest(token));
}

/**
 * A signed event from the external system (or one carrying the secret as `?token=`, for systems that cannot sign).
 * Unknown connection or a missing or wrong signature: 401, nothing runs.
 * A delivery id seen before: nothing runs again. While another run of the connection is running, the event waits
 * `queued` (the retry job starts it); otherwise it runs now and the answer is the finished run.
 */
export async function receiveWebhook(
  id: string,
  rawBody: string,
  headers: { signature?: string; deliveryId?: string; token?: string },
): Promise<{ duplicate: boolean; run: RunOutput | null }> {
  const row = await findConnection(id);
  if (!row) throw new AppError("unauthenticated", UNVERIFIED);
  const driver = enabledDriver(row.kind);
  let secret: string;
  try {
    secret = decryptSecret(row.webhookSecret, row.id);
  } catch {
    throw new AppError("unauthenticated", UNVERIFIED);
  }
  if (!hubSignatureMatches(secret, rawBody, headers.signature) && !tokenMatches(secret, headers.token)) {
    throw new AppError("unauthenticated", UNVERIFIED);
  }
  if (!driver.webhook) throw new AppError("not_found", `The ${row.kind} connector takes no webhook`);
  let payload: unknown;
  try {
    payload = JSON.parse(rawBody);
  } catch {
    throw new AppError("bad_request", "The webhook's body is not JSON");
  }
  if (headers.deliveryId !== undefined && !DELIVERY_ID.test(headers.deliveryId)) {
    throw invalidField("header", "/x-delivery-id", "must be 1-200 visible ASCII characters");
  }
  const deliveryId = headers.deliveryId ?? `sha256:${createHash("sha256").update(rawBody).digest("hex")}`;
  if (await deliverySeen(id, deliveryId)) return { duplicate: true, run: null };
  const base = { connectionId: id, operation: "webhook" as const, trigger: "webhook" as const, deliveryId, payload };
  const run = await insertQueuedRun({ ...base, status: "running" });
  if (run) return { duplicate: false, run: toRunOutput(await runQueuedNow(run)) };
  const queued = await insertQueuedRun({ ...base, status: "queued", nextAttemptAt: new Date(now() + QUEUED_WAIT_MS) });
  if (!queued) return { duplicate: true, run: null };
  return { duplicate: false, run: toRunOutput(queued) };
}

// The queue

/**
 * Records a run (`running`, or `queued` for a webhook waiting its turn) with its queue item, due at the run's
 * `nextAttemptAt` (now unless given), in one transaction; null when another run of the connection is running, or
 * (a webhook) this delivery id was recorded.
 */
async function insertQueuedRun(values: Parameters<typeof insertRun>[0]): Promise<ConnectorRunRow | null> {
  return db().transaction(async (tx) => {
    const run = await insertRun(values, tx);
    if (run) await enqueue(connectorRunQueue, run.id, {}, { runAt: run.nextAttemptAt ?? undefined, executor: tx });
    return run;
  });
}

/** Takes a just-recorded run's queue item and runs it in this request; answers the run as it ended. */
async function runQueuedNow(run: ConnectorRunRow): Promise<ConnectorRunRow> {
  await runNow(connectorRunQueue, run.id);
  return (await findRun(run.id)) ?? run;
}

/**
 * One attempt of a queued run: a fresh run goes now; a retry, a webhook that waited or a run cut off by a stopped
 * process starts again as this attempt, unless another run of the connection is in progress (then in a moment)
 * or its module is switched off (then in five minutes).
 */
async function runQueued(job: QueueJob<Record<string, never>>): Promise<JobOutcome> {
  const run = await findRun(job.key);
  const row = run && (await findConnection(run.connectionId));
  const driver = row && driverOf(row.kind);
  if (!run || !row || !driver) return done(); // deleted with its connection
  if (!isModuleEnabled(driver.module)) {
    return later(new Date(now() + 5 * 60_000), `The ${driver.module} module is switched off`);
  }
  let current = run;
  if (run.status !== "running" || run.attempt !== job.attempt) {
    const restarted = await restartRun(run.id, job.attempt);
    if (!restarted) return later(new Date(now() + QUEUED_WAIT_MS), "Another run of the connection is in progress");
    current = restarted;
  }
  const finished = await perform(row, driver, current, job.retryAt);
  if (finished.status !== "failed") return done();
  const error = finished.error ?? "failed";
  return finished.nextAttemptAt ? retry(error, finished.nextAttemptAt) : fail(error);
}

/** Connector runs on the work queue: one item per run, retried on the queue's back-off while failures may pass. */
export const connectorRunQueue = defineQueue<Record<string, never>>({
  kind: "connector.run",
  maxAttempts: MAX_ATTEMPTS,
  leaseMs: () => RUN_LEASE_MS,
  run: runQueued,
  async onAbandoned(job) {
    const run = await findRun(job.key);
    if (!run || (run.status !== "running" && run.status !== "queued")) return;
    const finished = await finishRun(run.id, {
      status: "failed",
      counts: run.counts,
      items: run.items,
      error: "The run was interrupted (the server stopped)",
      nextAttemptAt: null,
      keepPayload: false,
    });
    await updateConnectionRow(run.connectionId, { status: "error", lastError: finished.error });
  },
});

/** The job: runs retries and waiting webhooks whose time has come, each once across processes; answers how many ran. */
export async function runConnectorRetries(signal?: AbortSignal): Promise<number> {
  return work(connectorRunQueue, { batch: 10, signal });
}
