import type { Range } from "./parse";

/**
 * Undone ranges after an edit of the text: those before the edit stay, those after it move with the text, one
 * the edit touches is dropped (its words changed, so they may be read afresh).
 */
export function shiftRanges(ranges: readonly Range[], before: string, after: string): Range[] {
  let prefix = 0;
  while (prefix < before.length && prefix < after.length && before[prefix] === after[prefix]) prefix++;
  let suffix = 0;
  while (
    suffix < before.length - prefix &&
    suffix < after.length - prefix &&
    before[before.length - 1 - suffix] === after[after.length - 1 - suffix]
  )
    suffix++;
  const editEnd = before.length - suffix;
  const delta = after.length - before.length;
  return ranges.flatMap((range) => {
    if (range.end <= prefix) return [range];
    if (range.start >= editEnd) return [{ start: range.start + delta, end: range.end + delta }];
    return [];
  });
}
