import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { families } from "./family";
import { projects } from "./projects";
import { tasks } from "./tasks";
import { userGroups } from "./teams";
import { users } from "./users";

/**
 * An invitation to a task (the invitee is assigned to it), a project, a family workspace or a team (the invitee
 * becomes a member with the role it grants). Nobody joins anything without accepting: by its link, or in the app
 * when it is addressed to their account or email. The token is shown once, in the answer that creates it; only its
 * SHA-256 is kept.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** SHA-256 of the token, hex. */
    tokenHash: text("token_hash").notNull().unique(),
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "cascade" }),
    /** What a task invitation makes the invitee: `assignee` (the default) or `collaborator`. */
    taskRole: text("task_role"),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** The role a project invitation grants. */
    projectRole: text("project_role"),
    familyId: uuid("family_id").references(() => families.id, { onDelete: "cascade" }),
    /** The role a family invitation grants: `parent` or `child`. */
    familyRole: text("family_role"),
    teamId: uuid("team_id").references(() => userGroups.id, { onDelete: "cascade" }),
    /** The role a team invitation grants: `admin` or `member`. */
    teamRole: text("team_role"),
    /** The account it is addressed to, when the inviter named one (it then shows in that person's app). */
    inviteeUserId: uuid("invitee_user_id").references(() => users.id, { onDelete: "cascade" }),
    inviterId: uuid("inviter_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    inviteeName: text("invitee_name"),
    inviteeEmail: text("invitee_email"),
    inviteePhone: text("invitee_phone"),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    acceptedAt: timestamp("accepted_at", { withTimezone: true }),
    acceptedBy: uuid("accepted_by").references(() => users.id, { onDelete: "set null" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** Set when the person it is addressed to declined it in the app. */
    declinedAt: timestamp("declined_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("invitations_inviter_idx").on(table.inviterId, table.createdAt),
    index("invitations_invitee_user_idx").on(table.inviteeUserId),
    index("invitations_invitee_email_idx").on(table.inviteeEmail),
    check("invitations_target", sql`num_nonnulls(${table.taskId}, ${table.projectId}, ${table.familyId}, ${table.teamId}) = 1`),
    check(
      "invitations_task_role",
      sql`(${table.taskId} is null and ${table.taskRole} is null) or ${table.taskRole} in ('assignee', 'collaborator')`,
    ),
    check(
      "invitations_project_role",
      sql`(${table.projectId} is null and ${table.projectRole} is null) or ${table.projectRole} in ('admin', 'member', 'viewer')`,
    ),
    check(
      "invitations_family_role",
      sql`(${table.familyId} is null and ${table.familyRole} is null) or ${table.familyRole} in ('parent', 'child')`,
    ),
    check(
      "invitations_team_role",
      sql`(${table.teamId} is null and ${table.teamRole} is null) or ${table.teamRole} in ('admin', 'member')`,
    ),
  ],
);

export type InvitationRow = typeof invitations.$inferSelect;
