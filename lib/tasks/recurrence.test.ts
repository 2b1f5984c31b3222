import { describe, expect, test } from "vitest";
import type { Recurrence } from "../db/schema/tasks";
import { addRecurrenceSteps, fromZonedWallTime, nextOccurrence, zonedWallTime } from "./recurrence";

const PRAGUE = "Europe/Prague";
const NEW_YORK = "America/New_York";

const at = (iso: string) => new Date(iso);
const iso = (date: Date | undefined) => date?.toISOString();
/** The local "YYYY-MM-DD HH:MM" that a user in `timeZone` sees, read independently of the module under test. */
const local = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "short" }).format(date);
/** Due instants (ISO, UTC) of steps 0..n-1 from `start`. */
const series = (start: string, frequency: Recurrence["frequency"], n: number, timeZone: string, interval = 1) =>
  Array.from({ length: n }, (_, i) => iso(addRecurrenceSteps(at(start), frequency, i * interval, timeZone)));
const rule = (overrides: Partial<Recurrence>): Recurrence => ({
  frequency: "daily",
  interval: 1,
  anchor: "scheduled",
  until: null,
  count: null,
  ...overrides,
});
const wall = (year: number, month: number, day: number, hour: number, minute: number) => ({
  year,
  month,
  day,
  hour,
  minute,
  second: 0,
  millisecond: 0,
});

describe("zonedWallTime and fromZonedWallTime", () => {
  test("read and write Prague's wall clock in summer and winter, whatever the process zone", () => {
    expect(zonedWallTime(at("2026-07-01T07:00:00.250Z"), PRAGUE)).toEqual({ ...wall(2026, 7, 1, 9, 0), millisecond: 250 });
    expect(iso(fromZonedWallTime(wall(2026, 1, 15, 9, 0), PRAGUE))).toBe("2026-01-15T08:00:00.000Z");
    expect(iso(fromZonedWallTime({ ...wall(2026, 7, 1, 9, 0), second: 5, millisecond: 7 }, PRAGUE))).toBe(
      "2026-07-01T07:00:05.007Z",
    );
  });

  test("a time in the spring-forward gap moves forward by the gap (Prague 02:30 → 03:30 summer time)", () => {
    const moved = fromZonedWallTime(wall(2026, 3, 29, 2, 30), PRAGUE);
    expect(iso(moved)).toBe("2026-03-29T01:30:00.000Z");
    expect(local(moved, PRAGUE)).toBe("2026-03-29 03:30");
  });

  test("an ambiguous fall-back time takes the earlier, summer-time instant (Prague 02:30 on 2026-10-25)", () => {
    expect(iso(fromZonedWallTime(wall(2026, 10, 25, 2, 30), PRAGUE))).toBe("2026-10-25T00:30:00.000Z");
    // The hours either side of the repeated one are unambiguous.
    expect(iso(fromZonedWallTime(wall(2026, 10, 25, 1, 30), PRAGUE))).toBe("2026-10-24T23:30:00.000Z");
    expect(iso(fromZonedWallTime(wall(2026, 10, 25, 3, 30), PRAGUE))).toBe("2026-10-25T02:30:00.000Z");
  });

  test("New York: 02:30 on 2026-03-08 becomes 03:30 EDT; 01:30 on 2026-11-01 is the EDT one", () => {
    expect(iso(fromZonedWallTime(wall(2026, 3, 8, 2, 30), NEW_YORK))).toBe("2026-03-08T07:30:00.000Z");
    expect(iso(fromZonedWallTime(wall(2026, 11, 1, 1, 30), NEW_YORK))).toBe("2026-11-01T05:30:00.000Z");
  });
});

