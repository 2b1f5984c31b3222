import { describe, expect, test } from "vitest";
import { datesBetween, hourSlots, secondsBetween, secondsPerDate, tally, type UsageRecord } from "./tally";

const PRAGUE = "Europe/Prague";
const KOLKATA = "Asia/Kolkata";

function record(
  app: string,
  startedAt: string,
  endedAt: string,
  seconds: number,
  category: UsageRecord["category"] = "social",
): UsageRecord {
  return { app, category, seconds, startedAt: new Date(startedAt), endedAt: new Date(endedAt) };
}

describe("hour slots of local days", () => {
  test("an ordinary day has 24 slots from local midnight, whatever the zone's offset", () => {
    const slots = hourSlots("2027-06-10", "2027-06-10", KOLKATA);
    expect(slots).toHaveLength(24);
    expect(slots[0]).toMatchObject({ date: "2027-06-10", hour: 0, startsAt: new Date("2027-06-09T18:30:00Z") });
    expect(slots.map((slot) => slot.hour)).toEqual([...Array(24).keys()]);
  });

  test("the day the clocks go forward has 23 slots and no 02:00; the day they go back has 25 with 02:00 twice", () => {
    const spring = hourSlots("2027-03-28", "2027-03-28", PRAGUE);
    expect(spring).toHaveLength(23);
    expect(spring.map((slot) => slot.hour)).toEqual([0, 1, ...Array.from({ length: 21 }, (_, i) => i + 3)]);
    const autumn = hourSlots("2027-10-31", "2027-10-31", PRAGUE);
    expect(autumn).toHaveLength(25);
    expect(autumn.map((slot) => slot.hour).slice(0, 5)).toEqual([0, 1, 2, 2, 3]);
    expect(autumn.at(-1)!.endsAt).toEqual(new Date("2027-10-31T23:00:00Z"));
  });

  test("datesBetween includes both ends", () => {
    expect(datesBetween("2027-02-27", "2027-03-01")).toEqual(["2027-02-27", "2027-02-28", "2027-03-01"]);
    expect(datesBetween("2027-03-01", "2027-03-01")).toEqual(["2027-03-01"]);
  });
});

describe("splitting a record's seconds", () => {
  test("seconds are spread evenly over the range, and the shares of any split add up exactly", () => {
    const uneven = record("Chat", "2027-06-10T10:00:00Z", "2027-06-10T10:00:03Z", 2);
    const thirds = [0, 1, 2, 3].map((s) => new Date(`2027-06-10T10:00:0${s}Z`));
    const shares = thirds.slice(1).map((end, i) => secondsBetween(uneven, thirds[i]!, end));
    expect(shares.reduce((a, b) => a + b)).toBe(2);
    expect(secondsBetween(uneven, new Date("2027-06-10T09:00:00Z"), new Date("2027-06-10T11:00:00Z"))).toBe(2);
    expect(secondsBetween(uneven, new Date("2027-06-10T11:00:00Z"), new Date("2027-06-10T12:00:00Z"))).toBe(0);
  });

  test("a zero-length record holds no time", () => {
    const instant = record("Chat", "2027-06-10T10:00:00Z", "2027-06-10T10:00:00Z", 0);
    expect(tally([instant], hourSlots("2027-06-10", "2027-06-10", "UTC")).totalSeconds).toBe(0);
  });
});

describe("tally", () => {
  test("a record across local midnight is split between the two days in the user's zone", () => {
    // 23:30 to 00:30 in Prague (CEST, UTC+2): 21:30 to 22:30 UTC.
    const late = record("Video", "2027-06-10T21:30:00Z", "2027-06-10T22:30:00Z", 3600, "video");
    const slots = hourSlots("2027-06-10", "2027-06-11", PRAGUE);
    const counted = tally([late], slots);
    expect(secondsPerDate(slots, counted.slotSeconds)).toEqual([
      { date: "2027-06-10", seconds: 1800 },
      { date: "2027-06-11", seconds: 1800 },
    ]);
    // The same record in UTC falls on one day.
    const utc = hourSlots("2027-06-10", "2027-06-11", "UTC");
    expect(secondsPerDate(utc, tally([late], utc).slotSeconds)).toEqual([
      { date: "2027-06-10", seconds: 3600 },
      { date: "2027-06-11", seconds: 0 },
    ]);
  });

  test("time outside the slots is not counted; categories and apps are totalled, most first", () => {
    const slots = hourSlots("2027-06-10", "2027-06-10", "UTC");
    const counted = tally(
      [
        record("Reader", "2027-06-09T23:00:00Z", "2027-06-10T01:00:00Z", 1200, "reading"),
        record("Chat", "2027-06-10T08:00:00Z", "2027-06-10T09:00:00Z", 900, "communication"),
        record("Chat", "2027-06-10T12:00:00Z", "2027-06-10T13:00:00Z", 900, "social"),
        record("Chat", "2027-06-10T14:00:00Z", "2027-06-10T15:00:00Z", 600, "social"),
      ],
      slots,
    );
    expect(counted.totalSeconds).toBe(600 + 2400);
    expect(counted.slotSeconds[0]).toBe(600);
    expect(counted.categories).toEqual([
      { category: "social", seconds: 1500 },
      { category: "communication", seconds: 900 },
      { category: "reading", seconds: 600 },
    ]);
    expect(counted.apps).toEqual([
      { app: "Chat", category: "social", seconds: 2400 },
      { app: "Reader", category: "reading", seconds: 600 },
    ]);
  });

  test("on the 25-hour day both 02:00 slots get their own time", () => {
    const slots = hourSlots("2027-10-31", "2027-10-31", PRAGUE);
    // 02:00-03:00 CEST is 00:00-01:00 UTC; 02:00-03:00 CET is 01:00-02:00 UTC.
    const counted = tally([record("Game", "2027-10-31T00:00:00Z", "2027-10-31T02:00:00Z", 7200, "games")], slots);
    expect(counted.slotSeconds.slice(2, 4)).toEqual([3600, 3600]);
    expect(counted.totalSeconds).toBe(7200);
  });
});
