import { describe, expect, it } from "vitest";
import { shortcutOf } from "./shortcut-keys";

/** A stand-in for the focused element: matches the selectors it is told to. */
function element(...matches: string[]) {
  return { closest: (selector: string) => (matches.some((part) => selector.includes(part)) ? {} : null) };
}

const press = (key: string, extra: Partial<Parameters<typeof shortcutOf>[0]> = {}) =>
  shortcutOf({ key, ctrlKey: false, altKey: false, metaKey: false, shiftKey: false, target: element(), ...extra });

describe("shortcutOf", () => {
  it("maps the single keys to their actions", () => {
    expect(["q", "/", "j", "k", "x", "e", "Enter"].map((key) => press(key))).toEqual([
      "quickAdd",
      "search",
      "next",
      "previous",
      "toggle",
      "open",
      "open",
    ]);
    expect(press("?", { shiftKey: true })).toBe("help");
    expect(press("a")).toBeNull();
  });

  it("leaves keys typed into a field alone", () => {
    for (const field of ["input:not(", "textarea", "select", "[contenteditable]"]) {
      expect(press("j", { target: element(field) }), field).toBeNull();
    }
  });

  it("leaves keys held with Ctrl, Alt or ⌘ alone, and Shift but for ?", () => {
    expect(press("q", { ctrlKey: true })).toBeNull();
    expect(press("x", { altKey: true })).toBeNull();
    expect(press("e", { metaKey: true })).toBeNull();
    expect(press("J", { shiftKey: true })).toBeNull();
  });

  it("lets a focused link or button handle Enter itself, but not the letters", () => {
    expect(press("Enter", { target: element("a[href]") })).toBeNull();
    expect(press("Enter", { target: element("button") })).toBeNull();
    expect(press("e", { target: element("a[href]") })).toBe("open");
  });
});
