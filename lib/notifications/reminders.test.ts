import { describe, expect, test } from "vitest";
import { CATCH_UP_MS, reminderText, reminderTimes, withinCatchUp } from "./reminders";

const at = (iso: string) => new Date(iso);
const isoTimes = (times: { kind: string; at: Date }[]) => times.map(({ kind, at: time }) => [kind, time.toISOString()]);

describe("reminderTimes", () => {
  test("remind_before minutes before the due time, then the due time itself", () => {
    expect(isoTimes(reminderTimes(at("2027-03-28T09:00:00Z"), { remind_before: 30, on_due: true }))).toEqual([
      ["before", "2027-03-28T08:30:00.000Z"],
      ["due", "2027-03-28T09:00:00.000Z"],
    ]);
  });

  test("minutes are elapsed time: across a DST change, 120 minutes before 04:00 CEST is 01:00 CET", () => {
    // Prague 2027-03-28 04:00 CEST = 02:00 UTC; two real hours earlier is 00:00 UTC = 01:00 CET.
    expect(isoTimes(reminderTimes(at("2027-03-28T02:00:00Z"), { remind_before: 120, on_due: false }))).toEqual([
      ["before", "2027-03-28T00:00:00.000Z"],
    ]);
  });

  test("remind_before 0 is the due time: with on_due as well, one reminder, not two", () => {
    expect(isoTimes(reminderTimes(at("2027-03-28T09:00:00Z"), { remind_before: 0, on_due: true }))).toEqual([
      ["due", "2027-03-28T09:00:00.000Z"],
    ]);
    expect(isoTimes(reminderTimes(at("2027-03-28T09:00:00Z"), { remind_before: 0, on_due: false }))).toEqual([
      ["before", "2027-03-28T09:00:00.000Z"],
    ]);
  });

  test("null remind_before and on_due false: nothing; 4 weeks is the furthest ahead", () => {
    expect(reminderTimes(at("2027-03-28T09:00:00Z"), { remind_before: null, on_due: false })).toEqual([]);
    expect(isoTimes(reminderTimes(at("2027-03-29T00:00:00Z"), { remind_before: 40_320, on_due: false }))).toEqual([
      ["before", "2027-03-01T00:00:00.000Z"],
    ]);
  });
});

describe("withinCatchUp", () => {
  test("not before its time; up to 6 hours after it; not later", () => {
    const time = at("2027-03-28T09:00:00Z");
    expect(withinCatchUp(time, at("2027-03-28T08:59:59Z"))).toBe(false);
    expect(withinCatchUp(time, time)).toBe(true);
    expect(withinCatchUp(time, new Date(time.getTime() + CATCH_UP_MS))).toBe(true);
    expect(withinCatchUp(time, new Date(time.getTime() + CATCH_UP_MS + 1))).toBe(false);
  });
});

describe("reminderText", () => {
  const reminder = { kind: "before" as const, title: "Pay rent", dueAt: "2027-03-28T07:00:00.000Z" };

  test("shows the due time in the user's time zone, not the server's", () => {
    const prague = reminderText({ ...reminder, locale: "en", timeZone: "Europe/Prague" });
    expect(prague.title).toBe("Reminder: Pay rent");
    expect(prague.body).toMatch(/9:00/); // 07:00 UTC is 09:00 CEST
    const tokyo = reminderText({ ...reminder, locale: "en", timeZone: "Asia/Tokyo" });
    expect(tokyo.body).toMatch(/4:00/); // 16:00 JST, "4:00 PM"
  });

  test("in the user's language; an unknown locale falls back to English", () => {
    expect(reminderText({ ...reminder, locale: "cs", timeZone: "Europe/Prague" }).title).toBe("Připomínka: Pay rent");
    expect(reminderText({ ...reminder, kind: "due", locale: "ua", timeZone: "Europe/Kyiv" }).title).toBe(
      "Термін настав: Pay rent",
    );
    expect(reminderText({ ...reminder, locale: "he", timeZone: "Asia/Jerusalem" }).title).toBe("תזכורת: Pay rent");
    expect(reminderText({ ...reminder, locale: "ru", timeZone: "Europe/Moscow" }).body).toMatch(/^Срок: .*10:00/);
    expect(reminderText({ ...reminder, locale: "xx", timeZone: "UTC" }).title).toBe("Reminder: Pay rent");
  });
});
