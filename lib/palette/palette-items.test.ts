import { describe, expect, it } from "vitest";
import { filterItems } from "./palette-items";

const items = [
  { id: "tasks", label: "Úkoly" },
  { id: "board", label: "Nástěnka" },
  { id: "new", label: "Nový úkol" },
  { id: "ru", label: "Задачи" },
  { id: "he", label: "משימות" },
];

describe("filterItems", () => {
  it("keeps everything for an empty query", () => {
    expect(filterItems(items, "  ", "cs")).toHaveLength(items.length);
  });

  it("ignores case and accents, and wants every word", () => {
    expect(filterItems(items, "ukol", "cs").map(({ id }) => id)).toEqual(["tasks", "new"]);
    expect(filterItems(items, "UKOL nov", "cs").map(({ id }) => id)).toEqual(["new"]);
    expect(filterItems(items, "зад", "ru").map(({ id }) => id)).toEqual(["ru"]);
    expect(filterItems(items, "משימ", "he").map(({ id }) => id)).toEqual(["he"]);
    expect(filterItems(items, "xyz", "en")).toEqual([]);
  });
});
