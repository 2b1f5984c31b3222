/**
 * Text helpers of the quick-add parser. Every transformation keeps the length of the text in UTF-16 code units,
 * so that an offset found in the transformed text is the same offset in what the user typed.
 */

const FOLDED = new Map<string, string>([
  ["\u2019", "'"], // ’ right single quotation mark (Ukrainian apostrophe as phones type it)
  ["\u02bc", "'"], // ʼ modifier letter apostrophe
  ["\u2018", "'"],
  ["`", "'"],
  ["\u05f3", "'"], // ׳ Hebrew geresh
  ["\u05f4", '"'], // ״ Hebrew gershayim
  ["\u05be", "-"], // ־ Hebrew maqaf
  ["\u2010", "-"],
  ["\u2011", "-"],
  ["\u2013", "-"],
  ["\u2014", "-"],
  ["\u00a0", " "],
  ["\u202f", " "],
]);

/** One code unit, lower-cased and without its diacritics (á → a, ё → е, ї → і), or unchanged when that is not one unit. */
function foldUnit(unit: string): string {
  const mapped = FOLDED.get(unit);
  if (mapped) return mapped;
  const lower = unit.toLowerCase();
  if (lower.length !== 1) return unit;
  if (lower.charCodeAt(0) < 0x80) return lower;
  const base = lower.normalize("NFD")[0] ?? lower;
  return base.length === 1 ? base : lower;
}

/**
 * The text as the grammar matches it: lower case, diacritics dropped (people type "v patek" as often as
 * "v pátek"), apostrophes, dashes and the Hebrew maqaf unified. Same length as `text`.
 */
export function fold(text: string): string {
  let folded = "";
  for (let index = 0; index < text.length; index++) folded += foldUnit(text[index]!);
  return folded;
}

/** A grammar word or pattern in folded form: only its non-ASCII letters change (ASCII regex syntax stays as written). */
export function foldPattern(source: string): string {
  let folded = "";
  for (const unit of source) folded += unit.charCodeAt(0) < 0x80 ? unit : foldUnit(unit);
  return folded;
}

/** Alternatives as a regex group, longest first (so that "pondělí" is tried before "po"), in folded form. */
export function alternatives(words: readonly string[]): string {
  const unique = [...new Set(words.map((word) => foldPattern(word)))];
  return `(?:${unique.sort((a, b) => b.length - a.length).join("|")})`;
}

/** No letter or digit just before. */
export const START = "(?<![\\p{L}\\p{N}_])";
/** No letter or digit just after. */
export const END = "(?![\\p{L}\\p{N}_])";

/** `text` with the ranges replaced by spaces (same length), so that later rules do not match them again. */
export function masked(text: string, ranges: readonly { start: number; end: number }[]): string {
  let out = text;
  for (const { start, end } of ranges) out = out.slice(0, start) + " ".repeat(end - start) + out.slice(end);
  return out;
}

export function overlaps(a: { start: number; end: number }, b: { start: number; end: number }): boolean {
  return a.start < b.end && b.start < a.end;
}
