DROP INDEX "connector_runs_retry_idx";--> statement-breakpoint
-- Connector runs: a failed run waiting for its retry, a webhook waiting `queued` for its turn, and a run `running`
-- during the upgrade (taken again, as its next attempt, once its 15-minute lease from its start has run out).
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "lease_until", "created_at", "updated_at")
SELECT 'connector.run', r."id"::text, '{}'::jsonb,
  CASE WHEN r."status" = 'running' THEN 'running' ELSE 'pending' END,
  CASE WHEN r."status" = 'queued' THEN greatest(r."attempt" - 1, 0) ELSE r."attempt" END,
  greatest(4, r."attempt" + CASE WHEN r."status" = 'failed' THEN 1 ELSE 0 END),
  coalesce(r."next_attempt_at", now()),
  CASE WHEN r."status" = 'running' THEN r."started_at" + interval '15 minutes' END,
  r."started_at", now()
FROM "connector_runs" r
WHERE r."status" IN ('queued', 'running') OR (r."status" = 'failed' AND r."next_attempt_at" IS NOT NULL);
--> statement-breakpoint
-- Deploys waiting `queued` (one attempt each, oldest first as before). One left `running` is failed by the deploy
-- job once its time limit has passed, as before.
INSERT INTO "queue_items" ("kind", "key", "payload", "state", "attempts", "max_attempts", "run_at", "created_at", "updated_at")
SELECT 'deploy.run', r."id"::text, '{}'::jsonb, 'pending', 0, 1, r."received_at", r."received_at", now()
FROM "deploy_runs" r
WHERE r."status" = 'queued';
