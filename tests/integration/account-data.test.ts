import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { accountExportOutput } from "../../lib/account-data/schema";
import { schemaShapes } from "../../lib/account-data/repo";
import { ACCOUNT_DATA_TABLES, exportKeys, registryProblems, type TableShape } from "../../lib/account-data/tables";
import { advanceClock, resetClock } from "../../lib/clock";
import { mediaRoot } from "../../lib/media/storage";
import { taskListOutput } from "../../lib/tasks/schema";
import { PNG } from "./media-samples";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type RequestOptions,
  type TestServer,
} from "./harness";

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());
afterEach(() => resetClock());

type User = Awaited<ReturnType<typeof registerUser>>;
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

/** Polls until `read` answers something (events reach their handlers just after the request that caused them). */
async function waitFor<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("waited in vain");
}

async function ok<T = any>(response: Promise<{ status: number; body: T }>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.status, JSON.stringify(answer.body)).toBe(status);
  return answer.body;
}

/** Unzips an archive with Info-ZIP's `unzip` into a fresh folder; answers each file's bytes by its path. */
async function unzipped(zipFile: string): Promise<Map<string, Buffer>> {
  const target = mkdtempSync(path.join(tmpdir(), "spolu-unzip-"));
  try {
    await promisify(execFile)("unzip", ["-q", zipFile, "-d", target]);
    const files = new Map<string, Buffer>();
    for (const entry of readdirSync(target, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile()) continue;
      const file = path.join(entry.parentPath, entry.name);
      files.set(path.relative(target, file).split(path.sep).join("/"), readFileSync(file));
    }
    return files;
  } finally {
    rmSync(target, { recursive: true, force: true });
  }
}

/** A push subscription as a browser makes one (PushSubscription.toJSON()). */
function browserSubscription(marker: string) {
  const keys = createECDH("prime256v1");
  keys.generateKeys();
  return {
    endpoint: `https://push.example.com/send/${marker}`,
    keys: { p256dh: keys.getPublicKey().toString("base64url"), auth: randomBytes(16).toString("base64url") },
  };
}

/** Sends a collaboration request and lets the recipient accept it (or leaves it pending). */
async function request(from: User, taskId: string, kind: string, to: User, accept: boolean) {
  const sent = await ok(
    server.request(`/tasks/${taskId}/collaboration-requests`, { token: from.token, json: { kind, userId: to.user.id } }),
    201,
  );
  if (accept) await ok(api(`/collaboration-requests/${sent.id}/accept`, { method: "POST", token: to.token }));
  return sent.id as string;
}

/** The task list as `who` gets it, with its X-Cache header. */
async function taskList(who: User) {
  const response = await server.request("/tasks", { token: who.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...expectShape(taskListOutput, response.body), cache: response.headers.get("x-cache") };
}

/**
 * Every table of the database (from information_schema, not from the registry) whose rows mention `needle` in any
 * column: uuid and uuid[] columns, jsonb, text, all read as the row's text. Answers `table: count`.
 */
async function tablesMentioning(needle: string): Promise<Record<string, number>> {
  const tables = await server.sql<{ table_name: string }>(
    "select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE' order by 1",
  );
  expect(tables.length).toBeGreaterThanOrEqual(30);
  const found: Record<string, number> = {};
  for (const { table_name: table } of tables) {
    const [row] = await server.sql<{ n: number }>(
      `select count(*)::int as n from "${table}" t where strpos(lower(t::text), lower($1)) > 0`,
      [needle],
    );
    if (row!.n > 0) found[table] = row!.n;
  }
  return found;
}

/** The uuid, uuid[] and jsonb columns of the database, for a scan that reads only those (as the issue asks). */
async function uuidColumnsMentioning(userId: string): Promise<string[]> {
  const columns = await server.sql<{ table_name: string; column_name: string; udt_name: string }>(
    `select c.table_name, c.column_name, c.udt_name from information_schema.columns c
       join information_schema.tables t on t.table_schema = c.table_schema and t.table_name = c.table_name
      where c.table_schema = 'public' and t.table_type = 'BASE TABLE' and c.udt_name in ('uuid', '_uuid', 'jsonb', 'json')`,
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column, udt_name: type } of columns) {
    const where =
      type === "uuid"
        ? `"${column}" = $1::uuid`
        : type === "_uuid"
          ? `$1::uuid = any("${column}")`
          : `strpos("${column}"::text, $1) > 0`;
    const [row] = await server.sql<{ n: number }>(`select count(*)::int as n from "${table}" where ${where}`, [userId]);
    if (row!.n > 0) found.push(`${table}.${column}`);
  }
  return found;
}

/**
 * Alice has data in every table (through the API where it has a way, else in SQL); Bob shares with her: her task is
 * assigned to him, his task to her, she collaborates on another of his, and both have requests pending from the other.
 */
