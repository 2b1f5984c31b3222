CREATE TABLE "project_members" (
	"project_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "project_members_project_id_user_id_pk" PRIMARY KEY("project_id","user_id"),
	CONSTRAINT "project_members_role" CHECK ("project_members"."role" in ('owner', 'admin', 'member', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "projects" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"color" text,
	"created_by" uuid,
	"archived_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "projects_name_length" CHECK (char_length("projects"."name") between 1 and 200),
	CONSTRAINT "projects_color" CHECK ("projects"."color" is null or "projects"."color" ~ '^#[0-9a-f]{6}$')
);
--> statement-breakpoint
CREATE TABLE "families" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"name" text NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "families_name_length" CHECK (char_length("families"."name") between 1 and 100)
);
--> statement-breakpoint
CREATE TABLE "family_members" (
	"family_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"role" text NOT NULL,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "family_members_family_id_user_id_pk" PRIMARY KEY("family_id","user_id"),
	CONSTRAINT "family_members_role" CHECK ("family_members"."role" in ('parent', 'child'))
);
--> statement-breakpoint
CREATE TABLE "task_collaboration" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"task_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"requester_id" uuid NOT NULL,
	"recipient_id" uuid NOT NULL,
	"message" text DEFAULT '' NOT NULL,
	"state" text NOT NULL,
	"expires_at" timestamp with time zone,
	"decided_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_collaboration_kind" CHECK ("task_collaboration"."kind" in ('assign', 'transfer', 'collaborate', 'claim')),
	CONSTRAINT "task_collaboration_state" CHECK ("task_collaboration"."state" in ('pending', 'accepted', 'rejected', 'withdrawn', 'expired')),
	CONSTRAINT "task_collaboration_message_length" CHECK (char_length("task_collaboration"."message") <= 2000)
);
--> statement-breakpoint
CREATE TABLE "task_collaboration_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"request_id" uuid NOT NULL,
	"actor_id" uuid,
	"action" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "task_collaborators" (
	"task_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "task_collaborators_task_id_user_id_pk" PRIMARY KEY("task_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "invitations" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"token_hash" text NOT NULL,
	"task_id" uuid,
	"project_id" uuid,
	"project_role" text,
	"inviter_id" uuid NOT NULL,
	"invitee_name" text,
	"invitee_email" text,
	"invitee_phone" text,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"revoked_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "invitations_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "invitations_target" CHECK (("invitations"."task_id" is null) <> ("invitations"."project_id" is null)),
	CONSTRAINT "invitations_project_role" CHECK (("invitations"."project_id" is null and "invitations"."project_role" is null) or "invitations"."project_role" in ('admin', 'member', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "domain_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"type" text NOT NULL,
	"actor_id" uuid,
	"task_id" uuid,
	"audience" uuid[] NOT NULL,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "task_groups" ADD COLUMN "family_id" uuid;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "collaborator_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "project_members" ADD CONSTRAINT "project_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "projects" ADD CONSTRAINT "projects_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "families" ADD CONSTRAINT "families_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "family_members" ADD CONSTRAINT "family_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaboration" ADD CONSTRAINT "task_collaboration_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaboration" ADD CONSTRAINT "task_collaboration_requester_id_users_id_fk" FOREIGN KEY ("requester_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaboration" ADD CONSTRAINT "task_collaboration_recipient_id_users_id_fk" FOREIGN KEY ("recipient_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaboration_history" ADD CONSTRAINT "task_collaboration_history_request_id_task_collaboration_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."task_collaboration"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaboration_history" ADD CONSTRAINT "task_collaboration_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaborators" ADD CONSTRAINT "task_collaborators_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "task_collaborators" ADD CONSTRAINT "task_collaborators_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_task_id_tasks_id_fk" FOREIGN KEY ("task_id") REFERENCES "public"."tasks"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invitations" ADD CONSTRAINT "invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "project_members_user_idx" ON "project_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "projects_created_by_idx" ON "projects" USING btree ("created_by");--> statement-breakpoint
CREATE UNIQUE INDEX "family_members_user_key" ON "family_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "task_collaboration_recipient_idx" ON "task_collaboration" USING btree ("recipient_id","created_at");--> statement-breakpoint
CREATE INDEX "task_collaboration_requester_idx" ON "task_collaboration" USING btree ("requester_id","created_at");--> statement-breakpoint
CREATE INDEX "task_collaboration_task_idx" ON "task_collaboration" USING btree ("task_id");--> statement-breakpoint
CREATE INDEX "task_collaboration_pending_expiry_idx" ON "task_collaboration" USING btree ("expires_at") WHERE "task_collaboration"."state" = 'pending';--> statement-breakpoint
CREATE UNIQUE INDEX "task_collaboration_pending_key" ON "task_collaboration" USING btree ("task_id","kind","recipient_id") WHERE "task_collaboration"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "task_collaboration_history_request_idx" ON "task_collaboration_history" USING btree ("request_id","id");--> statement-breakpoint
CREATE INDEX "task_collaborators_user_idx" ON "task_collaborators" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "invitations_inviter_idx" ON "invitations" USING btree ("inviter_id","created_at");--> statement-breakpoint
CREATE INDEX "domain_events_audience_idx" ON "domain_events" USING gin ("audience");--> statement-breakpoint
CREATE INDEX "domain_events_created_idx" ON "domain_events" USING btree ("created_at");--> statement-breakpoint
ALTER TABLE "task_groups" ADD CONSTRAINT "task_groups_family_id_families_id_fk" FOREIGN KEY ("family_id") REFERENCES "public"."families"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_project_id_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."projects"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "task_groups_family_idx" ON "task_groups" USING btree ("family_id") WHERE "task_groups"."family_id" is not null;--> statement-breakpoint
CREATE INDEX "tasks_project_idx" ON "tasks" USING btree ("project_id","position","id") WHERE "tasks"."project_id" is not null;--> statement-breakpoint
-- tasks.collaborator_ids copies task_collaborators, as assignee_ids copies task_assignees (migration 0003).
CREATE FUNCTION "tasks_refresh_collaborator_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW."task_id"] WHEN 'DELETE' THEN ARRAY[OLD."task_id"] ELSE ARRAY[NEW."task_id", OLD."task_id"] END;
BEGIN
	UPDATE "tasks" SET "collaborator_ids" = coalesce(
		(SELECT array_agg(c."user_id" ORDER BY c."created_at", c."user_id") FROM "task_collaborators" c WHERE c."task_id" = "tasks"."id"),
		'{}')
	WHERE "tasks"."id" = ANY (changed);
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "task_collaborators_refresh_task" AFTER INSERT OR UPDATE OR DELETE ON "task_collaborators"
	FOR EACH ROW EXECUTE FUNCTION "tasks_refresh_collaborator_ids"();
