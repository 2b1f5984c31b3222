import { describe, expect, test } from "vitest";
import { badgesReached, LEVEL_TABLE, levelFor, levelProgress, pointsFor, streaksOf } from "./rules";

const at = (iso: string) => new Date(iso);

describe("points", () => {
  test("a task without a due time earns the base and its priority's bonus", () => {
    expect(pointsFor({ priority: 1, dueAt: null, completedAt: at("2027-01-01T10:00:00Z") })).toEqual({
      points: 10,
      basePoints: 10,
      onTimeBonus: 0,
      priorityBonus: 0,
      onTime: null,
    });
    expect(pointsFor({ priority: 3, dueAt: null, completedAt: at("2027-01-01T10:00:00Z") }).points).toBe(20);
  });

  test("on time (also exactly at the due time) earns 10 more; late earns no bonus", () => {
    const due = at("2027-01-01T12:00:00Z");
    expect(pointsFor({ priority: 2, dueAt: due, completedAt: due })).toMatchObject({ points: 25, onTime: true });
    expect(pointsFor({ priority: 2, dueAt: due, completedAt: at("2027-01-01T12:00:00.001Z") })).toMatchObject({
      points: 15,
      onTime: false,
    });
  });
});

describe("levels", () => {
  test("start at the documented thresholds", () => {
    expect(LEVEL_TABLE.slice(0, 5)).toEqual([
      { level: 1, points: 0 },
      { level: 2, points: 50 },
      { level: 3, points: 150 },
      { level: 4, points: 300 },
      { level: 5, points: 500 },
    ]);
    expect(levelFor(0)).toBe(1);
    expect(levelFor(49)).toBe(1);
    expect(levelFor(50)).toBe(2);
    expect(levelFor(2250)).toBe(10);
    expect(levelProgress(100)).toEqual({ level: 2, levelPoints: 50, nextLevelPoints: 150, percent: 50 });
  });
});

describe("streaks", () => {
  test("count calendar days up to today or yesterday; a missed day ends the current one", () => {
    const dates = ["2027-03-01", "2027-03-02", "2027-03-03", "2027-03-05", "2027-03-06"];
    expect(streaksOf(dates, "2027-03-06")).toEqual({ current: 2, longest: 3, lastActiveDate: "2027-03-06" });
    expect(streaksOf(dates, "2027-03-07")).toMatchObject({ current: 2 });
    expect(streaksOf(dates, "2027-03-08")).toMatchObject({ current: 0, longest: 3 });
    expect(streaksOf([], "2027-03-08")).toEqual({ current: 0, longest: 0, lastActiveDate: null });
  });

  test("run over a DST change and month ends", () => {
    expect(streaksOf(["2027-03-27", "2027-03-28", "2027-03-29"], "2027-03-29").current).toBe(3);
    expect(streaksOf(["2028-02-28", "2028-02-29", "2028-03-01"], "2028-03-01").current).toBe(3);
  });
});

describe("badges", () => {
  test("are reached at their targets", () => {
    expect(badgesReached({ tasks: 0, onTime: 0, shared: 0, longestStreak: 0, level: 1 })).toEqual([]);
    expect(badgesReached({ tasks: 10, onTime: 5, shared: 0, longestStreak: 7, level: 4 })).toEqual([
      "first_task",
      "tasks_10",
      "early_bird",
      "streak_7",
    ]);
    expect(badgesReached({ tasks: 100, onTime: 4, shared: 1, longestStreak: 30, level: 5 })).toEqual([
      "first_task",
      "tasks_10",
      "tasks_100",
      "team_player",
      "streak_7",
      "streak_30",
      "level_5",
    ]);
  });
});
