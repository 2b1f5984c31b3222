import { describe, expect, test } from "vitest";
import { shiftRanges } from "./literal";

describe("undone ranges follow the text as it is edited", () => {
  const undone = [{ start: 5, end: 13 }]; // "Tomorrow" in "Read Tomorrow by Friday"
  test("typing after the range leaves it where it is", () => {
    expect(shiftRanges(undone, "Read Tomorrow by Friday", "Read Tomorrow by Friday!")).toEqual(undone);
  });
  test("typing before the range moves it by what was typed", () => {
    expect(shiftRanges(undone, "Read Tomorrow by Friday", "Please read Tomorrow by Friday")).toEqual([{ start: 12, end: 20 }]);
  });
  test("deleting before the range moves it back", () => {
    expect(shiftRanges(undone, "Read Tomorrow by Friday", "Rd Tomorrow by Friday")).toEqual([{ start: 3, end: 11 }]);
  });
  test("an edit inside the range drops it: the changed words are read afresh", () => {
    expect(shiftRanges(undone, "Read Tomorrow by Friday", "Read Tomorow by Friday")).toEqual([]);
  });
  test("typing right at its end keeps it (the range ends before the edit)", () => {
    expect(shiftRanges(undone, "Read Tomorrow", "Read Tomorrow at 9")).toEqual(undone);
  });
});
