import { createECDH, randomBytes, randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createTask, registerUser, startTestServer, type TestServer } from "./harness";

/*
 * The authorization matrix, generated from the OpenAPI document: every route that names a resource in its path
 * is called by a signed-in stranger with another user's ids, and must answer 404 without a word of that user's
 * data and without changing anything (an administrators' route: 403, as to anyone who is not one). A new route
 * with a path parameter fails here until it is given a body below (if it takes one) and, for a new kind of
 * parameter, an id to try.
 */

interface Operation {
  method: string;
  path: string;
  authenticated: boolean;
  /** Administrators only (lib/api/route.ts documents their 403 as "Not an administrator"). */
  adminOnly: boolean;
  hasBody: boolean;
}

let server: TestServer;
let operations: Operation[];

interface OwnerData {
  token: string;
  userId: string;
  email: string;
  taskId: string;
  subtaskId: string;
  groupId: string;
  userGroupId: string;
  projectId: string;
  requestId: string;
  invitationId: string;
  notificationId: string;
  webhookId: string;
  deliveryId: string;
  pushSubscriptionId: string;
  deviceId: string;
  identityId: string;
  goalId: string;
  goalReportId: string;
  connectionId: string;
  invoiceId: string;
  chatActionId: string;
  reviewCardId: string;
  mediaId: string;
  commentId: string;
  templateId: string;
  timeEntryId: string;
  sessionId: string;
  calendarFeedId: string;
  savedFilterId: string;
  accessTokenId: string;
  /** A column of the project's own board, and one of the team's. */
  projectColumnId: string;
  teamColumnId: string;
  /** Texts only the owner's answers may contain. */
  secrets: string[];
}
let owner: OwnerData;

/** Polls until `read` answers something (events reach their handlers just after the request that caused them). */
async function waitFor<T>(read: () => Promise<T | undefined>): Promise<T> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const value = await read();
    if (value !== undefined) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error("waited in vain");
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
let stranger: { token: string; userId: string };

