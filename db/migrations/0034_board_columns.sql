CREATE TABLE "board_columns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"project_id" uuid,
	"user_group_id" uuid,
	"name" text,
	"position" integer NOT NULL,
	"status" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "board_columns_one_scope" CHECK (("board_columns"."project_id" is null) <> ("board_columns"."user_group_id" is null)),
	CONSTRAINT "board_columns_name_length" CHECK ("board_columns"."name" is null or char_length("board_columns"."name") between 1 and 60),
	CONSTRAINT "board_columns_status" CHECK ("board_columns"."status" in ('todo', 'in_progress', 'done', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "board_placements" (
	"task_id" uuid NOT NULL,
	"column_id" uuid NOT NULL,
	CONSTRAINT "board_placements_task_id_column_id_pk" PRIMARY KEY("task_id","column_id")
);
--> statement-breakpoint
ALTER TABLE "board_columns" ADD CONSTRAINT "board_columns_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_columns" ADD CONSTRAINT "board_columns_user_group_id_user_groups_id_fk" FOREIGN KEY ("user_group_id") REFERENCES "public"."user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_placements" ADD CONSTRAINT "board_placements_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_placements" ADD CONSTRAINT "board_placements_column_id_board_columns_id_fk" FOREIGN KEY ("column_id") REFERENCES "public"."board_columns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "board_columns_project_idx" ON "board_columns" USING btree ("project_id","position");--> statement-breakpoint
CREATE INDEX "board_columns_user_group_idx" ON "board_columns" USING btree ("user_group_id","position");--> statement-breakpoint
CREATE INDEX "board_placements_column_idx" ON "board_placements" USING btree ("column_id");