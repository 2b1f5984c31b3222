import { sql } from "drizzle-orm";
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

export type UserGroupRole = "owner" | "admin" | "member";

/** A team: people who work on tasks together. Who belongs, and as what, is in user_group_members. */
export const userGroups = pgTable(
  "user_groups",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    description: text("description").notNull().default(""),
    /** Who created the group (its first owner); null once that account is deleted. The group stays. */
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("user_groups_created_by_idx").on(table.createdBy),
    check("user_groups_name_length", sql`char_length(${table.name}) between 1 and 100`),
  ],
);

export type UserGroupRow = typeof userGroups.$inferSelect;

export const userGroupMembers = pgTable(
  "user_group_members",
  {
    groupId: uuid("group_id")
      .notNull()
      .references(() => userGroups.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<UserGroupRole>().notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.groupId, table.userId] }),
    index("user_group_members_user_idx").on(table.userId),
    check("user_group_members_role", sql`${table.role} in ('owner', 'admin', 'member')`),
  ],
);

export type UserGroupMemberRow = typeof userGroupMembers.$inferSelect;
