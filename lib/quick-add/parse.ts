/**
 * Quick add: what a line typed into "Add a task" means. Pure (no database, no clock of its own), so that the
 * task list page runs it in the browser as the user types and `POST /api/v1/tasks/parse` runs the same code.
 *
 * Product rules:
 * - Recognised: a due date and/or time, a start ("from Monday"), a repeat rule, a priority (`!1`…`!4`, `p1`…`p4`
 *   as Todoist: 1 is urgent, 4 low; `!high` and the words of every language), `#tags`, and `+name` of one of
 *   the caller's groups (any of its per-language names) or projects. Everything else is the title.
 * - Dates are the user's local dates in their time zone. A time without a date is today, or tomorrow when it
 *   has passed; a weekday is the coming one (today counts); "next Friday" is Friday of the following week
 *   (weeks start on Sunday in English and Hebrew, Monday in Czech, Russian and Ukrainian); a day and month
 *   without a year is the next such date. A date without a time is due at the end of that day (23:59); a start
 *   without a time starts at 00:00.
 * - Repeat rules map onto the task model (daily, weekly or monthly, every N; yearly is every 12 months). A
 *   phrase the model cannot store (several weekdays, weekdays only, hourly) is not stored as something else: it
 *   stays in the title and `notes` says why.
 * - `spans` give, in UTF-16 offsets of `text` (as JavaScript strings count), each stretch that was understood and
 *   what it set. A range listed in `literal` is never recognised (the user undid it: the text stays in the title).
 */
import { LOCALES, type Locale } from "../i18n/locales";
import type { Recurrence } from "../db/schema/tasks";
import { fromZonedWallTime, zonedWallTime } from "../tasks/recurrence";
import type { Priority } from "../tasks/vocabulary";
import { addDays, addMonths, comingMonthDay, comingWeekday, isoDate, type ClockTime, type LocalDate } from "./calendar";
import { chronoDates } from "./chrono-dates";
import { Grammar, type DateHit, type RecurrenceHit } from "./grammar";
import { LANGUAGES, PRIORITY_WORDS } from "./languages";
import { END, fold, foldPattern, masked, overlaps } from "./text";

export const QUICK_ADD_TEXT_MAX = 1000;
export const SPAN_KINDS = ["due", "start", "recurrence", "priority", "tag", "group", "project"] as const;
export type SpanKind = (typeof SPAN_KINDS)[number];
export const NOTE_CODES = ["recurrence_unsupported", "list_not_found"] as const;
export type NoteCode = (typeof NOTE_CODES)[number];

export interface Range {
  start: number;
  end: number;
}

export interface QuickAddSpan extends Range {
  kind: SpanKind;
  /** The text of the span, as typed. */
  text: string;
}

export interface QuickAddNote extends Range {
  code: NoteCode;
  text: string;
  detail: string;
}

/** The caller's groups (every per-language name) and projects, for `+name`. */
export interface QuickAddLists {
  groups: readonly { id: string; names: readonly string[] }[];
  projects: readonly { id: string; name: string }[];
}

export interface QuickAddOptions {
  locale: Locale;
  now: Date;
  /** The user's IANA time zone (their profile's). */
  timeZone: string;
  /** Without it, `+name` is left alone. */
  lists?: QuickAddLists;
  /** Ranges the user undid: never recognised. */
  literal?: readonly Range[];
}

export interface QuickAddResult {
  title: string;
  dueAt?: string;
  startAt?: string;
  /** startAt's local date, as tasks keep a start (`startDate`). */
  startDate?: string;
  priority?: Priority;
  tags: string[];
  recurrence?: Recurrence;
  groupId?: string;
  projectId?: string;
  spans: QuickAddSpan[];
  notes: QuickAddNote[];
}

const END_OF_DAY: ClockTime = { hour: 23, minute: 59 };
const START_OF_DAY: ClockTime = { hour: 0, minute: 0 };
const MAX_TAG = 50;
const MAX_TAGS = 20;
const PRIORITY_BY_NUMBER: Readonly<Record<string, Priority>> = { "1": "urgent", "2": "high", "3": "normal", "4": "low" };
const PRIORITY_BY_WORD = new Map<string, Priority>(
  Object.entries(PRIORITY_WORDS).flatMap(([priority, list]) => list.map((word) => [foldPattern(word), priority as Priority])),
);

