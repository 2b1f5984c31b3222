CREATE TABLE "gamification_badges" (
	"user_id" uuid NOT NULL,
	"badge" text NOT NULL,
	"earned_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gamification_badges_user_id_badge_pk" PRIMARY KEY("user_id","badge")
);
--> statement-breakpoint
CREATE TABLE "gamification_profiles" (
	"user_id" uuid PRIMARY KEY NOT NULL,
	"points" integer DEFAULT 0 NOT NULL,
	"leaderboard_opt_in" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "gamification_level_ups" (
	"user_id" uuid NOT NULL,
	"level" integer NOT NULL,
	"points" integer NOT NULL,
	"reached_at" timestamp with time zone NOT NULL,
	CONSTRAINT "gamification_level_ups_user_id_level_pk" PRIMARY KEY("user_id","level")
);
--> statement-breakpoint
CREATE TABLE "gamification_awards" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"task_id" uuid,
	"task_title" text NOT NULL,
	"event_id" bigint NOT NULL,
	"points" integer NOT NULL,
	"base_points" integer NOT NULL,
	"on_time_bonus" integer NOT NULL,
	"priority_bonus" integer NOT NULL,
	"on_time" boolean,
	"shared" boolean NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"local_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "gamification_awards_points" CHECK ("gamification_awards"."points" > 0)
);
--> statement-breakpoint
ALTER TABLE "gamification_badges" ADD CONSTRAINT "gamification_badges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gamification_profiles" ADD CONSTRAINT "gamification_profiles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gamification_level_ups" ADD CONSTRAINT "gamification_level_ups_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gamification_awards" ADD CONSTRAINT "gamification_awards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gamification_awards" ADD CONSTRAINT "gamification_awards_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "gamification_profiles_opt_in_idx" ON "gamification_profiles" USING btree ("points") WHERE "gamification_profiles"."leaderboard_opt_in";--> statement-breakpoint
CREATE UNIQUE INDEX "gamification_awards_user_task_key" ON "gamification_awards" USING btree ("user_id","task_id");--> statement-breakpoint
CREATE INDEX "gamification_awards_user_time_idx" ON "gamification_awards" USING btree ("user_id","completed_at");