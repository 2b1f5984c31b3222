import { describe, expect, test } from "vitest";
import { AppError } from "../api/app-error";
import { membershipPolicy, type CircleRole } from "./policy";

const policy = membershipPolicy<CircleRole>({
  noun: "project",
  owner: "an owner of the project",
  invitationRoles: "admin, member or viewer",
});
const owners = (count: number) => () => Promise.resolve(count);

/** The answer a check gives: its status code and message, or "allowed". */
async function answerOf(check: () => unknown): Promise<string> {
  try {
    await check();
    return "allowed";
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    return `${error.code}: ${error.message}`;
  }
}

describe("the circles' membership policy", () => {
  test("owners and admins manage; members and viewers get 403", async () => {
    expect(await answerOf(() => policy.requireManager("owner"))).toBe("allowed");
    expect(await answerOf(() => policy.requireManager("admin"))).toBe("allowed");
    for (const role of ["member", "viewer"] as const) {
      expect(await answerOf(() => policy.requireManager(role))).toBe(
        "forbidden: Only the project's owners and admins can do this",
      );
    }
  });

  test("only an owner makes someone owner, directly; an invitation never grants it (400 naming /role)", async () => {
    expect(await answerOf(() => policy.checkAdd("admin", "owner"))).toBe(
      "forbidden: Only an owner of the project can make someone an owner",
    );
    expect(await answerOf(() => policy.checkAdd("owner", "owner"))).toBe("allowed");
    expect(await answerOf(() => policy.checkAdd("admin", "viewer"))).toBe("allowed");
    const invitation = await answerOf(() => policy.checkInvitationRole("owner"));
    expect(invitation).toMatch(/^validation_failed: /);
    expect(await answerOf(() => policy.checkInvitationRole("admin"))).toBe("allowed");
  });

  test("the last owner can be neither demoted nor leave; with a second owner both are allowed", async () => {
    const demote = (count: number, self: boolean) =>
      answerOf(() =>
        policy.checkRoleChange({ actorRole: "owner", current: "owner", next: "admin", self, owners: owners(count) }),
      );
    expect(await demote(1, true)).toMatch(/^conflict: You are the project's last owner: hand over ownership first/);
    expect(await demote(1, false)).toMatch(/^conflict: This member is the project's last owner/);
    expect(await demote(2, true)).toBe("allowed");
    expect(await answerOf(() => policy.checkLeave("owner", owners(1)))).toMatch(/^conflict: You are the project's last owner/);
    expect(await answerOf(() => policy.checkLeave("owner", owners(2)))).toBe("allowed");
    expect(await answerOf(() => policy.checkLeave("viewer", owners(1)))).toBe("allowed");
  });

  test("an admin can neither change an owner's role, make an owner, nor remove an owner", async () => {
    const change = (current: CircleRole, next: CircleRole) =>
      answerOf(() => policy.checkRoleChange({ actorRole: "admin", current, next, self: false, owners: owners(3) }));
    expect(await change("owner", "member")).toBe("forbidden: Only an owner of the project can change an owner's role");
    expect(await change("member", "owner")).toBe("forbidden: Only an owner of the project can make someone an owner");
    expect(await change("member", "viewer")).toBe("allowed");
    expect(await answerOf(() => policy.checkRemoval("admin", "owner"))).toBe(
      "forbidden: Only an owner of the project can remove an owner",
    );
    expect(await answerOf(() => policy.checkRemoval("admin", "member"))).toBe("allowed");
    expect(await answerOf(() => policy.requireOwner("admin", "delete the project"))).toBe(
      "forbidden: Only an owner of the project can delete the project",
    );
  });

  test("the owners are counted only when the last owner's removal is in question", async () => {
    let counted = 0;
    const counting = () => Promise.resolve(++counted);
    await policy.checkRoleChange({ actorRole: "owner", current: "member", next: "admin", self: false, owners: counting });
    await policy.checkLeave("member", counting);
    expect(counted).toBe(0);
  });
});