async function arrange() {
  const marker = randomUUID().slice(0, 8);
  const alice = await registerUser(server, { name: `Alice ${marker}` });
  const bob = await registerUser(server, { name: `Bob ${marker}` });
  const aliceId = alice.user.id as string;
  const bobId = bob.user.id as string;

  // Tasks, a subtask, a group of hers shared with her family, in which Bob keeps a task of his.
  const home = await ok(server.request("/groups", { token: alice.token, json: { names: { en: `Home ${marker}` } } }), 201);
  const aliceTask = await createTask(server, alice.token, {
    title: `Alice's task ${marker}`,
    description: `Alice's notes ${marker}`,
  });
  const alicePrivate = await createTask(server, alice.token, { title: `Alice's private ${marker}`, groupId: home.id });
  await ok(server.request(`/tasks/${aliceTask.id}/subtasks`, { token: alice.token, json: { title: `Step ${marker}` } }), 201);
  const bobTask = await createTask(server, bob.token, { title: `Bob's task ${marker}` });
  const bobSecond = await createTask(server, bob.token, { title: `Bob's second ${marker}` });

  await ok(api("/family", { token: alice.token, json: { name: `Family ${marker}` } }), 201);
  await ok(api(`/family/groups/${home.id}`, { method: "PUT", token: alice.token }));
  await ok(joinAs(server, "/api/v1/family/members", alice, bob, { role: "child" }), 201);
  const bobInAlicesGroup = await createTask(server, bob.token, { title: `Bob's in Home ${marker}`, groupId: home.id });

  // Sharing both ways, and requests pending both ways.
  await request(alice, aliceTask.id, "assign", bob, true);
  await request(bob, bobTask.id, "assign", alice, true);
  await request(bob, bobSecond.id, "collaborate", alice, true);
  await request(alice, alicePrivate.id, "collaborate", bob, false);
  const bobThird = await createTask(server, bob.token, { title: `Bob's third ${marker}` });
  await request(bob, bobThird.id, "collaborate", alice, false);
  // Someone else asks her by email to take a task on: an invitation addressed to her email, waiting for her.
  const carl = await registerUser(server, { name: `Carl ${marker}` });
  const carlTask = await createTask(server, carl.token, { title: `Carl's task ${marker}` });
  await ok(
    server.request(`/tasks/${carlTask.id}/collaboration-requests`, {
      token: carl.token,
      json: { kind: "assign", email: alice.email },
    }),
    202,
  );

  // A team and a project she owns with Bob in them, and one of each with nobody else.
  const team = await ok(api("/user-groups", { token: alice.token, json: { name: `Team ${marker}` } }), 201);
  await ok(joinAs(server, `/api/v1/user-groups/${team.id}/members`, alice, bob, { role: "member" }), 201);
  const soloTeam = await ok(api("/user-groups", { token: alice.token, json: { name: `Solo team ${marker}` } }), 201);
  const project = await ok(api("/projects", { token: alice.token, json: { name: `Project ${marker}` } }), 201);
  await ok(joinAs(server, `/api/v1/projects/${project.id}/members`, alice, bob, { role: "viewer" }), 201);
  // The project's board has a column of its own, with one of her project's tasks placed in it.
  const review = await ok(
    api(`/projects/${project.id}/board-columns`, { token: alice.token, json: { name: "Review", status: "in_progress" } }),
    201,
  );
  const projectTask = await ok(
    api("/tasks", { token: alice.token, json: { title: `Ship ${marker}`, projectId: project.id } }),
    201,
  );
  await ok(api(`/tasks/${projectTask.id}/move`, { token: alice.token, json: { columnId: review.id } }));

  // She invites a third person to her task, and joins Bob's third task through his invitation.
  const thirdEmail = `third-${marker}@example.com`;
  await ok(
    server.request("/invitations", { token: alice.token, json: { taskId: aliceTask.id, name: "Third", email: thirdEmail } }),
    201,
  );
  const invited = await ok(server.request("/invitations", { token: bob.token, json: { taskId: bobThird.id } }), 201);
  await ok(server.request(`/invite/${invited.token}/accept`, { method: "POST", token: alice.token }));

  // Comments: hers and Bob's on her task, hers and Bob's (mentioning her) on his.
  await ok(
    server.request(`/tasks/${aliceTask.id}/comments`, {
      token: alice.token,
      json: { body: `Mine ${marker}`, mentions: [bobId] },
    }),
    201,
  );
  await ok(
    server.request(`/tasks/${aliceTask.id}/comments`, {
      token: bob.token,
      json: { body: `Bob's ${marker}`, mentions: [aliceId] },
    }),
    201,
  );
  await ok(server.request(`/tasks/${bobTask.id}/comments`, { token: alice.token, json: { body: `On Bob's ${marker}` } }), 201);
  await ok(
    server.request(`/tasks/${bobTask.id}/comments`, { token: bob.token, json: { body: `Hi ${marker}`, mentions: [aliceId] } }),
    201,
  );
  // Preferences, settings, push, webhooks, an error report.
  await ok(
    server.request(`/notification-prefs/${aliceTask.id}`, { method: "PUT", token: alice.token, json: { remind_before: 60 } }),
  );
  await ok(server.request(`/notification-prefs/${bobTask.id}`, { method: "PUT", token: alice.token, json: { daily: false } }));
  await ok(api("/notification-settings", { method: "PUT", token: alice.token, json: { dailySummaryTime: "06:30" } }));
  const push = browserSubscription(marker);
  await ok(api("/push/subscriptions", { token: alice.token, json: push }), 201);
  // Subscribed to an event nothing here causes: no delivery leaves for the outside world.
  const webhook = await ok(
    api("/webhooks", { token: alice.token, json: { url: `https://hooks.example.com/${marker}`, events: ["webhook.disabled"] } }),
    201,
  );
  const calendarFeed = await ok(api("/calendar-feeds", { token: alice.token, json: { name: `Feed ${marker}` } }), 201);
  const [calendarFeedHash] = await server.sql<{ secret_hash: string }>("select secret_hash from calendar_feeds where id = $1", [
    calendarFeed.id,
  ]);
  await ok(api("/saved-filters", { token: alice.token, json: { name: `Filter ${marker}`, query: "view=today" } }), 201);
  const bobsWebhook = await ok(
    api("/webhooks", {
      token: bob.token,
      json: { url: `https://hooks.example.com/bob-${marker}`, events: ["webhook.disabled"] },
    }),
    201,
  );
  await ok(
    server.request("/errors/report", {
      token: alice.token,
      json: { message: `Broke ${marker}`, stack: `at alice ${marker}`, context: { build: "1" } },
    }),
    202,
  );

  // Where the API has no way in (jobs, sign-in methods, logs): SQL.
  const [fire] = await server.sql<{ id: number }>(
    `insert into reminder_fires (user_id, subject, kind, occurrence, task_id) values ($1, $2::text, 'due', '2025-01-01T10:00:00Z', $2::uuid) returning id`,
    [aliceId, aliceTask.id],
  );
  await server.sql(`insert into reminder_deliveries (fire_id, channel, status) values ($1, 'in_app', 'sent')`, [fire!.id]);
  await server.sql(`insert into weekly_reports (user_id, week_start, summary) values ($1, '2025-01-06', '{"done": 3}')`, [
    aliceId,
  ]);
  const [delivery] = await server.sql<{ id: string }>(
    `insert into webhook_deliveries (endpoint_id, event_type, message_id, payload, status, attempts)
     values ($1, 'task.updated', $2, $3::jsonb, 'succeeded', 1) returning id`,
    [webhook.id, `msg_${marker}`, JSON.stringify({ data: { actorId: aliceId } })],
  );
  await server.sql(`insert into webhook_attempts (delivery_id, status_code, duration_ms) values ($1, 200, 12)`, [delivery!.id]);
  // Bob's own delivery log and notification mention her: they stay, without her id.
  await server.sql(
    `insert into webhook_deliveries (endpoint_id, event_type, message_id, payload, status, attempts)
     values ($1, 'collaboration.requested', $2, $3::jsonb, 'succeeded', 1)`,
    [
      bobsWebhook.id,
      `msg_bob_${marker}`,
      JSON.stringify({ data: { requesterId: aliceId, nested: [{ userIds: [bobId, aliceId] }] } }),
    ],
  );
  await server.sql(`insert into notifications (user_id, kind, title, data) values ($1, 'note', 'From Alice', $2::jsonb)`, [
    bobId,
    JSON.stringify({ fromUserId: aliceId.toUpperCase() }),
  ]);
  const publicKey = randomBytes(77).toString("base64url");
  const credentialId = randomBytes(16).toString("base64url");
  await server.sql(
    `insert into webauthn_credentials (user_id, credential_id, public_key, aaguid, device_type, label, name)
     values ($1, $2, $3, '00000000-0000-0000-0000-000000000000', 'multiDevice', 'generic', 'My key')`,
    [aliceId, credentialId, publicKey],
  );
  await server.sql(`insert into user_identities (user_id, provider, subject, email) values ($1, 'github', $2, $3)`, [
    aliceId,
    `gh-${marker}`,
    alice.email,
  ]);
  // Linking another external account, in flight (POST /auth/{provider}/link): its secrets are not exported.
  await server.sql(
    `insert into oauth_states (state, provider, code_verifier, nonce, return_to, browser_hash, link_user_id, expires_at)
     values ($1, 'google', $2, $3, '/en/settings/security', $4, $5, now() + interval '10 minutes')`,
    [`state-${marker}`, `verifier-${marker}`, `nonce-${marker}`, `binding-${marker}`, aliceId],
  );
  const challenge = randomBytes(32).toString("base64url");
  await server.sql(
    `insert into auth_challenges (purpose, challenge, user_id, email, expires_at) values ('webauthn.register', $1, $2, $3, now() + interval '5 minutes')`,
    [challenge, aliceId, alice.email],
  );
  await server.sql(
    `insert into email_log (user_id, "to", subject, kind, transport, status) values ($1, $2, 'Your reminder', 'reminder', 'log', 'sent'),
       (null, $2, 'Hello', 'admin', 'log', 'sent')`,
    [aliceId, alice.email],
  );
  await server.sql(
    `insert into error_logs (source, status, method, route, user_id, message, context) values ('server', 500, 'GET', '/api/v1/tasks', $1, $3, $2::jsonb)`,
    [aliceId, JSON.stringify({ userId: aliceId }), `boom ${marker}`],
  );
  // An administrator's module switch (issue 9): it stays after her deletion, without her.
  await server.sql(
    `insert into module_settings (module_id, enabled, updated_by) values ('deploy', true, $1)
     on conflict (module_id) do update set updated_by = excluded.updated_by`,
    [aliceId],
  );
  // Goals, the assistant and the activity monitor (issue 8).
  await server.sql(`insert into ai_usage (user_id, day, requests, tokens) values ($1, '2025-01-06', 2, 120)`, [aliceId]);
  const [goal] = await server.sql<{ id: string }>(`insert into goals (owner_id, title) values ($1, $2) returning id`, [
    aliceId,
    `Learn Czech ${marker}`,
  ]);
  await server.sql(`insert into goal_tasks (goal_id, task_id) values ($1, $2)`, [goal!.id, aliceTask.id]);
  await server.sql(
    `insert into goal_progress_reports (goal_id, user_id, reported_on, value, note) values ($1, $2, '2025-01-06', 30, 'week one')`,
    [goal!.id, aliceId],
  );
  await server.sql(
    `insert into study_plans (goal_id, user_id, plan, answered_by) values ($1, $2, '{"sessions": []}', '{"provider": "built-in"}')`,
    [goal!.id, aliceId],
  );
  const [message] = await server.sql<{ id: number }>(
    `insert into chat_messages (user_id, role, content) values ($1, 'user', $2) returning id`,
    [aliceId, `Plan my week ${marker}`],
  );
  await server.sql(
    `insert into chat_actions (user_id, message_id, kind, params) values ($1, $2, 'create_task', '{"title": "Review"}')`,
    [aliceId, message!.id],
  );
  await server.sql(
    `insert into activity_records (user_id, client_id, app, category, seconds, started_at, ended_at)
     values ($1, 'c-1', 'Reader', 'reading', 600, '2025-01-06T10:00:00Z', '2025-01-06T10:10:00Z')`,
    [aliceId],
  );
  const [connection] = await server.sql<{ id: string }>(
    `insert into connector_connections (kind, name, owner_id, base_url, credentials, webhook_secret)
     values ('erp', 'Odoo', $1, 'https://erp.example.com', 'v1.secret-credentials', 'v1.secret-webhook') returning id`,
    [aliceId],
  );
  await server.sql(
    `insert into connector_links (connection_id, entity, external_id, local_id) values ($1, 'task', '41', gen_random_uuid())`,
    [connection!.id],
  );
  await server.sql(
    `insert into connector_runs (connection_id, operation, trigger, status) values ($1, 'import', 'user', 'succeeded')`,
    [connection!.id],
  );
  // Spaced repetition (issue 9): a card linked to her goal and task, a review of it, her retention.
  const [card] = await server.sql<{ id: string }>(
    `insert into review_cards (user_id, front, back, deck, goal_id, task_id, due) values ($1, $2, 'ahoj', 'Czech', $3, $4, now()) returning id`,
    [aliceId, `hello ${marker}`, goal!.id, aliceTask.id],
  );
  await server.sql(
    `insert into review_logs (card_id, user_id, client_review_id, grade, state, due, stability, difficulty, elapsed_days, last_elapsed_days,
       scheduled_days, learning_steps, next_due, reviewed_at)
     values ($1, $2, gen_random_uuid(), 'good', 'new', now(), 0, 0, 0, 0, 0, 0, now() + interval '10 minutes', now())`,
    [card!.id, aliceId],
  );
  await server.sql(`insert into review_settings (user_id, desired_retention) values ($1, 0.85)`, [aliceId]);
  await server.sql(
    `insert into learning_grades (connection_id, course_id, item_id, item_name, item_type, grade) values ($1, '3', '17', 'Essay', 'mod', 8.5)`,
    [connection!.id],
  );
  // A template of hers; time she tracked on Bob's task (hers to export), and Bob on hers (goes with her task).
  await ok(
    api("/templates", {
      token: alice.token,
      json: { name: `Routine ${marker}`, tasks: [{ title: "Stretch", subtasks: ["Neck"] }] },
    }),
    201,
  );
  await ok(
    api("/time-entries", {
      token: alice.token,
      json: { taskId: bobTask.id, startedAt: "2025-01-06T09:00:00Z", durationSeconds: 900, note: `Helped ${marker}` },
    }),
    201,
  );
  await ok(
    api("/time-entries", {
      token: bob.token,
      json: { taskId: aliceTask.id, startedAt: "2025-01-06T11:00:00Z", durationSeconds: 600 },
    }),
    201,
  );
  const [invoice] = await server.sql<{ id: string }>(
    `insert into invoices (owner_id, partner_company, issue_date, tax_date, due_date, text) values ($1, 'Partner s.r.o.', '2026-01-14', '2026-01-14', '2026-01-28', $2) returning id`,
    [aliceId, `Invoice ${marker}`],
  );
  await server.sql(
    `insert into invoice_items (invoice_id, position, text, quantity, unit_price, rate_vat) values ($1, 0, 'Konzultace', 2, 500, 'high')`,
    [invoice!.id],
  );
  await server.sql(
    `insert into domain_events (type, actor_id, audience, data) values ('notification.created', null, $1::uuid[], '{}'::jsonb)`,
    [`{${aliceId}}`],
  );
  // Gamification (the handler may have awarded her completions already: these rows do not collide with its).
  await server.sql(
    `insert into gamification_profiles (user_id, points, leaderboard_opt_in) values ($1, 0, true) on conflict (user_id) do update set leaderboard_opt_in = true`,
    [aliceId],
  );
  await server.sql(
    `insert into gamification_awards (user_id, task_id, task_title, event_id, points, base_points, on_time_bonus, priority_bonus, on_time, shared, completed_at, local_date)
     values ($1, null, $2, 1, 20, 10, 10, 0, true, false, '2025-01-06T10:00:00Z', '2025-01-06')`,
    [aliceId, `Finished ${marker}`],
  );
  await server.sql(
    `insert into gamification_badges (user_id, badge, earned_at) values ($1, 'streak_30', '2025-01-06T10:00:00Z')`,
    [aliceId],
  );
  await server.sql(
    `insert into gamification_level_ups (user_id, level, points, reached_at) values ($1, 9, 1800, '2025-01-06T10:00:00Z')`,
    [aliceId],
  );

  // Media: a photo on her task, and a note she attached to Bob's task (she is assigned to it); files on disk.
  const photo = { kind: "photo", filename: `Photo ${marker}.png`, data: PNG.toString("base64") };
  await ok(server.request(`/tasks/${aliceTask.id}/media`, { token: alice.token, json: photo }), 201);
  const note = { kind: "text", filename: `Note ${marker}.txt`, data: Buffer.from(`A note ${marker}`).toString("base64") };
  await ok(server.request(`/tasks/${bobTask.id}/media`, { token: alice.token, json: note }), 201);
  // A purge still queued (a crash before the files were removed) holds no user data.
  await server.sql("insert into media_purges (storage_key) values ($1)", [randomUUID()]);

  // Notifications reach her from Bob's requests (after the commit, by the event handler).
  await waitFor(async () => ((await api("/notifications", { token: alice.token })).body.items.length >= 3 ? true : undefined));

  const [{ password_hash: passwordHash }] = (await server.sql<{ password_hash: string }>(
    "select password_hash from users where id = $1",
    [aliceId],
  )) as [{ password_hash: string }];
  const tokenHashes = (
    await server.sql<{ token_hash: string }>("select token_hash from invitations where inviter_id = $1", [aliceId])
  ).map((row) => row.token_hash);
  // Hers: the task invitation, and the one that brought Bob into her family workspace.
  expect(tokenHashes.length).toBe(2);
  // A personal access token, and a request sent with an Idempotency-Key (its kept answer is not exported).
  const accessToken = await server.request("/api/v1/tokens", { token: alice.token, json: { name: "Backup", scopes: ["read"] } });
  expect(accessToken.status).toBe(201);
  const [accessTokenRow] = await server.sql<{ token_hash: string }>(
    "select token_hash from personal_access_tokens where id = $1",
    [accessToken.body.id],
  );
  // A sync (GET /sync): what her client was sent is kept under its cursor (exported without the versions).
  await ok(api("/sync", { token: alice.token }));
  await server.sql(
    `insert into idempotency_keys (user_id, key, request_hash, locked_at, response_status, response_headers, response_body, expires_at)
     values ($1, $2, 'hash', now(), 201, '{}', '{}', now() + interval '1 day')`,
    [alice.user.id, `key-${marker}`],
  );
  return {
    marker,
    alice,
    bob,
    aliceTask,
    alicePrivate,
    bobTask,
    bobSecond,
    bobThird,
    bobInAlicesGroup,
    home,
    team,
    soloTeam,
    project,
    projectTask,
    thirdEmail,
    credentialId,
    secrets: {
      passwordHash,
      webhookSecret: webhook.secret as string,
      calendarFeedUrl: (calendarFeed.url as string).split("/").at(-1)!.replace(".ics", ""),
      calendarFeedHash: calendarFeedHash!.secret_hash,
      connectorCredentials: "v1.secret-credentials",
      connectorWebhookSecret: "v1.secret-webhook",
      p256dh: push.keys.p256dh,
      auth: push.keys.auth,
      publicKey,
      challenge,
      tokenHash: tokenHashes[0]!,
      accessToken: accessToken.body.token as string,
      accessTokenHash: accessTokenRow!.token_hash,
      linkCodeVerifier: `verifier-${marker}`,
      linkBinding: `binding-${marker}`,
    },
  };
}

