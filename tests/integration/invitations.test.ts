import { createHash, randomBytes, randomUUID } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { userOutput } from "../../lib/accounts/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import {
  acceptedInvitationOutput,
  createdInvitationOutput,
  invitationListOutput,
  invitationOutput,
  invitationPreviewOutput,
} from "../../lib/invitations/schema";
import { taskListOutput, taskOutput } from "../../lib/tasks/schema";
import {
  addMember as joinAs,
  createTask,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from "./harness";

/** The strict window (sign-up, sign-in, accept, preview) per endpoint and caller: enough for this file's sign-ups. */
const STRICT_POINTS = 300;

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ AUTH_RATE_LIMIT_POINTS: String(STRICT_POINTS), TRUST_PROXY: "1" });
});
afterAll(() => server.close());
afterEach(() => resetClock());

const DAY = 24 * 3600 * 1000;
const MISSING_ID = "00000000-0000-4000-8000-000000000000";
type User = Awaited<ReturnType<typeof registerUser>>;

async function invite(by: User, json: Record<string, unknown>) {
  const response = await server.request("/invitations", { token: by.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(createdInvitationOutput, response.body);
}

/** A new account's registration data (unique email). */
function newcomer(name = "Nova Newcomer") {
  return { name, email: `invitee-${randomUUID()}@example.com`, password: `pw-${randomUUID()}` };
}

const accept = (token: string, options: { json?: unknown; token?: string; headers?: Record<string, string> } = {}) =>
  server.request(`/invite/${token}/accept`, { method: "POST", ...options });

/** The 410 for a token that no longer works, its reason as the problem's code. */
function expectGone(response: ApiResponse, reason: "invitation_used" | "invitation_revoked" | "invitation_expired") {
  const problem = expectProblem(response, 410, reason);
  expect(problem.detail.length).toBeGreaterThan(10);
}

async function taskAs(token: string, taskId: string) {
  const response = await server.request(`/tasks/${taskId}`, { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(taskOutput, response.body);
}

async function taskList(token: string) {
  const response = await server.request("/tasks", { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return { ...expectShape(taskListOutput, response.body), cache: response.headers.get("x-cache") };
}

/** Assigns a user in SQL (assigning others goes through collaboration requests, which are not this file's). */
async function assign(taskId: string, user: User) {
  await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [taskId, user.user.id]);
}

/** A project with `owner` as its owner and the others with their roles, made in SQL (projects have their own API). */
async function project(owner: User, members: [User, string][] = [], name = "Garden") {
  const [row] = await server.sql<{ id: string }>("insert into projects (name, created_by) values ($1, $2) returning id", [
    name,
    owner.user.id,
  ]);
  for (const [member, role] of [[owner, "owner"] as [User, string], ...members]) {
    await server.sql("insert into project_members (project_id, user_id, role) values ($1, $2, $3)", [
      row!.id,
      member.user.id,
      role,
    ]);
  }
  return row!.id;
}

describe("POST /invitations", () => {
  test("creates a task invitation valid for 7 days, with a link and four share links that carry it", async () => {
    const jana = await registerUser(server, { name: "Jana Nováková", locale: "cs" });
    const task = await createTask(server, jana.token, { title: "Natřít plot & bránu #2" });
    const before = Date.now();
    const created = await invite(jana, { taskId: task.id, name: "Petr", email: "Petr@Example.com" });

    const { invitation, token, url, links } = created;
    expect(invitation).toMatchObject({
      taskId: task.id,
      projectId: null,
      projectRole: null,
      status: "pending",
      invitee: { name: "Petr", email: "petr@example.com", phone: null },
      acceptedAt: null,
      acceptedBy: null,
      revokedAt: null,
    });
    expect(Date.parse(invitation.createdAt)).toBeGreaterThanOrEqual(before - 1000);
    expect(Date.parse(invitation.expiresAt) - Date.parse(invitation.createdAt)).toBe(7 * DAY);
    // 32 random bytes, base64url.
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url).toBe(`${server.url}/invite/${token}`);

    // The text, in the inviter's language, says who invites to what.
    const text = "Jana Nováková vás zve k úkolu „Natřít plot & bránu #2“ ve Spolu.";
    expect(created.text).toBe(`${text}\n${url}`);
    const whatsapp = new URL(links.whatsapp);
    expect(whatsapp.origin + whatsapp.pathname).toBe("https://wa.me/");
    expect(whatsapp.searchParams.get("text")).toBe(`${text}\n${url}`);
    const telegram = new URL(links.telegram);
    expect(telegram.origin + telegram.pathname).toBe("https://t.me/share/url");
    expect(telegram.searchParams.get("url")).toBe(url);
    expect(telegram.searchParams.get("text")).toBe(text);
    const sms = new URL(links.sms);
    expect(sms.protocol).toBe("sms:");
    expect(sms.searchParams.get("body")).toBe(`${text}\n${url}`);
    expect(links.smsIos.startsWith("sms:&body=")).toBe(true);
    expect(decodeURIComponent(links.smsIos.slice("sms:&body=".length))).toBe(`${text}\n${url}`);
    expect(links.copy).toBe(url);

    // Only the token's SHA-256 is stored.
    const [row] = await server.sql<Record<string, unknown>>("select * from invitations where id = $1", [invitation.id]);
    expect(row!.token_hash).toBe(createHash("sha256").update(token).digest("hex"));
    expect(row!.token_hash).not.toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  test("with the invitee's phone, WhatsApp and SMS open a chat with it; a personal message goes first", async () => {
    const owner = await registerUser(server, { name: "Olga" });
    const task = await createTask(server, owner.token, { title: "Fence" });
    const { url, links, invitation, text } = await invite(owner, {
      taskId: task.id,
      phone: "+420 601 234-567",
      message: "Hi Petr! Can you help?",
    });
    expect(invitation.invitee.phone).toBe("+420601234567");
    const body = `Hi Petr! Can you help?\n\nOlga invites you to the task “Fence” on Spolu.\n${url}`;
    expect(text).toBe(body);
    const whatsapp = new URL(links.whatsapp);
    expect(whatsapp.pathname).toBe("/420601234567");
    expect(whatsapp.searchParams.get("text")).toBe(body);
    const sms = new URL(links.sms);
    expect(sms.pathname).toBe("+420601234567");
    expect(sms.searchParams.get("body")).toBe(body);
    expect(links.smsIos.startsWith("sms:+420601234567&body=")).toBe(true);
  });

  test("only someone with the share right may invite to a task: stranger 404, team member 403, assignee 201", async () => {
    const owner = await registerUser(server);
    const [assignee, teammate, stranger] = [await registerUser(server), await registerUser(server), await registerUser(server)];
    const team = await server.request("/api/v1/user-groups", { token: owner.token, json: { name: "Crew" } });
    await joinAs(server, `/api/v1/user-groups/${team.body.id}/members`, owner, teammate);
    const task = await createTask(server, owner.token, { title: "Shared", userGroupId: team.body.id });
    await assign(task.id, assignee);

    const asStranger = await server.request("/invitations", { token: stranger.token, json: { taskId: task.id } });
    expectProblem(asStranger, 404, "not_found");
    expect(JSON.stringify(asStranger.body)).not.toContain("Shared");
    expectProblem(
      await server.request("/invitations", { token: stranger.token, json: { taskId: MISSING_ID } }),
      404,
      "not_found",
    );
    // The teammate sees the task (read) but may not share it.
    await taskAs(teammate.token, task.id);
    expectProblem(await server.request("/invitations", { token: teammate.token, json: { taskId: task.id } }), 403, "forbidden");
    await invite(assignee, { taskId: task.id });
    expect(
      await server.sql("select 1 from invitations where inviter_id = any($1::uuid[])", [
        `{${stranger.user.id},${teammate.user.id}}`,
      ]),
    ).toEqual([]);
  });

  test("a project invitation needs the owner or admin role: non-member 404, member and viewer 403", async () => {
    const owner = await registerUser(server);
    const [admin, member, viewer, stranger] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    const projectId = await project(owner, [
      [admin, "admin"],
      [member, "member"],
      [viewer, "viewer"],
    ]);
    expectProblem(await server.request("/invitations", { token: stranger.token, json: { projectId } }), 404, "not_found");
    expectProblem(await server.request("/invitations", { token: member.token, json: { projectId } }), 403, "forbidden");
    expectProblem(await server.request("/invitations", { token: viewer.token, json: { projectId } }), 403, "forbidden");
    const byOwner = await invite(owner, { projectId });
    expect(byOwner.invitation).toMatchObject({ projectId, taskId: null, projectRole: "member" });
    expect(byOwner.text).toContain("“Garden”");
    const byAdmin = await invite(admin, { projectId, projectRole: "viewer" });
    expect(byAdmin.invitation.projectRole).toBe("viewer");
  });

  test("answers 400 naming each bad field, and creates nothing", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const cases: [unknown, string[]][] = [
      [{}, ["/taskId"]],
      [{ taskId: task.id, projectId: MISSING_ID }, ["/projectId"]],
      [{ taskId: task.id, projectRole: "member" }, ["/projectRole"]],
      [{ projectId: MISSING_ID, projectRole: "owner" }, ["/projectRole"]],
      [{ taskId: "not-a-uuid" }, ["/taskId"]],
      [{ taskId: task.id, phone: "call me maybe" }, ["/phone"]],
      [{ taskId: task.id, phone: "12345" }, ["/phone"]],
      [{ taskId: task.id, email: "nope" }, ["/email"]],
      [{ taskId: task.id, name: "" }, ["/name"]],
      [{ taskId: task.id, message: "x".repeat(501) }, ["/message"]],
      [{ taskId: task.id, tokenHash: "abc" }, ["/tokenHash"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await server.request("/invitations", { token: owner.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
    }
    expect(await server.sql("select 1 from invitations where inviter_id = $1", [owner.user.id])).toEqual([]);
  });

  test("needs a session", async () => {
    expectProblem(await server.request("/invitations", { json: { taskId: MISSING_ID } }), 401, "unauthenticated");
  });
});

describe("POST /invite/{token}/accept", () => {
  test("registering on day 6 creates the account, assigns the task, signs in, and refreshes the team's lists", async () => {
    const owner = await registerUser(server, { name: "Olga" });
    const task = await createTask(server, owner.token, { title: "Paint the fence" });
    const { token, invitation } = await invite(owner, { taskId: task.id, name: "Petr" });
    expect((await taskList(owner.token)).cache).toBe("MISS");
    expect((await taskList(owner.token)).cache).toBe("HIT");

    advanceClock(6 * DAY);
    const data = newcomer("Petr Novák");
    const response = await accept(token, { json: { ...data, locale: "cs" } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const accepted = expectShape(acceptedInvitationOutput, response.body);
    expect(accepted).toMatchObject({
      taskId: task.id,
      projectId: null,
      user: { email: data.email, name: "Petr Novák", locale: "cs" },
    });
    expect(response.headers.get("set-cookie")).toMatch(/^spolu_session=[^;]+;.*HttpOnly/i);

    // The JWT works, and the new user is assigned and sees the task in their list.
    const me = await server.request("/auth/me", { token: accepted.token });
    expect(me.status).toBe(200);
    expect(expectShape(userOutput, me.body).id).toBe(accepted.user.id);
    const seen = await taskAs(accepted.token, task.id);
    expect(seen.assigneeIds).toEqual([accepted.user.id]);
    expect((await taskList(accepted.token)).items.map((item) => item.id)).toEqual([task.id]);
    // The owner's cached list was dropped: it shows the new assignee at once.
    const ownerList = await taskList(owner.token);
    expect(ownerList.cache).toBe("MISS");
    expect(ownerList.items.find((item) => item.id === task.id)?.assigneeIds).toEqual([accepted.user.id]);
    // The account can sign in with its password, and has its default task groups.
    expect((await server.request("/auth/login", { json: { email: data.email, password: data.password } })).status).toBe(200);
    const groups = await server.request("/groups", { token: accepted.token });
    expect(groups.body.items).toHaveLength(8);

    const stored = await server.request(`/invitations/${invitation.id}`, { token: owner.token });
    expect(expectShape(invitationOutput, stored.body)).toMatchObject({ status: "accepted", acceptedBy: accepted.user.id });
  });

  test("without a name, the name the inviter gave is used", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const { token } = await invite(owner, { taskId: task.id, name: "Babička Marie" });
    const { name: _name, ...data } = newcomer();
    const response = await accept(token, { json: data });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body.user.name).toBe("Babička Marie");
  });

  test("on day 8 an invitation has expired: 410 invitation_expired, and no account is made", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const { token, invitation } = await invite(owner, { taskId: task.id });
    advanceClock(8 * DAY);
    const data = newcomer();
    expectGone(await accept(token, { json: data }), "invitation_expired");
    expect(await server.sql("select 1 from users where email = $1", [data.email])).toEqual([]);
    expectGone(await server.request(`/api/v1/invitations/preview/${token}`), "invitation_expired");
    const listed = expectShape(invitationListOutput, (await server.request("/invitations", { token: owner.token })).body);
    expect(listed.items.find((item) => item.id === invitation.id)?.status).toBe("expired");
  });

  test("a token works once: the second accept is 410 invitation_used", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const { token } = await invite(owner, { taskId: task.id });
    expect((await accept(token, { json: newcomer() })).status).toBe(201);
    const second = newcomer();
    expectGone(await accept(token, { json: second }), "invitation_used");
    const member = await registerUser(server);
    expectGone(await accept(token, { token: member.token }), "invitation_used");
    expect(await server.sql("select 1 from users where email = $1", [second.email])).toEqual([]);
    expect((await taskAs(owner.token, task.id)).assigneeIds).toHaveLength(1);
  });

  test("two accepts of one token at the same moment: exactly one succeeds", async () => {
    const owner = await registerUser(server);
    for (let round = 0; round < 4; round++) {
      const task = await createTask(server, owner.token, { title: `Race ${round}` });
      const { token } = await invite(owner, { taskId: task.id });
      const [first, second] = [newcomer(), newcomer()];
      const answers = await Promise.all([accept(token, { json: first }), accept(token, { json: second })]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([201, 410]);
      expectGone(
        answers.find((answer) => answer.status === 410)!,
        "invitation_used",
      );
      const users = await server.sql("select 1 from users where email = any($1::text[])", [`{${first.email},${second.email}}`]);
      expect(users).toHaveLength(1);
      expect((await taskAs(owner.token, task.id)).assigneeIds).toHaveLength(1);
    }
  });

  test("a revoked invitation is 410 invitation_revoked; an unknown token is 404", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const { token, invitation } = await invite(owner, { taskId: task.id });
    expect((await server.request(`/invitations/${invitation.id}`, { method: "DELETE", token: owner.token })).status).toBe(204);
    expectGone(await accept(token, { json: newcomer() }), "invitation_revoked");
    expectGone(await server.request(`/invitations/preview/${token}`), "invitation_revoked");

    expectProblem(await accept("A".repeat(43), { json: newcomer() }), 404, "not_found");
    expectProblem(await accept(`${token.slice(0, -1)}x`), 404, "not_found");
    expectProblem(await server.request(`/api/v1/invitations/preview/${"B".repeat(43)}`), 404, "not_found");
    expectProblem(await accept("x".repeat(201)), 400, "validation_failed");
  });

  test("a signed-in user accepts without registering, by bearer token or by the session cookie", async () => {
    const owner = await registerUser(server);
    const [petr, eva] = [await registerUser(server), await registerUser(server)];
    const task = await createTask(server, owner.token, { title: "Bring chairs" });
    const first = await invite(owner, { taskId: task.id });
    const second = await invite(owner, { taskId: task.id });

    const byBearer = await accept(first.token, { token: petr.token });
    expect(byBearer.status, JSON.stringify(byBearer.body)).toBe(200);
    expect(expectShape(acceptedInvitationOutput, byBearer.body)).toMatchObject({ taskId: task.id, user: { id: petr.user.id } });
    const byCookie = await accept(second.token, { headers: { Cookie: `spolu_session=${eva.token}` } });
    expect(byCookie.status, JSON.stringify(byCookie.body)).toBe(200);
    expect(byCookie.body.user.id).toBe(eva.user.id);
    expect((await taskAs(owner.token, task.id)).assigneeIds.sort()).toEqual([petr.user.id, eva.user.id].sort());
    expect((await taskList(petr.token)).items.map((item) => item.title)).toContain("Bring chairs");
  });

  test("without registration data or a session it is 401, and the token stays usable", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const { token } = await invite(owner, { taskId: task.id });
    expectProblem(await accept(token), 401, "unauthenticated");
    expectProblem(await accept(token, { token: "not-a-jwt" }), 401, "unauthenticated");
    expect((await accept(token, { json: newcomer() })).status).toBe(201);
  });

  test("bad registration data is a 400 naming the field; a registered email never says so; the token stays usable", async () => {
    const owner = await registerUser(server);
    const existing = await registerUser(server);
    const task = await createTask(server, owner.token);
    const { token } = await invite(owner, { taskId: task.id });
    const cases: [unknown, string[]][] = [
      [{ ...newcomer(), password: "short" }, ["/password"]],
      [{ ...newcomer(), email: "not-an-email" }, ["/email"]],
      [{ ...newcomer(), locale: "de" }, ["/locale"]],
      [{ ...newcomer(), role: "admin" }, ["/role"]],
      [{ name: "No email" }, ["/email", "/password"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await accept(token, { json }), 400, "validation_failed");
      expect(problem.errors?.map((error) => error.pointer).sort(), JSON.stringify(json)).toEqual(pointers);
    }
    // An email that has an account, with another password: refused like a wrong sign-in, never "this email is
    // taken" (a wrong password for an address nobody uses is the same 401 at /auth/login).
    const taken = expectProblem(
      await accept(token, { json: { ...newcomer(), email: existing.email.toUpperCase() } }),
      401,
      "unauthenticated",
    );
    expect(taken.detail).not.toMatch(/exist|taken|already/i);
    const login = await server.request("/auth/login", {
      json: { email: `free-${Date.now()}@example.com`, password: "whatever it is" },
    });
    expect(login.status).toBe(401);
    const response = await accept(token, { token: existing.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  });

  test("registration data whose email has an account, with its own password, accepts as that account (201, a new session)", async () => {
    const owner = await registerUser(server);
    const existing = await registerUser(server, { name: "Existing" });
    const task = await createTask(server, owner.token);
    const { token } = await invite(owner, { taskId: task.id });
    const response = await accept(token, { json: { email: existing.email, password: existing.password, name: "Ignored" } });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    expect(response.body).toMatchObject({ taskId: task.id, user: { id: existing.user.id, name: "Existing" } });
    expect((await server.request("/auth/me", { token: response.body.token })).body.id).toBe(existing.user.id);
    expect(await server.sql("select count(*)::int as n from users where email = $1", [existing.email])).toEqual([{ n: 1 }]);
  });

  test("an inviter who lost the share right has withdrawn the invitation (410); already assigned or own invitation is 409", async () => {
    const owner = await registerUser(server);
    const assignee = await registerUser(server);
    const task = await createTask(server, owner.token);
    await assign(task.id, assignee);
    const fromAssignee = await invite(assignee, { taskId: task.id });
    const own = await invite(owner, { taskId: task.id });

    // The invitation's own inviter, and someone assigned already, cannot use a link meant for someone else.
    expectProblem(await accept(own.token, { token: owner.token }), 409, "conflict");
    expectProblem(await accept(own.token, { token: assignee.token }), 409, "conflict");

    await server.sql("delete from task_assignees where task_id = $1", [task.id]);
    expectGone(await accept(fromAssignee.token, { json: newcomer() }), "invitation_revoked");
    expectGone(await server.request(`/invitations/preview/${fromAssignee.token}`), "invitation_revoked");
    // The owner's own invitation still works.
    expect((await accept(own.token, { json: newcomer() })).status).toBe(201);
  });

  test("a project invitation makes the user a member with its role: they see the project's tasks", async () => {
    const owner = await registerUser(server, { name: "Olga" });
    const projectId = await project(owner, [], "Allotment");
    const task = await createTask(server, owner.token, { title: "Water the beans", projectId });
    const { token } = await invite(owner, { projectId, projectRole: "viewer" });
    const preview = expectShape(invitationPreviewOutput, (await server.request(`/invitations/preview/${token}`)).body);
    expect(preview).toMatchObject({
      kind: "project",
      projectName: "Allotment",
      projectRole: "viewer",
      taskTitle: null,
      inviterName: "Olga",
    });

    const response = await accept(token, { json: newcomer() });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const accepted = expectShape(acceptedInvitationOutput, response.body);
    expect(accepted).toMatchObject({ projectId, taskId: null });
    const [membership] = await server.sql<{ role: string }>(
      "select role from project_members where project_id = $1 and user_id = $2",
      [projectId, accepted.user.id],
    );
    expect(membership?.role).toBe("viewer");
    expect((await taskList(accepted.token)).items.map((item) => item.id)).toEqual([task.id]);
    // A viewer reads but does not edit.
    expectProblem(
      await server.request(`/tasks/${task.id}`, { method: "PATCH", token: accepted.token, json: { title: "x" } }),
      403,
      "forbidden",
    );

    // Already a member: 409, and the token stays usable.
    const again = await invite(owner, { projectId });
    expectProblem(await accept(again.token, { token: accepted.token }), 409, "conflict");
    expect((await server.request(`/invitations/preview/${again.token}`)).status).toBe(200);
  });
});

describe("GET /invitations/preview/{token}", () => {
  test("shows the inviter, the task's title and the expiry, without sign-in and without ids", async () => {
    const owner = await registerUser(server, { name: "Jana" });
    const task = await createTask(server, owner.token, { title: "Fix the bike" });
    const { token, invitation } = await invite(owner, {
      taskId: task.id,
      name: "Petr",
      email: "petr@example.com",
      phone: "+420601234567",
    });
    const response = await server.request(`/invitations/preview/${token}`);
    expect(response.status).toBe(200);
    expect(expectShape(invitationPreviewOutput, response.body)).toEqual({
      status: "pending",
      inviterName: "Jana",
      kind: "task",
      taskTitle: "Fix the bike",
      taskRole: "assignee",
      projectName: null,
      projectRole: null,
      familyName: null,
      familyRole: null,
      teamName: null,
      teamRole: null,
      inviteeName: "Petr",
      expiresAt: invitation.expiresAt,
    });
    const text = JSON.stringify(response.body);
    for (const secret of [task.id, owner.user.id, owner.email, "petr@example.com", "601234567"])
      expect(text).not.toContain(secret);
  });
});

describe("GET /invitations, GET and DELETE /invitations/{id}", () => {
  test("lists my invitations newest first with their status, never the token; others get 404", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const task = await createTask(server, owner.token);
    const expiring = await invite(owner, { taskId: task.id, name: "Expiring" });
    advanceClock(2 * DAY);
    const accepted = await invite(owner, { taskId: task.id, name: "Accepted" });
    advanceClock(DAY);
    const revoked = await invite(owner, { taskId: task.id, name: "Revoked" });
    advanceClock(DAY);
    const pending = await invite(owner, { taskId: task.id, name: "Pending" });
    expect((await accept(accepted.token, { json: newcomer() })).status).toBe(201);
    expect((await server.request(`/invitations/${revoked.invitation.id}`, { method: "DELETE", token: owner.token })).status).toBe(
      204,
    );
    advanceClock(4 * DAY); // the first is 8 days old now

    const response = await server.request("/invitations", { token: owner.token });
    const list = expectShape(invitationListOutput, response.body);
    expect(list.items.map((item) => [item.invitee.name, item.status])).toEqual([
      ["Pending", "pending"],
      ["Revoked", "revoked"],
      ["Accepted", "accepted"],
      ["Expiring", "expired"],
    ]);
    const text = JSON.stringify(response.body);
    for (const created of [expiring, accepted, revoked, pending]) expect(text).not.toContain(created.token);

    const one = await server.request(`/invitations/${pending.invitation.id}`, { token: owner.token });
    expect(expectShape(invitationOutput, one.body)).toEqual(list.items[0]);
    expect((await server.request("/invitations", { token: other.token })).body).toEqual({ items: [] });
    expectProblem(await server.request(`/invitations/${pending.invitation.id}`, { token: other.token }), 404, "not_found");
    expectProblem(await server.request(`/invitations/${MISSING_ID}`, { token: owner.token }), 404, "not_found");
    expectProblem(await server.request("/invitations/not-an-id", { token: owner.token }), 400, "validation_failed");
  });

  test("only the inviter revokes; an accepted invitation cannot be revoked (409); revoking twice changes nothing", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const task = await createTask(server, owner.token);
    const pending = await invite(owner, { taskId: task.id });
    const accepted = await invite(owner, { taskId: task.id });
    expect((await accept(accepted.token, { json: newcomer() })).status).toBe(201);

    expectProblem(
      await server.request(`/invitations/${pending.invitation.id}`, { method: "DELETE", token: other.token }),
      404,
      "not_found",
    );
    expect((await server.request(`/invitations/preview/${pending.token}`)).status).toBe(200);
    expectProblem(
      await server.request(`/invitations/${accepted.invitation.id}`, { method: "DELETE", token: owner.token }),
      409,
      "conflict",
    );

    expect((await server.request(`/invitations/${pending.invitation.id}`, { method: "DELETE", token: owner.token })).status).toBe(
      204,
    );
    const revokedAt = (await server.request(`/invitations/${pending.invitation.id}`, { token: owner.token })).body.revokedAt;
    expect(revokedAt).toEqual(expect.any(String));
    advanceClock(1000);
    expect((await server.request(`/invitations/${pending.invitation.id}`, { method: "DELETE", token: owner.token })).status).toBe(
      204,
    );
    expect((await server.request(`/invitations/${pending.invitation.id}`, { token: owner.token })).body.revokedAt).toBe(
      revokedAt,
    );
  });
});

describe("domain events", () => {
  test("created, accepted and revoked are recorded for their audience, never with the token", async () => {
    const owner = await registerUser(server);
    const task = await createTask(server, owner.token);
    const used = await invite(owner, { taskId: task.id });
    const withdrawn = await invite(owner, { taskId: task.id });
    const accepted = await accept(used.token, { json: newcomer() });
    // Revoking twice is one revocation.
    for (let time = 0; time < 2; time++) {
      expect(
        (await server.request(`/invitations/${withdrawn.invitation.id}`, { method: "DELETE", token: owner.token })).status,
      ).toBe(204);
    }

    const events = await server.sql<{ type: string; audience: string[]; data: Record<string, unknown> }>(
      "select type, audience, data from domain_events where data->>'invitationId' = any($1::text[]) order by id",
      [`{${used.invitation.id},${withdrawn.invitation.id}}`],
    );
    expect(events.map((event) => event.type)).toEqual([
      "invitation.created",
      "invitation.created",
      "invitation.accepted",
      "invitation.revoked",
    ]);
    expect(events[2]!.audience.sort()).toEqual([owner.user.id, accepted.body.user.id].sort());
    expect(events[2]!.data).toMatchObject({ taskId: task.id, userId: accepted.body.user.id });
    for (const created of [used, withdrawn]) expect(JSON.stringify(events)).not.toContain(created.token);
  });
});

describe("rate limits", () => {
  test("guessing tokens is limited: after the strict window's tries every guess is a 429", async () => {
    // A fresh address of its own (TRUST_PROXY=1), so that the rest of this file does not share its window.
    const headers = { "X-Forwarded-For": "203.0.113.77" };
    const guess = () => accept(randomBytes(32).toString("base64url"), { headers });
    const statuses = new Set<number>();
    for (let attempt = 0; attempt < STRICT_POINTS; attempt++) statuses.add((await guess()).status);
    expect([...statuses]).toEqual([404]);
    const limited = await guess();
    expectProblem(limited, 429, "rate_limited");
    expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    // The preview is limited by its own window, in the same way.
    for (let attempt = 0; attempt < STRICT_POINTS; attempt++) {
      expect((await server.request(`/invitations/preview/${randomUUID()}`, { headers })).status).toBe(404);
    }
    expectProblem(await server.request(`/invitations/preview/${randomUUID()}`, { headers }), 429, "rate_limited");
  });
});