beforeAll(async () => {
  server = await startTestServer();
  const document = (await server.request("/api/v1/openapi.json")).body as {
    paths: Record<
      string,
      Record<string, { security?: unknown[]; requestBody?: unknown; responses?: Record<string, { description?: string }> }>
    >;
  };
  operations = Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      authenticated: Boolean(operation.security?.length),
      adminOnly: operation.responses?.["403"]?.description?.startsWith("Not an administrator") ?? false,
      hasBody: Boolean(operation.requestBody),
    })),
  );

  const marker = randomUUID().slice(0, 8);
  const email = `owner-${marker}@example.com`;
  const { token, user } = await registerUser(server, { email, name: `Owner ${marker}` });
  const task = await createTask(server, token, { title: `Secret task ${marker}`, description: `Secret notes ${marker}` });
  const subtask = await server.request(`/tasks/${task.id}/subtasks`, { token, json: { title: `Secret step ${marker}` } });
  const group = await server.request("/groups", { token, json: { names: { en: `Secret group ${marker}` } } });
  const team = await server.request("/api/v1/user-groups", { token, json: { name: `Secret team ${marker}` } });
  const project = await server.request("/api/v1/projects", { token, json: { name: `Secret project ${marker}` } });
  const family = await server.request("/api/v1/family", { token, json: { name: `Secret family ${marker}` } });
  expect([subtask.status, group.status, team.status, project.status, family.status]).toEqual([201, 201, 201, 201, 201]);
  const shared = await server.request(`/api/v1/family/groups/${group.body.id}`, { token, method: "PUT" });
  expect(shared.status).toBe(200);
  // A request to a third user, which the stranger must not see, decide or withdraw.
  const third = await registerUser(server);
  const request = await server.request(`/tasks/${task.id}/collaboration-requests`, {
    token,
    json: { kind: "collaborate", userId: third.user.id, message: `Secret request ${marker}` },
  });
  expect(request.status).toBe(201);
  const invitation = await server.request("/invitations", { token, json: { taskId: task.id, name: `Secret invitee ${marker}` } });
  expect(invitation.status).toBe(201);
  // The third user asks the owner to collaborate on a task of theirs: the owner gets a notification.
  const theirs = await createTask(server, third.token, { title: `Secret ask ${marker}` });
  const ask = await server.request(`/tasks/${theirs.id}/collaboration-requests`, {
    token: third.token,
    json: { kind: "collaborate", userId: user.id },
  });
  expect(ask.status).toBe(201);
  const notification = await waitFor(async () => (await server.request("/api/v1/notifications", { token })).body.items[0]);
  const webhook = await server.request("/api/v1/webhooks", { token, json: { url: `https://hooks.example.com/${marker}` } });
  expect(webhook.status).toBe(201);
  // A delivery written directly: the matrix needs its id, not a request to the outside world.
  const [delivery] = await server.sql<{ id: string }>(
    `insert into webhook_deliveries (endpoint_id, event_type, message_id, payload, status, attempts)
     values ($1, 'webhook.test', $2, '{}'::jsonb, 'succeeded', 1) returning id`,
    [webhook.body.id, `msg_${marker}`],
  );
  const subscription = await server.request("/api/v1/push/subscriptions", { token, json: browserSubscription(marker) });
  expect(subscription.status).toBe(201);
  // A passkey written directly (registering one needs an authenticator; tests/integration/webauthn.test.ts has one).
  const [device] = await server.sql<{ id: string }>(
    `insert into webauthn_credentials (user_id, credential_id, public_key, aaguid, device_type, label, name)
     values ($1, $2, 'key', '00000000-0000-0000-0000-000000000000', 'singleDevice', 'generic', $3) returning id`,
    [user.id, `cred-${marker}`, `Secret device ${marker}`],
  );
  // A linked Google account written directly (tests/integration/oauth.test.ts links them through a provider).
  const [identity] = await server.sql<{ id: string }>(
    `insert into user_identities (user_id, provider, subject, email) values ($1, 'google', $2, $3) returning id`,
    [user.id, `google-${marker}`, `linked-${marker}@gmail.test`],
  );
  // Phone usage in the last minutes: the stranger's activity summary and day must not count it.
  const activity = await server.request("/api/v1/activity/records", {
    token,
    json: {
      records: [
        {
          id: `secret-${marker}`,
          app: `Secret app ${marker}`,
          category: "games",
          seconds: 60,
          startedAt: new Date(Date.now() - 120_000).toISOString(),
          endedAt: new Date(Date.now() - 60_000).toISOString(),
        },
      ],
    },
  });
  expect(activity.status).toBe(200);
  const goal = await server.request("/api/v1/goals", {
    token,
    json: { title: `Secret goal ${marker}`, description: `Secret plan ${marker}` },
  });
  expect(goal.status).toBe(201);
  const linked = await server.request(`/api/v1/goals/${goal.body.id}/tasks/${task.id}`, { token, method: "PUT" });
  const goalReport = await server.request(`/api/v1/goals/${goal.body.id}/reports`, {
    token,
    json: { date: "2025-01-01", value: 10, note: `Secret note ${marker}` },
  });
  const studyPlan = await server.request(`/api/v1/goals/${goal.body.id}/study-plan`, { token, json: {} });
  expect([linked.status, goalReport.status, studyPlan.status]).toEqual([200, 201, 201]);
  // The built-in assistant proposes a task, which the stranger must not confirm or dismiss.
  const chat = await server.request("/api/v1/chat", { token, json: { message: `add task Secret plan ${marker} tomorrow` } });
  expect(chat.status).toBe(200);
  const chatActionId = chat.body.answer.actions[0].id as string;
  // A connection to an external system (lib/connectors), as stored: the routes check who sees it before anything else.
  const [connection] = await server.sql<{ id: string }>(
    `insert into connector_connections (kind, name, owner_id, base_url, credentials, webhook_secret)
     values ('erp', $2, $1, 'https://erp.example.com', 'v1.x', 'v1.y') returning id`,
    [user.id, `Secret ERP ${marker}`],
  );
  // A spaced-repetition card linked to the goal and the task, reviewed once.
  const card = await server.request("/api/v1/review-cards", {
    token,
    json: {
      front: `Secret front ${marker}`,
      back: `Secret back ${marker}`,
      deck: `Secret deck ${marker}`,
      goalId: goal.body.id,
      taskId: task.id,
    },
  });
  expect(card.status).toBe(201);
  const reviewed = await server.request(`/api/v1/review-cards/${card.body.id}/reviews`, { token, json: { grade: "good" } });
  expect(reviewed.status).toBe(201);
  const media = await server.request(`/api/v1/tasks/${task.id}/media`, {
    token,
    json: { kind: "text", filename: `Secret file ${marker}.txt`, data: Buffer.from(`Secret text ${marker}`).toString("base64") },
  });
  expect(media.status).toBe(201);
  const comment = await server.request(`/api/v1/tasks/${task.id}/comments`, {
    token,
    json: { body: `Secret comment ${marker}` },
  });
  expect(comment.status).toBe(201);
  // A template of the owner's and time tracked on the task (a running timer too).
  const template = await server.request("/api/v1/templates", {
    token,
    json: { name: `Secret template ${marker}`, tasks: [{ title: `Secret step ${marker}` }] },
  });
  const timeEntry = await server.request("/api/v1/time-entries", {
    token,
    json: { taskId: task.id, startedAt: "2026-01-05T08:00:00Z", durationSeconds: 600, note: `Secret time ${marker}` },
  });
  const timer = await server.request(`/api/v1/tasks/${task.id}/timer/start`, { token, method: "POST" });
  expect([template.status, timeEntry.status, timer.status]).toEqual([201, 201, 200]);
  const invoice = await server.request("/api/v1/accounting/invoices", {
    token,
    json: {
      partner: { company: `Secret partner ${marker}` },
      issueDate: "2026-01-14",
      dueDate: "2026-01-28",
      text: `Secret invoice ${marker}`,
      items: [{ text: "Consulting", quantity: 1, unitPrice: 100, rateVat: "high" }],
    },
  });
  expect(invoice.status).toBe(201);
  const calendarFeed = await server.request("/api/v1/calendar-feeds", { token, json: { name: `Secret feed ${marker}` } });
  expect(calendarFeed.status).toBe(201);
  const savedFilter = await server.request("/api/v1/saved-filters", {
    token,
    json: { name: `Secret filter ${marker}`, query: "" },
  });
  expect(savedFilter.status).toBe(201);
  const [session] = await server.sql<{ id: string }>("select id from sessions where user_id = $1", [user.id]);
  const accessToken = await server.request("/api/v1/tokens", { token, json: { name: "Script", scopes: ["read"] } });
  expect(accessToken.status).toBe(201);
  const column = { name: `Secret column ${marker}`, status: "in_progress" };
  const projectColumn = await server.request(`/api/v1/projects/${project.body.id}/board-columns`, { token, json: column });
  expect(projectColumn.status).toBe(201);
  const teamColumn = await server.request(`/api/v1/user-groups/${team.body.id}/board-columns`, { token, json: column });
  expect(teamColumn.status).toBe(201);
  owner = {
    token,
    sessionId: session!.id,
    calendarFeedId: calendarFeed.body.id,
    savedFilterId: savedFilter.body.id,
    accessTokenId: accessToken.body.id,
    projectColumnId: projectColumn.body.id,
    teamColumnId: teamColumn.body.id,
    connectionId: connection!.id,
    invoiceId: invoice.body.id,
    userId: user.id,
    email,
    taskId: task.id,
    subtaskId: subtask.body.id,
    groupId: group.body.id,
    userGroupId: team.body.id,
    projectId: project.body.id,
    requestId: request.body.id,
    invitationId: invitation.body.invitation.id,
    notificationId: notification.id,
    webhookId: webhook.body.id,
    deliveryId: delivery!.id,
    pushSubscriptionId: subscription.body.id,
    deviceId: device!.id,
    identityId: identity!.id,
    goalId: goal.body.id,
    goalReportId: goalReport.body.id,
    chatActionId,
    reviewCardId: card.body.id,
    mediaId: media.body.id,
    commentId: comment.body.id,
    templateId: template.body.id,
    timeEntryId: timeEntry.body.id,
    secrets: [
      session!.id,
      projectColumn.body.id,
      teamColumn.body.id,
      connection!.id,
      card.body.id,
      reviewed.body.review.id,
      media.body.id,
      comment.body.id,
      template.body.id,
      timeEntry.body.id,
      timer.body.running.id,
      invoice.body.id,
      goal.body.id,
      goalReport.body.id,
      chatActionId,
      device!.id,
      notification.id,
      webhook.body.id,
      webhook.body.secret,
      delivery!.id,
      subscription.body.id,
      marker,
      email,
      task.id,
      subtask.body.id,
      group.body.id,
      team.body.id,
      project.body.id,
      request.body.id,
      invitation.body.invitation.id,
      invitation.body.token,
    ],
  };
  const other = await registerUser(server);
  stranger = { token: other.token, userId: other.user.id };
});
afterAll(() => server.close());

