import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { memberListOutput, memberOutput, teamWorkloadOutput, userGroupListOutput, userGroupOutput } from "../../lib/teams/schema";
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

const MISSING_ID = "00000000-0000-4000-8000-000000000000";
type User = Awaited<ReturnType<typeof registerUser>>;

/** User-group paths live under /api/v1 only. */
const api = (path: string, options?: RequestOptions) => server.request(`/api/v1${path}`, options);

async function createTeam(owner: User, json: Record<string, unknown> = { name: "Team" }) {
  const response = await api("/user-groups", { token: owner.token, json });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return expectShape(userGroupOutput, response.body);
}

/** Adds `who` as `by` would: at once when they work together already, else by an invitation `who` accepts. */
async function addMember(by: User, groupId: string, who: User, role?: string) {
  const response = await joinAs(server, `/user-groups/${groupId}/members`, by, who, role ? { role } : {});
  expect([201, 202], JSON.stringify(response.body)).toContain(response.status);
  return expectShape(memberOutput, response.body);
}

async function rolesIn(groupId: string, viewer: User): Promise<Record<string, string>> {
  const response = await api(`/user-groups/${groupId}/members`, { token: viewer.token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const list = expectShape(memberListOutput, response.body);
  return Object.fromEntries(list.items.map((member) => [member.userId, member.role]));
}

const setRole = (by: User, groupId: string, who: User, role: string) =>
  api(`/user-groups/${groupId}/members/${who.user.id}`, { method: "PATCH", token: by.token, json: { role } });
const remove = (by: User, groupId: string, who: User) =>
  api(`/user-groups/${groupId}/members/${who.user.id}`, { method: "DELETE", token: by.token });
const leave = (who: User, groupId: string) => api(`/user-groups/${groupId}/leave`, { method: "POST", token: who.token });

/** A group with an owner, an admin and a plain member. */
async function teamOfThree() {
  const [owner, admin, member] = [await registerUser(server), await registerUser(server), await registerUser(server)];
  const team = await createTeam(owner, { name: "Crew" });
  await addMember(owner, team.id, admin, "admin");
  await addMember(owner, team.id, member);
  return { team, owner, admin, member };
}

describe("POST /user-groups", () => {
  test("creates a group whose creator is its owner and only member", async () => {
    const owner = await registerUser(server, { name: "Olga" });
    const team = await createTeam(owner, { name: "  Platform team  ", description: "We keep the lights on" });
    expect(team).toMatchObject({
      name: "Platform team",
      description: "We keep the lights on",
      role: "owner",
      memberCount: 1,
      createdBy: owner.user.id,
    });
    expect(Date.parse(team.createdAt)).toBeGreaterThan(Date.now() - 60_000);

    const members = expectShape(memberListOutput, (await api(`/user-groups/${team.id}/members`, { token: owner.token })).body);
    expect(members.items).toEqual([
      { userId: owner.user.id, name: "Olga", email: owner.email, avatarUrl: null, role: "owner", joinedAt: expect.any(String) },
    ]);
    expect((await createTeam(owner, { name: "No description" })).description).toBe("");
  });

  test("answers 400 naming each bad field, and creates nothing", async () => {
    const owner = await registerUser(server);
    const cases: [unknown, string[]][] = [
      [{}, ["/name"]],
      [{ name: "" }, ["/name"]],
      [{ name: "   " }, ["/name"]],
      [{ name: "x".repeat(101) }, ["/name"]],
      [{ name: 7 }, ["/name"]],
      [{ name: "Team", description: "x".repeat(1001) }, ["/description"]],
      [{ name: "Team", colour: "red" }, ["/colour"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(await api("/user-groups", { token: owner.token, json }), 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
      expect(problem.errors?.every((error) => error.in === "body")).toBe(true);
    }
    expect(await createTeam(owner, { name: "x".repeat(100) })).toMatchObject({ name: "x".repeat(100) });
    expect(expectShape(userGroupListOutput, (await api("/user-groups", { token: owner.token })).body).items).toHaveLength(1);
  });

  test("answers 401 without a token", async () => {
    expectProblem(await api("/user-groups", { json: { name: "Team" } }), 401, "unauthenticated");
    expectProblem(await api("/user-groups"), 401, "unauthenticated");
  });
});

describe("GET /user-groups and /user-groups/{id}", () => {
  test("lists the groups you belong to, oldest first, with your role in each", async () => {
    const [alice, bob] = [await registerUser(server), await registerUser(server)];
    const first = await createTeam(alice, { name: "First" });
    const bobs = await createTeam(bob, { name: "Bob's" });
    const second = await createTeam(alice, { name: "Second" });
    await addMember(bob, bobs.id, alice, "admin");

    const list = expectShape(userGroupListOutput, (await api("/user-groups", { token: alice.token })).body);
    expect(list.items.map((group) => [group.id, group.role, group.memberCount])).toEqual([
      [first.id, "owner", 1],
      [bobs.id, "admin", 2],
      [second.id, "owner", 1],
    ]);
    const bobsList = expectShape(userGroupListOutput, (await api("/user-groups", { token: bob.token })).body);
    expect(bobsList.items.map((group) => group.id)).toEqual([bobs.id]);

    const read = await api(`/user-groups/${bobs.id}`, { token: alice.token });
    expect(read.status).toBe(200);
    expect(expectShape(userGroupOutput, read.body)).toMatchObject({ id: bobs.id, name: "Bob's", role: "admin", memberCount: 2 });
    expect((await api(`/user-groups/${bobs.id}`, { token: bob.token })).body.role).toBe("owner");
  });
});

describe("PATCH /user-groups/{id}", () => {
  test("owners and admins rename and describe the group; the fields not given stay", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const renamed = await api(`/user-groups/${team.id}`, { method: "PATCH", token: owner.token, json: { name: " Renamed " } });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect(expectShape(userGroupOutput, renamed.body)).toMatchObject({ name: "Renamed", description: "", role: "owner" });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThan(Date.parse(team.updatedAt));

    const described = await api(`/user-groups/${team.id}`, {
      method: "PATCH",
      token: admin.token,
      json: { description: "Our crew" },
    });
    expect(described.status, JSON.stringify(described.body)).toBe(200);
    expect(described.body).toMatchObject({ name: "Renamed", description: "Our crew", role: "admin" });
    expect((await api(`/user-groups/${team.id}`, { token: member.token })).body).toMatchObject({
      name: "Renamed",
      description: "Our crew",
      role: "member",
    });
  });

  test("a plain member gets 403 and changes nothing", async () => {
    const { team, member } = await teamOfThree();
    const problem = expectProblem(
      await api(`/user-groups/${team.id}`, { method: "PATCH", token: member.token, json: { name: "Mine now" } }),
      403,
      "forbidden",
    );
    expect(problem.detail).toMatch(/owners and admins/);
    expect((await api(`/user-groups/${team.id}`, { token: member.token })).body.name).toBe("Crew");
  });

  test("answers 400 for an empty change, an empty name or an unknown field", async () => {
    const owner = await registerUser(server);
    const team = await createTeam(owner);
    const cases: [unknown, string][] = [
      [{}, "/name"],
      [{ name: "" }, "/name"],
      [{ name: null }, "/name"],
      [{ description: "x".repeat(1001) }, "/description"],
      [{ role: "owner" }, "/role"],
    ];
    for (const [json, pointer] of cases) {
      const response = await api(`/user-groups/${team.id}`, { method: "PATCH", token: owner.token, json });
      const problem = expectProblem(response, 400, "validation_failed");
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toContain(pointer);
    }
    expect((await api(`/user-groups/${team.id}`, { token: owner.token })).body.name).toBe("Team");
  });
});

describe("DELETE /user-groups/{id}", () => {
  test("only an owner deletes; the group and every membership go", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    for (const who of [admin, member]) {
      const problem = expectProblem(
        await api(`/user-groups/${team.id}`, { method: "DELETE", token: who.token }),
        403,
        "forbidden",
      );
      expect(problem.detail).toMatch(/owner/);
    }
    expect((await api(`/user-groups/${team.id}`, { token: member.token })).status).toBe(200);

    const deleted = await api(`/user-groups/${team.id}`, { method: "DELETE", token: owner.token });
    expect(deleted.status).toBe(204);
    for (const who of [owner, admin, member]) {
      expectProblem(await api(`/user-groups/${team.id}`, { token: who.token }), 404, "not_found");
      expect((await api("/user-groups", { token: who.token })).body.items).toEqual([]);
    }
    expect(await server.sql("select 1 from user_group_members where group_id = $1", [team.id])).toEqual([]);
    expectProblem(await api(`/user-groups/${team.id}`, { method: "DELETE", token: owner.token }), 404, "not_found");
  });
});

describe("POST /user-groups/{id}/members", () => {
  test("someone not yet working with you is invited (202), the same answer for a known and an unknown email; they join by accepting", async () => {
    const owner = await registerUser(server);
    const [byId, byEmail] = [await registerUser(server, { name: "Ivan" }), await registerUser(server, { name: "Eva" })];
    const team = await createTeam(owner);

    const invitedById = await api(`/user-groups/${team.id}/members`, { token: owner.token, json: { userId: byId.user.id } });
    expect(invitedById.status, JSON.stringify(invitedById.body)).toBe(202);
    expect(invitedById.body.invitation).toMatchObject({ kind: "team", teamId: team.id, teamRole: "member" });
    const email = `  ${byEmail.email.toUpperCase()} `;
    const invitedByEmail = await api(`/user-groups/${team.id}/members`, { token: owner.token, json: { email, role: "admin" } });
    const unknownEmail = `nobody-${randomUUID()}@example.com`;
    const unknown = await api(`/user-groups/${team.id}/members`, {
      token: owner.token,
      json: { email: unknownEmail, role: "admin" },
    });
    for (const answer of [invitedByEmail, unknown]) {
      expect(answer.status).toBe(202);
      expect(Object.keys(answer.body).sort()).toEqual(["invitation", "links", "text", "token", "url"]);
      expect(answer.body.invitation).toMatchObject({ kind: "team", teamRole: "admin", status: "pending" });
    }
    expect(unknown.body.links.email).toMatch(new RegExp(`^mailto:${unknownEmail.replace(/[.]/g, "\\.")}\\?subject=`));
    expect(Object.keys(await rolesIn(team.id, owner))).toEqual([owner.user.id]);

    // In the app: Eva declines, Ivan accepts; Eva's link no longer works.
    expect(
      (await api(`/invitations/${invitedByEmail.body.invitation.id}/decline`, { method: "POST", token: byEmail.token })).status,
    ).toBe(204);
    expectProblem(
      await api(`/invite/${invitedByEmail.body.token}/accept`, { method: "POST", token: byEmail.token }),
      410,
      "invitation_declined",
    );
    const accepted = await api(`/invitations/${invitedById.body.invitation.id}/accept`, { method: "POST", token: byId.token });
    expect(accepted.body).toMatchObject({ teamId: team.id });
    const members = expectShape(memberListOutput, (await api(`/user-groups/${team.id}/members`, { token: byId.token })).body);
    expect(members.items.map((member) => [member.userId, member.role])).toEqual([
      [owner.user.id, "owner"],
      [byId.user.id, "member"],
    ]);
    const sent = await api(`/invitations/${invitedByEmail.body.invitation.id}`, { token: owner.token });
    expect(sent.body.status).toBe("declined");
  });

  test("someone who already works with you (a shared project) is added at once (201)", async () => {
    const owner = await registerUser(server);
    const colleague = await registerUser(server, { name: "Cleo" });
    const project = await api("/projects", { token: owner.token, json: { name: "Roof" } });
    await joinAs(server, `/projects/${project.body.id}/members`, owner, colleague);
    const team = await createTeam(owner);
    const added = await api(`/user-groups/${team.id}/members`, {
      token: owner.token,
      json: { email: colleague.email, role: "admin" },
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(expectShape(memberOutput, added.body)).toMatchObject({ userId: colleague.user.id, name: "Cleo", role: "admin" });
  });

  test("an unknown user id is a 400 naming the field that reveals nothing more, and adds nobody", async () => {
    const owner = await registerUser(server);
    const team = await createTeam(owner);
    const byId = expectProblem(
      await api(`/user-groups/${team.id}/members`, { token: owner.token, json: { userId: randomUUID() } }),
      400,
      "validation_failed",
    );
    expect(byId.errors).toEqual([{ in: "body", pointer: "/userId", detail: "no such user" }]);
    expect(Object.keys(await rolesIn(team.id, owner))).toEqual([owner.user.id]);
  });

  test("someone already in the group is a 409, by id or by email", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const team = await createTeam(owner);
    await addMember(owner, team.id, other, "admin");
    for (const json of [{ userId: other.user.id }, { email: other.email, role: "member" }, { userId: owner.user.id }]) {
      expectProblem(await api(`/user-groups/${team.id}/members`, { token: owner.token, json }), 409, "conflict");
    }
    expect(await rolesIn(team.id, owner)).toEqual({ [owner.user.id]: "owner", [other.user.id]: "admin" });
  });

  test("admins add members and admins but not owners; a plain member may add nobody", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const [newMember, newAdmin, wouldBeOwner, stranger] = [
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
      await registerUser(server),
    ];
    await addMember(admin, team.id, newMember);
    await addMember(admin, team.id, newAdmin, "admin");
    const ownerByAdmin = await api(`/user-groups/${team.id}/members`, {
      token: admin.token,
      json: { userId: wouldBeOwner.user.id, role: "owner" },
    });
    expect(expectProblem(ownerByAdmin, 403, "forbidden").detail).toMatch(/owner/);

    // A member learns nothing about accounts either: 403 before any lookup.
    for (const json of [{ userId: stranger.user.id }, { email: `nobody-${randomUUID()}@example.com` }]) {
      expectProblem(await api(`/user-groups/${team.id}/members`, { token: member.token, json }), 403, "forbidden");
    }
    // An invitation never grants ownership: the newcomer joins, then is made owner.
    expect(
      (
        await api(`/user-groups/${team.id}/members`, {
          token: owner.token,
          json: { userId: wouldBeOwner.user.id, role: "owner" },
        })
      ).status,
    ).toBe(400);
    await addMember(owner, team.id, wouldBeOwner);
    expect((await setRole(owner, team.id, wouldBeOwner, "owner")).status).toBe(200);
    expect(await rolesIn(team.id, member)).toEqual({
      [owner.user.id]: "owner",
      [admin.user.id]: "admin",
      [member.user.id]: "member",
      [newMember.user.id]: "member",
      [newAdmin.user.id]: "admin",
      [wouldBeOwner.user.id]: "owner",
    });
  });

  test("answers 400 naming the field: neither or both of userId and email, a bad id, email or role", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const team = await createTeam(owner);
    const cases: [unknown, string[]][] = [
      [{}, ["/userId"]],
      [{ role: "admin" }, ["/userId"]],
      [{ userId: other.user.id, email: other.email }, ["/email"]],
      [{ userId: "not-a-uuid" }, ["/userId"]],
      [{ email: "not an email" }, ["/email"]],
      [{ userId: other.user.id, role: "boss" }, ["/role"]],
      [{ userId: other.user.id, team: "x" }, ["/team"]],
    ];
    for (const [json, pointers] of cases) {
      const problem = expectProblem(
        await api(`/user-groups/${team.id}/members`, { token: owner.token, json }),
        400,
        "validation_failed",
      );
      expect(
        problem.errors?.map((error) => error.pointer),
        JSON.stringify(json),
      ).toEqual(pointers);
    }
    const badRole = expectProblem(
      await api(`/user-groups/${team.id}/members`, { token: owner.token, json: { userId: other.user.id, role: "boss" } }),
      400,
      "validation_failed",
    );
    expect(badRole.errors?.[0]?.detail).toMatch(/owner, admin, member/);
    expect(Object.keys(await rolesIn(team.id, owner))).toEqual([owner.user.id]);
  });
});

describe("PATCH /user-groups/{id}/members/{userId}", () => {
  test("owners and admins promote and demote members and admins", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const promoted = await setRole(admin, team.id, member, "admin");
    expect(promoted.status, JSON.stringify(promoted.body)).toBe(200);
    expect(expectShape(memberOutput, promoted.body)).toMatchObject({ userId: member.user.id, role: "admin" });
    expect((await setRole(owner, team.id, admin, "member")).body.role).toBe("member");
    // An admin may step down.
    expect((await setRole(member, team.id, member, "member")).body.role).toBe("member");
    expect(await rolesIn(team.id, owner)).toEqual({
      [owner.user.id]: "owner",
      [admin.user.id]: "member",
      [member.user.id]: "member",
    });
  });

  test("a plain member changes no role, their own included (403)", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    for (const [target, role] of [
      [member, "admin"],
      [admin, "member"],
      [owner, "member"],
      [member, "owner"],
    ] as const) {
      expectProblem(await setRole(member, team.id, target, role), 403, "forbidden");
    }
    expect(Object.values(await rolesIn(team.id, owner))).toEqual(["owner", "admin", "member"]);
  });

  test("an admin cannot make someone owner or change an owner's role (403)", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    expectProblem(await setRole(admin, team.id, member, "owner"), 403, "forbidden");
    expectProblem(await setRole(admin, team.id, admin, "owner"), 403, "forbidden");
    expectProblem(await setRole(admin, team.id, owner, "admin"), 403, "forbidden");
    expectProblem(await setRole(admin, team.id, owner, "member"), 403, "forbidden");
    expect(Object.values(await rolesIn(team.id, owner))).toEqual(["owner", "admin", "member"]);
  });

  test("an owner grants and takes the owner role, but the last owner cannot be demoted (409)", async () => {
    const { team, owner, admin } = await teamOfThree();
    for (const role of ["admin", "member"]) {
      const problem = expectProblem(await setRole(owner, team.id, owner, role), 409, "conflict");
      expect(problem.detail).toMatch(/last owner.*hand over ownership/);
    }
    expect((await setRole(owner, team.id, admin, "owner")).body.role).toBe("owner");
    // Two owners: either may now step down or demote the other, until one is left.
    expect((await setRole(admin, team.id, owner, "admin")).body.role).toBe("admin");
    expectProblem(await setRole(admin, team.id, admin, "member"), 409, "conflict");
    expect((await rolesIn(team.id, owner))[admin.user.id]).toBe("owner");
  });

  test("two owners demoting each other at the same moment: the first wins, the other is a member by then (403)", async () => {
    for (let round = 0; round < 3; round++) {
      const { team, owner, admin } = await teamOfThree();
      await setRole(owner, team.id, admin, "owner");
      const answers = await Promise.all([setRole(owner, team.id, admin, "member"), setRole(admin, team.id, owner, "member")]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 403]);
      const roles = await rolesIn(team.id, owner);
      expect(Object.values(roles).filter((role) => role === "owner")).toHaveLength(1);
    }
  });

  test("404 for someone not in the group; 400 for a bad role or user id", async () => {
    const { team, owner } = await teamOfThree();
    const outsider = await registerUser(server);
    expectProblem(await setRole(owner, team.id, outsider, "admin"), 404, "not_found");
    const badRole = expectProblem(await setRole(owner, team.id, owner, "king"), 400, "validation_failed");
    expect(badRole.errors).toEqual([{ in: "body", pointer: "/role", detail: expect.stringMatching(/owner, admin, member/) }]);
    const badId = await api(`/user-groups/${team.id}/members/not-a-uuid`, {
      method: "PATCH",
      token: owner.token,
      json: { role: "admin" },
    });
    expect(expectProblem(badId, 400, "validation_failed").errors).toEqual([
      { in: "path", pointer: "/userId", detail: "must be a user id" },
    ]);
  });
});

