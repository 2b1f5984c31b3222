import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { findOwnGoal } from "../goals/repo";
import { isModuleEnabled } from "../modules/registry";
import { findVisibleTask } from "../tasks/repo";
import {
  countDueCards,
  countOwnCards,
  deleteOwnCard,
  findDesiredRetention,
  findLatestReview,
  findOwnCard,
  findReviewByClientId,
  insertCard,
  insertReview,
  listDueCards,
  listOwnCards,
  listReviews,
  lockOwnCard,
  saveDesiredRetention,
  updateCardFields,
  updateCardMemory,
  type CardFields,
  type CardRecord,
  type ReviewCardRow,
  type ReviewLogRow,
} from "./repo";
import { newMemory, review, type Memory } from "./scheduler";
import type {
  CardListOutput,
  CardOutput,
  CreateCardInput,
  DueListOutput,
  DueQuery,
  DueSummary,
  HistoryOutput,
  HistoryQuery,
  ListCardsQuery,
  ReviewInput,
  ReviewLogOutput,
  ReviewOutput,
  ReviewSettingsInput,
  ReviewSettingsOutput,
  UpdateCardInput,
} from "./schema";
import { DEFAULT_DESIRED_RETENTION } from "./vocabulary";

/*
 * Spaced repetition (the `spaced-repetition` module). The rules (the routes' descriptions say the same):
 * - Cards are their owner's alone: anyone else gets 404. A card may link one of the owner's goals and a task the owner
 *   can read when linking (404 otherwise); a task no longer shared with them stays linked but is shown as null.
 * - A review is scheduled by FSRS (lib/reviews/scheduler.ts) from the grade, at the review's time, for the user's
 *   desired retention. Reviews of one card happen one at a time (the card row is locked).
 * - A review is counted once: a `reviewId` sent again answers the review it made (200, `replayed`), for the same
 *   card; for another card it is a 409. Without a `reviewId`, the same grade on the same card within
 *   DOUBLE_SUBMIT_MS of the last review (which had none either) is taken for a double submit and answered the same way.
 */

export const MAX_CARDS = 10_000;
/** Two identical reviews of a card without reviewId this close together are one review submitted twice. */
export const DOUBLE_SUBMIT_MS = 2_000;
/** How far ahead of the server's clock `reviewedAt` may be (clocks drift); such a time counts as now. */
export const CLOCK_SKEW_MS = 5 * 60_000;
/** How many due cards the briefing names (it counts them all). */
export const BRIEFING_REVIEWS = 5;

const cardNotFound = () => new AppError("not_found", "No such card");

// Outputs

function toCardOutput(card: CardRecord): CardOutput {
  return {
    id: card.id,
    front: card.front,
    back: card.back,
    deck: card.deck,
    goal: card.goalId && card.goalTitle !== null ? { id: card.goalId, title: card.goalTitle } : null,
    task: card.taskId && card.taskTitle !== null ? { id: card.taskId, title: card.taskTitle } : null,
    due: card.due.toISOString(),
    state: card.state,
    stability: card.stability,
    difficulty: card.difficulty,
    scheduledDays: card.scheduledDays,
    elapsedDays: card.elapsedDays,
    learningSteps: card.learningSteps,
    reps: card.reps,
    lapses: card.lapses,
    lastReview: card.lastReview?.toISOString() ?? null,
    createdAt: card.createdAt.toISOString(),
    updatedAt: card.updatedAt.toISOString(),
  };
}

function toLogOutput(log: ReviewLogRow): ReviewLogOutput {
  return {
    id: log.id,
    cardId: log.cardId,
    reviewId: log.clientReviewId,
    grade: log.grade,
    reviewedAt: log.reviewedAt.toISOString(),
    stateBefore: log.state,
    elapsedDays: log.elapsedDays,
    scheduledDays: log.scheduledDays,
    nextDue: log.nextDue.toISOString(),
  };
}

