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
CREATE TABLE "invoice_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"invoice_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"text" text NOT NULL,
	"quantity" numeric(14, 3) NOT NULL,
	"unit" text,
	"unit_price" numeric(14, 2) NOT NULL,
	"rate_vat" text NOT NULL,
	CONSTRAINT "invoice_items_rate_vat" CHECK ("invoice_items"."rate_vat" in ('none', 'low', 'high', 'third'))
);
--> statement-breakpoint
CREATE TABLE "invoices" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"number" text,
	"partner_company" text,
	"partner_ico" text,
	"issue_date" date NOT NULL,
	"tax_date" date NOT NULL,
	"due_date" date NOT NULL,
	"text" text DEFAULT '' NOT NULL,
	"currency" text DEFAULT 'CZK' NOT NULL,
	"task_id" uuid,
	"paid_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invoices_currency" CHECK ("invoices"."currency" = 'CZK'),
	CONSTRAINT "invoices_partner_ico" CHECK ("invoices"."partner_ico" ~ '^[0-9]{8}$')
);
--> statement-breakpoint
ALTER TABLE "invoice_items" ADD CONSTRAINT "invoice_items_invoice_id_invoices_id_fk" FOREIGN KEY ("invoice_id") REFERENCES "public"."invoices"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoices" ADD CONSTRAINT "invoices_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_runs_delivery_key" ON "deploy_runs" USING btree ("delivery_id");--> statement-breakpoint
CREATE INDEX "deploy_runs_received_idx" ON "deploy_runs" USING btree ("received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "deploy_runs_one_running_key" ON "deploy_runs" USING btree ("status") WHERE "deploy_runs"."status" = 'running';--> statement-breakpoint
CREATE INDEX "invoice_items_invoice_idx" ON "invoice_items" USING btree ("invoice_id","position");--> statement-breakpoint
CREATE INDEX "invoices_owner_idx" ON "invoices" USING btree ("owner_id","issue_date");