describe("addRecurrenceSteps", () => {
  test("daily 09:00 in Prague stays 09:00 local across the spring-forward of 2026-03-29", () => {
    const due = series("2026-03-27T08:00:00Z", "daily", 4, PRAGUE);
    expect(due).toEqual([
      "2026-03-27T08:00:00.000Z",
      "2026-03-28T08:00:00.000Z",
      "2026-03-29T07:00:00.000Z",
      "2026-03-30T07:00:00.000Z",
    ]);
    expect(due.map((d) => local(at(d!), PRAGUE).slice(11))).toEqual(["09:00", "09:00", "09:00", "09:00"]);
  });

  test("daily 09:00 in Prague stays 09:00 local across the fall-back of 2026-10-25", () => {
    expect(series("2026-10-24T07:00:00Z", "daily", 3, PRAGUE)).toEqual([
      "2026-10-24T07:00:00.000Z",
      "2026-10-25T08:00:00.000Z",
      "2026-10-26T08:00:00.000Z",
    ]);
  });

  test("daily 02:30 in Prague: 03:30 on the spring-forward day, back to 02:30 the day after", () => {
    const due = series("2026-03-28T01:30:00Z", "daily", 3, PRAGUE).map((d) => local(at(d!), PRAGUE));
    expect(due).toEqual(["2026-03-28 02:30", "2026-03-29 03:30", "2026-03-30 02:30"]);
  });

  test("daily 02:30 in Prague across the fall-back takes the first 02:30 on 2026-10-25", () => {
    expect(series("2026-10-24T00:30:00Z", "daily", 3, PRAGUE)).toEqual([
      "2026-10-24T00:30:00.000Z",
      "2026-10-25T00:30:00.000Z",
      "2026-10-26T01:30:00.000Z",
    ]);
  });

  test("daily 09:00 in New York across both DST changes of 2026", () => {
    expect(series("2026-03-07T14:00:00Z", "daily", 2, NEW_YORK)).toEqual([
      "2026-03-07T14:00:00.000Z",
      "2026-03-08T13:00:00.000Z",
    ]);
    expect(series("2026-10-31T13:00:00Z", "daily", 2, NEW_YORK)).toEqual([
      "2026-10-31T13:00:00.000Z",
      "2026-11-01T14:00:00.000Z",
    ]);
  });

  test("monthly from Jan 31 lands on each month's last day without drifting to the 28th (2026)", () => {
    const due = series("2026-01-31T08:00:00Z", "monthly", 5, PRAGUE).map((d) => local(at(d!), PRAGUE));
    expect(due).toEqual(["2026-01-31 09:00", "2026-02-28 09:00", "2026-03-31 09:00", "2026-04-30 09:00", "2026-05-31 09:00"]);
  });

  test("monthly from Jan 31 in the leap year 2028 falls on Feb 29", () => {
    const due = series("2028-01-31T08:00:00Z", "monthly", 3, PRAGUE).map((d) => local(at(d!), PRAGUE));
    expect(due).toEqual(["2028-01-31 09:00", "2028-02-29 09:00", "2028-03-31 09:00"]);
  });

  test("monthly every 2 months from Aug 31 crosses the year and clamps to Feb 28 and Apr 30", () => {
    const due = series("2026-08-31T07:00:00Z", "monthly", 5, PRAGUE, 2).map((d) => local(at(d!), PRAGUE));
    expect(due).toEqual(["2026-08-31 09:00", "2026-10-31 09:00", "2026-12-31 09:00", "2027-02-28 09:00", "2027-04-30 09:00"]);
  });

  test("monthly keeps the local date even when it is a different UTC date (Jan 1 00:30 in Prague)", () => {
    expect(series("2025-12-31T23:30:00Z", "monthly", 3, PRAGUE).map((d) => local(at(d!), PRAGUE))).toEqual([
      "2026-01-01 00:30",
      "2026-02-01 00:30",
      "2026-03-01 00:30",
    ]);
  });

  test("weekly every 3 weeks stays on Monday 09:00 across the spring-forward", () => {
    expect(series("2026-03-16T08:00:00Z", "weekly", 3, PRAGUE, 3)).toEqual([
      "2026-03-16T08:00:00.000Z",
      "2026-04-06T07:00:00.000Z",
      "2026-04-27T07:00:00.000Z",
    ]);
    const weekday = new Intl.DateTimeFormat("en-US", { timeZone: PRAGUE, weekday: "short", hour: "2-digit", hourCycle: "h23" });
    expect(series("2026-03-16T08:00:00Z", "weekly", 3, PRAGUE, 3).map((d) => weekday.format(at(d!)))).toEqual([
      "Mon, 09",
      "Mon, 09",
      "Mon, 09",
    ]);
  });

  test("in UTC nothing shifts", () => {
    expect(series("2026-03-28T09:00:00Z", "daily", 3, "UTC")).toEqual([
      "2026-03-28T09:00:00.000Z",
      "2026-03-29T09:00:00.000Z",
      "2026-03-30T09:00:00.000Z",
    ]);
    expect(series("2026-01-31T12:00:00Z", "monthly", 2, "UTC")).toEqual(["2026-01-31T12:00:00.000Z", "2026-02-28T12:00:00.000Z"]);
  });

  test("Asia/Kolkata (+05:30): 09:00 IST is 03:30 UTC every day, and 02:00 IST is the previous UTC day", () => {
    expect(series("2026-03-28T03:30:00Z", "daily", 2, "Asia/Kolkata")).toEqual([
      "2026-03-28T03:30:00.000Z",
      "2026-03-29T03:30:00.000Z",
    ]);
    expect(iso(addRecurrenceSteps(at("2026-01-30T20:30:00Z"), "monthly", 1, "Asia/Kolkata"))).toBe("2026-02-27T20:30:00.000Z");
  });

  test("Australia/Adelaide (+10:30/+09:30): 09:00 local across the end and start of daylight time", () => {
    expect(series("2026-04-03T22:30:00Z", "daily", 2, "Australia/Adelaide")).toEqual([
      "2026-04-03T22:30:00.000Z",
      "2026-04-04T23:30:00.000Z",
    ]);
    // 02:30 does not exist on 2026-10-04: it becomes 03:30 ACDT.
    expect(
      series("2026-10-02T17:00:00Z", "daily", 3, "Australia/Adelaide").map((d) => local(at(d!), "Australia/Adelaide")),
    ).toEqual(["2026-10-03 02:30", "2026-10-04 03:30", "2026-10-05 02:30"]);
  });
});

