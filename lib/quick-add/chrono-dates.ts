/**
 * chrono-node (a maintained natural-language date parser) for the languages it has: English, Russian and
 * Ukrainian. Its results are turned into the grammar's hits (grammar.ts), so that the rest of quick add does not
 * know which parser found a date. chrono works with a fixed UTC offset; only the local date and clock time are
 * taken from it, and parse.ts places them in the user's IANA zone (so a date across a DST change keeps its time).
 */
import { en, ru, uk, type Chrono, type ParsedComponents } from "chrono-node";
import type { Locale } from "../i18n/locales";
import { comingWeekday, type ClockTime, type LocalDate } from "./calendar";
import type { DateHit, Grammar } from "./grammar";
import { fold } from "./text";

/** Which chrono speaks each language; null where quick add's own grammar does it all (Czech, Hebrew). */
function chronoFor(locale: Locale, monthFirst: boolean): Chrono | null {
  switch (locale) {
    case "en":
      return monthFirst ? en.casual : en.GB;
    case "ru":
      return ru.casual;
    case "ua":
      return uk.casual;
    default:
      return null;
  }
}

function localDate(components: ParsedComponents): LocalDate {
  return { year: components.get("year")!, month: components.get("month")!, day: components.get("day")! };
}

function clockTime(components: ParsedComponents): ClockTime {
  return { hour: components.get("hour") ?? 0, minute: components.get("minute") ?? 0 };
}

/**
 * Dates in `text` (as typed, with the parts already recognised blanked out) that chrono finds. `reference` is
 * now, and `offsetMinutes` the user's UTC offset now, so that chrono's "today" is the user's.
 */
export function chronoDates(
  text: string,
  locale: Locale,
  monthFirst: boolean,
  reference: Date,
  offsetMinutes: number,
  grammar: Grammar,
  today: LocalDate,
): DateHit[] {
  const chrono = chronoFor(locale, monthFirst);
  if (!chrono) return [];
  const results = chrono.parse(text, { instant: reference, timezone: offsetMinutes }, { forwardDate: true });
  const hits: DateHit[] = [];
  for (const result of results) {
    // chrono's word boundaries are ASCII ones: "квіт" (April) inside "квіти" (flowers) is no date.
    const [before, after] = [text[result.index - 1] ?? " ", text[result.index + result.text.length] ?? " "];
    if (/[\p{L}\p{N}]/u.test(before) || /[\p{L}\p{N}]/u.test(after)) continue;
    const components = result.start;
    // A zone written in the text ("21h" read as 21 plus zone "H"): people do not type zones; the grammar reads it.
    if (components.isCertain("timezoneOffset")) continue;
    const tags = result.tags();
    const hit: DateHit = { start: result.index, end: result.index + result.text.length, role: "due" };
    if (tags.has("result/relativeDateAndTime")) {
      hit.offsetMs = components.date().getTime() - reference.getTime();
      hits.push(hit);
      continue;
    }
    const hasDate = components.isCertain("day") || components.isCertain("weekday") || components.isCertain("month");
    if (hasDate) hit.date = localDate(components);
    // chrono moves "в среду в 14:30" said on a Wednesday morning to next week; a weekday is the coming one.
    const weekday = components.get("weekday");
    if (hit.date && weekday !== null && !components.isCertain("day") && !grammar.mentionsNext(fold(result.text))) {
      hit.date = comingWeekday(today, weekday);
    }
    if (components.isCertain("hour")) hit.time = clockTime(components);
    else {
      // "tomorrow morning", "сегодня вечером": the part of the day at quick add's hours, not chrono's.
      const hour = grammar.dayPartIn(fold(result.text));
      if (hour !== undefined) hit.time = { hour, minute: 0 };
    }
    if (!hit.date && !hit.time) continue;
    hits.push(hit);
  }
  return hits;
}