describe("DELETE /user-groups/{id}/members/{userId}", () => {
  test("owners and admins remove members; the removed member no longer sees the group", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const other = await registerUser(server);
    await addMember(owner, team.id, other, "admin");
    expect((await remove(admin, team.id, member)).status).toBe(204);
    expect((await remove(admin, team.id, other)).status).toBe(204);
    expectProblem(await api(`/user-groups/${team.id}`, { token: member.token }), 404, "not_found");
    expect((await api("/user-groups", { token: member.token })).body.items).toEqual([]);
    expect(await rolesIn(team.id, owner)).toEqual({ [owner.user.id]: "owner", [admin.user.id]: "admin" });
    expect((await remove(owner, team.id, admin)).status).toBe(204);
    expect((await api(`/user-groups/${team.id}`, { token: owner.token })).body.memberCount).toBe(1);
  });

  test("a plain member removes nobody else, and an admin cannot remove an owner (403)", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    expectProblem(await remove(member, team.id, admin), 403, "forbidden");
    expectProblem(await remove(member, team.id, owner), 403, "forbidden");
    expect(expectProblem(await remove(admin, team.id, owner), 403, "forbidden").detail).toMatch(/owner/);
    expect(Object.values(await rolesIn(team.id, owner))).toEqual(["owner", "admin", "member"]);
  });

  test("an owner removes another owner; removing yourself is leaving, refused to the last owner (409)", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    await setRole(owner, team.id, admin, "owner");
    expect((await remove(owner, team.id, admin)).status).toBe(204);
    expect(expectProblem(await remove(owner, team.id, owner), 409, "conflict").detail).toMatch(/hand over ownership/);
    expect((await remove(member, team.id, member)).status).toBe(204);
    expect(await rolesIn(team.id, owner)).toEqual({ [owner.user.id]: "owner" });
  });

  test("404 for someone not in the group", async () => {
    const { team, owner } = await teamOfThree();
    const outsider = await registerUser(server);
    expectProblem(await remove(owner, team.id, outsider), 404, "not_found");
  });
});

