ALTER TABLE "domain_events" ADD COLUMN "tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "notifications" ADD COLUMN "event_id" bigint;--> statement-breakpoint
ALTER TABLE "event_cursors" ADD COLUMN "last_tx_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL;--> statement-breakpoint
ALTER TABLE "event_cursors" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "event_cursors" ADD COLUMN "lease_until" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "domain_events_tx_idx" ON "domain_events" USING btree ("tx_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_event_idx" ON "notifications" USING btree ("user_id","event_id");--> statement-breakpoint
-- The durable event consumers (lib/events/consumers.ts) go on after every event written so far (the in-process
-- dispatch of the earlier version handled those): the events above got this transaction's id as tx_id.
INSERT INTO "event_cursors" ("consumer", "last_tx_id", "last_event_id", "updated_at")
SELECT c.consumer, pg_current_xact_id(), coalesce((SELECT max("id") FROM "domain_events"), 0), now()
FROM unnest(ARRAY['notifications', 'reminder-settings', 'webhooks', 'gamification', 'socket']) AS c(consumer)
ON CONFLICT ("consumer") DO UPDATE SET "last_tx_id" = excluded."last_tx_id", "last_event_id" = excluded."last_event_id";
