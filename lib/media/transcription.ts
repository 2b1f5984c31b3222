import { AppError } from "../api/app-error";
import { transcribe } from "../ai/provider";
import { now } from "../clock";
import { config } from "../config";
import { log } from "../log";
import { claimTranscription, finishTranscription, unclaimedTranscriptions } from "./repo";
import { mediaStorage } from "./storage";

/*
 * Transcription of audio and video items through the AI endpoint (lib/ai/provider.ts `transcribe`). It starts in
 * the uploading process right after the upload commits, without holding up the answer; the item is `pending` until
 * it ends `done` or `failed`. A process that stops meanwhile leaves its claim, which the `media-transcriptions` job
 * takes over once it is older than the AI deadline (plus a minute). Each item is attempted once per claim.
 */

const running = new Set<Promise<void>>();

/** A claim older than this belongs to a process that stopped. */
function staleBefore(): Date {
  return new Date(now() - config().AI_TIMEOUT_MS - 60_000);
}

/** Transcribes the item if it is pending and nobody else is on it. */
export async function runTranscription(id: string): Promise<boolean> {
  const item = await claimTranscription(id, staleBefore());
  if (!item) return false;
  const content = await mediaStorage().get(item.storageKey);
  if (!content) {
    await finishTranscription(id, { status: "failed", transcript: null, error: "The file is missing from the media storage" });
    return true;
  }
  try {
    const { text } = await transcribe({
      userId: item.uploaderId,
      content,
      filename: item.filename,
      contentType: item.contentType,
    });
    await finishTranscription(id, { status: "done", transcript: text.trim(), error: null });
  } catch (error) {
    content.destroy();
    const message = error instanceof AppError ? error.message : "The transcription failed";
    await finishTranscription(id, { status: "failed", transcript: null, error: message });
  }
  return true;
}

/** Starts the transcription in the background; failures end up on the item, never as an unhandled rejection. */
export function transcribeSoon(id: string): void {
  const work: Promise<void> = runTranscription(id)
    .then(() => undefined)
    .catch((error) =>
      log.error("Media transcription crashed", { id, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => running.delete(work));
  running.add(work);
}

/** Waits for the transcriptions this process started (for shutdown and tests). */
export async function transcriptionsSettled(): Promise<void> {
  while (running.size) await Promise.all(running);
}

/** The job: pending transcriptions nobody holds, a few at a time. */
export async function runPendingTranscriptions(): Promise<number> {
  let done = 0;
  for (const id of await unclaimedTranscriptions(staleBefore(), 5)) {
    if (await runTranscription(id)) done++;
  }
  return done;
}