function memoryOf(card: ReviewCardRow): Memory {
  const { due, stability, difficulty, elapsedDays, scheduledDays, learningSteps, reps, lapses, state, lastReview } = card;
  return { due, stability, difficulty, elapsedDays, scheduledDays, learningSteps, reps, lapses, state, lastReview };
}

async function cardOutputOrThrow(actor: Actor, cardId: string, executor?: Executor): Promise<CardOutput> {
  const card = await findOwnCard(actor.userId, cardId, executor);
  if (!card) throw cardNotFound();
  return toCardOutput(card);
}

// Links

/** Checks the links a card is given: the actor's own goal, a task they can read (404 naming the field otherwise). */
async function checkLinks(
  actor: Actor,
  input: { goalId?: string | null; taskId?: string | null },
  executor: Executor,
): Promise<void> {
  if (input.goalId && !(await findOwnGoal(actor.userId, input.goalId, executor))) {
    throw new AppError("not_found", "goalId: no such goal of yours");
  }
  if (input.taskId && !(await findVisibleTask(actor.userId, input.taskId, executor))) {
    throw new AppError("not_found", "taskId: no such task that you can see");
  }
}

// Cards

export async function listCards(actor: Actor, query: ListCardsQuery): Promise<CardListOutput> {
  const now = nowDate();
  const filter = {
    goalId: query.goalId,
    taskId: query.taskId,
    deck: query.deck,
    ...(query.due === "true" && { dueBy: now }),
    ...(query.due === "false" && { dueAfter: now }),
  };
  const rows = await listOwnCards(actor.userId, filter, query.limit + 1, query.cursor);
  const items = rows.slice(0, query.limit).map(toCardOutput);
  return { items, nextCursor: rows.length > query.limit ? items.at(-1)!.id : null };
}

export async function getCard(actor: Actor, cardId: string): Promise<CardOutput> {
  return cardOutputOrThrow(actor, cardId);
}

/** A new card is due at once. */
export async function createCard(actor: Actor, input: CreateCardInput): Promise<CardOutput> {
  return db().transaction(async (tx) => {
    await checkLinks(actor, input, tx);
    if ((await countOwnCards(actor.userId, tx)) >= MAX_CARDS) {
      throw new AppError("conflict", `You have ${MAX_CARDS} cards, the most there may be: delete some first`);
    }
    const fields: CardFields = {
      front: input.front,
      back: input.back,
      deck: input.deck ?? null,
      goalId: input.goalId ?? null,
      taskId: input.taskId ?? null,
    };
    const now = nowDate();
    const id = await insertCard(actor.userId, fields, newMemory(now), now, tx);
    return cardOutputOrThrow(actor, id, tx);
  });
}

/** Changes the card's text, deck or links; its schedule stays. */
export async function updateCard(actor: Actor, cardId: string, input: UpdateCardInput): Promise<CardOutput> {
  return db().transaction(async (tx) => {
    if (!(await lockOwnCard(actor.userId, cardId, tx))) throw cardNotFound();
    await checkLinks(actor, input, tx);
    await updateCardFields(
      cardId,
      { front: input.front, back: input.back, deck: input.deck, goalId: input.goalId, taskId: input.taskId },
      tx,
    );
    return cardOutputOrThrow(actor, cardId, tx);
  });
}

export async function deleteCard(actor: Actor, cardId: string): Promise<void> {
  if (!(await deleteOwnCard(actor.userId, cardId))) throw cardNotFound();
}

// Reviews

export async function listDue(actor: Actor, query: DueQuery): Promise<DueListOutput> {
  const now = nowDate();
  const items = await listDueCards(actor.userId, now, query.limit);
  return { items: items.map(toCardOutput), total: await countDueCards(actor.userId, now), now: now.toISOString() };
}