/** The owner's id for each path parameter, by the path it appears in. */
function pathFor(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => {
    if (name === "subtaskId") return owner.subtaskId;
    if (name === "columnId") return path.startsWith("/api/v1/projects/") ? owner.projectColumnId : owner.teamColumnId;
    if (name === "userId") return owner.userId;
    if (name === "groupId" && path.startsWith("/api/v1/family/groups/")) return owner.groupId;
    if (name === "id" && path.startsWith("/api/v1/tasks/")) return owner.taskId;
    if (name === "id" && path.startsWith("/api/v1/groups/")) return owner.groupId;
    if (name === "id" && path.startsWith("/api/v1/user-groups/")) return owner.userGroupId;
    if (name === "id" && path.startsWith("/api/v1/projects/")) return owner.projectId;
    if (name === "id" && path.startsWith("/api/v1/collaboration-requests/")) return owner.requestId;
    if (name === "id" && path.startsWith("/api/v1/invitations/")) return owner.invitationId;
    if (name === "id" && path.startsWith("/api/v1/notifications/")) return owner.notificationId;
    if (name === "id" && path.startsWith("/api/v1/webhooks/")) return owner.webhookId;
    if (name === "id" && path.startsWith("/api/v1/push/subscriptions/")) return owner.pushSubscriptionId;
    if (name === "deliveryId") return owner.deliveryId;
    if (name === "id" && path.startsWith("/api/v1/webauthn/devices/")) return owner.deviceId;
    if (name === "id" && path.startsWith("/api/v1/auth/identities/")) return owner.identityId;
    if (name === "id" && path.startsWith("/api/v1/admin/users/")) return owner.userId;
    if (name === "id" && path.startsWith("/api/v1/admin/modules/")) return "activity";
    if (name === "id" && path.startsWith("/api/v1/admin/queue/items/")) return owner.deliveryId;
    if (name === "id" && path.startsWith("/api/v1/goals/")) return owner.goalId;
    if (name === "id" && path.startsWith("/api/v1/connectors/")) return owner.connectionId;
    if (name === "id" && path.startsWith("/api/v1/accounting/invoices/")) return owner.invoiceId;
    if (name === "reportId") return owner.goalReportId;
    if (name === "id" && path.startsWith("/api/v1/chat/actions/")) return owner.chatActionId;
    if (name === "id" && path.startsWith("/api/v1/review-cards/")) return owner.reviewCardId;
    if (name === "id" && path.startsWith("/api/v1/media/")) return owner.mediaId;
    if (name === "id" && path.startsWith("/api/v1/comments/")) return owner.commentId;
    if (name === "id" && path.startsWith("/api/v1/templates/from-group/")) return owner.groupId;
    if (name === "id" && path.startsWith("/api/v1/templates/from-project/")) return owner.projectId;
    if (name === "id" && path.startsWith("/api/v1/templates/")) return owner.templateId;
    if (name === "id" && path.startsWith("/api/v1/time-entries/")) return owner.timeEntryId;
    if (name === "id" && path.startsWith("/api/v1/auth/sessions/")) return owner.sessionId;
    if (name === "id" && path.startsWith("/api/v1/calendar-feeds/")) return owner.calendarFeedId;
    if (name === "id" && path.startsWith("/api/v1/saved-filters/")) return owner.savedFilterId;
    if (name === "id" && path.startsWith("/api/v1/tokens/")) return owner.accessTokenId;
    if (name === "taskId") return owner.taskId;
    if (name === "weekStart") return "2026-11-16";
    if (name === "provider") return "google";
    throw new Error(`No id to try for {${name}} in ${path}: add one to pathFor`);
  });
}

