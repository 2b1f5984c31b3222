ALTER TABLE "tasks" ADD COLUMN "assignee_ids" uuid[] DEFAULT '{}'::uuid[] NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subtask_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "tasks" ADD COLUMN "subtask_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- tasks.assignee_ids, subtask_total and subtask_done copy what task_assignees and subtasks say, for the task
-- list (one row per task, no lookups). These triggers keep them in step on every insert, update and delete,
-- whoever makes it; the application never writes the three columns.
CREATE FUNCTION "tasks_refresh_assignee_ids"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW."task_id"] WHEN 'DELETE' THEN ARRAY[OLD."task_id"] ELSE ARRAY[NEW."task_id", OLD."task_id"] END;
BEGIN
	UPDATE "tasks" SET "assignee_ids" = coalesce(
		(SELECT array_agg(a."user_id" ORDER BY a."created_at", a."user_id") FROM "task_assignees" a WHERE a."task_id" = "tasks"."id"),
		'{}')
	WHERE "tasks"."id" = ANY (changed);
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "task_assignees_refresh_task" AFTER INSERT OR UPDATE OR DELETE ON "task_assignees"
	FOR EACH ROW EXECUTE FUNCTION "tasks_refresh_assignee_ids"();--> statement-breakpoint
CREATE FUNCTION "tasks_refresh_subtask_counts"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
	changed uuid[] := CASE TG_OP WHEN 'INSERT' THEN ARRAY[NEW."task_id"] WHEN 'DELETE' THEN ARRAY[OLD."task_id"] ELSE ARRAY[NEW."task_id", OLD."task_id"] END;
BEGIN
	UPDATE "tasks" SET ("subtask_total", "subtask_done") = (
		SELECT count(*)::int, (count(*) FILTER (WHERE s."done"))::int FROM "subtasks" s WHERE s."task_id" = "tasks"."id")
	WHERE "tasks"."id" = ANY (changed);
	RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER "subtasks_refresh_task" AFTER INSERT OR UPDATE OF "task_id", "done" OR DELETE ON "subtasks"
	FOR EACH ROW EXECUTE FUNCTION "tasks_refresh_subtask_counts"();--> statement-breakpoint
UPDATE "tasks" SET
	"assignee_ids" = coalesce((SELECT array_agg(a."user_id" ORDER BY a."created_at", a."user_id") FROM "task_assignees" a WHERE a."task_id" = "tasks"."id"), '{}'),
	("subtask_total", "subtask_done") = (SELECT count(*)::int, (count(*) FILTER (WHERE s."done"))::int FROM "subtasks" s WHERE s."task_id" = "tasks"."id");