describe("the account-data registry", () => {
  test("covers every table of the schema and every column that can hold a user", () => {
    const shapes = schemaShapes();
    expect(shapes.length).toBeGreaterThanOrEqual(30);
    expect(registryProblems(shapes)).toEqual([]);
    // Every table that holds user data has a key in the export.
    const exported = new Set(exportKeys().map(({ table }) => table));
    for (const [table, entry] of Object.entries(ACCOUNT_DATA_TABLES)) {
      if (entry.userColumns || entry.parent) expect(exported, table).toContain(table);
    }
  });

  test("a table or column it does not cover is a problem", () => {
    const shapes = schemaShapes();
    const comments: TableShape = {
      name: "task_comments",
      columns: [
        { name: "id", type: "uuid", primaryKey: true, notNull: true },
        {
          name: "task_id",
          type: "uuid",
          primaryKey: false,
          notNull: true,
          references: { table: "tasks", column: "id", onDelete: "cascade" },
        },
        {
          name: "author_id",
          type: "uuid",
          primaryKey: false,
          notNull: true,
          references: { table: "users", column: "id", onDelete: "cascade" },
        },
        { name: "mentions", type: "uuid[]", primaryKey: false, notNull: true },
      ],
    };
    expect(registryProblems([...shapes, comments])).toEqual([
      expect.stringMatching(/^task_comments: not in the account-data registry/),
    ]);

    // In the registry, but without its user columns.
    const partial = {
      ...ACCOUNT_DATA_TABLES,
      task_comments: { about: "Comments", export: [{ key: "comments", where: "author_id = $user" }] },
    };
    expect(registryProblems([...shapes, comments], partial)).toEqual([
      expect.stringMatching(/^task_comments\.author_id: references users\.id but the registry does not say/),
      expect.stringMatching(/^task_comments\.mentions: a uuid\[\] column the registry does not classify/),
    ]);

    // A user id without a foreign key added to a known table; a rule that contradicts the foreign key.
    const tasks = shapes.find((shape) => shape.name === "tasks")!;
    const reviewer = {
      ...tasks,
      columns: [...tasks.columns, { name: "reviewer_id", type: "uuid", primaryKey: false, notNull: false }],
    };
    expect(registryProblems(shapes.map((shape) => (shape === tasks ? reviewer : shape)))).toEqual([
      expect.stringMatching(/^tasks\.reviewer_id: a uuid column the registry does not classify/),
    ]);
    const wrongRule = {
      ...ACCOUNT_DATA_TABLES,
      projects: { ...ACCOUNT_DATA_TABLES.projects!, userColumns: { created_by: "cascade" as const } },
    };
    expect(registryProblems(shapes, wrongRule)).toEqual([
      expect.stringMatching(/^projects\.created_by: the registry says cascade, the foreign key ON DELETE set null/),
    ]);
  });
});

