ALTER TABLE "tasks" ADD COLUMN "answer" text;--> statement-breakpoint
-- tasks.answer is the task as GET /tasks answers it (the Task JSON of lib/tasks/schema.ts, keys in that order), so
-- that the task list returns it as it is instead of building it for every task of every page it reads. This trigger
-- makes it from the row on every insert and update, whoever makes them (the triggers of migrations 0003 and 0006
-- update the row when its assignees, collaborators or subtasks change); the application never writes it. It runs
-- last among the row's BEFORE triggers (they run in name order), after anything else that changes the row.
CREATE FUNCTION "tasks_make_answer"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	SELECT row_to_json(x)::text INTO NEW."answer" FROM (SELECT NEW."id" AS "id", NEW."owner_id" AS "ownerId", NEW."group_id" AS "groupId",
		NEW."project_id" AS "projectId", NEW."user_group_id" AS "userGroupId", NEW."title" AS "title",
		NEW."description" AS "description", NEW."status" AS "status",
		(ARRAY['low', 'normal', 'high', 'urgent'])[NEW."priority" + 1] AS "priority",
		to_char(NEW."due_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "dueAt",
		to_char(NEW."start_date", 'YYYY-MM-DD') AS "startDate", NEW."tags" AS "tags",
		NEW."assignee_ids" AS "assigneeIds", NEW."collaborator_ids" AS "collaboratorIds", NEW."position" AS "position",
		NEW."recurrence" AS "recurrence", NEW."series_id" AS "seriesId", NEW."occurrence" AS "occurrence",
		json_build_object('total', NEW."subtask_total", 'done', NEW."subtask_done") AS "subtasks",
		to_char(NEW."completed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "completedAt",
		to_char(NEW."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "createdAt",
		to_char(NEW."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "updatedAt") x;
	RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER "zz_tasks_answer" BEFORE INSERT OR UPDATE ON "tasks"
	FOR EACH ROW EXECUTE FUNCTION "tasks_make_answer"();--> statement-breakpoint
UPDATE "tasks" SET "answer" = NULL;
