import { and, asc, count, desc, eq, gt, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../api/app-error";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { goals } from "../db/schema/goals";
import { reviewCards, reviewLogs, reviewSettings, type ReviewCardRow, type ReviewLogRow } from "../db/schema/reviews";
import { tasks } from "../db/schema/tasks";
import { visibleTaskCondition } from "../permissions/repo";
import type { Memory, ReviewRecord } from "./scheduler";

export type { ReviewCardRow, ReviewLogRow };

/** A card with the titles of what it links to (the task only while the user can see it). */
export interface CardRecord extends ReviewCardRow {
  goalTitle: string | null;
  taskTitle: string | null;
}

export type CardFields = Pick<ReviewCardRow, "front" | "back" | "deck" | "goalId" | "taskId">;

export interface CardFilter {
  /** Only cards due at or before this instant. */
  dueBy?: Date;
  /** Only cards due after this instant. */
  dueAfter?: Date;
  goalId?: string;
  taskId?: string;
  deck?: string;
}

const own = (userId: string, cardId: string) => and(eq(reviewCards.id, cardId), eq(reviewCards.userId, userId));

/** The card's columns with the titles of its links: the goal if it is the user's, the task if they may read it. */
function selectCards(userId: string, executor: Executor) {
  return executor
    .select({
      card: reviewCards,
      goalTitle: goals.title,
      taskTitle: tasks.title,
    })
    .from(reviewCards)
    .leftJoin(goals, and(eq(goals.id, reviewCards.goalId), eq(goals.ownerId, userId)))
    .leftJoin(tasks, and(eq(tasks.id, reviewCards.taskId), visibleTaskCondition(userId)));
}

function toRecord(row: { card: ReviewCardRow; goalTitle: string | null; taskTitle: string | null }): CardRecord {
  return { ...row.card, goalTitle: row.goalTitle, taskTitle: row.taskTitle };
}

function memoryColumns(memory: Memory) {
  return {
    due: memory.due,
    stability: memory.stability,
    difficulty: memory.difficulty,
    elapsedDays: memory.elapsedDays,
    scheduledDays: memory.scheduledDays,
    learningSteps: memory.learningSteps,
    reps: memory.reps,
    lapses: memory.lapses,
    state: memory.state,
    lastReview: memory.lastReview,
  };
}

// Cards

/** A new card made at `now` (its memory is a new card's, due then). */
export async function insertCard(
  userId: string,
  fields: CardFields,
  memory: Memory,
  now: Date,
  executor: Executor,
): Promise<string> {
  const [row] = await executor
    .insert(reviewCards)
    .values({ ...fields, ...memoryColumns(memory), userId, createdAt: now, updatedAt: now })
    .returning({ id: reviewCards.id });
  return row!.id;
}

export async function countOwnCards(userId: string, executor: Executor): Promise<number> {
  const [row] = await executor.select({ cards: count() }).from(reviewCards).where(eq(reviewCards.userId, userId));
  return row?.cards ?? 0;
}

/** The user's card with its links' titles; null for a card that is not theirs (or does not exist). */
export async function findOwnCard(userId: string, cardId: string, executor: Executor = db()): Promise<CardRecord | null> {
  const [row] = await selectCards(userId, executor).where(own(userId, cardId)).limit(1);
  return row ? toRecord(row) : null;
}

/** The user's card row, locked until the transaction ends: reviews of one card happen one at a time. */
export async function lockOwnCard(userId: string, cardId: string, tx: Executor): Promise<ReviewCardRow | null> {
  const [row] = await tx.select().from(reviewCards).where(own(userId, cardId)).for("update");
  return row ?? null;
}

export async function updateCardFields(cardId: string, patch: Partial<CardFields>, executor: Executor): Promise<void> {
  await executor
    .update(reviewCards)
    .set({ ...patch, updatedAt: nowDate() })
    .where(eq(reviewCards.id, cardId));
}

export async function updateCardMemory(cardId: string, memory: Memory, executor: Executor): Promise<void> {
  await executor
    .update(reviewCards)
    .set({ ...memoryColumns(memory), updatedAt: nowDate() })
    .where(eq(reviewCards.id, cardId));
}

/** Deletes the user's card with its reviews; false when there is no such card of theirs. */
export async function deleteOwnCard(userId: string, cardId: string): Promise<boolean> {
  const rows = await db().delete(reviewCards).where(own(userId, cardId)).returning({ id: reviewCards.id });
  return rows.length > 0;
}

function filterCondition(userId: string, filter: CardFilter): SQL | undefined {
  return and(
    eq(reviewCards.userId, userId),
    filter.dueBy ? lte(reviewCards.due, filter.dueBy) : undefined,
    filter.dueAfter ? gt(reviewCards.due, filter.dueAfter) : undefined,
    filter.goalId ? eq(reviewCards.goalId, filter.goalId) : undefined,
    filter.taskId ? eq(reviewCards.taskId, filter.taskId) : undefined,
    filter.deck ? eq(reviewCards.deck, filter.deck) : undefined,
  );
}

/** A page of the user's cards, newest first, after the card `cursor` (of the previous page). */
export async function listOwnCards(userId: string, filter: CardFilter, limit: number, cursor?: string): Promise<CardRecord[]> {
  let after: SQL | undefined;
  if (cursor) {
    const [at] = await db().select({ createdAt: reviewCards.createdAt }).from(reviewCards).where(own(userId, cursor)).limit(1);
    if (!at) return [];
    after = or(lt(reviewCards.createdAt, at.createdAt), and(eq(reviewCards.createdAt, at.createdAt), lt(reviewCards.id, cursor)));
  }
  const rows = await selectCards(userId, db())
    .where(and(filterCondition(userId, filter), after))
    .orderBy(desc(reviewCards.createdAt), desc(reviewCards.id))
    .limit(limit);
  return rows.map(toRecord);
}

/** The user's cards due at or before `dueBy`, the longest due first. */
export async function listDueCards(userId: string, dueBy: Date, limit: number): Promise<CardRecord[]> {
  const rows = await selectCards(userId, db())
    .where(filterCondition(userId, { dueBy }))
    .orderBy(asc(reviewCards.due), asc(reviewCards.createdAt), asc(reviewCards.id))
    .limit(limit);
  return rows.map(toRecord);
}

export async function countDueCards(userId: string, dueBy: Date): Promise<number> {
  const [row] = await db().select({ cards: count() }).from(reviewCards).where(filterCondition(userId, { dueBy }));
  return row?.cards ?? 0;
}

// Reviews

/** The user's review with this client id, of whichever card. */
export async function findReviewByClientId(
  userId: string,
  clientReviewId: string,
  executor: Executor,
): Promise<ReviewLogRow | null> {
  const [row] = await executor
    .select()
    .from(reviewLogs)
    .where(and(eq(reviewLogs.userId, userId), eq(reviewLogs.clientReviewId, clientReviewId)))
    .limit(1);
  return row ?? null;
}

/** The card's latest review (by when it was recorded). */
export async function findLatestReview(cardId: string, executor: Executor): Promise<ReviewLogRow | null> {
  const [row] = await executor
    .select()
    .from(reviewLogs)
    .where(eq(reviewLogs.cardId, cardId))
    .orderBy(desc(reviewLogs.createdAt), desc(reviewLogs.id))
    .limit(1);
  return row ?? null;
}

export async function insertReview(
  review: ReviewRecord & { cardId: string; userId: string; clientReviewId: string | null; nextDue: Date },
  executor: Executor,
): Promise<ReviewLogRow> {
  try {
    const [row] = await executor
      .insert(reviewLogs)
      .values({ ...review, createdAt: nowDate() })
      .returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", "This reviewId was used for another review at the same moment");
    throw error;
  }
}

/** The card's reviews, newest first. */
export async function listReviews(cardId: string, limit: number): Promise<ReviewLogRow[]> {
  return db()
    .select()
    .from(reviewLogs)
    .where(eq(reviewLogs.cardId, cardId))
    .orderBy(desc(reviewLogs.reviewedAt), desc(reviewLogs.createdAt), desc(reviewLogs.id))
    .limit(limit);
}

// Settings

export async function findDesiredRetention(userId: string, executor: Executor = db()): Promise<number | null> {
  const [row] = await executor
    .select({ value: reviewSettings.desiredRetention })
    .from(reviewSettings)
    .where(eq(reviewSettings.userId, userId))
    .limit(1);
  return row?.value ?? null;
}

export async function saveDesiredRetention(userId: string, desiredRetention: number): Promise<void> {
  const now = nowDate();
  await db()
    .insert(reviewSettings)
    .values({ userId, desiredRetention, updatedAt: now })
    .onConflictDoUpdate({ target: reviewSettings.userId, set: { desiredRetention, updatedAt: sql`excluded.updated_at` } });
}
