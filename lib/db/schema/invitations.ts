import { sql } from "drizzle-orm";
import { check, index, pgTable, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { projects } from "./projects";
import { tasks } from "./tasks";
import { users } from "./users";

/**
 * An invitation to a task (the invitee is assigned to it) or to a project (the invitee becomes a member).
 * The token is shown once, in the answer that creates it; only its SHA-256 is kept.
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** SHA-256 of the token, hex. */
    tokenHash: text("token_hash").notNull().unique(),
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "cascade" }),
    projectId: uuid("project_id").references(() => projects.id, { onDelete: "cascade" }),
    /** The role a project invitation grants. */
    projectRole: text("project_role"),
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("invitations_inviter_idx").on(table.inviterId, table.createdAt),
    check("invitations_target", sql`(${table.taskId} is null) <> (${table.projectId} is null)`),
    check(
      "invitations_project_role",
      sql`(${table.projectId} is null and ${table.projectRole} is null) or ${table.projectRole} in ('admin', 'member', 'viewer')`,
    ),
  ],
);

export type InvitationRow = typeof invitations.$inferSelect;
