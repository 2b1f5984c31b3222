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
CREATE UNIQUE INDEX "queue_items_active_key" ON "queue_items" USING btree ("kind","key") WHERE "queue_items"."state" in ('pending', 'running');--> statement-breakpoint
CREATE INDEX "queue_items_due_idx" ON "queue_items" USING btree ("kind","run_at") WHERE "queue_items"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "queue_items_lease_idx" ON "queue_items" USING btree ("kind","lease_until") WHERE "queue_items"."state" = 'running';--> statement-breakpoint
CREATE INDEX "queue_items_listing_idx" ON "queue_items" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "queue_items_finished_idx" ON "queue_items" USING btree ("finished_at") WHERE "queue_items"."finished_at" is not null;--> statement-breakpoint
-- Carry the work the hand-made queues had pending over to queue_items, so that nothing queued is lost on upgrade.
-- Webhook deliveries still pending: their next attempt when it was due (a delivery being attempted during the
-- upgrade comes again when its old lease ends), their attempts so far counted, at least one attempt left.
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "created_at", "updated_at")
SELECT 'webhook.delivery', d."id"::text, '{}'::jsonb, 'pending', d."attempts", greatest(8, d."attempts" + 1),
  coalesce(d."next_attempt_at", now()), d."created_at", now()
FROM "webhook_deliveries" d
WHERE d."status" = 'pending';
