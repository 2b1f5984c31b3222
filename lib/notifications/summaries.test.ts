import { describe, expect, test } from "vitest";
import { dailySummaryDue, weeklyReportDue, weeklyWindowOpen } from "./summaries";

const PRAGUE = "Europe/Prague";
const NEW_YORK = "America/New_York";
const TOKYO = "Asia/Tokyo";
const at = (iso: string) => new Date(iso);
/** The local "YYYY-MM-DD HH:MM" a user in `timeZone` sees, read independently of the module under test. */
const local = (date: Date, timeZone: string) =>
  new Intl.DateTimeFormat("sv-SE", { timeZone, dateStyle: "short", timeStyle: "short" }).format(date);

describe("dailySummaryDue", () => {
  test("due from 07:00 on the wall clock, in winter and in summer time (the UTC hour moves, the local one does not)", () => {
    // Saturday 2027-03-27, CET (UTC+1): 07:00 local is 06:00 UTC.
    expect(dailySummaryDue(at("2027-03-27T05:59:00Z"), PRAGUE, "07:00", null)).toBeNull();
    expect(dailySummaryDue(at("2027-03-27T06:00:00Z"), PRAGUE, "07:00", null)?.date).toBe("2027-03-27");
    // Sunday 2027-03-28, after the change to CEST (UTC+2): 07:00 local is 05:00 UTC.
    expect(dailySummaryDue(at("2027-03-28T04:59:00Z"), PRAGUE, "07:00", "2027-03-27")).toBeNull();
    const summer = dailySummaryDue(at("2027-03-28T05:00:00Z"), PRAGUE, "07:00", "2027-03-27");
    expect(summer?.date).toBe("2027-03-28");
    expect(local(summer!.dayStart, PRAGUE)).toBe("2027-03-28 00:00");
    expect(local(summer!.dayEnd, PRAGUE)).toBe("2027-03-29 00:00");
  });

  test("once per local date: not again the same day, whatever the hour", () => {
    expect(dailySummaryDue(at("2027-03-27T06:01:00Z"), PRAGUE, "07:00", "2027-03-27")).toBeNull();
    expect(dailySummaryDue(at("2027-03-27T22:30:00Z"), PRAGUE, "07:00", "2027-03-27")).toBeNull(); // 23:30 local
  });

  test("catch-up: missed while down, it goes out later that same local day, never on the next", () => {
    // The service was down at 07:00 and comes back at 15:00 local: due now, for today.
    expect(dailySummaryDue(at("2027-03-27T14:00:00Z"), PRAGUE, "07:00", "2027-03-26")?.date).toBe("2027-03-27");
    // It stayed down all day: at 00:30 on the next day, yesterday's is gone and today's waits for 07:00.
    expect(dailySummaryDue(at("2027-03-27T23:30:00Z"), PRAGUE, "07:00", "2027-03-26")).toBeNull();
  });

  test("a time the spring-forward gap skips goes out as the clock jumps past it; the repeated autumn hour sends once", () => {
    // 2027-03-28 in Prague: 02:00 → 03:00. 02:30 never shows; at 03:00 CEST (01:00 UTC) it is due.
    expect(dailySummaryDue(at("2027-03-28T00:59:00Z"), PRAGUE, "02:30", "2027-03-27")).toBeNull();
    expect(dailySummaryDue(at("2027-03-28T01:00:00Z"), PRAGUE, "02:30", "2027-03-27")?.date).toBe("2027-03-28");
    // 2027-10-31 in Prague: 03:00 → 02:00. 02:30 shows twice: the first one (00:30 UTC) sends, the second does not.
    expect(dailySummaryDue(at("2027-10-31T00:30:00Z"), PRAGUE, "02:30", "2027-10-30")?.date).toBe("2027-10-31");
    expect(dailySummaryDue(at("2027-10-31T01:30:00Z"), PRAGUE, "02:30", "2027-10-31")).toBeNull();
  });

  test("each user by their own zone: 07:00 in Tokyo is the previous UTC evening", () => {
    expect(dailySummaryDue(at("2027-03-27T21:59:00Z"), TOKYO, "07:00", null)).toBeNull();
    expect(dailySummaryDue(at("2027-03-27T22:00:00Z"), TOKYO, "07:00", null)?.date).toBe("2027-03-28");
  });
});

