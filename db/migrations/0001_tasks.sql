CREATE TABLE "subtasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"title" text NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_assignees" (
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_assignees_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "task_groups" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"key" text,
	"names" jsonb NOT NULL,
	"position" integer NOT NULL,
	"settings" jsonb DEFAULT '{"timeZones":[],"locations":[]}'::jsonb NOT NULL,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tasks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"owner_id" uuid NOT NULL,
	"group_id" uuid NOT NULL,
	"project_id" uuid,
	"title" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'todo' NOT NULL,
	"priority" smallint DEFAULT 1 NOT NULL,
	"due_at" timestamp with time zone,
	"start_date" date,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"position" text COLLATE "C" NOT NULL,
	"recurrence" jsonb,
	"series_id" uuid,
	"occurrence" integer,
	"series_start_at" timestamp with time zone,
	"successor_created" boolean DEFAULT false NOT NULL,
	"auto_completed" boolean DEFAULT false NOT NULL,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "subtasks" ADD CONSTRAINT "subtasks_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_assignees" ADD CONSTRAINT "task_assignees_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_groups" ADD CONSTRAINT "task_groups_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_group_id_task_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."task_groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "subtasks_task_idx" ON "subtasks" USING btree ("task_id","position");--> statement-breakpoint
CREATE INDEX "task_assignees_user_idx" ON "task_assignees" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_groups_owner_idx" ON "task_groups" USING btree ("owner_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "task_groups_owner_key_key" ON "task_groups" USING btree ("owner_id","key");--> statement-breakpoint
CREATE INDEX "tasks_owner_position_idx" ON "tasks" USING btree ("owner_id","position");--> statement-breakpoint
CREATE INDEX "tasks_group_idx" ON "tasks" USING btree ("group_id");--> statement-breakpoint
CREATE INDEX "tasks_owner_due_idx" ON "tasks" USING btree ("owner_id","due_at");--> statement-breakpoint
CREATE UNIQUE INDEX "tasks_series_occurrence_key" ON "tasks" USING btree ("series_id","occurrence");--> statement-breakpoint
CREATE INDEX "tasks_recurrence_pending_idx" ON "tasks" USING btree ("due_at") WHERE "tasks"."recurrence" is not null and not "tasks"."successor_created";--> statement-breakpoint
-- Backfill: users who registered before task groups existed get the eight default groups (the same names as
-- lib/groups/defaults.ts, which lib/groups/defaults.test.ts checks); a user who has any group is left alone.
INSERT INTO "task_groups" ("owner_id", "key", "names", "position")
SELECT "users"."id", "defaults"."key", "defaults"."names", "defaults"."position"
FROM "users"
CROSS JOIN (VALUES
	('personal', '{"en":"Personal","cs":"Osobní","he":"אישי","ru":"Личное","ua":"Особисте"}'::jsonb, 0),
	('work', '{"en":"Work","cs":"Práce","he":"עבודה","ru":"Работа","ua":"Робота"}'::jsonb, 1),
	('family', '{"en":"Family","cs":"Rodina","he":"משפחה","ru":"Семья","ua":"Сім’я"}'::jsonb, 2),
	('home', '{"en":"Home","cs":"Domácnost","he":"בית","ru":"Дом","ua":"Дім"}'::jsonb, 3),
	('shopping', '{"en":"Shopping","cs":"Nákupy","he":"קניות","ru":"Покупки","ua":"Покупки"}'::jsonb, 4),
	('health', '{"en":"Health","cs":"Zdraví","he":"בריאות","ru":"Здоровье","ua":"Здоров’я"}'::jsonb, 5),
	('study', '{"en":"Study","cs":"Studium","he":"לימודים","ru":"Учёба","ua":"Навчання"}'::jsonb, 6),
	('finance', '{"en":"Finance","cs":"Finance","he":"כספים","ru":"Финансы","ua":"Фінанси"}'::jsonb, 7)
) AS "defaults" ("key", "names", "position")
WHERE NOT EXISTS (SELECT 1 FROM "task_groups" WHERE "task_groups"."owner_id" = "users"."id");
