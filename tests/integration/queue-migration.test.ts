import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { drizzle } from "drizzle-orm/pglite";
import { migrate } from "drizzle-orm/pglite/migrator";
import { afterAll, beforeAll, expect, test } from "vitest";

/*
 * Upgrading a database whose hand-made queues hold pending work (migration 0022_work_queue): everything pending is
 * carried over to queue_items, due when it was due, its attempts counted; finished work is not.
 */

const MIGRATIONS = path.join(process.cwd(), "db/migrations");
const QUEUE_MIGRATION = "0022_work_queue";

let client: PGlite;
let before: string;

/** The migrations folder as it was before the work queue. */
function migrationsBeforeQueue(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "spolu-migrations-"));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalFile = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8"));
  const index = journal.entries.findIndex((entry: { tag: string }) => entry.tag === QUEUE_MIGRATION);
  expect(index).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalFile, JSON.stringify(journal));
  return dir;
}

const q = async <T = Record<string, unknown>>(text: string, params: unknown[] = []) => (await client.query<T>(text, params)).rows;

beforeAll(async () => {
  before = migrationsBeforeQueue();
  client = new PGlite();
  await migrate(drizzle(client), { migrationsFolder: before });
});

afterAll(async () => {
  await client.close();
  rmSync(before, { recursive: true, force: true });
});

test("0022_work_queue carries every pending piece of work over to queue_items, and nothing finished", async () => {
  const [user] = await q<{ id: string }>("insert into users (email, name) values ('old@example.com', 'Old') returning id");
  const userId = user!.id;
  const [group] = await q<{ id: string }>(
    "insert into task_groups (owner_id, names, position) values ($1, '{}'::jsonb, 0) returning id",
    [userId],
  );
  const [task] = await q<{ id: string }>(
    "insert into tasks (owner_id, group_id, title, position) values ($1, $2, 'Old task', 'a') returning id",
    [userId, group!.id],
  );

  // Webhooks: one delivery waiting for its third attempt, one that succeeded.
  const [endpoint] = await q<{ id: string }>(
    "insert into webhook_endpoints (user_id, url, secret) values ($1, 'https://example.com/hook', 'whsec_x') returning id",
    [userId],
  );
  const retryAt = "2030-01-02T03:04:05.000Z";
  const [pendingDelivery] = await q<{ id: string }>(
    `insert into webhook_deliveries (endpoint_id, event_type, message_id, payload, status, attempts, next_attempt_at)
     values ($1, 'task.created', 'msg_1', '{}', 'pending', 2, $2) returning id`,
    [endpoint!.id, retryAt],
  );
  await q(
    `insert into webhook_deliveries (endpoint_id, event_type, message_id, payload, status, attempts)
     values ($1, 'task.created', 'msg_2', '{}', 'succeeded', 1)`,
    [endpoint!.id],
  );

  // Connectors: a run waiting for its retry, a webhook waiting its turn, one cut off while running, one finished.
  const [connection] = await q<{ id: string }>(
    `insert into connector_connections (kind, name, owner_id, base_url, credentials, webhook_secret)
     values ('erp', 'ERP', $1, 'https://erp.example.com', 'x', 'y') returning id`,
    [userId],
  );
  const run = async (values: string) =>
    (
      await q<{ id: string }>(
        `insert into connector_runs (connection_id, operation, trigger, status, attempt, next_attempt_at, delivery_id, started_at)
         values ${values} returning id`,
        [connection!.id],
      )
    )[0]!.id;
  const retrying = await run(`($1, 'import', 'user', 'failed', 2, '${retryAt}', null, now())`);
  const waiting = await run(`($1, 'webhook', 'webhook', 'queued', 1, '${retryAt}', 'd-1', now())`);
  const cutOff = await run(`($1, 'export', 'user', 'running', 1, null, null, '2030-01-01T00:00:00Z')`);
  await run(`($1, 'import', 'user', 'succeeded', 1, null, null, now())`);
  await run(`($1, 'import', 'user', 'failed', 4, null, null, now())`);

  // Deploys: one queued, one finished.
  const [queuedDeploy] = await q<{ id: string }>(
    "insert into deploy_runs (delivery_id, event, ref, status, received_at) values ('g-1', 'push', 'refs/heads/main', 'queued', '2030-01-01T00:00:00Z') returning id",
  );
  await q("insert into deploy_runs (delivery_id, event, status) values ('g-2', 'push', 'succeeded')");

  // Media: a transcription pending (claimed by a process that is gone), one done.
  const media = async (key: string, status: string) =>
    (
      await q<{ id: string }>(
        `insert into media_items (task_id, uploader_id, kind, filename, content_type, size_bytes, storage_key, transcription_status, transcription_claimed_at)
         values ($1, $2, 'audio', 'a.wav', 'audio/wav', 10, $3, $4, now()) returning id`,
        [task!.id, userId, key, status],
      )
    )[0]!.id;
  const pendingMedia = await media("key-1", "pending");
  await media("key-2", "done");

  await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });

  const items = await q<{
    kind: string;
    key: string;
    state: string;
    attempts: number;
    max_attempts: number;
    run_at: Date;
    lease_until: Date | null;
  }>("select kind, key, state, attempts, max_attempts, run_at, lease_until from queue_items order by kind, key");
  const byKey = Object.fromEntries(items.map((item) => [item.key, item]));
  expect(items).toHaveLength(6);
  expect(byKey[pendingDelivery!.id]).toMatchObject({
    kind: "webhook.delivery",
    state: "pending",
    attempts: 2,
    max_attempts: 8,
    run_at: new Date(retryAt),
  });
  expect(byKey[retrying]).toMatchObject({ kind: "connector.run", state: "pending", attempts: 2, run_at: new Date(retryAt) });
  expect(byKey[retrying]!.max_attempts).toBeGreaterThan(2);
  expect(byKey[waiting]).toMatchObject({ kind: "connector.run", state: "pending", attempts: 0, run_at: new Date(retryAt) });
  expect(byKey[cutOff]).toMatchObject({
    kind: "connector.run",
    state: "running",
    attempts: 1,
    lease_until: new Date("2030-01-01T00:15:00Z"),
  });
  expect(byKey[queuedDeploy!.id]).toMatchObject({ kind: "deploy.run", state: "pending", attempts: 0, max_attempts: 1 });
  expect(byKey[pendingMedia]).toMatchObject({ kind: "media.transcription", state: "pending", attempts: 0 });

  // What the old queues needed and the new one does not is gone.
  const columns = await q("select 1 from information_schema.columns where column_name = 'transcription_claimed_at'");
  expect(columns).toEqual([]);
});
