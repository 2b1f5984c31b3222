import { createEmptyCard, fsrs, generatorParameters, Rating, State, type Card, type FSRS, type Grade } from "ts-fsrs";
import type { CardState, ReviewGrade } from "./vocabulary";

/*
 * FSRS through ts-fsrs, with its default parameters (weights, learning steps 1m and 10m, relearning step 10m,
 * maximum interval 100 years) except two: the desired retention is the user's (0.9 by default), and fuzz is off,
 * so that the same review of the same card always gives the same due time (what the tests, and a user comparing
 * two cards, rely on).
 */

/** A card's FSRS memory state, as stored in review_cards. */
export interface Memory {
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reps: number;
  lapses: number;
  state: CardState;
  lastReview: Date | null;
}

/** The card's state before a review and what the review was, as stored in review_logs (ts-fsrs's ReviewLog). */
export interface ReviewRecord {
  grade: ReviewGrade;
  state: CardState;
  due: Date;
  stability: number;
  difficulty: number;
  elapsedDays: number;
  lastElapsedDays: number;
  scheduledDays: number;
  learningSteps: number;
  reviewedAt: Date;
}

const RATING: Record<ReviewGrade, Grade> = { again: Rating.Again, hard: Rating.Hard, good: Rating.Good, easy: Rating.Easy };
const GRADE: Record<number, ReviewGrade> = {
  [Rating.Again]: "again",
  [Rating.Hard]: "hard",
  [Rating.Good]: "good",
  [Rating.Easy]: "easy",
};
const STATE_NAME: Record<State, CardState> = {
  [State.New]: "new",
  [State.Learning]: "learning",
  [State.Review]: "review",
  [State.Relearning]: "relearning",
};
const STATE: Record<CardState, State> = {
  new: State.New,
  learning: State.Learning,
  review: State.Review,
  relearning: State.Relearning,
};

const schedulers = new Map<number, FSRS>();

/** The scheduler for a desired retention (one per value, made once). */
export function schedulerFor(desiredRetention: number): FSRS {
  let scheduler = schedulers.get(desiredRetention);
  if (!scheduler) {
    scheduler = fsrs(generatorParameters({ request_retention: desiredRetention, enable_fuzz: false }));
    schedulers.set(desiredRetention, scheduler);
  }
  return scheduler;
}

function toMemory(card: Card): Memory {
  return {
    due: card.due,
    stability: card.stability,
    difficulty: card.difficulty,
    elapsedDays: card.elapsed_days,
    scheduledDays: card.scheduled_days,
    learningSteps: card.learning_steps,
    reps: card.reps,
    lapses: card.lapses,
    state: STATE_NAME[card.state],
    lastReview: card.last_review ?? null,
  };
}

function toCard(memory: Memory): Card {
  return {
    due: memory.due,
    stability: memory.stability,
    difficulty: memory.difficulty,
    elapsed_days: memory.elapsedDays,
    scheduled_days: memory.scheduledDays,
    learning_steps: memory.learningSteps,
    reps: memory.reps,
    lapses: memory.lapses,
    state: STATE[memory.state],
    last_review: memory.lastReview ?? undefined,
  };
}

/** A card never reviewed: due at once. */
export function newMemory(now: Date): Memory {
  return toMemory(createEmptyCard(now));
}

/** What a review with `grade` at `reviewedAt` makes of the card, and the record of it. */
export function review(
  memory: Memory,
  grade: ReviewGrade,
  reviewedAt: Date,
  desiredRetention: number,
): { memory: Memory; record: ReviewRecord } {
  const { card, log } = schedulerFor(desiredRetention).next(toCard(memory), reviewedAt, RATING[grade]);
  return {
    memory: toMemory(card),
    record: {
      grade: GRADE[log.rating]!,
      state: STATE_NAME[log.state],
      due: log.due,
      stability: log.stability,
      difficulty: log.difficulty,
      elapsedDays: log.elapsed_days,
      lastElapsedDays: log.last_elapsed_days,
      scheduledDays: log.scheduled_days,
      learningSteps: log.learning_steps,
      reviewedAt: log.review,
    },
  };
}
