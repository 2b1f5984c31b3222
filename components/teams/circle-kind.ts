/*
 * Teams (user groups) and projects are managed the same way: a name and description, members with roles, an
 * owner kept at all times, invitations that the invitee accepts. What differs between them is here: the API
 * path, the roles, the invitation's fields, and the pages' path. Every string is in the `Teams` namespace, the
 * few that name the kind are keyed by it (`team.title`, `project.title`).
 */

export type CircleKind = "team" | "project";
export type CircleRole = "owner" | "admin" | "member" | "viewer";

export interface CircleConfig {
  kind: CircleKind;
  /** The API's collection path. */
  api: "/api/v1/user-groups" | "/api/v1/projects";
  /** The pages' path under the locale. */
  path: string;
  /** The roles, strongest first. */
  roles: readonly CircleRole[];
  /** The roles an invitation may grant (never `owner`). */
  inviteRoles: readonly CircleRole[];
  /** `POST /invitations` fields naming the circle and the role. */
  invitationFields: { id: "teamId" | "projectId"; role: "teamRole" | "projectRole" };
}

export const CIRCLES: Record<CircleKind, CircleConfig> = {
  team: {
    kind: "team",
    api: "/api/v1/user-groups",
    path: "teams",
    roles: ["owner", "admin", "member"],
    inviteRoles: ["admin", "member"],
    invitationFields: { id: "teamId", role: "teamRole" },
  },
  project: {
    kind: "project",
    api: "/api/v1/projects",
    path: "projects",
    roles: ["owner", "admin", "member", "viewer"],
    inviteRoles: ["admin", "member", "viewer"],
    invitationFields: { id: "projectId", role: "projectRole" },
  },
};

/** Owners and admins rename the circle, invite, change roles and remove members. */
export const canManage = (role: CircleRole) => role === "owner" || role === "admin";

/** The roles `mine` may give, and whether `mine` may change or remove someone who is `theirs`. */
export function grantableRoles(config: CircleConfig, mine: CircleRole): readonly CircleRole[] {
  if (mine === "owner") return config.roles;
  if (mine === "admin") return config.roles.filter((role) => role !== "owner");
  return [];
}

export const canChangeMember = (mine: CircleRole, theirs: CircleRole) =>
  mine === "owner" || (mine === "admin" && theirs !== "owner");
