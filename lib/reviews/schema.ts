import { z } from "@hono/zod-openapi";
import {
  CARD_BACK_MAX,
  CARD_DECK_MAX,
  CARD_FRONT_MAX,
  CARD_STATES,
  DEFAULT_DESIRED_RETENTION,
  DESIRED_RETENTION_MAX,
  DESIRED_RETENTION_MIN,
  REVIEW_GRADES,
} from "./vocabulary";

export const CARD_LIST_MAX = 200;
export const DUE_LIST_MAX = 100;
export const HISTORY_MAX = 200;

function text(max: number, what: string) {
  return z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .openapi({ description: `${what}: 1-${max} characters (trimmed)` });
}

const front = text(CARD_FRONT_MAX, "The question side");
const back = text(CARD_BACK_MAX, "The answer side");
const deck = text(CARD_DECK_MAX, "A deck (or tag) to group cards by").nullable();
const goalId = z
  .uuid("must be a goal id")
  .nullable()
  .openapi({ description: "One of your goals, or null (another user's goal is a 404)" });
const taskId = z
  .uuid("must be a task id")
  .nullable()
  .openapi({ description: "A task you can see (yours or shared with you), or null (a task you cannot see is a 404)" });

function limit(max: number, fallback: number, what: string) {
  return z.coerce
    .number({ message: "must be a number" })
    .int("must be a whole number")
    .min(1, "must be at least 1")
    .max(max, `must be at most ${max}`)
    .default(fallback)
    .openapi({ description: `${what} per page, 1-${max} (default ${fallback})` });
}

export const cardIdParams = z.object({ id: z.uuid("must be a card id") });

