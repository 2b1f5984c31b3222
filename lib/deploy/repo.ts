import { and, desc, eq, lt } from "drizzle-orm";
import { isUniqueViolation } from "../api/app-error";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { deployRuns, type DeployRunRow } from "../db/schema/deploy";

export type { DeployRunRow };

/** A new delivery; null when its delivery id was received before. */
export async function insertDeployRun(
  row: typeof deployRuns.$inferInsert,
  executor: Executor = db(),
): Promise<DeployRunRow | null> {
  const [inserted] = await executor
    .insert(deployRuns)
    .values({ ...row, receivedAt: nowDate() })
    .onConflictDoNothing({ target: deployRuns.deliveryId })
    .returning();
  return inserted ?? null;
}

export async function findDeployRun(id: string): Promise<DeployRunRow | null> {
  const [row] = await db().select().from(deployRuns).where(eq(deployRuns.id, id));
  return row ?? null;
}

export async function findDeployRunByDelivery(deliveryId: string): Promise<DeployRunRow | null> {
  const [row] = await db().select().from(deployRuns).where(eq(deployRuns.deliveryId, deliveryId));
  return row ?? null;
}

/** Starts a queued run unless one is running (in any process: the unique index on the running row refuses a second). */
export async function claimDeployRun(id: string): Promise<DeployRunRow | null> {
  try {
    const [row] = await db()
      .update(deployRuns)
      .set({ status: "running", startedAt: nowDate() })
      .where(and(eq(deployRuns.id, id), eq(deployRuns.status, "queued")))
      .returning();
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export async function finishDeployRun(
  id: string,
  result: Pick<DeployRunRow, "exitCode" | "output" | "reason"> & { status: "succeeded" | "failed" },
): Promise<DeployRunRow> {
  const [row] = await db()
    .update(deployRuns)
    .set({ ...result, finishedAt: nowDate() })
    .where(eq(deployRuns.id, id))
    .returning();
  return row!;
}

/**
 * Runs still `running` that started before `startedBefore` (their process stopped), or the one given: failed, so
 * the queue moves on.
 */
export async function failStaleDeployRuns(startedBefore: Date, id?: string): Promise<number> {
  const rows = await db()
    .update(deployRuns)
    .set({ status: "failed", reason: "interrupted: the process running it stopped", finishedAt: nowDate() })
    .where(and(eq(deployRuns.status, "running"), lt(deployRuns.startedAt, startedBefore), id ? eq(deployRuns.id, id) : undefined))
    .returning({ id: deployRuns.id });
  return rows.length;
}

export async function listDeployRuns(limit: number): Promise<DeployRunRow[]> {
  return db().select().from(deployRuns).orderBy(desc(deployRuns.receivedAt), desc(deployRuns.id)).limit(limit);
}
