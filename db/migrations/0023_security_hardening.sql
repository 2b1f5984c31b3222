CREATE TABLE "sessions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"user_id" uuid NOT NULL,
	"method" text NOT NULL,
	"user_agent" text,
	"ip_address" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "invitations" DROP CONSTRAINT "invitations_target";--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "task_role" text;--> statement-breakpoint
-- Every task invitation so far made its invitee an assignee.
UPDATE "invitations" SET "task_role" = 'assignee' WHERE "task_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "family_id" uuid;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "family_role" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "team_id" uuid;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "team_role" text;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "invitee_user_id" uuid;--> statement-breakpoint
ALTER TABLE "invitations" ADD COLUMN "declined_at" timestamp with time zone;--> statement-breakpoint
-- Sign-ins in flight (10 minutes at most) were not bound to a browser: they start again.
DELETE FROM "oauth_states";--> statement-breakpoint
ALTER TABLE "oauth_states" ADD COLUMN "browser_hash" text NOT NULL;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "sessions_expires_idx" ON "sessions" USING btree ("expires_at");--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_team_id_user_groups_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."user_groups"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_invitee_user_id_users_id_fk" FOREIGN KEY ("invitee_user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "invitations_invitee_user_idx" ON "invitations" USING btree ("invitee_user_id");--> statement-breakpoint
CREATE INDEX "invitations_invitee_email_idx" ON "invitations" USING btree ("invitee_email");--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_task_role" CHECK (("invitations"."task_id" is null and "invitations"."task_role" is null) or "invitations"."task_role" in ('assignee', 'collaborator'));--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_family_role" CHECK (("invitations"."family_id" is null and "invitations"."family_role" is null) or "invitations"."family_role" in ('parent', 'child'));--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_team_role" CHECK (("invitations"."team_id" is null and "invitations"."team_role" is null) or "invitations"."team_role" in ('admin', 'member'));--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_target" CHECK (num_nonnulls("invitations"."task_id", "invitations"."project_id", "invitations"."family_id", "invitations"."team_id") = 1);