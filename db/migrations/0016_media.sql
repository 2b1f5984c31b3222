CREATE TABLE "media_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"uploader_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"storage_key" text NOT NULL,
	"transcription_status" text NOT NULL,
	"transcript" text,
	"transcription_error" text,
	"transcription_claimed_at" timestamp with time zone,
	"transcribed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "media_items_storage_key_unique" UNIQUE("storage_key")
);
--> statement-breakpoint
CREATE TABLE "media_purges" (
	"storage_key" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "media_items" ADD CONSTRAINT "media_items_uploader_id_users_id_fk" FOREIGN KEY ("uploader_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "media_items_task_idx" ON "media_items" USING btree ("task_id","created_at");--> statement-breakpoint
CREATE INDEX "media_items_uploader_idx" ON "media_items" USING btree ("uploader_id");--> statement-breakpoint
CREATE INDEX "media_items_pending_idx" ON "media_items" USING btree ("transcription_status","transcription_claimed_at");--> statement-breakpoint
-- Every deleted media item leaves its file's key for lib/media/purge.ts, whatever deleted the row (a cascade too).
CREATE FUNCTION "media_items_queue_purge"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	INSERT INTO "media_purges" ("storage_key") VALUES (OLD."storage_key") ON CONFLICT DO NOTHING;
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "media_items_queue_purge" AFTER DELETE ON "media_items"
	FOR EACH ROW EXECUTE FUNCTION "media_items_queue_purge"();
