import { AppError } from "../api/app-error";
import { transcribe } from "../ai/provider";
import { config } from "../config";
import type { Executor } from "../db/client";
import { log } from "../log";
import { defineQueue, done, enqueue, fail, runNow, work, type JobOutcome, type QueueJob } from "../queue/service";
import { findMediaItem, finishTranscription } from "./repo";
import { mediaStorage } from "./storage";

/*
 * Transcription of audio and video items through the AI endpoint (lib/ai/provider.ts `transcribe`), on the work
 * queue (lib/queue, kind `media.transcription`). The upload queues it in the transaction that records the item and
 * the uploading process starts it right after the commit, without holding up the answer; the item is `pending`
 * until it ends `done` or `failed`. A process that stops meanwhile leaves the queue item to be taken again once its
 * lease (the AI deadline plus a minute) has run out, by the `media-transcriptions` job. A transcription the
 * endpoint refuses or fails is `failed` at once (asking again would cost the uploader's budget for the same answer).
 */

const running = new Set<Promise<void>>();

/** Transcribes a pending item; answers how it went, for the queue. */
async function transcribeItem(job: QueueJob<Record<string, never>>): Promise<JobOutcome> {
  const item = await findMediaItem(job.key);
  if (!item || item.transcriptionStatus !== "pending") return done(); // deleted, or finished already
  const content = await mediaStorage().get(item.storageKey);
  if (!content) {
    const error = "The file is missing from the media storage";
    await finishTranscription(item.id, { status: "failed", transcript: null, error });
    return fail(error);
  }
  try {
    const { text } = await transcribe({
      userId: item.uploaderId,
      content,
      filename: item.filename,
      contentType: item.contentType,
    });
    await finishTranscription(item.id, { status: "done", transcript: text.trim(), error: null });
    return done();
  } catch (error) {
    content.destroy();
    const message = error instanceof AppError ? error.message : "The transcription failed";
    await finishTranscription(item.id, { status: "failed", transcript: null, error: message });
    return fail(message);
  }
}

/** Transcriptions on the work queue: a second attempt only when the first was cut off by a stopped process. */
const transcriptionQueue = defineQueue<Record<string, never>>({
  kind: "media.transcription",
  maxAttempts: 2,
  leaseMs: () => config().AI_TIMEOUT_MS + 60_000,
  run: transcribeItem,
  async onAbandoned(job) {
    await finishTranscription(job.key, {
      status: "failed",
      transcript: null,
      error: "The transcription was interrupted twice (the server stopped)",
    });
  },
});

/** Queues the transcription of a new item, in the transaction that records it. */
export async function queueTranscription(id: string, executor: Executor): Promise<void> {
  await enqueue(transcriptionQueue, id, {}, { executor });
}

/** Starts the queued transcription in the background; failures end up on the item, never as an unhandled rejection. */
export function transcribeSoon(id: string): void {
  const started: Promise<void> = runNow(transcriptionQueue, id)
    .then(() => undefined)
    .catch((error) =>
      log.error("Media transcription crashed", { id, error: error instanceof Error ? error.message : String(error) }),
    )
    .finally(() => running.delete(started));
  running.add(started);
}

/** Waits for the transcriptions this process started (for shutdown and tests). */
export async function transcriptionsSettled(): Promise<void> {
  while (running.size) await Promise.all(running);
}

/** The job: queued transcriptions nobody holds (their process stopped), a few at a time. */
export async function runPendingTranscriptions(signal?: AbortSignal): Promise<number> {
  return work(transcriptionQueue, { batch: 5, rounds: 1, signal });
}
