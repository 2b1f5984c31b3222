import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import { tasks } from "./tasks";
import { users } from "./users";

/*
 * The gamification module (lib/gamification): points for completed tasks, the streak days they make, levels and
 * badges. Points, level and streaks are derived from the awards; the profile keeps the running total (written in
 * the award's transaction, under the profile row's lock) and the leaderboard choice.
 */

/** One row per user who earned points or chose a leaderboard setting. */
export const gamificationProfiles = pgTable(
  "gamification_profiles",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The sum of the user's awards (kept with them, in one transaction). */
    points: integer("points").notNull().default(0),
    /** Appear on leaderboards (global, your teams', your family's): off until the user turns it on. */
    leaderboardOptIn: boolean("leaderboard_opt_in").notNull().default(false),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("gamification_profiles_opt_in_idx")
      .on(table.points)
      .where(sql`${table.leaderboardOptIn}`),
  ],
);

export type GamificationProfileRow = typeof gamificationProfiles.$inferSelect;

/**
 * Points a user earned by completing a task: at most one row per user and task (the unique index), so a task
 * reopened and completed again, an event delivered twice or handled by two processes awards once.
 */
export const pointAwards = pgTable(
  "gamification_awards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    /** The completed task; null once it is deleted (the award and its title stay). */
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "set null" }),
    taskTitle: text("task_title").notNull(),
    /** The `task.completed` event that earned it. */
    eventId: bigint("event_id", { mode: "number" }).notNull(),
    points: integer("points").notNull(),
    basePoints: integer("base_points").notNull(),
    onTimeBonus: integer("on_time_bonus").notNull(),
    priorityBonus: integer("priority_bonus").notNull(),
    /** Completed at or before its due time; null when it had none. */
    onTime: boolean("on_time"),
    /** The task involved someone else (owner, assignee, collaborator) or a team. */
    shared: boolean("shared").notNull(),
    completedAt: timestamp("completed_at", { withTimezone: true }).notNull(),
    /** The day of completedAt in the user's time zone at the time: the streak's day. */
    localDate: date("local_date", { mode: "string" }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex("gamification_awards_user_task_key").on(table.userId, table.taskId),
    index("gamification_awards_user_time_idx").on(table.userId, table.completedAt),
    check("gamification_awards_points", sql`${table.points} > 0`),
  ],
);

export type PointAwardRow = typeof pointAwards.$inferSelect;

/** A badge a user earned, once, with the time it was earned. */
export const earnedBadges = pgTable(
  "gamification_badges",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    badge: text("badge").notNull(),
    earnedAt: timestamp("earned_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.badge] })],
);

export type EarnedBadgeRow = typeof earnedBadges.$inferSelect;

/** Each level a user reached, once, with the time and the points that reached it. */
export const levelUps = pgTable(
  "gamification_level_ups",
  {
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    level: integer("level").notNull(),
    points: integer("points").notNull(),
    reachedAt: timestamp("reached_at", { withTimezone: true }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.level] })],
);

export type LevelUpRow = typeof levelUps.$inferSelect;
