/*
 * Which single-key shortcut a key press means (components/shortcuts/keyboard-shortcuts.tsx acts on it). A key
 * typed into a field is text, not a shortcut, and so is any key held with Ctrl, Alt or ⌘ (the browser's and the
 * system's own shortcuts); Shift only where the key needs it (`?`).
 */

export type ShortcutAction = "quickAdd" | "search" | "next" | "previous" | "toggle" | "open" | "help";

const KEYS: Record<string, ShortcutAction> = {
  q: "quickAdd",
  "/": "search",
  j: "next",
  k: "previous",
  x: "toggle",
  e: "open",
  Enter: "open",
  "?": "help",
};

/** The shortcuts as the help dialog lists them, in this order, with the keys that trigger each. */
export const SHORTCUT_LIST: readonly { action: ShortcutAction; keys: readonly string[] }[] = [
  { action: "quickAdd", keys: ["q"] },
  { action: "search", keys: ["/"] },
  { action: "next", keys: ["j"] },
  { action: "previous", keys: ["k"] },
  { action: "toggle", keys: ["x"] },
  { action: "open", keys: ["e", "Enter"] },
  { action: "help", keys: ["?"] },
];

/** Elements that take typing (not a checkbox), or act on Enter themselves (a link, a button). */
const TYPING =
  "input:not([type='checkbox'], [type='radio'], [type='button'], [type='submit'], [type='reset']), textarea, select, " +
  "[contenteditable]:not([contenteditable='false'])";
const ACTS_ON_ENTER = "a[href], button, summary, [role='button'], [role='link'], [role='option'], [role='combobox']";

interface KeyPress {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  /** The element the key was pressed in (the focused one). */
  target: { closest(selector: string): unknown } | null;
}

/** The shortcut a key press means, or null when it is not one (or is typing). */
export function shortcutOf(press: KeyPress): ShortcutAction | null {
  if (press.ctrlKey || press.altKey || press.metaKey) return null;
  const action = KEYS[press.key];
  if (!action) return null;
  if (press.shiftKey && press.key !== "?") return null;
  if (press.target?.closest(TYPING)) return null;
  if (press.key === "Enter" && press.target?.closest(ACTS_ON_ENTER)) return null;
  return action;
}
