import { z } from "@hono/zod-openapi";
import { MEDIA_KINDS, TRANSCRIPTION_STATUSES } from "../db/schema/media";
import { filenameProblem, MAX_FILENAME_LENGTH } from "./filename";

/**
 * Standard base64 (RFC 4648 §4) exactly: A-Z, a-z, 0-9, `+` and `/`, padded with `=` to a multiple of 4; no spaces,
 * line breaks, URL-safe alphabet or `data:` prefix. Checked without decoding.
 */
export function isStrictBase64(text: string): boolean {
  return text.length % 4 === 0 && /^[A-Za-z0-9+/]*={0,2}$/.test(text);
}

/** The number of bytes strict base64 decodes to, without decoding it. */
export function decodedLength(base64: string): number {
  const padding = base64.endsWith("==") ? 2 : base64.endsWith("=") ? 1 : 0;
  return (base64.length / 4) * 3 - padding;
}

const kind = z.enum(MEDIA_KINDS, { message: `must be one of ${MEDIA_KINDS.join(", ")}` }).openapi({
  description: "`text`, `audio`, `photo` or `video`: must agree with what the bytes are",
});

export const taskMediaParams = z.object({ id: z.uuid("must be a task id") });
export const mediaIdParams = z.object({ id: z.uuid("must be a media item id") });

export const uploadMediaInput = z
  .strictObject({
    kind,
    filename: z
      .string({ message: "must be a file name" })
      .superRefine((name, ctx) => {
        const problem = filenameProblem(name);
        if (problem) ctx.addIssue({ code: "custom", message: problem });
      })
      .openapi({
        description:
          `The name shown and offered on download (1-${MAX_FILENAME_LENGTH} characters, trimmed). Only a display name: ` +
          "the file is stored under a generated id. A path (`/`, `\\`, a drive such as `C:`, `.` or `..`) or a control " +
          "character is a 400.",
        example: "receipt.png",
      }),
    contentType: z.string().max(255, "must be at most 255 characters").optional().openapi({
      description: "Accepted for clients that send it, and ignored: the type is always decided from the bytes.",
    }),
    data: z
      .string({ message: "must be the file's bytes in base64" })
      .min(1, "must not be empty: a file of at least one byte")
      .refine(
        isStrictBase64,
        "must be standard base64 (A-Z, a-z, 0-9, + and /, padded with =; no spaces, line breaks or data: prefix)",
      )
      .openapi({ description: "The file's bytes, standard base64 (RFC 4648 §4, padded)." }),
  })
  .openapi("UploadMediaInput");
export type UploadMediaInput = z.infer<typeof uploadMediaInput>;

export const mediaItemOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid(),
    uploaderId: z.uuid(),
    kind,
    filename: z.string(),
    contentType: z.string().openapi({ description: "Decided from the bytes; the download's Content-Type", example: "image/png" }),
    sizeBytes: z.number().int(),
    transcription: z
      .object({
        status: z.enum(TRANSCRIPTION_STATUSES).openapi({
          description:
            "`none` for text and photos; for audio and video `pending` until the AI endpoint answers, then `done` or " +
            "`failed`; `unavailable` when the server had no AI endpoint at upload",
        }),
        text: z
          .string()
          .nullable()
          .openapi({ description: "The transcript once `done`; for a text item, null (its content is the text)" }),
        message: z.string().nullable().openapi({ description: "Why it failed or is unavailable, for people" }),
        transcribedAt: z.iso.datetime().nullable(),
      })
      .openapi("MediaTranscription"),
    contentUrl: z.string().openapi({ description: "Where to download the bytes", example: "/api/v1/media/0b6f.../content" }),
    createdAt: z.iso.datetime(),
  })
  .openapi("MediaItem");
export type MediaItemOutput = z.infer<typeof mediaItemOutput>;

export const mediaListOutput = z.object({ items: z.array(mediaItemOutput) }).openapi("MediaList");
export type MediaListOutput = z.infer<typeof mediaListOutput>;
