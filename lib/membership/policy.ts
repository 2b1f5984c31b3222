import { AppError, invalidField } from "../api/app-error";

/*
 * The rules of a circle of members, the same for a team and a project (docs/permissions.md): owners and admins
 * manage it (rename it, add and remove members, change roles); only an owner deletes it, grants or takes the owner
 * role, or removes an owner; an invitation never grants the owner role (it is given once the person has joined);
 * a circle always keeps an owner, so the last one can be neither demoted, removed nor leave (409) until they hand
 * ownership over. Anyone may leave. Each check throws the answer the request gets; the services hold the circle's
 * row locked while they ask, so that two changes cannot both see two owners and both take one away.
 */

/** The roles every circle has; a project adds `viewer`. */
export type CircleRole = "owner" | "admin" | "member" | "viewer";

/** How a circle is named in the answers' messages. */
export interface CircleWords {
  /** "group", "project". */
  noun: string;
  /** Who may do what only an owner may: "an owner", "an owner of the project". */
  owner: string;
  /** The roles an invitation grants, for its 400: "admin or member". */
  invitationRoles: string;
}

export interface MembershipPolicy<Role extends CircleRole> {
  isManager(role: Role): boolean;
  /** Renaming, adding, removing and changing roles: owners and admins, 403 for the others. */
  requireManager(role: Role): void;
  /** What only an owner may do (`what`: "delete the project"), 403 for the others. */
  requireOwner(role: Role, what: string): void;
  /** Adding a member directly with `role`. */
  checkAdd(actorRole: Role, role: Role): void;
  /** An invitation's role: never owner (400 naming `/role`). */
  checkInvitationRole(role: Role): asserts role is Exclude<Role, "owner">;
  /** Changing a member's role from `current` to `next`; `owners` counts the circle's owners, asked only if needed. */
  checkRoleChange(change: {
    actorRole: Role;
    current: Role;
    next: Role;
    self: boolean;
    owners: () => Promise<number>;
  }): Promise<void>;
  /** Removing another member whose role is `target`. */
  checkRemoval(actorRole: Role, target: Role): void;
  /** Leaving: anyone but the last owner. */
  checkLeave(role: Role, owners: () => Promise<number>): Promise<void>;
}

export function membershipPolicy<Role extends CircleRole>(words: CircleWords): MembershipPolicy<Role> {
  const isManager = (role: Role) => role === "owner" || role === "admin";
  const ownersOnly = (what: string) => new AppError("forbidden", `Only ${words.owner} can ${what}`);
  const lastOwner = (who: "you" | "member") =>
    new AppError(
      "conflict",
      `${who === "you" ? "You are" : "This member is"} the ${words.noun}'s last owner: hand over ownership first ` +
        `(make another member owner), or delete the ${words.noun}`,
    );
  const requireOwner = (role: Role, what: string) => {
    if (role !== "owner") throw ownersOnly(what);
  };

  return {
    isManager,
    requireManager(role) {
      if (!isManager(role)) throw new AppError("forbidden", `Only the ${words.noun}'s owners and admins can do this`);
    },
    requireOwner,
    checkAdd(actorRole, role) {
      if (role === "owner") requireOwner(actorRole, "make someone an owner");
    },
    checkInvitationRole(role) {
      if (role === "owner") {
        throw invalidField("body", "/role", `an invitation grants ${words.invitationRoles}: make them owner once they joined`);
      }
    },
    async checkRoleChange({ actorRole, current, next, self, owners }) {
      if (current === "owner" || next === "owner") {
        requireOwner(actorRole, current === "owner" ? "change an owner's role" : "make someone an owner");
      }
      if (current === "owner" && next !== "owner" && (await owners()) === 1) throw lastOwner(self ? "you" : "member");
    },
    checkRemoval(actorRole, target) {
      if (target === "owner") requireOwner(actorRole, "remove an owner");
    },
    async checkLeave(role, owners) {
      if (role === "owner" && (await owners()) === 1) throw lastOwner("you");
    },
  };
}
