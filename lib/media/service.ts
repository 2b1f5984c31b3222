import type { Readable } from "node:stream";
import { AppError } from "../api/app-error";
import { API_PREFIX } from "../api/paths";
import type { Actor } from "../auth/actor";
import { aiEndpointConfigured } from "../ai/provider";
import { config } from "../config";
import { db } from "../db/client";
import type { MediaKind } from "../db/schema/media";
import { lockTask } from "../tasks/repo";
import { getTaskFor, getVisibleTask } from "../tasks/service";
import { normaliseFilename } from "./filename";
import { purgeDeletedMedia } from "./purge";
import { countTaskMedia, deleteMediaRow, findMediaItem, insertMediaItem, listTaskMedia, type MediaItemRow } from "./repo";
import { decodedLength, type MediaItemOutput, type MediaListOutput, type UploadMediaInput } from "./schema";
import { describeFormat, sniffFormat } from "./sniff";
import { mediaStorage } from "./storage";
import { queueTranscription, transcribeSoon } from "./transcription";

/*
 * Media attached to tasks. Whoever can read a task sees its media and downloads them; whoever may edit it (owner,
 * assignees, collaborators, project members, family) uploads; the uploader or the task's owner deletes. Checks run
 * before anything is written: size (from the base64's length, before decoding), then what the bytes are. The file is
 * stored under a generated key, then the row inserted; if that fails the file is removed again, so a refused upload
 * leaves nothing behind.
 */

export const MAX_ITEMS_PER_TASK = 100;

/** The largest file of a kind, in decoded bytes (MEDIA_MAX_<KIND>_BYTES). */
export function maxBytes(kind: MediaKind): number {
  const settings = config();
  return {
    text: settings.MEDIA_MAX_TEXT_BYTES,
    audio: settings.MEDIA_MAX_AUDIO_BYTES,
    photo: settings.MEDIA_MAX_PHOTO_BYTES,
    video: settings.MEDIA_MAX_VIDEO_BYTES,
  }[kind];
}

/** The largest upload body: base64 of the largest kind (4/3 of it) plus room for the other fields. */
export function uploadBodyLimit(): number {
  const largest = Math.max(...(["text", "audio", "photo", "video"] as const).map(maxBytes));
  return Math.ceil(largest / 3) * 4 + 64 * 1024;
}

const notFound = () => new AppError("not_found", "No such media item");

function toOutput(item: MediaItemRow): MediaItemOutput {
  return {
    id: item.id,
    taskId: item.taskId,
    uploaderId: item.uploaderId,
    kind: item.kind,
    filename: item.filename,
    contentType: item.contentType,
    sizeBytes: item.sizeBytes,
    transcription: {
      status: item.transcriptionStatus,
      text: item.transcript,
      message: item.transcriptionError,
      transcribedAt: item.transcribedAt?.toISOString() ?? null,
    },
    contentUrl: `${API_PREFIX}/media/${item.id}/content`,
    createdAt: item.createdAt.toISOString(),
  };
}

const dataProblem = (code: "payload_too_large" | "unsupported_media_type", pointer: "/data" | "/kind", detail: string) =>
  new AppError(code, `${pointer.slice(1)}: ${detail}`, { errors: [{ in: "body", pointer, detail }] });

/** The Content-Type of the bytes as the declared kind, or a 413/415 naming the field at fault. */
function checkContent(kind: MediaKind, data: string): { bytes: Buffer; contentType: string } {
  const limit = maxBytes(kind);
  if (decodedLength(data) > limit) {
    throw dataProblem("payload_too_large", "/data", `is larger than ${limit} bytes, the largest ${kind} file this server takes`);
  }
  const bytes = Buffer.from(data, "base64");
  const format = sniffFormat(bytes);
  if (!format) {
    throw dataProblem(
      "unsupported_media_type",
      "/data",
      "is none of the accepted formats (text, JPEG, PNG, GIF, WebP, HEIC, AVIF, MP3, Ogg, WAV, FLAC, MP4/M4A, WebM)",
    );
  }
  const contentType = format[kind];
  if (!contentType) {
    throw dataProblem(
      "unsupported_media_type",
      "/kind",
      `does not match the file: it is ${describeFormat(format)}, which is not ${kind}`,
    );
  }
  return { bytes, contentType };
}