describe("POST /user-groups/{id}/leave", () => {
  test("members and admins leave at will", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    expect((await leave(member, team.id)).status).toBe(204);
    expect((await leave(admin, team.id)).status).toBe(204);
    for (const who of [admin, member])
      expectProblem(await api(`/user-groups/${team.id}`, { token: who.token }), 404, "not_found");
    expectProblem(await leave(member, team.id), 404, "not_found");
    expect((await api(`/user-groups/${team.id}`, { token: owner.token })).body.memberCount).toBe(1);
  });

  test("the last owner must hand over ownership first; then they leave and the new owner runs the group", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const refused = expectProblem(await leave(owner, team.id), 409, "conflict");
    expect(refused.detail).toMatch(/last owner.*hand over ownership/);
    expect((await rolesIn(team.id, owner))[owner.user.id]).toBe("owner");

    expect((await setRole(owner, team.id, admin, "owner")).status).toBe(200);
    expect((await leave(owner, team.id)).status).toBe(204);
    expectProblem(await api(`/user-groups/${team.id}`, { token: owner.token }), 404, "not_found");
    expect(await rolesIn(team.id, admin)).toEqual({ [admin.user.id]: "owner", [member.user.id]: "member" });

    expectProblem(await leave(admin, team.id), 409, "conflict");
    expect((await api(`/user-groups/${team.id}`, { method: "DELETE", token: admin.token })).status).toBe(204);
  });

  test("two last owners leaving at the same moment: one leaves, the other stays owner", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    await setRole(owner, team.id, admin, "owner");
    const answers = await Promise.all([leave(owner, team.id), leave(admin, team.id)]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([204, 409]);
    expect(Object.values(await rolesIn(team.id, member)).sort()).toEqual(["member", "owner"]);
  });

  test("a group's only member is its owner: they cannot leave, only delete it", async () => {
    const owner = await registerUser(server);
    const team = await createTeam(owner);
    expectProblem(await leave(owner, team.id), 409, "conflict");
    expect((await api(`/user-groups/${team.id}`, { token: owner.token })).status).toBe(200);
  });
});

