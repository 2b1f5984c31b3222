import { sql } from "drizzle-orm";
import { check, doublePrecision, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import type { CardState, ReviewGrade } from "../../reviews/vocabulary";
import { goals } from "./goals";
import { tasks } from "./tasks";
import { users } from "./users";

/**
 * A spaced-repetition card of one user (the `spaced-repetition` module): its two sides, an optional deck, an optional
 * link to one of the user's goals and to a task they could read when it was linked, and its FSRS memory state
 * (ts-fsrs's `Card`): when it is due next, stability and difficulty, the days since the last review and until the
 * next, the review and lapse counts, the learning step and the state.
 */
export const reviewCards = pgTable(
  "review_cards",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    front: text("front").notNull(),
    back: text("back").notNull(),
    deck: text("deck"),
    goalId: uuid("goal_id").references(() => goals.id, { onDelete: "set null" }),
    taskId: uuid("task_id").references(() => tasks.id, { onDelete: "set null" }),
    due: timestamp("due", { withTimezone: true }).notNull(),
    stability: doublePrecision("stability").notNull().default(0),
    difficulty: doublePrecision("difficulty").notNull().default(0),
    elapsedDays: integer("elapsed_days").notNull().default(0),
    scheduledDays: integer("scheduled_days").notNull().default(0),
    learningSteps: integer("learning_steps").notNull().default(0),
    reps: integer("reps").notNull().default(0),
    lapses: integer("lapses").notNull().default(0),
    state: text("state").$type<CardState>().notNull().default("new"),
    lastReview: timestamp("last_review", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("review_cards_user_due_idx").on(table.userId, table.due),
    index("review_cards_user_created_idx").on(table.userId, table.createdAt),
    index("review_cards_goal_idx").on(table.goalId),
    index("review_cards_task_idx").on(table.taskId),
  ],
);

export type ReviewCardRow = typeof reviewCards.$inferSelect;

/**
 * One review of a card (ts-fsrs's `ReviewLog`): the grade, when it happened, and the card's state before it. `clientReviewId`
 * is the idempotency key a client may send: a second review with the same key is the first one again.
 */
export const reviewLogs = pgTable(
  "review_logs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cardId: uuid("card_id")
      .notNull()
      .references(() => reviewCards.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientReviewId: uuid("client_review_id"),
    grade: text("grade").$type<ReviewGrade>().notNull(),
    state: text("state").$type<CardState>().notNull(),
    due: timestamp("due", { withTimezone: true }).notNull(),
    stability: doublePrecision("stability").notNull(),
    difficulty: doublePrecision("difficulty").notNull(),
    elapsedDays: integer("elapsed_days").notNull(),
    lastElapsedDays: integer("last_elapsed_days").notNull(),
    scheduledDays: integer("scheduled_days").notNull(),
    learningSteps: integer("learning_steps").notNull(),
    /** Where the review left the card: due next then, after `scheduledDays` days (0 while learning). */
    nextDue: timestamp("next_due", { withTimezone: true }).notNull(),
    reviewedAt: timestamp("reviewed_at", { withTimezone: true }).notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index("review_logs_card_idx").on(table.cardId, table.reviewedAt),
    uniqueIndex("review_logs_user_client_idx").on(table.userId, table.clientReviewId),
  ],
);

export type ReviewLogRow = typeof reviewLogs.$inferSelect;

/** A user's spaced-repetition settings: the retention FSRS schedules for (0.7-0.99; 0.9 without a row). */
export const reviewSettings = pgTable(
  "review_settings",
  {
    userId: uuid("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    desiredRetention: doublePrecision("desired_retention").notNull(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [check("review_settings_retention_range", sql`${table.desiredRetention} between 0.7 and 0.99`)],
);
