import { log } from "../log";
import { forgetPurge, queuedPurges } from "./repo";
import { mediaStorage } from "./storage";

const BATCH = 100;

/**
 * Removes the files of deleted media items (queued in media_purges by a trigger, whatever deleted the rows) and
 * answers how many. Called right after a transaction that may delete media (an item, a task, a task group, an
 * account) and by the `media-purge` job, which catches up after a crash or a failed removal. A key is forgotten
 * only once its file is gone, so a failure is retried later.
 */
export async function purgeDeletedMedia(): Promise<number> {
  let removed = 0;
  for (;;) {
    const keys = await queuedPurges(BATCH);
    for (const key of keys) {
      try {
        await mediaStorage().delete(key);
        await forgetPurge(key);
        removed++;
      } catch (error) {
        log.warn("Could not remove a deleted media file; the media-purge job will retry", {
          key,
          error: error instanceof Error ? error.message : String(error),
        });
        return removed;
      }
    }
    if (keys.length < BATCH) return removed;
  }
}