/** When the review happened: `reviewedAt` (a little ahead of the clock counts as now), never before the card's last review. */
function reviewTime(card: ReviewCardRow, reviewedAt: string | undefined, now: Date): Date {
  if (!reviewedAt) return now;
  const at = new Date(reviewedAt);
  if (at.getTime() > now.getTime() + CLOCK_SKEW_MS) throw invalidField("body", "/reviewedAt", "must not be in the future");
  const time = at > now ? now : at;
  const earliest = card.lastReview ?? card.createdAt;
  if (time < earliest) {
    throw invalidField(
      "body",
      "/reviewedAt",
      `must not be before the card's ${card.lastReview ? "last review" : "creation"} (${earliest.toISOString()})`,
    );
  }
  return time;
}

/** The review this one repeats, if it is one submitted again (see the rules above). */
async function repeatedReview(
  actor: Actor,
  card: ReviewCardRow,
  input: ReviewInput,
  now: Date,
  tx: Executor,
): Promise<ReviewLogRow | null> {
  if (input.reviewId) {
    const earlier = await findReviewByClientId(actor.userId, input.reviewId, tx);
    if (earlier && earlier.cardId !== card.id)
      throw new AppError("conflict", "This reviewId was used for a review of another card");
    return earlier;
  }
  const latest = await findLatestReview(card.id, tx);
  const doubled =
    latest &&
    latest.clientReviewId === null &&
    latest.grade === input.grade &&
    now.getTime() - latest.createdAt.getTime() < DOUBLE_SUBMIT_MS;
  return doubled ? latest : null;
}

export async function reviewCard(
  actor: Actor,
  cardId: string,
  input: ReviewInput,
): Promise<{ result: ReviewOutput; created: boolean }> {
  return db().transaction(async (tx) => {
    const now = nowDate();
    const card = await lockOwnCard(actor.userId, cardId, tx);
    if (!card) throw cardNotFound();
    const earlier = await repeatedReview(actor, card, input, now, tx);
    if (earlier) {
      return {
        result: { card: await cardOutputOrThrow(actor, cardId, tx), review: toLogOutput(earlier), replayed: true },
        created: false,
      };
    }
    const at = reviewTime(card, input.reviewedAt, now);
    const retention = (await findDesiredRetention(actor.userId, tx)) ?? DEFAULT_DESIRED_RETENTION;
    const { memory, record } = review(memoryOf(card), input.grade, at, retention);
    await updateCardMemory(cardId, memory, tx);
    const log = await insertReview(
      { ...record, cardId, userId: actor.userId, clientReviewId: input.reviewId ?? null, nextDue: memory.due },
      tx,
    );
    return {
      result: { card: await cardOutputOrThrow(actor, cardId, tx), review: toLogOutput(log), replayed: false },
      created: true,
    };
  });
}

export async function reviewHistory(actor: Actor, cardId: string, query: HistoryQuery): Promise<HistoryOutput> {
  if (!(await findOwnCard(actor.userId, cardId))) throw cardNotFound();
  return { items: (await listReviews(cardId, query.limit)).map(toLogOutput) };
}

// Settings

export async function getReviewSettings(actor: Actor): Promise<ReviewSettingsOutput> {
  const chosen = await findDesiredRetention(actor.userId);
  return { desiredRetention: chosen ?? DEFAULT_DESIRED_RETENTION, isDefault: chosen === null };
}

export async function updateReviewSettings(actor: Actor, input: ReviewSettingsInput): Promise<ReviewSettingsOutput> {
  await saveDesiredRetention(actor.userId, input.desiredRetention);
  return { desiredRetention: input.desiredRetention, isDefault: false };
}

// The briefing

/**
 * The cards due before `dueBefore` (the end of the briefing's day): how many, and the first few, the longest due
 * first. Null while the module is switched off.
 */
export async function dueSummary(userId: string, dueBefore: Date): Promise<DueSummary | null> {
  if (!isModuleEnabled("spaced-repetition")) return null;
  const dueBy = new Date(dueBefore.getTime() - 1);
  const items = await listDueCards(userId, dueBy, BRIEFING_REVIEWS);
  return {
    total: await countDueCards(userId, dueBy),
    items: items.map((card) => ({ id: card.id, front: card.front, deck: card.deck, dueAt: card.due.toISOString() })),
  };
}