async function checkRoom(taskId: string, executor: Parameters<typeof countTaskMedia>[1]): Promise<void> {
  if ((await countTaskMedia(taskId, executor)) >= MAX_ITEMS_PER_TASK) {
    throw new AppError("conflict", `The task has ${MAX_ITEMS_PER_TASK} media items already`);
  }
}

export async function uploadMedia(actor: Actor, taskId: string, input: UploadMediaInput): Promise<MediaItemOutput> {
  await getTaskFor(actor, taskId, "edit");
  await checkRoom(taskId, db());
  const { bytes, contentType } = checkContent(input.kind, input.data);
  const transcribable = input.kind === "audio" || input.kind === "video";
  const endpoint = aiEndpointConfigured();
  const storage = mediaStorage();
  const storageKey = await storage.put(bytes);
  let item: MediaItemRow;
  try {
    item = await db().transaction(async (tx) => {
      await lockTask(taskId, tx);
      await getTaskFor(actor, taskId, "edit", tx);
      await checkRoom(taskId, tx);
      const inserted = await insertMediaItem(
        {
          taskId,
          uploaderId: actor.userId,
          kind: input.kind,
          filename: normaliseFilename(input.filename),
          contentType,
          sizeBytes: bytes.length,
          storageKey,
          transcriptionStatus: !transcribable ? "none" : endpoint ? "pending" : "unavailable",
          transcriptionError:
            transcribable && !endpoint ? "Transcription is not available: this server has no AI endpoint (AI_BASE_URL)" : null,
        },
        tx,
      );
      if (inserted.transcriptionStatus === "pending") await queueTranscription(inserted.id, tx);
      return inserted;
    });
  } catch (error) {
    await storage.delete(storageKey);
    throw error;
  }
  if (item.transcriptionStatus === "pending") transcribeSoon(item.id);
  return toOutput(item);
}

export async function listMedia(actor: Actor, taskId: string): Promise<MediaListOutput> {
  await getVisibleTask(actor, taskId);
  return { items: (await listTaskMedia(taskId)).map(toOutput) };
}

/** A media item on a task the actor can read, or 404 (also when the task is someone else's: no hint it exists). */
async function getVisibleItem(actor: Actor, id: string): Promise<MediaItemRow> {
  const item = await findMediaItem(id);
  if (!item) throw notFound();
  try {
    await getVisibleTask(actor, item.taskId);
  } catch (error) {
    if (error instanceof AppError && error.code === "not_found") throw notFound();
    throw error;
  }
  return item;
}

export async function getMedia(actor: Actor, id: string): Promise<MediaItemOutput> {
  return toOutput(await getVisibleItem(actor, id));
}

export interface MediaContent {
  item: MediaItemOutput;
  stream: Readable;
  size: number;
}

export async function getMediaContent(actor: Actor, id: string): Promise<MediaContent> {
  const item = await getVisibleItem(actor, id);
  const storage = mediaStorage();
  const [stream, size] = await Promise.all([storage.get(item.storageKey), storage.size(item.storageKey)]);
  if (!stream || size === null) {
    stream?.destroy();
    throw new AppError("gone", "The file of this media item is missing from the storage");
  }
  return { item: toOutput(item), stream, size };
}

export async function deleteMedia(actor: Actor, id: string): Promise<void> {
  await db().transaction(async (tx) => {
    const item = await findMediaItem(id, tx);
    if (!item) throw notFound();
    await lockTask(item.taskId, tx);
    const task = await getVisibleTask(actor, item.taskId, tx).catch((error: unknown) => {
      throw error instanceof AppError && error.code === "not_found" ? notFound() : error;
    });
    if (item.uploaderId !== actor.userId && task.ownerId !== actor.userId) {
      throw new AppError("forbidden", "Only the uploader or the task's owner can delete a media item");
    }
    await deleteMediaRow(id, tx);
  });
  await purgeDeletedMedia();
}
