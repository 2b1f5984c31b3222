import { describe, expect, test } from "vitest";
import { addDays, isoWeekday, localDateOf, startOfLocalDay } from "./local-dates";

const PRAGUE = "Europe/Prague";
const NEW_YORK = "America/New_York";
const TOKYO = "Asia/Tokyo";
const at = (iso: string) => new Date(iso);

describe("local calendar dates", () => {
  test("the local date depends on the user's zone, not the process's", () => {
    expect(localDateOf(at("2027-03-27T23:30:00Z"), PRAGUE)).toBe("2027-03-28");
    expect(localDateOf(at("2027-03-27T23:30:00Z"), NEW_YORK)).toBe("2027-03-27");
    expect(localDateOf(at("2027-03-27T15:30:00Z"), TOKYO)).toBe("2027-03-28");
  });

  test("addDays and isoWeekday follow the calendar (months, leap years)", () => {
    expect(addDays("2028-02-28", 1)).toBe("2028-02-29");
    expect(addDays("2027-03-01", -1)).toBe("2027-02-28");
    expect(addDays("2027-12-31", 1)).toBe("2028-01-01");
    expect(isoWeekday("2027-03-29")).toBe(1); // a Monday
    expect(isoWeekday("2027-03-28")).toBe(7); // a Sunday
  });

  test("a local day that loses an hour to DST is 23 hours long", () => {
    const start = startOfLocalDay("2027-03-28", PRAGUE);
    const end = startOfLocalDay("2027-03-29", PRAGUE);
    expect(start.toISOString()).toBe("2027-03-27T23:00:00.000Z");
    expect(end.getTime() - start.getTime()).toBe(23 * 3600_000);
  });
});
