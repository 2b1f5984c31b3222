ALTER TABLE "job_runs" ALTER COLUMN "last_started_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "job_runs" ALTER COLUMN "last_outcome" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "next_run_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "lease_owner" text;--> statement-breakpoint
ALTER TABLE "job_runs" ADD COLUMN "lease_until" timestamp with time zone;