describe("GET /auth/export-data", () => {
  test("downloads everything of the user's, a key per table, without secrets or other people's emails", async () => {
    const data = await arrange();
    const { alice, bob, secrets } = data;
    const response = await server.request("/auth/export-data", { token: alice.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="spolu-export-\d{4}-\d{2}-\d{2}\.json"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = expectShape(accountExportOutput, response.body) as Record<string, any>;
    expect(Date.parse(body.exportedAt)).toBeGreaterThan(Date.now() - 60_000);

    // Every key the registry exports is there, and (as Alice has data everywhere) none is empty.
    for (const { table, view } of exportKeys()) {
      expect(body, `${table} → ${view.key}`).toHaveProperty(view.key);
      if (!view.single) expect(body[view.key].length, `${table} → ${view.key}`).toBeGreaterThan(0);
    }
    expect(body.user).toMatchObject({ id: alice.user.id, email: alice.email, name: `Alice ${data.marker}` });
    expect(body.user).not.toHaveProperty("passwordHash");
    expect(body.user).not.toHaveProperty("tokenVersion");

    // Her tasks whole, with the subtask; Bob's tasks she works on with their own fields only.
    expect(body.tasks.map((task: { id: string }) => task.id).sort()).toEqual(
      [data.aliceTask.id, data.alicePrivate.id, data.projectTask.id].sort(),
    );
    expect(body.tasks.find((task: { id: string }) => task.id === data.aliceTask.id)).toMatchObject({
      assigneeIds: [bob.user.id],
      subtaskTotal: 1,
    });
    expect(body.subtasks).toEqual([expect.objectContaining({ taskId: data.aliceTask.id, title: `Step ${data.marker}` })]);
    expect(body.sharedTasks.map((task: { id: string }) => task.id).sort()).toEqual(
      [data.bobTask.id, data.bobSecond.id, data.bobThird.id].sort(),
    );
    for (const task of body.sharedTasks) {
      expect(Object.keys(task).sort()).toEqual(
        [
          "id",
          "title",
          "description",
          "status",
          "priority",
          "dueAt",
          "startDate",
          "tags",
          "completedAt",
          "createdAt",
          "updatedAt",
        ].sort(),
      );
    }
    // Memberships: hers only.
    expect(body.userGroupMemberships.map((row: { userId: string }) => row.userId)).toEqual(
      body.userGroupMemberships.map(() => alice.user.id),
    );
    expect(body.userGroups.map((group: { id: string }) => group.id).sort()).toEqual([data.team.id, data.soloTeam.id].sort());
    expect(body.projects.map((project: { id: string }) => project.id)).toEqual([data.project.id]);
    expect(body.familyMemberships).toEqual([expect.objectContaining({ userId: alice.user.id, role: "parent" })]);
    expect(body.collaborationRequests.length).toBe(5);
    expect(body.invitations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ inviterId: alice.user.id, inviteeEmail: data.thirdEmail, taskId: data.aliceTask.id }),
        expect.objectContaining({ inviterId: alice.user.id, inviteeUserId: bob.user.id, familyRole: "child" }),
      ]),
    );
    expect(body.invitations).toHaveLength(2);
    expect(body.invitations[0]).not.toHaveProperty("tokenHash");
    expect(body.receivedInvitations).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ taskRole: "assignee", acceptedAt: null, inviterId: expect.any(String) }),
      ]),
    );
    expect(body.receivedInvitations[0]).not.toHaveProperty("tokenHash");
    expect(body.acceptedInvitations).toEqual([expect.objectContaining({ inviterId: bob.user.id, taskId: data.bobThird.id })]);
    expect(body.acceptedInvitations[0]).not.toHaveProperty("inviteeEmail");
    expect(body.pushSubscriptions).toEqual([expect.objectContaining({ endpoint: expect.stringContaining(data.marker) })]);
    expect(body.pushSubscriptions[0]).not.toHaveProperty("p256dh");
    expect(body.webhookEndpoints[0]).not.toHaveProperty("secret");
    expect(body.calendarFeeds).toEqual([expect.objectContaining({ name: `Feed ${data.marker}` })]);
    expect(body.calendarFeeds[0]).not.toHaveProperty("secretHash");
    expect(body.savedFilters).toEqual([expect.objectContaining({ name: `Filter ${data.marker}`, query: "view=today" })]);
    expect(body.syncCursors).toEqual([expect.objectContaining({ userId: data.alice.user.id })]);
    expect(body.syncCursors[0]).not.toHaveProperty("versions");
    expect(body.webauthnCredentials).toEqual([expect.objectContaining({ credentialId: data.credentialId, name: "My key" })]);
    expect(body.webauthnCredentials[0]).not.toHaveProperty("publicKey");
    // Two emails of the arrangement, and the verification link registration sent.
    expect(
      body.emailLog.map((entry: { kind: string }) => entry.kind).filter((kind: string) => kind !== "email_verification"),
    ).toHaveLength(2);
    expect(body.emailLinks).toEqual([expect.objectContaining({ purpose: "email_verification", email: alice.email })]);
    expect(body.emailLinks[0]).not.toHaveProperty("tokenHash");
    expect(body.invoices).toEqual([expect.objectContaining({ partnerCompany: "Partner s.r.o.", issueDate: "2026-01-14" })]);
    expect(body.invoiceItems).toEqual([expect.objectContaining({ text: "Konzultace", rateVat: "high" })]);
    expect(body.errorReports.map((report: { source: string }) => report.source).sort()).toEqual(["client", "server"]);
    expect(body.domainEvents.every((event: Record<string, unknown>) => !("data" in event) && !("audience" in event))).toBe(true);
    expect(body.gamificationProfile).toEqual([expect.objectContaining({ userId: alice.user.id, leaderboardOptIn: true })]);
    expect(body.gamificationAwards).toContainEqual(expect.objectContaining({ taskTitle: `Finished ${data.marker}`, points: 20 }));

    // No secret anywhere; no other person's email but the invitee's she typed herself.
    const text = JSON.stringify(body);
    for (const [name, secret] of Object.entries(secrets)) expect(text, name).not.toContain(secret);
    expect(text).not.toContain(bob.email);
    expect(text).toContain(data.thirdEmail);

    // Bob's export holds none of Alice's own records (sign-in methods, devices, webhooks, logs, her private task's title).
    const bobs = (await server.request("/api/v1/auth/export-data", { token: bob.token })).body;
    const bobText = JSON.stringify(bobs);
    expect(bobs.user.email).toBe(bob.email);
    expect(bobs.sharedTasks.map((task: { id: string }) => task.id)).toEqual([data.aliceTask.id]);
    for (const hers of [
      data.credentialId,
      alice.email,
      `push.example.com/send/${data.marker}`,
      `hooks.example.com/${data.marker}`,
      `Broke ${data.marker}`,
      `Step ${data.marker}`,
    ]) {
      expect(bobText).not.toContain(hers);
    }
  });

  test("needs a session", async () => {
    expectProblem(await server.request("/auth/export-data"), 401, "unauthenticated");
    expectProblem(await server.request("/auth/export-data?format=zip"), 401, "unauthenticated");
  });

  test("?format=zip – the JSON and every attachment file of hers, names made safe and unique (the first uploaded keeps its name); nobody else's files", async () => {
    const alice = await registerUser(server);
    const bob = await registerUser(server);
    const aliceTask = await createTask(server, alice.token, { title: "With files" });
    const bobTask = await createTask(server, bob.token, { title: "Bob's own" });
    const sharedTask = await createTask(server, bob.token, { title: "Bob's, Alice assigned" });
    await request(bob, sharedTask.id, "assign", alice, true);
    // A photo of a few MB (PNG signature, then random bytes), two notes whose names collide once made safe.
    const photo = Buffer.concat([PNG, randomBytes(3 * 1024 * 1024)]);
    const upload = (user: User, taskId: string, filename: string, kind: string, bytes: Buffer) =>
      ok(api(`/tasks/${taskId}/media`, { token: user.token, json: { kind, filename, data: bytes.toString("base64") } }), 201);
    const big = await upload(alice, aliceTask.id, "Holiday:photo.png", "photo", photo);
    const first = await upload(alice, aliceTask.id, "notes?.txt", "text", Buffer.from("first note"));
    const second = await upload(alice, sharedTask.id, "Notes*.txt", "text", Buffer.from("second note, on Bob's task"));
    const bobs = await upload(bob, bobTask.id, "bob-secret.txt", "text", Buffer.from("Bob's own file"));
    const bobsOnShared = await upload(bob, sharedTask.id, "bob-on-shared.txt", "text", Buffer.from("Bob's on the shared"));

    const response = await fetch(`${server.url}/api/v1/auth/export-data?format=zip`, {
      headers: { Authorization: `Bearer ${alice.token}` },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/zip");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="spolu-export-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const directory = mkdtempSync(path.join(tmpdir(), "spolu-export-"));
    try {
      const zipFile = path.join(directory, "export.zip");
      writeFileSync(zipFile, Buffer.from(await response.arrayBuffer()));
      const files = await unzipped(zipFile);
      expect([...files.keys()].sort()).toEqual(
        ["export.json", "attachments/Holiday_photo.png", "attachments/notes_.txt", "attachments/Notes_ (2).txt"].sort(),
      );
      const json = expectShape(accountExportOutput, JSON.parse(files.get("export.json")!.toString("utf8"))) as Record<
        string,
        any
      >;
      expect(json.user).toMatchObject({ id: alice.user.id, email: alice.email });
      expect(json.tasks.map((task: { id: string }) => task.id)).toEqual([aliceTask.id]);
      const byId = new Map(json.mediaItems.map((item: { id: string; file: string }) => [item.id, item.file]));
      expect(Object.fromEntries(byId)).toEqual({
        [big.id]: "attachments/Holiday_photo.png",
        [first.id]: "attachments/notes_.txt",
        [second.id]: "attachments/Notes_ (2).txt",
      });
      expect(files.get("attachments/Holiday_photo.png")!.equals(photo)).toBe(true);
      expect(files.get("attachments/notes_.txt")!.toString()).toBe("first note");
      expect(files.get("attachments/Notes_ (2).txt")!.toString()).toBe("second note, on Bob's task");
      const everything = [...files.values()].map((bytes) => bytes.toString("latin1")).join("\n");
      for (const item of [bobs, bobsOnShared]) expect(everything).not.toContain(item.id);
      expect(everything).not.toContain("Bob's own file");
      expect(everything).not.toContain("Bob's on the shared");
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }

    // Accept: application/zip asks for it too; without either, the JSON answer stays as it was.
    const accepted = await fetch(`${server.url}/api/v1/auth/export-data`, {
      headers: { Authorization: `Bearer ${alice.token}`, Accept: "application/zip" },
    });
    expect(accepted.headers.get("content-type")).toBe("application/zip");
    await accepted.arrayBuffer();
    const plain = await api("/auth/export-data?format=json", { token: alice.token, headers: { Accept: "application/zip" } });
    expect(plain.headers.get("content-type")).toMatch(/^application\/json/);
    expect(plain.body.mediaItems).toHaveLength(3);
    expect(plain.body.mediaItems[0]).not.toHaveProperty("file");
    expect(plain.body.mediaItems[0]).not.toHaveProperty("storageKey");
  });

  test("?format= – anything but json or zip is a 400 naming the parameter", async () => {
    const alice = await registerUser(server);
    const response = await api("/auth/export-data?format=tar", { token: alice.token });
    expectProblem(response, 400, "validation_failed");
    expect(JSON.stringify(response.body.errors)).toContain("format");
  });
});

