import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/**
 * A project member's role. `owner`: everything, including deleting the project; `admin`: renames it and
 * manages members (not owners); `member`: adds and edits the project's tasks; `viewer`: reads them.
 */
export type ProjectRole = "owner" | "admin" | "member" | "viewer";

/** A body of work shared by its members: every task in it is visible to them. */
export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** A display colour, `#rrggbb`, or null. */
    color: text("color"),
    /** Who created the project; null once that account is deleted. The project stays with its members. */
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("projects_created_by_idx").on(table.createdBy),
    check("projects_name_length", sql`char_length(${table.name}) between 1 and 200`),
    check("projects_color", sql`${table.color} is null or ${table.color} ~ '^#[0-9a-f]{6}$'`),
  ],
);

export type ProjectRow = typeof projects.$inferSelect;

export const projectMembers = pgTable(
  "project_members",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<ProjectRole>().notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.projectId, table.userId] }),
    index("project_members_user_idx").on(table.userId),
    check("project_members_role", sql`${table.role} in ('owner', 'admin', 'member', 'viewer')`),
  ],
);

export type ProjectMemberRow = typeof projectMembers.$inferSelect;
