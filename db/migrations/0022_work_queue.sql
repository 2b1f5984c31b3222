CREATE TABLE "queue_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"key" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"locked_by" text,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "queue_items_state" CHECK ("queue_items"."state" in ('pending', 'running', 'done', 'dead', 'cancelled')),
	CONSTRAINT "queue_items_attempts" CHECK ("queue_items"."attempts" >= 0 and "queue_items"."max_attempts" >= 1)
);
--> statement-breakpoint
DROP INDEX "webhook_deliveries_due_idx";--> statement-breakpoint
DROP INDEX "connector_runs_retry_idx";--> statement-breakpoint
DROP INDEX "media_items_pending_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "queue_items_active_key" ON "queue_items" USING btree ("kind","key") WHERE "queue_items"."state" in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "queue_items_due_idx" ON "queue_items" USING btree ("kind","run_at") WHERE "queue_items"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "queue_items_lease_idx" ON "queue_items" USING btree ("kind","lease_until") WHERE "queue_items"."state" = 'running';--> statement-breakpoint
CREATE INDEX "queue_items_listing_idx" ON "queue_items" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "queue_items_finished_idx" ON "queue_items" USING btree ("finished_at") WHERE "queue_items"."finished_at" is not null;--> statement-breakpoint
ALTER TABLE "media_items" DROP COLUMN "transcription_claimed_at";
--> statement-breakpoint
-- Carry the work the hand-made queues had pending over to queue_items, so that nothing queued is lost on upgrade.
-- Webhook deliveries still pending: their next attempt when it was due (a delivery being attempted during the
-- upgrade comes again when its old lease ends), their attempts so far counted, at least one attempt left.
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "created_at", "updated_at")
SELECT 'webhook.delivery', d."id"::text, '{}'::jsonb, 'pending', d."attempts", greatest(8, d."attempts" + 1),
  coalesce(d."next_attempt_at", now()), d."created_at", now()
FROM "webhook_deliveries" d
WHERE d."status" = 'pending';
--> statement-breakpoint
-- Connector runs: a failed run waiting for its retry, a webhook waiting `queued` for its turn, and a run `running`
-- during the upgrade (taken again, as its next attempt, once its 15-minute lease from its start has run out).
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "lease_until", "created_at", "updated_at")
SELECT 'connector.run', r."id"::text, '{}'::jsonb,
  CASE WHEN r."status" = 'running' THEN 'running' ELSE 'pending' END,
  CASE WHEN r."status" = 'queued' THEN greatest(r."attempt" - 1, 0) ELSE r."attempt" END,
  greatest(4, r."attempt" + CASE WHEN r."status" = 'failed' THEN 1 ELSE 0 END),
  coalesce(r."next_attempt_at", now()),
  CASE WHEN r."status" = 'running' THEN r."started_at" + interval '15 minutes' END,
  r."started_at", now()
FROM "connector_runs" r
WHERE r."status" IN ('queued', 'running') OR (r."status" = 'failed' AND r."next_attempt_at" IS NOT NULL);
--> statement-breakpoint
-- Deploys waiting `queued` (one attempt each, oldest first as before). One left `running` is failed by the deploy
-- job once its time limit has passed, as before.
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "created_at", "updated_at")
SELECT 'deploy.run', r."id"::text, '{}'::jsonb, 'pending', 0, 1, r."received_at", r."received_at", now()
FROM "deploy_runs" r
WHERE r."status" = 'queued';
--> statement-breakpoint
-- Transcriptions still pending (two attempts each: the second only if the first is cut off by a stopped process).
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "created_at", "updated_at")
SELECT 'media.transcription', m."id"::text, '{}'::jsonb, 'pending', 0, 2, now(), m."created_at", now()
FROM "media_items" m
WHERE m."transcription_status" = 'pending';
