import { describe, expect, test } from "vitest";
import { analysisPrompt, builtInInsights, changePercent, isLateNight } from "./analysis";
import type { ActivityFacts } from "./schema";

const HOUR = 3600;

function facts(overrides: Partial<ActivityFacts> = {}): ActivityFacts {
  return {
    days: 7,
    totalSeconds: 14 * HOUR,
    previousTotalSeconds: 10 * HOUR,
    changePercent: 40,
    dailyAverageSeconds: 2 * HOUR,
    categories: [
      { category: "video", seconds: 7 * HOUR, previousSeconds: 4 * HOUR },
      { category: "reading", seconds: 7 * HOUR - 60, previousSeconds: 0 },
      { category: "social", seconds: 60, previousSeconds: 6 * HOUR },
    ],
    topApps: [{ app: "Tube", category: "video", seconds: 7 * HOUR }],
    lateNightSeconds: 2 * HOUR,
    lateNights: 3,
    peakHour: 22,
    busiestDay: { date: "2027-06-09", seconds: 4 * HOUR },
    tasks: {
      open: 6,
      overdue: 2,
      dueSoon: 3,
      next: [{ id: "00000000-0000-4000-8000-000000000001", title: "Thesis draft", dueAt: "2027-06-08T10:00:00.000Z" }],
    },
    ...overrides,
  };
}

describe("the built-in analysis", () => {
  test("compares, names the heaviest category and app, late nights, and focus time from a leisure category", () => {
    expect(builtInInsights(facts())).toEqual([
      { kind: "change", totalSeconds: 14 * HOUR, previousTotalSeconds: 10 * HOUR, changePercent: 40 },
      { kind: "heaviestCategory", category: "video", seconds: 7 * HOUR, sharePercent: 50, dailyAverageSeconds: 3600 },
      { kind: "topApp", app: "Tube", category: "video", seconds: 7 * HOUR, dailyAverageSeconds: 3600 },
      { kind: "lateNight", seconds: 2 * HOUR, nights: 3 },
      {
        kind: "focus",
        // Five pressing tasks (two overdue, three due soon): three 25-minute blocks a day.
        minutesPerDay: 75,
        openTasks: 6,
        overdueTasks: 2,
        dueSoonTasks: 3,
        fromCategory: "video",
        peakHour: 22,
        nextTask: facts().tasks.next[0],
      },
    ]);
  });

  test("focus time comes from no category when no leisure category averages enough a day", () => {
    const light = facts({
      categories: [
        { category: "reading", seconds: 20 * HOUR, previousSeconds: 0 },
        { category: "games", seconds: HOUR, previousSeconds: 0 },
      ],
    });
    expect(builtInInsights(light).find((insight) => insight.kind === "focus")).toMatchObject({
      fromCategory: null,
      minutesPerDay: 75,
    });
    const calm = facts({ tasks: { open: 1, overdue: 0, dueSoon: 0, next: [] } });
    expect(builtInInsights(calm).find((insight) => insight.kind === "focus")).toMatchObject({
      minutesPerDay: 25,
      nextTask: null,
    });
  });

  test("a week without data says so, still compares with the week before, and without open tasks says that too", () => {
    const empty = facts({
      totalSeconds: 0,
      changePercent: -100,
      categories: [],
      topApps: [],
      lateNightSeconds: 0,
      tasks: { open: 0, overdue: 0, dueSoon: 0, next: [] },
    });
    expect(builtInInsights(empty)).toEqual([
      { kind: "noData" },
      { kind: "change", totalSeconds: 0, previousTotalSeconds: 10 * HOUR, changePercent: -100 },
      { kind: "noOpenTasks" },
    ]);
  });

  test("changePercent and late night", () => {
    expect(changePercent(150, 100)).toBe(50);
    expect(changePercent(100, 0)).toBeNull();
    expect([22, 23, 0, 4, 5].map(isLateNight)).toEqual([false, true, true, true, false]);
  });
});

describe("the prompt", () => {
  test("holds the facts as JSON, the period, and asks for the user's language", () => {
    const window = {
      from: "2027-06-04",
      to: "2027-06-10",
      previousFrom: "2027-05-28",
      previousTo: "2027-06-03",
      timeZone: "Europe/Prague",
    };
    const [system, user] = analysisPrompt(facts(), window, "Čeština");
    expect(system).toMatchObject({ role: "system", content: expect.stringContaining("in Čeština") });
    expect(JSON.parse(user!.content)).toEqual({
      period: { from: "2027-06-04", to: "2027-06-10" },
      previousPeriod: { from: "2027-05-28", to: "2027-06-03" },
      timeZone: "Europe/Prague",
      ...facts(),
    });
  });
});
