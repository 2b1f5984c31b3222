import { describe, expect, test } from "vitest";
import { pagePattern } from "./access-log";

describe("pagePattern", () => {
  test("replaces the values in a page path (ids, numbers, tokens), never the names of places", () => {
    expect(pagePattern("/en/tasks/6f1d2c3b-8a9e-4f00-9c1d-2b3a4c5d6e7f")).toBe("/en/tasks/:value");
    expect(pagePattern("/invite/Xk3_9aLq0-pR7sT2uV4wY6zA8bC")).toBe("/invite/:value");
    expect(pagePattern("/cs/goals/42/plan")).toBe("/cs/goals/:value/plan");
    expect(pagePattern("/he/settings/notifications")).toBe("/he/settings/notifications");
    expect(pagePattern("/")).toBe("/");
  });
});