describe("GET /user-groups/{id}/workload", () => {
  test("counts each member's assigned tasks of the group by status; members without tasks have zeros", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const outsider = await registerUser(server);
    const teamTask = (who: User) => ({ assigneeIds: [who.user.id], userGroupId: team.id });
    for (const status of ["todo", "in_progress", "in_progress", "done"])
      await createTask(server, owner.token, { status, ...teamTask(owner) });
    // Overdue: open and due in the past (a done one is not).
    const past = new Date(Date.now() - 86_400_000).toISOString();
    await createTask(server, owner.token, { status: "in_progress", dueAt: past, ...teamTask(owner) });
    await createTask(server, owner.token, { status: "done", dueAt: past, ...teamTask(owner) });
    for (const status of ["todo", "todo", "done", "cancelled"])
      await createTask(server, admin.token, { status, ...teamTask(admin) });
    // The group's tasks nobody is assigned to, members' tasks outside the group and outsiders' tasks count nowhere.
    await createTask(server, admin.token, { status: "in_progress", userGroupId: team.id });
    await createTask(server, member.token, { status: "in_progress", assigneeIds: [member.user.id] });
    await createTask(server, outsider.token, { status: "todo", assigneeIds: [outsider.user.id] });
    // A task of the group assigned to the member counts for them, whoever owns it.
    const ownersTask = await createTask(server, owner.token, { status: "in_progress", userGroupId: team.id });
    await server.sql("insert into task_assignees (task_id, user_id) values ($1, $2)", [ownersTask.id, member.user.id]);

    const response = await api(`/user-groups/${team.id}/workload`, { token: member.token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(expectShape(teamWorkloadOutput, response.body)).toEqual({
      groupId: team.id,
      items: [
        { userId: owner.user.id, name: "Test User", role: "owner", active: 3, pending: 1, completed: 2, overdue: 1 },
        { userId: admin.user.id, name: "Test User", role: "admin", active: 0, pending: 2, completed: 1, overdue: 0 },
        { userId: member.user.id, name: "Test User", role: "member", active: 1, pending: 0, completed: 0, overdue: 0 },
      ],
    });
  });

  test("follows task changes and membership changes", async () => {
    const owner = await registerUser(server);
    const other = await registerUser(server);
    const team = await createTeam(owner);
    const task = await createTask(server, owner.token, { assigneeIds: [owner.user.id], userGroupId: team.id });
    const counts = async () =>
      expectShape(teamWorkloadOutput, (await api(`/user-groups/${team.id}/workload`, { token: owner.token })).body).items.map(
        ({ userId, active, pending, completed }) => ({ userId, active, pending, completed }),
      );
    expect(await counts()).toEqual([{ userId: owner.user.id, active: 0, pending: 1, completed: 0 }]);

    expect((await api(`/tasks/${task.id}`, { method: "PATCH", token: owner.token, json: { status: "done" } })).status).toBe(200);
    await addMember(owner, team.id, other);
    expect(await counts()).toEqual([
      { userId: owner.user.id, active: 0, pending: 0, completed: 1 },
      { userId: other.user.id, active: 0, pending: 0, completed: 0 },
    ]);
    await leave(other, team.id);
    expect((await counts()).map((row) => row.userId)).toEqual([owner.user.id]);
  });
});

describe("someone outside the group", () => {
  test("gets 404 on every user-group route, the same as for a group that does not exist, and changes nothing", async () => {
    const { team, owner, admin, member } = await teamOfThree();
    const outsider = await registerUser(server);
    const someone = await registerUser(server);
    const routes = (groupId: string): [string, string, unknown?][] => [
      ["GET", `/user-groups/${groupId}`],
      ["PATCH", `/user-groups/${groupId}`, { name: "Taken over" }],
      ["DELETE", `/user-groups/${groupId}`],
      ["GET", `/user-groups/${groupId}/members`],
      ["POST", `/user-groups/${groupId}/members`, { userId: outsider.user.id, role: "owner" }],
      ["POST", `/user-groups/${groupId}/members`, { email: someone.email }],
      ["PATCH", `/user-groups/${groupId}/members/${member.user.id}`, { role: "owner" }],
      ["PATCH", `/user-groups/${groupId}/members/${outsider.user.id}`, { role: "owner" }],
      ["DELETE", `/user-groups/${groupId}/members/${member.user.id}`],
      ["DELETE", `/user-groups/${groupId}/members/${outsider.user.id}`],
      ["POST", `/user-groups/${groupId}/leave`],
      ["GET", `/user-groups/${groupId}/workload`],
    ];
    for (const [method, path, json] of routes(team.id)) {
      const where = `${method} ${path}`;
      const response = await api(path, { method, token: outsider.token, json });
      const problem = expectProblem(response, 404, "not_found");
      expect(JSON.stringify(problem), where).not.toMatch(/Crew|Test User|@example\.com/);
      const missing = await api(path.replace(team.id, MISSING_ID), { method, token: outsider.token, json });
      expect(expectProblem(missing, 404, "not_found").detail, where).toBe(problem.detail);
    }
    expect((await api("/user-groups", { token: outsider.token })).body.items).toEqual([]);

    const group = expectShape(userGroupOutput, (await api(`/user-groups/${team.id}`, { token: owner.token })).body);
    expect(group).toMatchObject({ name: "Crew", memberCount: 3 });
    expect(await rolesIn(team.id, owner)).toEqual({
      [owner.user.id]: "owner",
      [admin.user.id]: "admin",
      [member.user.id]: "member",
    });
  });

  test("a malformed group id is a 400 naming /id on every route", async () => {
    const owner = await registerUser(server);
    const paths: [string, string, unknown?][] = [
      ["GET", "/user-groups/nope"],
      ["PATCH", "/user-groups/nope", { name: "x" }],
      ["DELETE", "/user-groups/nope"],
      ["GET", "/user-groups/nope/members"],
      ["POST", "/user-groups/nope/members", { userId: owner.user.id }],
      ["PATCH", `/user-groups/nope/members/${owner.user.id}`, { role: "admin" }],
      ["DELETE", `/user-groups/nope/members/${owner.user.id}`],
      ["POST", "/user-groups/nope/leave"],
      ["GET", "/user-groups/nope/workload"],
    ];
    for (const [method, path, json] of paths) {
      const problem = expectProblem(await api(path, { method, token: owner.token, json }), 400, "validation_failed");
      expect(problem.errors, `${method} ${path}`).toEqual([{ in: "path", pointer: "/id", detail: "must be a user group id" }]);
    }
  });
});
