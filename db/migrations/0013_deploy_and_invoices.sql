CREATE TABLE "deploy_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"delivery_id" text NOT NULL,
	"event" text NOT NULL,
	"ref" text,
	"commit_sha" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"reason" text,
	"exit_code" integer,
	"output" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	CONSTRAINT "deploy_runs_status" CHECK ("deploy_runs"."status" in ('queued', 'running', 'succeeded', 'failed', 'skipped'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_runs_delivery_key" ON "deploy_runs" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "deploy_runs_received_idx" ON "deploy_runs" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_runs_one_running_key" ON "deploy_runs" USING btree ("status") WHERE "deploy_runs"."status" = 'running';