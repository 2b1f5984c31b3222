import { AppError } from "../api/app-error";
import { now, nowDate } from "../clock";
import { config } from "../config";
import { db } from "../db/client";
import { log } from "../log";
import { hubSignatureMatches } from "../net/hub-signature";
import { defineQueue, done, enqueue, fail, later, work, type JobOutcome, type QueueJob } from "../queue/service";
import { CommandLineError, splitCommandLine } from "./command-line";
import {
  claimDeployRun,
  failStaleDeployRuns,
  findDeployRun,
  findDeployRunByDelivery,
  finishDeployRun,
  insertDeployRun,
  listDeployRuns,
  type DeployRunRow,
} from "./repo";
import { runCommand } from "./run-command";
import type { DeployRunOutput, DeployWebhookAnswer, DeployWebhookPayload } from "./schema";

/*
 * The deploy webhook: GitHub signs each delivery with the shared secret (DEPLOY_WEBHOOK_SECRET); a verified `push`
 * (of DEPLOY_REF when set) queues a run of DEPLOY_COMMAND on the work queue (lib/queue, kind `deploy.run`, one
 * attempt: a deploy is not repeated by itself). Runs go one at a time across every process (the database lets one
 * row be `running`; the next waits its turn), oldest first; each records its exit code and the tail of its output.
 * Nothing unsigned or wrongly signed gets past `verifyDeployDelivery`.
 */

const RUNS_LISTED = 50;
/** A run still `running` this long after its time limit was cut off with its process. */
const STALE_MARGIN_MS = 60_000;

function deployConfig(): { secret: string; command: string } {
  const { DEPLOY_WEBHOOK_SECRET: secret, DEPLOY_COMMAND: command } = config();
  if (!secret || !command)
    throw new AppError(
      "not_found",
      "The deploy webhook is not configured on this server (DEPLOY_WEBHOOK_SECRET, DEPLOY_COMMAND)",
    );
  return { secret, command };
}

/** 404 while not configured; 401 unless the raw body carries a valid signature. Runs before the body is parsed. */
export function verifyDeployDelivery(rawBody: Buffer, signature: string | undefined): void {
  const { secret } = deployConfig();
  if (!hubSignatureMatches(secret, rawBody, signature)) {
    throw new AppError("unauthenticated", "The request is not signed with the deploy secret (X-Hub-Signature-256: sha256=<hex>)");
  }
}

