/**
 * The spaced-repetition vocabulary shared by the API's schemas, the database schema and the pages (plain constants:
 * safe to import in the browser bundle).
 */

/** The four grades of a review, as FSRS rates them (1 again ... 4 easy). */
export const REVIEW_GRADES = ["again", "hard", "good", "easy"] as const;
export type ReviewGrade = (typeof REVIEW_GRADES)[number];

/** FSRS's card states: never reviewed, in its first (re)learning steps, on its long-term schedule, relearning after a lapse. */
export const CARD_STATES = ["new", "learning", "review", "relearning"] as const;
export type CardState = (typeof CARD_STATES)[number];

export const CARD_FRONT_MAX = 1000;
export const CARD_BACK_MAX = 4000;
export const CARD_DECK_MAX = 60;

/** The share of cards one should still recall when they come due: FSRS's default, and the range a user may choose. */
export const DEFAULT_DESIRED_RETENTION = 0.9;
export const DESIRED_RETENTION_MIN = 0.7;
export const DESIRED_RETENTION_MAX = 0.99;
