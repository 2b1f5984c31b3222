import { describe, expect, test } from "vitest";
import { builtInStudyPlan, MAX_SESSIONS, planWindow, sessionDays, topicsOf, type StudyPlanFacts } from "./planner";

const weekday = (date: string) => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

function facts(overrides: Partial<StudyPlanFacts["goal"]> & { startDate: string; endDate: string }): StudyPlanFacts {
  const { startDate, endDate, ...goal } = overrides;
  return {
    goal: { title: "Goal", description: "", targetDate: endDate, status: "active", progress: 0, ...goal },
    linkedTasks: [],
    locale: "en",
    timeZone: "Europe/Prague",
    today: startDate,
    startDate,
    endDate,
    weekdays: null,
    holidays: [],
  };
}

const period = (startDate: string, endDate: string) => ({ startDate, endDate, weekdays: null, holidays: [] });

describe("topicsOf", () => {
  test("one topic per line, bullets and numbering stripped, duplicates and trailing punctuation dropped", () => {
    expect(topicsOf("Title", "- Cases.\n* Verbs;\n\n1. Word order\n2) cases\n• Listening")).toEqual([
      "Cases",
      "Verbs",
      "Word order",
      "Listening",
    ]);
  });

  test("a single line is cut into sentences; no description gives the title; at most 12, each at most 120 characters", () => {
    expect(topicsOf("Title", "Read the book. Do the exercises! Is it done? Yes")).toEqual([
      "Read the book",
      "Do the exercises",
      "Is it done",
      "Yes",
    ]);
    expect(topicsOf("Only the title", "   ")).toEqual(["Only the title"]);
    expect(topicsOf("T", Array.from({ length: 20 }, (_, i) => `Topic ${i}`).join("\n"))).toHaveLength(12);
    const [long] = topicsOf("T", "x".repeat(300));
    expect(long).toHaveLength(120);
    expect(long!.endsWith("…")).toBe(true);
  });
});

describe("planWindow", () => {
  test("to the target date, 4 weeks without one, two years at most", () => {
    expect(planWindow("2026-03-02", "2026-03-20")).toEqual({ startDate: "2026-03-02", endDate: "2026-03-20" });
    expect(planWindow("2026-03-02", null)).toEqual({ startDate: "2026-03-02", endDate: "2026-03-29" });
    expect(planWindow("2026-03-02", "2099-01-01").endDate).toBe("2028-02-29"); // 730 days, the first one included
  });
});

describe("sessionDays", () => {
  test("Mondays, Wednesdays and Fridays when they are enough, else weekdays, else every day", () => {
    // 2026-03-02 is a Monday.
    expect(sessionDays(period("2026-03-02", "2026-03-15"), 4)).toEqual([
      "2026-03-02",
      "2026-03-04",
      "2026-03-06",
      "2026-03-09",
      "2026-03-11",
      "2026-03-13",
    ]);
    expect(sessionDays(period("2026-03-02", "2026-03-08"), 4)).toEqual([
      "2026-03-02",
      "2026-03-03",
      "2026-03-04",
      "2026-03-05",
      "2026-03-06",
    ]);
    expect(sessionDays(period("2026-03-06", "2026-03-09"), 4)).toEqual(["2026-03-06", "2026-03-07", "2026-03-08", "2026-03-09"]);
  });

  test("at most 30 sessions, spread evenly from the first day to the last", () => {
    const days = sessionDays(period("2026-03-02", "2027-03-01"), 4);
    expect(days).toHaveLength(MAX_SESSIONS);
    expect(days[0]).toBe("2026-03-02");
    expect(days.at(-1)).toBe("2027-03-01");
    expect(days.every((day) => [1, 3, 5].includes(weekday(day)))).toBe(true);
    expect(new Set(days).size).toBe(days.length);
  });
});

describe("sessionDays with the person's days and the holidays", () => {
  test("only on the picked days of the week, even when they are fewer than the sessions wanted", () => {
    // Tuesdays and Saturdays from Monday 2026-03-02 to Sunday 2026-03-15.
    const days = sessionDays({ ...period("2026-03-02", "2026-03-15"), weekdays: [2, 6] }, 6);
    expect(days).toEqual(["2026-03-03", "2026-03-07", "2026-03-10", "2026-03-14"]);
  });

  test("never on a public holiday: Czech 28 October 2026 (a Wednesday) is skipped, the next Wednesday kept", () => {
    const holidays = [{ date: "2026-10-28", name: "Den vzniku samostatného československého státu" }];
    const days = sessionDays({ ...period("2026-10-26", "2026-11-08"), holidays }, 4);
    expect(days).toEqual(["2026-10-26", "2026-10-30", "2026-11-02", "2026-11-04", "2026-11-06"]);
  });

  test("the plan's sessions follow the picked days and skip holidays", () => {
    const plan = builtInStudyPlan({
      ...facts({ description: "A\nB\nC", startDate: "2026-12-21", endDate: "2027-01-10" }),
      weekdays: [5],
      holidays: [
        { date: "2026-12-25", name: "Christmas Day" },
        { date: "2027-01-01", name: "New Year's Day" },
      ],
    });
    expect(plan.map((session) => session.date)).toEqual(["2027-01-08"]);
  });
});

describe("builtInStudyPlan", () => {
  test("is the same for the same facts", () => {
    const input = facts({
      title: "Learn Czech",
      description: "Cases\nVerbs\nNumbers",
      startDate: "2026-03-02",
      endDate: "2026-04-30",
    });
    expect(builtInStudyPlan(input)).toEqual(builtInStudyPlan(structuredClone(input)));
  });

  test("every session has a date in the window, a title and steps", () => {
    const plan = builtInStudyPlan(facts({ description: "A\nB\nC\nD\nE", startDate: "2026-03-02", endDate: "2026-03-04" }));
    expect(plan.map((session) => session.date)).toEqual(["2026-03-02", "2026-03-03", "2026-03-04"]);
    expect(plan.map((session) => session.title)).toEqual(["A and B", "C and D", "E"]);
    expect(plan.every((session) => session.steps.length >= 2)).toBe(true);
    expect(plan.at(-1)!.steps.at(-1)).toBe("Check how close you are to the goal and add a progress report");
  });

  test("names at most three open linked tasks and counts them all", () => {
    const input = facts({ startDate: "2026-03-02", endDate: "2026-03-20" });
    input.linkedTasks = ["One", "Two", "Three", "Four"].map((title) => ({ title, status: "todo", dueAt: null }));
    input.linkedTasks.push({ title: "Done", status: "done", dueAt: null });
    expect(builtInStudyPlan(input)[0]!.steps[0]).toBe(
      "Look at the 4 open tasks linked to this goal, starting with One, Two, and Three",
    );
  });
});