const grammars = new Map<Locale, Grammar>();
function grammarFor(locale: Locale): Grammar {
  let grammar = grammars.get(locale);
  if (!grammar) grammars.set(locale, (grammar = new Grammar(LANGUAGES[locale])));
  return grammar;
}

/** English dates are month first for users in the Americas (5/1 is May 1), day first elsewhere (5 January). */
function monthFirst(locale: Locale, timeZone: string): boolean {
  return locale === "en" && timeZone.startsWith("America/");
}

/** What `text` means, for a user in `timeZone` at `now`. */
export function parseQuickAdd(text: string, options: QuickAddOptions): QuickAddResult {
  const locale = LOCALES.includes(options.locale) ? options.locale : "en";
  const grammar = grammarFor(locale);
  const literal = options.literal ?? [];
  const spans: QuickAddSpan[] = [];
  const notes: QuickAddNote[] = [];
  const free = (range: Range) => !literal.some((kept) => overlaps(kept, range)) && !spans.some((span) => overlaps(span, range));
  const addSpan = ({ start, end }: Range, kind: SpanKind) => spans.push({ start, end, kind, text: text.slice(start, end) });
  // Blanked: what later rules must not see again (recognised, undone, or noted).
  const blanked = (): Range[] => [...literal, ...spans, ...notes];

  const folded = fold(text);
  const result: QuickAddResult = { title: "", tags: [], spans, notes };

  // Tags, priority, groups and projects: marked by a sign, the same in every language.
  for (const match of text.matchAll(/(?<=^|[\s(,;])#([\p{L}\p{N}_][\p{L}\p{N}_\-./]*)/gu)) {
    const tag = match[1]!.replace(/[.\-/]+$/, "");
    const range = { start: match.index, end: match.index + 1 + tag.length };
    if (!free(range) || tag.length > MAX_TAG || result.tags.length >= MAX_TAGS) continue;
    addSpan(range, "tag");
    if (!result.tags.includes(tag)) result.tags.push(tag);
  }
  for (const match of folded.matchAll(
    /(?<=^|[\s(,;])(?:!(?<number>[1-4])|p(?<p>[1-4])|!(?<word>[\p{L}"']+))(?=$|[\s,.;!?)])/gu,
  )) {
    const g = match.groups!;
    const priority = g.number || g.p ? PRIORITY_BY_NUMBER[(g.number ?? g.p)!] : PRIORITY_BY_WORD.get(g.word!);
    const range = { start: match.index, end: match.index + match[0].length };
    if (!priority || result.priority || !free(range)) continue;
    result.priority = priority;
    addSpan(range, "priority");
  }
  if (options.lists) {
    for (const match of folded.matchAll(/(?<=^|[\s(,;])\+(?=[\p{L}\p{N}])/gu)) {
      const found = findList(folded, match.index + 1, options.lists);
      if (!found) {
        const end = match.index + 1 + (/^[^\s,;]+/u.exec(folded.slice(match.index + 1))?.[0].length ?? 0);
        const range = { start: match.index, end };
        if (free(range)) {
          notes.push({
            ...range,
            code: "list_not_found",
            text: text.slice(range.start, end),
            detail: "No group or project of yours has this name",
          });
        }
        continue;
      }
      const range = { start: match.index, end: match.index + 1 + found.length };
      if (!free(range) || (found.kind === "group" ? result.groupId : result.projectId)) continue;
      if (found.kind === "group") result.groupId = found.id;
      else result.projectId = found.id;
      addSpan(range, found.kind);
    }
  }

  // A repeat rule, then dates and times: chrono first where it speaks the language, the grammar for the rest.
  const recurrence = readRecurrence(grammar, masked(folded, blanked()), text, notes, free, addSpan);
  const wallNow = zonedWallTime(options.now, options.timeZone);
  const today: LocalDate = { year: wallNow.year, month: wallNow.month, day: wallNow.day };
  const offsetMinutes = Math.round(
    (Date.UTC(wallNow.year, wallNow.month - 1, wallNow.day, wallNow.hour, wallNow.minute, wallNow.second) -
      Math.floor(options.now.getTime() / 1000) * 1000) /
      60_000,
  );
  const chronoText = masked(text.replace(/[\u2019\u02bc\u2018`]/g, "'"), blanked());
  const chronoHits = chronoDates(
    chronoText,
    locale,
    monthFirst(locale, options.timeZone),
    options.now,
    offsetMinutes,
    grammar,
    today,
  );
  const foldedRest = masked(folded, blanked());
  for (const hit of chronoHits) withPreposition(hit, foldedRest, grammar);
  const ownHits = grammar.dates(foldedRest, { today, monthFirst: monthFirst(locale, options.timeZone) });
  // Where both read the same words, the longer reading wins ("наступної п'ятниці" over chrono's "п'ятниці"); on a
  // tie the grammar's, which places relative days in the user's zone (chrono counts some in the machine's).
  const hits: DateHit[] = [];
  for (const hit of [...ownHits, ...chronoHits].sort((a, b) => b.end - b.start - (a.end - a.start))) {
    if (free(hit) && !hits.some((taken) => overlaps(taken, hit))) hits.push(hit);
  }
  hits.sort((a, b) => a.start - b.start);
  for (const hit of hits) withHourAfter(hit, foldedRest, hits, grammar);

  const zone = options.timeZone;
  const instant = (date: LocalDate, time: ClockTime) =>
    fromZonedWallTime({ ...date, hour: time.hour, minute: time.minute, second: 0, millisecond: 0 }, zone);

  const due = pick(hits.filter((hit) => hit.role === "due"));
  const start = pick(hits.filter((hit) => hit.role === "start"));
  if (due) {
    for (const hit of due.used) addSpan(hit, "due");
    let when: Date;
    if (due.offsetMs !== undefined) when = new Date(options.now.getTime() + due.offsetMs);
    else if (due.date) when = instant(due.date, due.time ?? END_OF_DAY);
    else {
      // Only a time: the first time it comes (the repeat rule's first day, when there is one).
      let date = firstDay(recurrence, today);
      when = instant(date, due.time!);
      while (when.getTime() <= options.now.getTime()) {
        date = nextDay(recurrence, date);
        when = instant(date, due.time!);
      }
    }
    result.dueAt = when.toISOString();
  } else if (recurrence?.frequency) {
    result.dueAt = instant(firstDay(recurrence, today), END_OF_DAY).toISOString();
  }
  if (start) {
    for (const hit of start.used) addSpan(hit, "start");
    const when =
      start.offsetMs !== undefined
        ? new Date(options.now.getTime() + start.offsetMs)
        : instant(start.date ?? today, start.time ?? START_OF_DAY);
    result.startAt = when.toISOString();
    const wall = zonedWallTime(when, zone);
    result.startDate = isoDate({ year: wall.year, month: wall.month, day: wall.day });
  }
  if (recurrence?.frequency) {
    result.recurrence = {
      frequency: recurrence.frequency,
      interval: recurrence.interval ?? 1,
      anchor: recurrence.anchor ?? "scheduled",
      until: null,
      count: null,
    };
  }

  spans.sort((a, b) => a.start - b.start);
  notes.sort((a, b) => a.start - b.start);
  result.title = titleWithout(text, spans);
  return result;
}

/** The repeat phrase: a span when the task model can store it, else a note (and the text stays in the title). */
function readRecurrence(
  grammar: Grammar,
  folded: string,
  text: string,
  notes: QuickAddNote[],
  free: (range: Range) => boolean,
  addSpan: (range: Range, kind: SpanKind) => void,
): RecurrenceHit | null {
  const hit = grammar.recurrence(folded);
  if (!hit || !free(hit)) return null;
  if (hit.unsupported) {
    notes.push({
      start: hit.start,
      end: hit.end,
      code: "recurrence_unsupported",
      text: text.slice(hit.start, hit.end),
      detail: hit.unsupported,
    });
    return null;
  }
  addSpan(hit, "recurrence");
  return hit;
}

/** The day a repeat rule starts on when the text gives no date: its weekday or day of the month, else today. */
function firstDay(recurrence: RecurrenceHit | null, today: LocalDate): LocalDate {
  if (recurrence?.weekday !== undefined) return comingWeekday(today, recurrence.weekday);
  if (recurrence?.monthDay !== undefined) return comingMonthDay(today, recurrence.monthDay);
  return today;
}

function nextDay(recurrence: RecurrenceHit | null, date: LocalDate): LocalDate {
  if (recurrence?.weekday !== undefined) return addDays(date, 7);
  if (recurrence?.monthDay !== undefined) return comingMonthDay(addMonths({ ...date, day: 1 }, 1), recurrence.monthDay);
  return addDays(date, 1);
}

/** chrono leaves out "by", "on", "с", "до": the span takes the preposition in, and "from" makes it a start. */
function withPreposition(hit: DateHit, folded: string, grammar: Grammar): void {
  const match = grammar.prepositionBefore.exec(folded.slice(0, hit.start));
  if (!match) return;
  const word = match.groups!.word ?? match.groups!.prefix ?? "";
  hit.start = match.index;
  if (grammar.isStartWord(word)) hit.role = "start";
}

/** "tomorrow 9", "zítra 14:30": a bare hour right after a date without a time is its time. */
function withHourAfter(hit: DateHit, folded: string, hits: readonly DateHit[], grammar: Grammar): void {
  if (!hit.date || hit.time || hit.offsetMs !== undefined) return;
  const found = grammar.hourAfterDate(folded.slice(hit.end));
  if (!found) return;
  const extended = { start: hit.end, end: hit.end + found.length };
  if (hits.some((other) => other !== hit && overlaps(other, extended))) return;
  hit.end = extended.end;
  hit.time = found.time;
}

/** The date and the time of one role: one hit with both, or the first date and the first time apart. */
function pick(hits: DateHit[]): { date?: LocalDate; time?: ClockTime; offsetMs?: number; used: DateHit[] } | null {
  const exact = hits.find((hit) => hit.offsetMs !== undefined);
  if (exact) return { offsetMs: exact.offsetMs, used: [exact] };
  const dated = hits.find((hit) => hit.date);
  const timed = dated?.time ? dated : hits.find((hit) => hit.time && !hit.date);
  if (!dated && !timed) return null;
  const used = [dated, timed].filter((hit, index, all): hit is DateHit => hit !== undefined && all.indexOf(hit) === index);
  return { date: dated?.date, time: timed?.time, used };
}

/** The longest of the caller's group and project names written at `at` (folded), groups first on a tie. */
function findList(
  folded: string,
  at: number,
  lists: QuickAddLists,
): { kind: "group" | "project"; id: string; length: number } | null {
  let best: { kind: "group" | "project"; id: string; length: number } | null = null;
  const consider = (kind: "group" | "project", id: string, name: string) => {
    const key = fold(name.trim());
    if (!key || !folded.startsWith(key, at)) return;
    if (!new RegExp(`^${END}`, "u").test(folded.slice(at + key.length))) return;
    if (!best || key.length > best.length) best = { kind, id, length: key.length };
  };
  for (const group of lists.groups) for (const name of group.names) consider("group", group.id, name);
  for (const project of lists.projects) consider("project", project.id, project.name);
  return best;
}

/** The text without the recognised spans, spaces and stray punctuation tidied. */
function titleWithout(text: string, spans: readonly Range[]): string {
  let title = "";
  let from = 0;
  for (const span of spans) {
    title += `${text.slice(from, span.start)} `;
    from = span.end;
  }
  title += text.slice(from);
  return title
    .replace(/\s+/g, " ")
    .replace(/\s+([,.;:!?])(?=\s|$)/g, "$1")
    .replace(/([,;:])(?:\s*[,;:])+/g, "$1")
    .replace(/[,;:]+([.!?])/g, "$1")
    .replace(/^[\s,;:\-–—]+|[\s,;:\-–—]+$/g, "")
    .trim();
}
