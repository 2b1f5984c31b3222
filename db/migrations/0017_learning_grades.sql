CREATE TABLE "learning_grades" (
	"connection_id" uuid NOT NULL,
	"course_id" text NOT NULL,
	"item_id" text NOT NULL,
	"item_name" text NOT NULL,
	"item_type" text NOT NULL,
	"item_module" text,
	"item_instance" text,
	"grade" double precision,
	"grade_formatted" text DEFAULT '' NOT NULL,
	"grade_min" double precision,
	"grade_max" double precision,
	"percentage_formatted" text DEFAULT '' NOT NULL,
	"feedback" text DEFAULT '' NOT NULL,
	"graded_at" timestamp with time zone,
	"synced_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "learning_grades_connection_id_item_id_pk" PRIMARY KEY("connection_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "learning_grades" ADD CONSTRAINT "learning_grades_connection_id_connector_connections_id_fk" FOREIGN KEY ("connection_id") REFERENCES "public"."connector_connections"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "learning_grades_course_idx" ON "learning_grades" USING btree ("connection_id","course_id");