describe("DELETE /auth/delete-account", () => {
  test("deletes the user and everything of theirs; what others share stays, without them", async () => {
    const data = await arrange();
    const { alice, bob } = data;
    const aliceId = alice.user.id as string;

    // The scans find her everywhere before (so that they can find her after).
    const before = await tablesMentioning(aliceId);
    for (const table of [
      "users",
      "tasks",
      "task_groups",
      "task_assignees",
      "domain_events",
      "notifications",
      "webauthn_credentials",
      "error_logs",
    ]) {
      expect(Object.keys(before)).toContain(table);
    }
    expect((await uuidColumnsMentioning(aliceId)).length).toBeGreaterThan(20);

    // Bob's list is cached.
    await taskList(bob);
    expect((await taskList(bob)).cache).toBe("HIT");

    // A wrong password deletes nothing.
    const counts = async () =>
      (await server.sql<{ n: number }>("select count(*)::int as n from tasks where owner_id = $1", [aliceId]))[0]!.n;
    expectProblem(
      await server.request("/auth/delete-account", {
        method: "DELETE",
        token: alice.token,
        json: { password: "not her password" },
      }),
      403,
      "forbidden",
    );
    expect(await counts()).toBe(3);
    expect((await server.request("/auth/me", { token: alice.token })).status).toBe(200);
    expect(await tablesMentioning(aliceId)).toEqual(before);

    // Her media files: the photo on her task, the note on Bob's.
    const mediaFiles = (
      await server.sql<{ storage_key: string }>("select storage_key from media_items where uploader_id = $1", [aliceId])
    ).map(({ storage_key: key }) => path.join(mediaRoot(), key.slice(0, 2), key));
    expect(mediaFiles.length).toBe(2);
    expect(mediaFiles.every((file) => existsSync(file))).toBe(true);

    const deleted = await server.request("/auth/delete-account", {
      method: "DELETE",
      token: alice.token,
      json: { password: alice.password },
    });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(204);
    expect(deleted.headers.get("set-cookie")).toMatch(/spolu_session=;/);

    // Her media files are gone from the disk, not only their rows.
    expect(mediaFiles.filter((file) => existsSync(file))).toEqual([]);

    // Nothing mentions her id any more: no uuid, uuid[] or jsonb column, nor any other column.
    expect(await uuidColumnsMentioning(aliceId)).toEqual([]);
    expect(await tablesMentioning(aliceId)).toEqual({});
    expect(await tablesMentioning(alice.email)).toEqual({});

    // Her tokens, password and passkey sign in no more.
    expectProblem(await server.request("/auth/me", { token: alice.token }), 401, "unauthenticated");
    expectProblem(
      await server.request("/auth/login", { json: { email: alice.email, password: alice.password } }),
      401,
      "unauthenticated",
    );
    expect(await server.sql("select 1 from webauthn_credentials where credential_id = $1", [data.credentialId])).toEqual([]);

    // Bob's tasks stay, without her; hers is gone, also for Bob who was assigned to it.
    const list = await taskList(bob);
    expect(list.cache).toBe("MISS");
    expect(list.items.map((task) => task.id).sort()).toEqual(
      [data.bobTask.id, data.bobSecond.id, data.bobThird.id, data.bobInAlicesGroup.id].sort(),
    );
    const listed = (id: string) => list.items.find((task) => task.id === id)!;
    expect(listed(data.bobTask.id).assigneeIds).toEqual([]);
    expect(listed(data.bobThird.id).assigneeIds).toEqual([]);
    expect(listed(data.bobSecond.id).collaboratorIds).toEqual([]);
    expectProblem(await server.request(`/tasks/${data.aliceTask.id}`, { token: bob.token }), 404, "not_found");
    expect(
      await server.sql("select id from tasks where id = any($1::uuid[])", [`{${data.aliceTask.id},${data.alicePrivate.id}}`]),
    ).toEqual([]);
    // His task from her shared group went back to his own first group.
    const bobsGroups = (await server.request("/groups", { token: bob.token })).body.items.map(
      (group: { id: string }) => group.id,
    );
    expect(listed(data.bobInAlicesGroup.id).groupId).toBe(bobsGroups[0]);

    // Bob inherits what they shared; what only she was in is gone.
    expect((await ok(api(`/user-groups/${data.team.id}`, { token: bob.token }))).role).toBe("owner");
    expect((await ok(api(`/projects/${data.project.id}`, { token: bob.token }))).role).toBe("owner");
    const family = await ok(api("/family", { token: bob.token }));
    expect(family.members).toEqual([expect.objectContaining({ userId: bob.user.id, role: "parent" })]);
    expect(family.groups).toEqual([]);
    expect(await server.sql("select id from user_groups where id = $1", [data.soloTeam.id])).toEqual([]);
    // The invitation she accepted stays Bob's, without her.
    expect(await server.sql("select accepted_by from invitations where inviter_id = $1", [bob.user.id])).toEqual([
      { accepted_by: null },
    ]);

    // Bob's own records stay, without her id: the notification, his delivery log, the server error.
    const [note] = await server.sql<{ data: Record<string, unknown> }>(
      "select data from notifications where user_id = $1 and kind = 'note'",
      [bob.user.id],
    );
    expect(note!.data).toEqual({ fromUserId: "00000000-0000-0000-0000-000000000000" });
    expect(await server.sql("select context from error_logs where message = $1", [`boom ${data.marker}`])).toEqual([
      { context: { userId: "00000000-0000-0000-0000-000000000000" } },
    ]);
    expect(await server.sql("select module_id, enabled, updated_by from module_settings")).toEqual([
      { module_id: "deploy", enabled: true, updated_by: null },
    ]);
    // Her task's deletion reached Bob as an event carrying the id only.
    const [event] = await server.sql<{ actor_id: string | null; audience: string[]; data: unknown }>(
      "select actor_id, audience, data from domain_events where type = 'task.deleted' and task_id = $1",
      [data.aliceTask.id],
    );
    expect(event).toEqual({ actor_id: null, audience: [bob.user.id], data: { taskId: data.aliceTask.id } });
  });

  test("/delete-account: a fresh sign-in deletes without the password", async () => {
    const carol = await registerUser(server);
    const task = await createTask(server, carol.token);
    const response = await server.request("/delete-account", { method: "DELETE", token: carol.token });
    expect(response.status, JSON.stringify(response.body)).toBe(204);
    expectProblem(await server.request("/auth/me", { token: carol.token }), 401, "unauthenticated");
    expect(await server.sql("select 1 from tasks where id = $1", [task.id])).toEqual([]);
  });

  test("a sign-in older than 10 minutes needs the password (400 naming /password); a wrong one is 403", async () => {
    const dave = await registerUser(server);
    advanceClock(11 * 60_000);
    const missing = expectProblem(
      await server.request("/api/v1/auth/delete-account", { method: "DELETE", token: dave.token, json: {} }),
      400,
      "validation_failed",
    );
    expect(missing.errors).toEqual([expect.objectContaining({ in: "body", pointer: "/password" })]);
    expectProblem(
      await server.request("/api/v1/auth/delete-account", {
        method: "DELETE",
        token: dave.token,
        json: { password: "wrong password" },
      }),
      403,
      "forbidden",
    );
    expect((await server.request("/auth/me", { token: dave.token })).status).toBe(200);
    // A token issued now (after the clock moved) is fresh again.
    const fresh = await ok(server.request("/auth/login", { json: { email: dave.email, password: dave.password } }));
    expect((await server.request("/api/v1/delete-account", { method: "DELETE", token: fresh.token })).status).toBe(204);
    expect((await server.request("/auth/me", { token: dave.token })).status).toBe(401);
  });

  test("an account without a password deletes only within 10 minutes of signing in", async () => {
    const erin = await registerUser(server);
    await server.sql("update users set password_hash = null where id = $1", [erin.user.id]);
    advanceClock(11 * 60_000);
    const stale = expectProblem(
      await server.request("/auth/delete-account", { method: "DELETE", token: erin.token }),
      403,
      "forbidden",
    );
    expect(stale.detail).toMatch(/sign in again/i);
    expect((await server.request("/auth/me", { token: erin.token })).status).toBe(200);
    resetClock();
    expect((await server.request("/auth/delete-account", { method: "DELETE", token: erin.token })).status).toBe(204);
    expect((await server.request("/auth/me", { token: erin.token })).status).toBe(401);
  });

  test("the last parent's leaving makes the longest-standing member parent; a last owner's team or project passes on, or goes", async () => {
    const [frank, gina, hugo] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    await ok(api("/family", { token: frank.token, json: { name: "F" } }), 201);
    await ok(joinAs(server, "/api/v1/family/members", frank, gina, { role: "child" }), 201);
    await ok(joinAs(server, "/api/v1/family/members", frank, hugo, { role: "child" }), 201);
    const team = await ok(api("/user-groups", { token: frank.token, json: { name: "T" } }), 201);
    await ok(joinAs(server, `/api/v1/user-groups/${team.id}/members`, frank, gina, { role: "member" }), 201);
    await ok(joinAs(server, `/api/v1/user-groups/${team.id}/members`, frank, hugo, { role: "admin" }), 201);
    const project = await ok(api("/projects", { token: frank.token, json: { name: "P" } }), 201);
    await ok(joinAs(server, `/api/v1/projects/${project.id}/members`, frank, gina, { role: "viewer" }), 201);
    const soloTeam = await ok(api("/user-groups", { token: frank.token, json: { name: "Alone" } }), 201);
    const soloProject = await ok(api("/projects", { token: frank.token, json: { name: "Alone" } }), 201);

    expect(
      (await server.request("/auth/delete-account", { method: "DELETE", token: frank.token, json: { password: frank.password } }))
        .status,
    ).toBe(204);
    const family = await ok(api("/family", { token: gina.token }));
    expect(family.members.map((member: { userId: string; role: string }) => [member.userId, member.role])).toEqual([
      [gina.user.id, "parent"],
      [hugo.user.id, "child"],
    ]);
    const roles = await ok(api(`/user-groups/${team.id}/members`, { token: gina.token }));
    expect(roles.items.map((member: { userId: string; role: string }) => [member.userId, member.role])).toEqual([
      [gina.user.id, "member"],
      [hugo.user.id, "owner"],
    ]);
    // Only a viewer was left in the project: they own it now.
    expect((await ok(api(`/projects/${project.id}`, { token: gina.token }))).role).toBe("owner");
    expect(await server.sql("select id from user_groups where id = $1", [soloTeam.id])).toEqual([]);
    expect(await server.sql("select id from projects where id = $1", [soloProject.id])).toEqual([]);
  });
});
