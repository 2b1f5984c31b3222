DROP INDEX "tasks_owner_position_idx";--> statement-breakpoint
CREATE INDEX "tasks_owner_position_idx" ON "tasks" USING btree ("owner_id","position","id");