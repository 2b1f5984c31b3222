import { describe, expect, test } from "vitest";
import { newMemory, review } from "./scheduler";

const DAY = 86_400_000;
const start = new Date("2026-03-02T09:00:00Z");

/** Reviews a new card `good` until it has left the learning steps; answers the card and when that was. */
function graduated(retention = 0.9) {
  let memory = newMemory(start);
  let at = start;
  while (memory.state !== "review") {
    memory = review(memory, "good", at, retention).memory;
    at = memory.due;
  }
  return { memory, at };
}

describe("FSRS scheduling", () => {
  test("a new card is due at once and has never been reviewed", () => {
    expect(newMemory(start)).toMatchObject({ due: start, state: "new", reps: 0, lapses: 0, lastReview: null });
  });

  test("a first review: again < hard < good in minutes, easy graduates to days", () => {
    const due = (grade: "again" | "hard" | "good" | "easy") =>
      review(newMemory(start), grade, start, 0.9).memory.due.getTime() - start.getTime();
    expect(due("again")).toBe(60_000);
    expect(due("hard")).toBeGreaterThan(due("again"));
    expect(due("good")).toBeGreaterThan(due("hard"));
    expect(due("easy")).toBeGreaterThanOrEqual(DAY);
  });

  test("on a card in review, easy > good > hard, and again sends it back to relearning with a lapse", () => {
    const { memory, at } = graduated();
    const interval = (grade: "again" | "hard" | "good" | "easy") => review(memory, grade, at, 0.9).memory.scheduledDays;
    expect(interval("easy")).toBeGreaterThan(interval("good"));
    expect(interval("good")).toBeGreaterThan(interval("hard"));
    const forgotten = review(memory, "again", at, 0.9).memory;
    expect(forgotten).toMatchObject({ state: "relearning", lapses: 1, scheduledDays: 0 });
    expect(forgotten.due.getTime() - at.getTime()).toBe(10 * 60_000);
  });

  test("intervals grow with each good review", () => {
    let { memory, at } = graduated();
    const intervals: number[] = [];
    for (let i = 0; i < 4; i++) {
      memory = review(memory, "good", at, 0.9).memory;
      intervals.push(memory.scheduledDays);
      at = memory.due;
    }
    for (let i = 1; i < intervals.length; i++) expect(intervals[i]).toBeGreaterThan(intervals[i - 1]!);
  });

  test("a higher desired retention means shorter intervals", () => {
    const { memory, at } = graduated();
    expect(review(memory, "good", at, 0.95).memory.scheduledDays).toBeLessThan(
      review(memory, "good", at, 0.8).memory.scheduledDays,
    );
  });

  test("the record keeps the state before the review", () => {
    const first = review(newMemory(start), "good", start, 0.9);
    expect(first.record).toMatchObject({ grade: "good", state: "new", reviewedAt: start, elapsedDays: 0 });
    expect(first.memory).toMatchObject({ reps: 1, lastReview: start, state: "learning" });
  });
});
