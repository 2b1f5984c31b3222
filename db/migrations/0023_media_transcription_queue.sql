DROP INDEX "media_items_pending_idx";--> statement-breakpoint
ALTER TABLE "media_items" DROP COLUMN "transcription_claimed_at";--> statement-breakpoint
-- Transcriptions still pending (two attempts each: the second only if the first is cut off by a stopped process).
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "created_at", "updated_at")
SELECT 'media.transcription', m."id"::text, '{}'::jsonb, 'pending', 0, 2, now(), m."created_at", now()
FROM "media_items" m
WHERE m."transcription_status" = 'pending';
