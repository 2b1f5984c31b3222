import { describe, expect, test } from "vitest";
import { fromZonedWallTime } from "../tasks/recurrence";
import { parseQuickAdd } from "./parse";
import { LISTS, localTime } from "./parse-test-table";

const PRAGUE = "Europe/Prague";
const wall = (year: number, month: number, day: number, hour: number, minute = 0) =>
  fromZonedWallTime({ year, month, day, hour, minute, second: 0, millisecond: 0 }, PRAGUE);
const parseAt = (text: string, now: Date, extra: { literal?: { start: number; end: number }[] } = {}) =>
  parseQuickAdd(text, { locale: "en", now, timeZone: PRAGUE, lists: LISTS, ...extra });

describe("quick add across DST changes (Europe/Prague)", () => {
  test("'in 2 hours' is two real hours, across the spring-forward gap", () => {
    const result = parseAt("call in 2 hours", wall(2026, 3, 29, 1, 30));
    expect(localTime(result.dueAt, PRAGUE)).toBe("2026-03-29 04:30");
  });

  test("a time skipped by the spring-forward gap moves forward by the gap, as repeating tasks do", () => {
    const result = parseAt("tomorrow at 2:30", wall(2026, 3, 28, 12));
    expect(localTime(result.dueAt, PRAGUE)).toBe("2026-03-29 03:30");
  });

  test("a time that happens twice when clocks go back is the first of them", () => {
    const result = parseAt("tomorrow at 2:30", wall(2026, 10, 24, 12));
    expect(result.dueAt).toBe("2026-10-25T00:30:00.000Z");
  });

  test("a date across the change keeps its wall-clock time", () => {
    const result = parseAt("Monday at 9", wall(2026, 10, 22, 12));
    expect(result.dueAt).toBe("2026-10-26T08:00:00.000Z");
  });
});

describe("quick add: what people expect", () => {
  test("'every Monday' said on a Monday starts today; at a time already past, next Monday", () => {
    const monday = wall(2026, 3, 30, 10);
    expect(localTime(parseAt("every Monday", monday).dueAt, PRAGUE)).toBe("2026-03-30 23:59");
    expect(localTime(parseAt("every Monday at 9", monday).dueAt, PRAGUE)).toBe("2026-04-06 09:00");
  });

  test("a monthly rule on the 31st starts on the next 31st there is, or the month's last day", () => {
    expect(localTime(parseAt("every 31st", wall(2026, 4, 2, 10)).dueAt, PRAGUE)).toBe("2026-04-30 23:59");
  });

  test("a range the user undid stays literal in the title, and the rest is still read", () => {
    const text = "Read Tomorrow by Friday";
    const result = parseAt(text, wall(2026, 3, 26, 10), { literal: [{ start: 5, end: 13 }] });
    expect(result.title).toBe("Read Tomorrow");
    expect(result.spans).toEqual([{ start: 14, end: 23, kind: "due", text: "by Friday" }]);
  });

  test("offsets count UTF-16 code units, as JavaScript strings do (an emoji is two)", () => {
    const text = "🎉 party tomorrow #fun";
    const result = parseAt(text, wall(2026, 3, 26, 10));
    expect(result.spans.map((span) => [span.start, span.end])).toEqual([
      [9, 17],
      [18, 22],
    ]);
    expect(result.title).toBe("🎉 party");
  });

  test("only the first priority counts; the second stays in the title", () => {
    const result = parseAt("p1 fix it !low", wall(2026, 3, 26, 10));
    expect(result.priority).toBe("urgent");
    expect(result.title).toBe("fix it !low");
  });

  test("without lists (nothing to look names up in) +name is left alone, with no note", () => {
    const result = parseQuickAdd("plan +Work", { locale: "en", now: wall(2026, 3, 26, 10), timeZone: PRAGUE });
    expect(result).toMatchObject({ title: "plan +Work", notes: [], spans: [] });
  });
});