export const listCardsQuery = z
  .strictObject({
    due: z
      .enum(["true", "false"], { message: "must be true or false" })
      .optional()
      .openapi({ description: "`true`: only cards due now; `false`: only cards not due yet; absent: all" }),
    goalId: z.uuid("must be a goal id").optional().openapi({ description: "Only cards linked to this goal" }),
    taskId: z.uuid("must be a task id").optional().openapi({ description: "Only cards linked to this task" }),
    deck: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(CARD_DECK_MAX, `must be at most ${CARD_DECK_MAX} characters`)
      .optional()
      .openapi({ description: "Only cards of this deck (exact match)" }),
    limit: limit(CARD_LIST_MAX, 100, "Cards"),
    cursor: z.uuid("must be a card id").optional().openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("ListReviewCardsQuery");
export type ListCardsQuery = z.infer<typeof listCardsQuery>;

export const createCardInput = z
  .strictObject({ front, back, deck: deck.optional(), goalId: goalId.optional(), taskId: taskId.optional() })
  .openapi("CreateReviewCardInput");
export type CreateCardInput = z.infer<typeof createCardInput>;

export const updateCardInput = z
  .strictObject({
    front: front.optional(),
    back: back.optional(),
    deck: deck.optional(),
    goalId: goalId.optional(),
    taskId: taskId.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    message: "give at least one of front, back, deck, goalId, taskId",
    path: ["front"],
  })
  .openapi("UpdateReviewCardInput", { description: "The fields given change, the others stay; null removes a deck or link" });
export type UpdateCardInput = z.infer<typeof updateCardInput>;

const link = z.object({ id: z.uuid(), title: z.string() });

export const cardOutput = z
  .object({
    id: z.uuid(),
    front: z.string(),
    back: z.string(),
    deck: z.string().nullable(),
    goal: link.nullable().openapi({ description: "The linked goal, or null" }),
    task: link.nullable().openapi({ description: "The linked task while you can see it, else null" }),
    due: z.iso.datetime().openapi({ description: "When the card is due for review next (a new card: when it was made)" }),
    state: z.enum(CARD_STATES).openapi({
      description:
        "FSRS state: `new` (never reviewed), `learning` (first short steps), `review` (long-term), `relearning` (after `again`)",
    }),
    stability: z.number().openapi({ description: "FSRS stability: days until recall probability falls to 90%" }),
    difficulty: z.number().openapi({ description: "FSRS difficulty, 1 (easy) to 10 (hard); 0 before the first review" }),
    scheduledDays: z
      .number()
      .int()
      .openapi({ description: "Whole days from the last review to `due` (0 while (re)learning in minutes)" }),
    elapsedDays: z.number().int().openapi({ description: "Whole days between the last two reviews" }),
    learningSteps: z.number().int().openapi({ description: "The (re)learning step the card is at" }),
    reps: z.number().int().openapi({ description: "Reviews so far" }),
    lapses: z.number().int().openapi({ description: "Times it was forgotten (`again` on a card in review)" }),
    lastReview: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("ReviewCard");
export type CardOutput = z.infer<typeof cardOutput>;

export const cardListOutput = z
  .object({
    items: z.array(cardOutput).openapi({ description: "Newest card first" }),
    nextCursor: z.uuid().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("ReviewCardList");
export type CardListOutput = z.infer<typeof cardListOutput>;

export const dueQuery = z.strictObject({ limit: limit(DUE_LIST_MAX, 20, "Cards") }).openapi("DueReviewsQuery");
export type DueQuery = z.infer<typeof dueQuery>;

export const dueListOutput = z
  .object({
    items: z.array(cardOutput).openapi({ description: "Cards due now, the longest due first" }),
    total: z.number().int().openapi({ description: "How many cards are due now in all" }),
    now: z.iso.datetime().openapi({ description: "The server's time the list was made at" }),
  })
  .openapi("DueReviews");
export type DueListOutput = z.infer<typeof dueListOutput>;

export const reviewInput = z
  .strictObject({
    grade: z.enum(REVIEW_GRADES, { message: `must be one of ${REVIEW_GRADES.join(", ")}` }).openapi({
      description: "How well you recalled the back: `again` (forgot), `hard`, `good`, `easy`",
    }),
    reviewedAt: z.iso
      .datetime({ offset: true, message: "must be a date-time such as 2026-03-01T09:30:00Z" })
      .optional()
      .openapi({ description: "When you reviewed it (for reviews made offline); default now" }),
    reviewId: z.uuid("must be a UUID").optional().openapi({
      description: "An id your client makes for this review (a UUID): sending the same review again does not count it twice",
    }),
  })
  .openapi("ReviewInput");
export type ReviewInput = z.infer<typeof reviewInput>;

export const reviewLogOutput = z
  .object({
    id: z.uuid(),
    cardId: z.uuid(),
    reviewId: z.uuid().nullable().openapi({ description: "The client's `reviewId`, if it sent one" }),
    grade: z.enum(REVIEW_GRADES),
    reviewedAt: z.iso.datetime(),
    stateBefore: z.enum(CARD_STATES).openapi({ description: "The card's state before this review" }),
    elapsedDays: z.number().int().openapi({ description: "Whole days since the review before (0 for the first)" }),
    scheduledDays: z.number().int().openapi({ description: "Whole days this review scheduled the card for" }),
    nextDue: z.iso.datetime().openapi({ description: "When this review made the card due next" }),
  })
  .openapi("ReviewLog");
export type ReviewLogOutput = z.infer<typeof reviewLogOutput>;

export const reviewOutput = z
  .object({
    card: cardOutput.openapi({ description: "The card as the review left it (for a repeated review: as it is now)" }),
    review: reviewLogOutput,
    replayed: z
      .boolean()
      .openapi({ description: "true: this review was recorded before (same `reviewId`, or a double submit); nothing changed" }),
  })
  .openapi("ReviewResult");
export type ReviewOutput = z.infer<typeof reviewOutput>;

export const historyQuery = z.strictObject({ limit: limit(HISTORY_MAX, 50, "Reviews") }).openapi("ReviewHistoryQuery");
export type HistoryQuery = z.infer<typeof historyQuery>;

export const historyOutput = z
  .object({ items: z.array(reviewLogOutput).openapi({ description: "Newest review first" }) })
  .openapi("ReviewHistory");
export type HistoryOutput = z.infer<typeof historyOutput>;

const retention = z
  .number({ message: `must be a number from ${DESIRED_RETENTION_MIN} to ${DESIRED_RETENTION_MAX}` })
  .min(DESIRED_RETENTION_MIN, `must be at least ${DESIRED_RETENTION_MIN}`)
  .max(DESIRED_RETENTION_MAX, `must be at most ${DESIRED_RETENTION_MAX}`)
  .openapi({
    description:
      `The probability of still recalling a card when it comes due, ${DESIRED_RETENTION_MIN}-${DESIRED_RETENTION_MAX} ` +
      `(default ${DEFAULT_DESIRED_RETENTION}, FSRS's). Higher means shorter intervals and more reviews.`,
  });

export const reviewSettingsInput = z.strictObject({ desiredRetention: retention }).openapi("ReviewSettingsInput");
export type ReviewSettingsInput = z.infer<typeof reviewSettingsInput>;

export const reviewSettingsOutput = z
  .object({
    desiredRetention: retention,
    isDefault: z.boolean().openapi({ description: "true while you have not chosen a value" }),
  })
  .openapi("ReviewSettings");
export type ReviewSettingsOutput = z.infer<typeof reviewSettingsOutput>;

/** The briefing's part: the cards due by the end of the day. */
export interface DueSummary {
  total: number;
  items: { id: string; front: string; deck: string | null; dueAt: string }[];
}
