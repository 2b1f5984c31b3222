import { describe, expect, test } from "vitest";
import { calendarDay, startOfDay, viewFilter } from "./views";

describe("the task list's views as GET /tasks filters", () => {
  test("Today: open tasks due before tomorrow begins in the user's zone, the overdue included", () => {
    expect(viewFilter("today", "2026-11-28", "Asia/Tokyo")).toEqual({
      status: ["todo", "in_progress"],
      dueBefore: "2026-11-28T15:00:00.000Z",
    });
  });

  test("Upcoming: from the start of today to the end of the 13th day after it", () => {
    expect(viewFilter("upcoming", "2026-11-28", "Asia/Tokyo")).toEqual({
      status: ["todo", "in_progress"],
      dueAfter: "2026-11-27T15:00:00.000Z",
      dueBefore: "2026-12-11T15:00:00.000Z",
    });
  });

  test("days are whole local days across a change of the clocks (Prague's 25-hour 25 October 2026)", () => {
    expect(startOfDay("2026-10-25", "Europe/Prague")).toBe("2026-10-24T22:00:00.000Z");
    expect(startOfDay("2026-10-25", "Europe/Prague", 1)).toBe("2026-10-25T23:00:00.000Z");
  });

  test("the calendar day of an instant in a zone", () => {
    expect(calendarDay(new Date("2026-11-28T14:59:59Z"), "Asia/Tokyo")).toBe("2026-11-28");
    expect(calendarDay(new Date("2026-11-28T15:00:00Z"), "Asia/Tokyo")).toBe("2026-11-29");
    expect(calendarDay(new Date("2026-11-28T03:00:00Z"), "America/Los_Angeles")).toBe("2026-11-27");
  });
});
