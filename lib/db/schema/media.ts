import { index, integer, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

export const MEDIA_KINDS = ["text", "audio", "photo", "video"] as const;
export type MediaKind = (typeof MEDIA_KINDS)[number];

/**
 * Where a media item's transcription is: `none` for text and photos (nothing to transcribe), `pending` until the AI
 * endpoint answers, then `done` or `failed`; `unavailable` when no AI endpoint was configured at upload.
 */
export const TRANSCRIPTION_STATUSES = ["none", "pending", "done", "failed", "unavailable"] as const;
export type TranscriptionStatus = (typeof TRANSCRIPTION_STATUSES)[number];

/**
 * A file attached to a task (lib/media). The bytes live in the media storage under `storage_key`, a generated id;
 * `filename` is only the name shown and offered on download. `content_type` was sniffed from the bytes.
 */
export const mediaItems = pgTable(
  "media_items",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    taskId: uuid("task_id")
      .notNull()
      .references(() => tasks.id, { onDelete: "cascade" }),
    uploaderId: uuid("uploader_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: MEDIA_KINDS }).notNull(),
    filename: text("filename").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    storageKey: text("storage_key").notNull().unique(),
    transcriptionStatus: text("transcription_status", { enum: TRANSCRIPTION_STATUSES }).notNull(),
    transcript: text("transcript"),
    transcriptionError: text("transcription_error"),
    transcribedAt: timestamp("transcribed_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("media_items_task_idx").on(table.taskId, table.createdAt),
    index("media_items_uploader_idx").on(table.uploaderId),
  ],
);

export type MediaItemRow = typeof mediaItems.$inferSelect;

/**
 * Files whose row is gone and that are still to be removed from the storage. A trigger adds the key of every deleted
 * media_items row, however it went (the item, its task, the account, a group or project taking tasks with it), in the
 * same transaction; lib/media/purge.ts removes the files after the commit, and a job catches up after a crash.
 */
export const mediaPurges = pgTable("media_purges", {
  storageKey: text("storage_key").primaryKey(),
  createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
});
