CREATE TABLE "connector_connections" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"owner_id" uuid NOT NULL,
	"user_group_id" uuid,
	"base_url" text NOT NULL,
	"credentials" text NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"webhook_secret" text NOT NULL,
	"status" text DEFAULT 'new' NOT NULL,
	"last_sync_at" timestamp with time zone,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connector_connections_kind" CHECK ("connector_connections"."kind" in ('erp', 'learning', 'accounting')),
	CONSTRAINT "connector_connections_status" CHECK ("connector_connections"."status" in ('new', 'ok', 'error')),
	CONSTRAINT "connector_connections_name_length" CHECK (char_length("connector_connections"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "connector_links" (
	"connection_id" uuid NOT NULL,
	"entity" text NOT NULL,
	"external_id" text NOT NULL,
	"local_id" uuid,
	"fingerprint" text,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "connector_links_connection_id_entity_external_id_pk" PRIMARY KEY("connection_id","entity","external_id")
);
--> statement-breakpoint
CREATE TABLE "connector_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"connection_id" uuid NOT NULL,
	"operation" text NOT NULL,
	"trigger" text NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"next_attempt_at" timestamp with time zone,
	"delivery_id" text,
	"payload" jsonb,
	"counts" jsonb DEFAULT '{"created":0,"updated":0,"unchanged":0,"skipped":0,"failed":0}'::jsonb NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "connector_runs_operation" CHECK ("connector_runs"."operation" in ('import', 'export', 'webhook')),
	CONSTRAINT "connector_runs_trigger" CHECK ("connector_runs"."trigger" in ('user', 'webhook', 'retry')),
	CONSTRAINT "connector_runs_status" CHECK ("connector_runs"."status" in ('queued', 'running', 'succeeded', 'partial', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "connector_connections" ADD CONSTRAINT "connector_connections_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_connections" ADD CONSTRAINT "connector_connections_user_group_id_user_groups_id_fk" FOREIGN KEY ("user_group_id") REFERENCES "public"."user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_links" ADD CONSTRAINT "connector_links_connection_id_connector_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connector_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "connector_runs" ADD CONSTRAINT "connector_runs_connection_id_connector_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connector_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "connector_connections_owner_idx" ON "connector_connections" USING btree ("owner_id");--> statement-breakpoint
CREATE INDEX "connector_connections_group_idx" ON "connector_connections" USING btree ("user_group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_links_local_key" ON "connector_links" USING btree ("connection_id","entity","local_id");--> statement-breakpoint
CREATE INDEX "connector_runs_connection_idx" ON "connector_runs" USING btree ("connection_id","started_at");--> statement-breakpoint
CREATE INDEX "connector_runs_retry_idx" ON "connector_runs" USING btree ("next_attempt_at") WHERE "connector_runs"."next_attempt_at" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "connector_runs_delivery_key" ON "connector_runs" USING btree ("connection_id","delivery_id");--> statement-breakpoint
CREATE UNIQUE INDEX "connector_runs_running_key" ON "connector_runs" USING btree ("connection_id") WHERE "connector_runs"."status" = 'running';