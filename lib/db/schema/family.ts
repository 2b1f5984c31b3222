import { sql } from "drizzle-orm";
import { check, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { users } from "./users";

/** `parent`: manages the members and the shared groups; `child`: uses them, removes nobody, deletes no shared group. */
export type FamilyRole = "parent" | "child";

/**
 * A family workspace: a household sharing task groups. A user belongs to at most one. A task group joins it
 * through `task_groups.family_id`, and every member then sees that group and its tasks.
 */
export const families = pgTable(
  "families",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    createdBy: uuid("created_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("families_name_length", sql`char_length(${table.name}) between 1 and 100`)],
);

export type FamilyRow = typeof families.$inferSelect;

export const familyMembers = pgTable(
  "family_members",
  {
    familyId: uuid("family_id")
      .notNull()
      .references(() => families.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").$type<FamilyRole>().notNull(),
    joinedAt: timestamp("joined_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.familyId, table.userId] }),
    // One family workspace per user.
    uniqueIndex("family_members_user_key").on(table.userId),
    check("family_members_role", sql`${table.role} in ('parent', 'child')`),
  ],
);

export type FamilyMemberRow = typeof familyMembers.$inferSelect;