describe("nextOccurrence", () => {
  const start = at("2026-01-31T08:00:00Z"); // 09:00 Prague

  test("scheduled: each occurrence counts from the series start, so monthly month ends do not drift", () => {
    const monthly = rule({ frequency: "monthly" });
    const due: string[] = [];
    let current = { occurrence: 1, seriesStartAt: start, completedAt: null };
    for (let i = 0; i < 3; i++) {
      const next = nextOccurrence(monthly, current, PRAGUE);
      due.push(local(next!.dueAt, PRAGUE));
      expect(next!.seriesStartAt).toEqual(start);
      current = { occurrence: next!.occurrence, seriesStartAt: next!.seriesStartAt, completedAt: null };
    }
    expect(due).toEqual(["2026-02-28 09:00", "2026-03-31 09:00", "2026-04-30 09:00"]);
    expect(current.occurrence).toBe(4);
  });

  test("scheduled: completing late does not move the next due date", () => {
    const next = nextOccurrence(
      rule({ frequency: "weekly", interval: 3 }),
      { occurrence: 1, seriesStartAt: at("2026-03-16T08:00:00Z"), completedAt: at("2026-03-30T15:00:00Z") },
      PRAGUE,
    );
    expect(next).toEqual({ occurrence: 2, dueAt: at("2026-04-06T07:00:00Z"), seriesStartAt: at("2026-03-16T08:00:00Z") });
  });

  test("count: the series stops after occurrence `count`", () => {
    const counted = rule({ count: 3 });
    expect(nextOccurrence(counted, { occurrence: 2, seriesStartAt: start, completedAt: null }, PRAGUE)).toEqual({
      occurrence: 3,
      dueAt: at("2026-02-02T08:00:00Z"),
      seriesStartAt: start,
    });
    expect(nextOccurrence(counted, { occurrence: 3, seriesStartAt: start, completedAt: null }, PRAGUE)).toBeNull();
    expect(nextOccurrence(rule({ count: 1 }), { occurrence: 1, seriesStartAt: start, completedAt: null }, PRAGUE)).toBeNull();
  });

  test("until: Tokyo (ahead of UTC) compares local dates, not UTC dates", () => {
    const tokyo = "Asia/Tokyo";
    const until = rule({ until: "2026-05-10" });
    // 08:30 JST on the until date is 23:30 UTC the day before: allowed.
    const morning = { occurrence: 1, seriesStartAt: at("2026-05-08T23:30:00Z"), completedAt: null };
    expect(iso(nextOccurrence(until, morning, tokyo)?.dueAt)).toBe("2026-05-09T23:30:00.000Z");
    // 08:30 JST the day after is still 2026-05-10 in UTC, but locally after the until date: the series ends.
    expect(nextOccurrence(until, { ...morning, occurrence: 2 }, tokyo)).toBeNull();
    // 23:30 JST on the until date is allowed, 23:30 JST the day after is not.
    const night = { occurrence: 1, seriesStartAt: at("2026-05-09T14:30:00Z"), completedAt: null };
    expect(local(nextOccurrence(until, night, tokyo)!.dueAt, tokyo)).toBe("2026-05-10 23:30");
    expect(nextOccurrence(until, { ...night, occurrence: 2 }, tokyo)).toBeNull();
  });

  test("until: Los Angeles (behind UTC) allows 23:30 local on the until date, the next UTC day", () => {
    const la = "America/Los_Angeles";
    const current = { occurrence: 1, seriesStartAt: at("2026-05-09T06:30:00Z"), completedAt: null };
    const next = nextOccurrence(rule({ until: "2026-05-09" }), current, la);
    expect(iso(next?.dueAt)).toBe("2026-05-10T06:30:00.000Z");
    expect(local(next!.dueAt, la)).toBe("2026-05-09 23:30");
    expect(nextOccurrence(rule({ until: "2026-05-09" }), { ...current, occurrence: 2 }, la)).toBeNull();
  });

  test("until: Kolkata (+05:30) allows 02:00 local on the until date, the previous UTC day", () => {
    const current = { occurrence: 1, seriesStartAt: at("2026-05-08T20:30:00Z"), completedAt: null };
    expect(iso(nextOccurrence(rule({ until: "2026-05-10" }), current, "Asia/Kolkata")?.dueAt)).toBe("2026-05-09T20:30:00.000Z");
    expect(nextOccurrence(rule({ until: "2026-05-09" }), current, "Asia/Kolkata")).toBeNull();
  });

  test("completion: completed late, the next is due one step after completion at the completion's local time", () => {
    const daily = rule({ anchor: "completion", interval: 2 });
    const completedAt = at("2026-03-12T17:45:00Z"); // 18:45 Prague, two days after it was due
    const next = nextOccurrence(daily, { occurrence: 1, seriesStartAt: at("2026-03-10T08:00:00Z"), completedAt }, PRAGUE);
    expect(next).toEqual({ occurrence: 2, dueAt: at("2026-03-14T17:45:00Z"), seriesStartAt: at("2026-03-14T17:45:00Z") });
  });

  test("completion: the completion's local time of day survives the spring-forward", () => {
    const completedAt = at("2026-03-28T17:45:00Z"); // 18:45 CET
    const next = nextOccurrence(
      rule({ anchor: "completion" }),
      { occurrence: 4, seriesStartAt: at("2026-03-27T08:00:00Z"), completedAt },
      PRAGUE,
    );
    expect(iso(next?.dueAt)).toBe("2026-03-29T16:45:00.000Z");
    expect(local(next!.dueAt, PRAGUE)).toBe("2026-03-29 18:45");
    expect(next?.occurrence).toBe(5);
  });

  test("completion, monthly: keeps the completion's day of month, clamped to the month end", () => {
    const monthly = rule({ frequency: "monthly", anchor: "completion" });
    const due = (completed: string) =>
      local(nextOccurrence(monthly, { occurrence: 1, seriesStartAt: start, completedAt: at(completed) }, PRAGUE)!.dueAt, PRAGUE);
    expect(due("2026-01-31T10:00:00Z")).toBe("2026-02-28 11:00");
    expect(due("2026-03-15T10:00:00Z")).toBe("2026-04-15 11:00");
  });

  test("completion: not determinable until the current occurrence is completed; count and until still apply", () => {
    const completion = rule({ anchor: "completion", count: 2, until: "2026-03-20" });
    expect(nextOccurrence(completion, { occurrence: 1, seriesStartAt: start, completedAt: null }, PRAGUE)).toBeNull();
    expect(
      nextOccurrence(completion, { occurrence: 2, seriesStartAt: start, completedAt: at("2026-03-01T10:00:00Z") }, PRAGUE),
    ).toBeNull();
    expect(
      nextOccurrence(completion, { occurrence: 1, seriesStartAt: start, completedAt: at("2026-03-20T10:00:00Z") }, PRAGUE),
    ).toBeNull();
  });
});
