import { and, desc, eq, lt, notInArray } from "drizzle-orm";
import { db } from "../db/client";
import { syncStates, type SyncStateRow } from "../db/schema/sync";

export type { SyncStateRow };

export async function insertSyncState(
  userId: string,
  parentId: string | null,
  versions: Record<string, string>,
  now: Date,
): Promise<string> {
  const [row] = await db()
    .insert(syncStates)
    .values({ userId, parentId, versions, createdAt: now, usedAt: now })
    .returning({ id: syncStates.id });
  return row!.id;
}

/** The user's state with this id, marked used now; null when there is none (never was, another user's, or expired). */
export async function useSyncState(userId: string, id: string, now: Date): Promise<SyncStateRow | null> {
  const [row] = await db()
    .update(syncStates)
    .set({ usedAt: now })
    .where(and(eq(syncStates.id, id), eq(syncStates.userId, userId)))
    .returning();
  return row ?? null;
}

/** The user's state with this id, unchanged; null when there is none. */
export async function findSyncState(userId: string, id: string): Promise<SyncStateRow | null> {
  const [row] = await db()
    .select()
    .from(syncStates)
    .where(and(eq(syncStates.id, id), eq(syncStates.userId, userId)));
  return row ?? null;
}

export async function deleteSyncState(userId: string, id: string): Promise<void> {
  await db()
    .delete(syncStates)
    .where(and(eq(syncStates.id, id), eq(syncStates.userId, userId)));
}

/** Deletes the user's states unused since `unusedSince`, and all but their `keep` most recently used. */
export async function pruneSyncStates(userId: string, unusedSince: Date, keep: number): Promise<void> {
  await db()
    .delete(syncStates)
    .where(and(eq(syncStates.userId, userId), lt(syncStates.usedAt, unusedSince)));
  const kept = db()
    .select({ id: syncStates.id })
    .from(syncStates)
    .where(eq(syncStates.userId, userId))
    .orderBy(desc(syncStates.usedAt), desc(syncStates.id))
    .limit(keep);
  await db()
    .delete(syncStates)
    .where(and(eq(syncStates.userId, userId), notInArray(syncStates.id, kept)));
}
