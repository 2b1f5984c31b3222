import { describe, expect, test } from "vitest";
import { batchErrors, newRecords, overlaps, storedOverlapErrors } from "./rules";
import type { ReportedRecord } from "./schema";

const NOW = new Date("2027-06-10T12:00:00Z");

function item(id: string, startedAt: string, endedAt: string, fields: Partial<ReportedRecord> = {}): ReportedRecord {
  return { id, app: "Chat", category: "communication", seconds: 60, startedAt, endedAt, ...fields };
}

const pointers = (records: ReportedRecord[], stored: string[] = []) =>
  batchErrors(records, NOW, new Set(stored)).map((error) => error.pointer);

describe("batchErrors", () => {
  test("a sound batch has none", () => {
    expect(
      pointers([
        item("a", "2027-06-10T10:00:00Z", "2027-06-10T10:05:00Z"),
        item("b", "2027-06-10T10:05:00Z", "2027-06-10T10:10:00Z"),
      ]),
    ).toEqual([]);
  });

  test("endedAt before startedAt, a range over 24 hours, and seconds longer than the range", () => {
    const errors = batchErrors(
      [
        item("a", "2027-06-10T10:00:00Z", "2027-06-10T09:59:59Z"),
        item("b", "2027-06-08T10:00:00Z", "2027-06-09T10:00:01Z"),
        item("c", "2027-06-10T10:00:00Z", "2027-06-10T10:00:59.200Z", { seconds: 61 }),
        item("d", "2027-06-10T10:00:00Z", "2027-06-10T10:00:59.200Z", { seconds: 60, app: "Mail" }),
      ],
      NOW,
      new Set(),
    );
    expect(errors).toEqual([
      { in: "body", pointer: "/records/0/endedAt", detail: "must not be before startedAt" },
      { in: "body", pointer: "/records/1/endedAt", detail: "must be at most 24 hours after startedAt" },
      { in: "body", pointer: "/records/2/seconds", detail: "must not be more than the 60 seconds from startedAt to endedAt" },
    ]);
  });

  test("the future begins five minutes after the server's clock", () => {
    expect(pointers([item("a", "2027-06-10T12:00:00Z", "2027-06-10T12:05:00Z")])).toEqual([]);
    expect(pointers([item("a", "2027-06-10T12:00:00Z", "2027-06-10T12:05:01Z")])).toEqual(["/records/0/endedAt"]);
    expect(pointers([item("a", "2027-06-10T12:06:00Z", "2027-06-10T12:07:00Z")])).toEqual(["/records/0/startedAt"]);
  });

  test("an id twice in a batch is named at its second place", () => {
    const batch = [
      item("a", "2027-06-10T10:00:00Z", "2027-06-10T10:05:00Z"),
      item("a", "2027-06-10T11:00:00Z", "2027-06-10T11:05:00Z", { app: "Mail" }),
    ];
    expect(batchErrors(batch, NOW, new Set())).toEqual([
      { in: "body", pointer: "/records/1/id", detail: "repeats the id of /records/0" },
    ]);
  });

  test("overlapping records of the same app are refused; touching ones and other apps are fine", () => {
    const batch = [
      item("a", "2027-06-10T10:00:00Z", "2027-06-10T10:10:00Z"),
      item("b", "2027-06-10T10:10:00Z", "2027-06-10T10:20:00Z"),
      item("c", "2027-06-10T10:05:00Z", "2027-06-10T10:06:00Z", { app: "Music", category: "music" }),
      item("d", "2027-06-10T10:15:00Z", "2027-06-10T10:25:00Z"),
    ];
    expect(batchErrors(batch, NOW, new Set())).toEqual([
      { in: "body", pointer: "/records/3/startedAt", detail: "overlaps /records/1, a record of the same app" },
    ]);
  });

  test("records stored already are duplicates, not overlaps", () => {
    const batch = [
      item("a", "2027-06-10T10:00:00Z", "2027-06-10T10:10:00Z"),
      item("b", "2027-06-10T10:10:00Z", "2027-06-10T10:20:00Z"),
    ];
    expect(pointers([...batch, item("a", "2027-06-10T10:00:00Z", "2027-06-10T10:10:00Z")], ["a"])).toEqual(["/records/2/id"]);
    expect(pointers(batch, ["a", "b"])).toEqual([]);
    expect(newRecords(batch, new Set(["a"]))).toEqual([{ index: 1, record: batch[1] }]);
  });
});

describe("overlaps with stored records", () => {
  const stored = [
    { clientId: "old", app: "Chat", startedAt: new Date("2027-06-10T09:00:00Z"), endedAt: new Date("2027-06-10T10:00:00Z") },
  ];

  test("a new record of the same app inside a stored range is named with the stored id", () => {
    const fresh = [{ index: 4, record: item("new", "2027-06-10T09:59:00Z", "2027-06-10T10:01:00Z") }];
    expect(storedOverlapErrors(fresh, stored)).toEqual([
      {
        in: "body",
        pointer: "/records/4/startedAt",
        detail: 'overlaps the stored record "old" of the same app (2027-06-10T09:00:00.000Z to 2027-06-10T10:00:00.000Z)',
      },
    ]);
  });

  test("touching a stored range, or another app's, is fine", () => {
    const fresh = [
      { index: 0, record: item("x", "2027-06-10T10:00:00Z", "2027-06-10T10:01:00Z") },
      { index: 1, record: item("y", "2027-06-10T09:30:00Z", "2027-06-10T09:31:00Z", { app: "chat" }) },
    ];
    expect(storedOverlapErrors(fresh, stored)).toEqual([]);
    expect(
      overlaps(stored[0]!, {
        app: "Chat",
        startedAt: new Date("2027-06-10T08:00:00Z"),
        endedAt: new Date("2027-06-10T09:00:00Z"),
      }),
    ).toBe(false);
  });
});
