import { and, asc, count, eq } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { mediaItems, mediaPurges, type MediaItemRow, type TranscriptionStatus } from "../db/schema/media";

export type { MediaItemRow };
export type NewMediaItem = Omit<typeof mediaItems.$inferInsert, "id" | "createdAt">;

export async function insertMediaItem(item: NewMediaItem, database: Executor = db()): Promise<MediaItemRow> {
  const [row] = await database.insert(mediaItems).values(item).returning();
  return row!;
}

export async function findMediaItem(id: string, database: Executor = db()): Promise<MediaItemRow | null> {
  const [row] = await database.select().from(mediaItems).where(eq(mediaItems.id, id)).limit(1);
  return row ?? null;
}

/** A task's media, oldest first. */
export async function listTaskMedia(taskId: string, database: Executor = db()): Promise<MediaItemRow[]> {
  return database
    .select()
    .from(mediaItems)
    .where(eq(mediaItems.taskId, taskId))
    .orderBy(asc(mediaItems.createdAt), asc(mediaItems.id));
}

export async function countTaskMedia(taskId: string, database: Executor): Promise<number> {
  const [row] = await database.select({ items: count() }).from(mediaItems).where(eq(mediaItems.taskId, taskId));
  return row?.items ?? 0;
}

/** Deletes the row; the trigger queues its file in media_purges in the same transaction. */
export async function deleteMediaRow(id: string, database: Executor): Promise<void> {
  await database.delete(mediaItems).where(eq(mediaItems.id, id));
}

// Transcription

export async function finishTranscription(
  id: string,
  outcome: { status: Extract<TranscriptionStatus, "done" | "failed">; transcript: string | null; error: string | null },
): Promise<void> {
  await db()
    .update(mediaItems)
    .set({
      transcriptionStatus: outcome.status,
      transcript: outcome.transcript,
      transcriptionError: outcome.error,
      transcribedAt: outcome.status === "done" ? nowDate() : null,
    })
    .where(and(eq(mediaItems.id, id), eq(mediaItems.transcriptionStatus, "pending")));
}

// Files of deleted items

/** Keys of files whose rows are gone, oldest first. */
export async function queuedPurges(limit: number): Promise<string[]> {
  const rows = await db()
    .select({ key: mediaPurges.storageKey })
    .from(mediaPurges)
    .orderBy(asc(mediaPurges.createdAt))
    .limit(limit);
  return rows.map((row) => row.key);
}

export async function forgetPurge(key: string): Promise<void> {
  await db().delete(mediaPurges).where(eq(mediaPurges.storageKey, key));
}