/** A valid body for every operation on a named resource that takes one (so that validation is not what stops it). */
function bodyFor({ method, path }: Operation): unknown {
  const bodies: Record<string, unknown> = {
    "PATCH /api/v1/groups/{id}": { names: { en: "Taken over" }, archived: true },
    "PUT /api/v1/groups/{id}/schedule": { timeZones: ["Europe/Prague"], locations: [] },
    "PATCH /api/v1/user-groups/{id}": { name: "Taken over" },
    "PATCH /api/v1/connectors/{id}": { name: "Taken over" },
    "PATCH /api/v1/accounting/invoices/{id}": { text: "Taken over" },
    "POST /api/v1/user-groups/{id}/members": { userId: stranger.userId },
    "PATCH /api/v1/user-groups/{id}/members/{userId}": { role: "member" },
    "PATCH /api/v1/projects/{id}": { name: "Taken over", archived: true },
    "POST /api/v1/projects/{id}/members": { userId: stranger.userId },
    "PATCH /api/v1/projects/{id}/members/{userId}": { role: "member" },
    "POST /api/v1/projects/{id}/board-columns": { name: "Taken over", status: "todo" },
    "PATCH /api/v1/projects/{id}/board-columns/{columnId}": { name: "Taken over", status: "todo" },
    "POST /api/v1/user-groups/{id}/board-columns": { name: "Taken over", status: "todo" },
    "PATCH /api/v1/user-groups/{id}/board-columns/{columnId}": { name: "Taken over", status: "todo" },
    "PATCH /api/v1/family/members/{userId}": { role: "parent" },
    "POST /api/v1/tasks/{id}/collaboration-requests": { kind: "assign", userId: stranger.userId },
    "PUT /api/v1/notification-prefs/{taskId}": { remind_before: 10, on_due: true, daily: false, channels: ["in_app"] },
    "PATCH /api/v1/webhooks/{id}": { url: "https://taken.example.com/over", enabled: false },
    "PATCH /api/v1/webauthn/devices/{id}": { name: "Taken over" },
    "PATCH /api/v1/saved-filters/{id}": { name: "Taken over" },
    "PATCH /api/v1/tasks/{id}": { title: "Taken over", status: "done" },
    "POST /api/v1/tasks/{id}/move": { status: "done" },
    "POST /api/v1/tasks/{id}/subtasks": { title: "Taken over" },
    "PUT /api/v1/tasks/{id}/subtasks/order": { ids: [owner.subtaskId] },
    "PATCH /api/v1/tasks/{id}/subtasks/{subtaskId}": { title: "Taken over", done: true },
    "PATCH /api/v1/goals/{id}": { title: "Taken over", status: "abandoned" },
    "POST /api/v1/goals/{id}/reports": { date: "2025-01-02", value: 99 },
    "POST /api/v1/goals/{id}/study-plan": { assistant: "built-in" },
    "POST /api/v1/goals/{id}/study-plan/apply": { replaceManualProgress: true },
    "PUT /api/v1/admin/modules/{id}": { enabled: false },
    "PATCH /api/v1/review-cards/{id}": { front: "Taken over", goalId: null },
    "POST /api/v1/review-cards/{id}/reviews": { grade: "again" },
    "POST /api/v1/tasks/{id}/media": { kind: "text", filename: "taken.txt", data: Buffer.from("Taken over").toString("base64") },
    "POST /api/v1/tasks/{id}/comments": { body: "Taken over" },
    "PATCH /api/v1/comments/{id}": { body: "Taken over" },
    "PATCH /api/v1/templates/{id}": { name: "Taken over" },
    "POST /api/v1/templates/{id}/apply": { startDate: "2026-01-05" },
    "POST /api/v1/templates/from-group/{id}": { name: "Taken over" },
    "POST /api/v1/templates/from-project/{id}": { name: "Taken over" },
    "PATCH /api/v1/time-entries/{id}": { note: "Taken over" },
    "POST /api/v1/tasks/{id}/timer/start": { note: "Taken over" },
    "POST /api/v1/auth/{provider}/link": { returnTo: "/en/settings/security" },
  };
  const key = `${method} ${path}`;
  if (!(key in bodies)) throw new Error(`No body for ${key}: add a valid one to bodyFor`);
  return bodies[key];
}