export function toDeployRunOutput(row: DeployRunRow): DeployRunOutput {
  return {
    id: row.id,
    deliveryId: row.deliveryId,
    event: row.event,
    ref: row.ref,
    commitSha: row.commitSha,
    status: row.status,
    reason: row.reason,
    exitCode: row.exitCode,
    output: row.output,
    receivedAt: row.receivedAt.toISOString(),
    startedAt: row.startedAt?.toISOString() ?? null,
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

function skipReason(event: string, ref: string | null): string | null {
  if (event !== "push") return `the ${event} event does not deploy (only push does)`;
  if (!ref) return "the push names no ref";
  const wanted = config().DEPLOY_REF;
  if (wanted && ref !== wanted) return `${ref} is not the deployed ref (${wanted})`;
  return null;
}

/**
 * A verified delivery: `ping` answers without recording; a delivery id seen before answers its run as a duplicate;
 * anything else is recorded, `skipped` or `queued`, and the queue is started in the background (the answer does not
 * wait for the command: GitHub gives up after 10 seconds).
 */
export async function receiveDeploy(
  headers: { event: string; deliveryId: string },
  payload: DeployWebhookPayload,
): Promise<DeployWebhookAnswer> {
  deployConfig();
  if (headers.event === "ping") return { duplicate: false, run: null };
  const seen = await findDeployRunByDelivery(headers.deliveryId);
  if (seen) return { duplicate: true, run: toDeployRunOutput(seen) };
  const ref = payload.ref ?? null;
  const reason = skipReason(headers.event, ref);
  const row = await db().transaction(async (tx) => {
    const inserted = await insertDeployRun(
      {
        deliveryId: headers.deliveryId,
        event: headers.event,
        ref,
        commitSha: payload.after ?? null,
        status: reason ? "skipped" : "queued",
        reason,
        ...(reason && { finishedAt: nowDate() }),
      },
      tx,
    );
    if (inserted && !reason) await enqueue(deployRunQueue, inserted.id, {}, { executor: tx });
    return inserted;
  });
  if (!row) {
    const raced = await findDeployRunByDelivery(headers.deliveryId);
    return { duplicate: true, run: raced && toDeployRunOutput(raced) };
  }
  if (!reason) startDeployQueue();
  return { duplicate: false, run: toDeployRunOutput(row) };
}

/** One deploy: runs it unless another one is running (in any process), in which case it waits its turn. */
async function runQueued(job: QueueJob<Record<string, never>>): Promise<JobOutcome> {
  const queued = await findDeployRun(job.key);
  if (!queued || queued.status !== "queued") return done();
  const run = await claimDeployRun(queued.id);
  if (!run) return later(nowDate(), "Another deploy is running");
  const finished = await execute(run);
  return finished.status === "failed" ? fail(finished.reason ?? "failed") : done();
}

/** The deploys' queue: one attempt each, held for the command's time limit and a minute. */
const deployRunQueue = defineQueue<Record<string, never>>({
  kind: "deploy.run",
  maxAttempts: 1,
  leaseMs: () => config().DEPLOY_TIMEOUT_MS + STALE_MARGIN_MS,
  run: runQueued,
  async onAbandoned(job) {
    const run = await findDeployRun(job.key);
    if (run?.status === "running") await failStaleDeployRuns(new Date(now() + 1), run.id);
  },
});

let draining: Promise<number> | null = null;

/** Starts working through the queue unless this process already is; errors are logged. */
function startDeployQueue(): void {
  if (draining) {
    // The loop in progress may have looked for work just before this run was queued: look again after it.
    void draining.then(() => startDeployQueue());
    return;
  }
  draining = work(deployRunQueue, { batch: 1, rounds: 100 })
    .catch((error: unknown) => {
      log.error("The deploy queue failed", { error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
      return 0;
    })
    .finally(() => {
      draining = null;
    });
}

async function execute(run: DeployRunRow): Promise<DeployRunRow> {
  const { DEPLOY_TIMEOUT_MS: timeoutMs } = config();
  let argv: string[];
  try {
    argv = splitCommandLine(deployConfig().command);
  } catch (error) {
    const reason = error instanceof CommandLineError ? `DEPLOY_COMMAND ${error.message}` : "DEPLOY_COMMAND is not configured";
    return finishDeployRun(run.id, { status: "failed", exitCode: null, output: null, reason });
  }
  log.info("Deploying", { deliveryId: run.deliveryId, ref: run.ref });
  const result = await runCommand(argv, { timeoutMs, env: commandEnvironment(run) });
  const reason = result.timedOut
    ? `timed out after ${timeoutMs} ms: killed`
    : result.startError
      ? `could not start ${argv[0]}: ${result.startError}`
      : result.exitCode === 0
        ? null
        : `exited with ${result.exitCode ?? "a signal"}`;
  const finished = await finishDeployRun(run.id, {
    status: reason ? "failed" : "succeeded",
    exitCode: result.exitCode,
    output: result.output,
    reason,
  });
  log.info("Deploy finished", { deliveryId: run.deliveryId, status: finished.status, exitCode: finished.exitCode });
  return finished;
}

/** The command's environment: enough to find programs and a home, plus what the delivery asked for; no secrets. */
function commandEnvironment(run: DeployRunRow): Record<string, string> {
  const inherited = ["PATH", "HOME", "LANG", "TZ"].flatMap((name) =>
    process.env[name] ? [[name, process.env[name]!] as const] : [],
  );
  return {
    ...Object.fromEntries(inherited),
    DEPLOY_REF: run.ref ?? "",
    DEPLOY_SHA: run.commitSha ?? "",
    DEPLOY_DELIVERY: run.deliveryId,
  };
}

/**
 * The job: fails runs left `running` by a process that stopped, then runs what is queued, oldest first (after the
 * drain this process may have going); answers how many ran meanwhile.
 */
export async function runDeployQueue(signal?: AbortSignal): Promise<number> {
  if (!config().DEPLOY_WEBHOOK_SECRET || !config().DEPLOY_COMMAND) return 0;
  await failStaleDeployRuns(new Date(now() - config().DEPLOY_TIMEOUT_MS - STALE_MARGIN_MS));
  // What this process is already running (a delivery just received) first, counted with what is due after it.
  const drained = draining ? await draining : 0;
  return drained + (await work(deployRunQueue, { batch: 1, rounds: 100, signal }));
}

export async function listDeploys(): Promise<{ items: DeployRunOutput[] }> {
  return { items: (await listDeployRuns(RUNS_LISTED)).map(toDeployRunOutput) };
}