describe("weeklyReportDue", () => {
  test("Monday 08:00 local reports on the week before (Monday to Sunday)", () => {
    // Monday 2027-03-29 in New York (EDT, UTC-4): 08:00 local is 12:00 UTC.
    expect(weeklyReportDue(at("2027-03-29T11:59:00Z"), NEW_YORK, null)).toBeNull();
    const slot = weeklyReportDue(at("2027-03-29T12:00:00Z"), NEW_YORK, null);
    expect(slot).toMatchObject({ weekStart: "2027-03-22", weekEnd: "2027-03-28" });
    expect(local(slot!.periodStart, NEW_YORK)).toBe("2027-03-22 00:00");
    expect(local(slot!.periodEnd, NEW_YORK)).toBe("2027-03-29 00:00");
  });

  test("across DST: Monday after Prague's spring change, 08:00 CEST is 06:00 UTC, and the week is 167 hours", () => {
    expect(weeklyReportDue(at("2027-03-29T05:59:00Z"), PRAGUE, null)).toBeNull();
    const slot = weeklyReportDue(at("2027-03-29T06:00:00Z"), PRAGUE, null);
    expect(slot?.weekStart).toBe("2027-03-22");
    expect(slot!.periodEnd.getTime() - slot!.periodStart.getTime()).toBe(167 * 3600_000);
  });

  test("once per week; catch-up later that Monday only; other days never", () => {
    expect(weeklyReportDue(at("2027-03-29T20:00:00Z"), NEW_YORK, "2027-03-22")).toBeNull();
    expect(weeklyReportDue(at("2027-03-29T20:00:00Z"), NEW_YORK, "2027-03-15")?.weekStart).toBe("2027-03-22");
    expect(weeklyReportDue(at("2027-03-30T13:00:00Z"), NEW_YORK, null)).toBeNull(); // Tuesday
    expect(weeklyReportDue(at("2027-03-28T13:00:00Z"), NEW_YORK, null)).toBeNull(); // Sunday
    // Sunday evening in New York is already Monday morning in Tokyo.
    expect(weeklyReportDue(at("2027-03-28T23:00:00Z"), TOKYO, null)?.weekStart).toBe("2027-03-22");
  });
});

describe("weeklyWindowOpen", () => {
  test("open exactly while it is Monday 08:00 or later somewhere (Sunday 18:00 to Tuesday 12:00 UTC)", () => {
    expect(weeklyWindowOpen(at("2027-03-28T17:59:00Z"))).toBe(false);
    expect(weeklyWindowOpen(at("2027-03-28T18:00:00Z"))).toBe(true); // Monday 08:00 in Kiritimati (UTC+14)
    expect(weeklyWindowOpen(at("2027-03-29T06:00:00Z"))).toBe(true);
    expect(weeklyWindowOpen(at("2027-03-30T11:59:00Z"))).toBe(true); // Monday 23:59 at UTC−12
    expect(weeklyWindowOpen(at("2027-03-30T12:00:00Z"))).toBe(false);
    expect(weeklyWindowOpen(at("2027-04-01T09:00:00Z"))).toBe(false);
  });

  test("agrees with weeklyReportDue: whenever a report is due in some zone, the window is open", () => {
    const zones = ["Pacific/Kiritimati", "Asia/Tokyo", PRAGUE, "UTC", NEW_YORK, "Pacific/Pago_Pago", "Etc/GMT+12"];
    for (let minutes = 0; minutes < 8 * 24 * 60; minutes += 30) {
      const now = new Date(Date.parse("2027-03-27T00:00:00Z") + minutes * 60_000);
      if (zones.some((zone) => weeklyReportDue(now, zone, null) !== null))
        expect(weeklyWindowOpen(now), now.toISOString()).toBe(true);
    }
  });
});