/** Checks an answer for the owner's data; a problem's `instance` only echoes the path the caller sent. */
function expectNoSecrets(answer: unknown, what: string) {
  const { instance: _echoed, ...rest } = (answer ?? {}) as Record<string, unknown>;
  const text = JSON.stringify(rest);
  for (const secret of owner.secrets) expect(text, `${what} reveals ${secret}`).not.toContain(secret);
}

describe("authorization matrix", () => {
  test("the document lists the routes the matrix expects to cover", () => {
    const named = operations.filter((operation) => operation.path.includes("{"));
    expect(named.length).toBeGreaterThanOrEqual(20);
    expect(operations.filter((operation) => operation.authenticated).length).toBeGreaterThan(named.length);
  });

  test("a stranger gets 404 on every route that names another user's resource, learns nothing and changes nothing", async () => {
    // `/auth/{provider}/link` names a sign-in provider, nobody's resource (oauth.test.ts binds a link to its account).
    const named = operations.filter(
      (operation) => operation.path.includes("{") && operation.authenticated && !operation.path.endsWith("/{provider}/link"),
    );
    expect(named.filter((operation) => operation.adminOnly).length).toBeGreaterThanOrEqual(2);
    for (const operation of named) {
      const response = await server.request(pathFor(operation.path), {
        method: operation.method,
        token: stranger.token,
        ...(operation.hasBody ? { json: bodyFor(operation) } : {}),
      });
      const [status, code] = operation.adminOnly ? [403, "forbidden"] : [404, "not_found"];
      expect(response.status, `${operation.method} ${operation.path}: ${JSON.stringify(response.body)}`).toBe(status);
      expect(response.body.code).toBe(code);
      expectNoSecrets(response.body, `${operation.method} ${operation.path}`);
    }

    // Everything is as the owner left it.
    const task = await server.request(`/tasks/${owner.taskId}`, { token: owner.token });
    expect(task.body).toMatchObject({
      title: expect.stringMatching(/^Secret task /),
      status: "todo",
      subtasks: { total: 1, done: 0 },
    });
    const group = await server.request(`/groups/${owner.groupId}?lang=en`, { token: owner.token });
    expect(group.body.name).toMatch(/^Secret group /);
    const members = await server.request(`/api/v1/user-groups/${owner.userGroupId}/members`, { token: owner.token });
    expect(members.body.items.map((member: { userId: string }) => member.userId)).toEqual([owner.userId]);
    const project = await server.request(`/api/v1/projects/${owner.projectId}/members`, { token: owner.token });
    expect(project.body.items.map((member: { userId: string }) => member.userId)).toEqual([owner.userId]);
    const family = await server.request("/api/v1/family", { token: owner.token });
    expect(family.body.members.map((member: { userId: string }) => member.userId)).toEqual([owner.userId]);
    expect(family.body.groups.map((group: { id: string }) => group.id)).toEqual([owner.groupId]);
    const request = await server.request(`/api/v1/collaboration-requests/${owner.requestId}`, { token: owner.token });
    expect(request.body).toMatchObject({ state: "pending", kind: "collaborate" });
    const invitation = await server.request(`/invitations/${owner.invitationId}`, { token: owner.token });
    expect(invitation.body.status).toBe("pending");
    // The notification is written by the event log's consumer after its commit: it may still be on its way.
    await expect
      .poll(async () => (await server.request("/api/v1/notifications/unread-count", { token: owner.token })).body.unread)
      .toBe(1);
    const webhook = await server.request(`/api/v1/webhooks/${owner.webhookId}`, { token: owner.token });
    expect(webhook.body).toMatchObject({ enabled: true, url: expect.stringContaining("hooks.example.com") });
    const subscriptions = await server.request("/api/v1/push/subscriptions", { token: owner.token });
    expect(subscriptions.body.items.map((item: { id: string }) => item.id)).toEqual([owner.pushSubscriptionId]);
    const devices = await server.request("/api/v1/webauthn/devices", { token: owner.token });
    expect(devices.body.items.map((item: { name: string }) => item.name)).toEqual([expect.stringMatching(/^Secret device /)]);
    const goal = await server.request(`/api/v1/goals/${owner.goalId}`, { token: owner.token });
    expect(goal.body).toMatchObject({
      title: expect.stringMatching(/^Secret goal /),
      status: "active",
      linkedTasks: [{ id: owner.taskId }],
    });
    const goalReports = await server.request(`/api/v1/goals/${owner.goalId}/reports`, { token: owner.token });
    expect(goalReports.body.items.map((item: { id: string }) => item.id)).toEqual([owner.goalReportId]);
    const studyPlan = await server.request(`/api/v1/goals/${owner.goalId}/study-plan`, { token: owner.token });
    expect(studyPlan.body).toMatchObject({ version: 1, appliedAt: null });
    const [connection] = await server.sql<{ name: string }>("select name from connector_connections where id = $1", [
      owner.connectionId,
    ]);
    expect(connection!.name).toMatch(/^Secret ERP /);
    const template = await server.request(`/api/v1/templates/${owner.templateId}`, { token: owner.token });
    expect(template.body.name).toMatch(/^Secret template /);
    const timer = await server.request("/api/v1/timer", { token: owner.token });
    expect(timer.body.running).toMatchObject({ taskId: owner.taskId, note: "" });
    const entries = await server.sql("select note from time_entries where id = $1", [owner.timeEntryId]);
    expect(entries).toEqual([{ note: expect.stringMatching(/^Secret time /) }]);
    const chat = await server.request("/api/v1/chat/messages", { token: owner.token });
    expect(chat.body.items[0].actions).toEqual([
      expect.objectContaining({ id: owner.chatActionId, state: "proposed", taskId: null }),
    ]);
    const card = await server.request(`/api/v1/review-cards/${owner.reviewCardId}`, { token: owner.token });
    expect(card.body).toMatchObject({
      front: expect.stringMatching(/^Secret front /),
      reps: 1,
      lapses: 0,
      goal: { id: owner.goalId },
      task: { id: owner.taskId },
    });
    const reviews = await server.request(`/api/v1/review-cards/${owner.reviewCardId}/reviews`, { token: owner.token });
    expect(reviews.body.items.map((item: { grade: string }) => item.grade)).toEqual(["good"]);
    const media = await server.request(`/api/v1/tasks/${owner.taskId}/media`, { token: owner.token });
    expect(media.body.items.map((item: { id: string }) => item.id)).toEqual([owner.mediaId]);
    const content = await server.request(`/api/v1/media/${owner.mediaId}/content`, { token: owner.token });
    expect(content.body).toMatch(/^Secret text /);
  });

  test("every list a stranger can read leaves out everything of the owner's", async () => {
    const lists = operations.filter(
      (operation) => operation.method === "GET" && operation.authenticated && !operation.path.includes("{"),
    );
    expect(lists.length).toBeGreaterThanOrEqual(5);
    for (const operation of lists) {
      const response = await server.request(operation.path, { token: stranger.token });
      // GET /family is one resource, not a list: someone in no family workspace gets 404. So are a connector kind's
      // own reads (/learning/..., /erp/..., /accounting/status): they act on your connection of that kind, and
      // someone with none gets 404.
      const allowed =
        operation.path === "/api/v1/family" || /^\/api\/v1\/(learning\/|erp\/|accounting\/status$)/.test(operation.path)
          ? [404]
          : [200, 403];
      expect(allowed, `${operation.path}: ${response.status}`).toContain(response.status);
      expectNoSecrets(response.body, `GET ${operation.path}`);
    }
  });

  test("without a session every signed-in route is a 401 and reveals nothing", async () => {
    for (const operation of operations.filter((candidate) => candidate.authenticated)) {
      const path = operation.path.includes("{") ? pathFor(operation.path) : operation.path;
      const response = await server.request(path, {
        method: operation.method,
        ...(operation.hasBody ? { json: operation.path.includes("{") ? bodyFor(operation) : {} } : {}),
      });
      expect(response.status, `${operation.method} ${operation.path}`).toBe(401);
      expectNoSecrets(response.body, `${operation.method} ${operation.path} without a session`);
    }
  });

  test("another user's ids inside a body are refused without revealing them", async () => {
    const attempts = [
      { path: "/tasks", json: { title: "Mine", groupId: owner.groupId } },
      { path: `/tasks`, json: { title: "Mine", assigneeIds: [owner.userId] } },
      { path: "/tasks", json: { title: "Mine", projectId: owner.projectId } },
      { path: "/api/v1/review-cards", json: { front: "Mine", back: "Mine", goalId: owner.goalId } },
      { path: "/api/v1/review-cards", json: { front: "Mine", back: "Mine", taskId: owner.taskId } },
    ];
    for (const attempt of attempts) {
      const response = await server.request(attempt.path, { token: stranger.token, json: attempt.json });
      expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(400);
      expect(response.status).toBeLessThan(500);
      expect(JSON.stringify(response.body)).not.toContain(owner.email);
    }
    const mine = await createTask(server, stranger.token);
    const move = await server.request(`/tasks/${mine.id}/move`, { token: stranger.token, json: { afterId: owner.taskId } });
    expect(move.status).toBe(400);
    expectNoSecrets(
      { ...move.body, errors: move.body.errors?.map((error: { detail: string }) => error.detail) },
      "move next to another user's task",
    );
    const order = await server.request("/groups/order", { method: "PUT", token: stranger.token, json: { ids: [owner.groupId] } });
    expect(order.status).toBeGreaterThanOrEqual(400);
    expect(order.status).toBeLessThan(500);
  });
});
