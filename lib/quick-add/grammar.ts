/**
 * Quick add's own date, time and recurrence grammar, built from the word lists of languages.ts. It is the whole
 * date grammar for Czech and Hebrew, and fills what chrono-node leaves out in English, Russian and Ukrainian
 * ("21h", "5.1.", "tomorrow 9", Czech-style prepositions). Every rule matches the folded text (text.ts) and
 * answers hits with their offsets; nothing here knows the time zone: dates are the user's local dates.
 */
import {
  addDays,
  addMonths,
  comingDayOfYear,
  comingWeekday,
  isValidDate,
  weekdayNextWeek,
  type ClockTime,
  type LocalDate,
} from "./calendar";
import type { Language } from "./languages";
import { alternatives, END, foldPattern, START } from "./text";

export type Role = "due" | "start";

/** A date, a time, or both (or an exact instant, for "in 2 hours") that a stretch of the text means. */
export interface DateHit {
  start: number;
  end: number;
  role: Role;
  date?: LocalDate;
  time?: ClockTime;
  /** Hours or minutes from now: an exact instant, whatever the wall clock does meanwhile. */
  offsetMs?: number;
  /** A part of the day ("evening"): a time only together with a date, or for today. */
  dayPart?: boolean;
}

export interface RecurrenceHit {
  start: number;
  end: number;
  frequency?: "daily" | "weekly" | "monthly";
  interval?: number;
  anchor?: "scheduled" | "completion";
  weekday?: number;
  monthDay?: number;
  /** Set when the phrase asks for a rule the task model cannot store: the reason, in English. */
  unsupported?: string;
}

interface GrammarContext {
  today: LocalDate;
  monthFirst: boolean;
}

const NUMBER = "\\d{1,3}";
const DAY_PART_HOURS = { morning: 9, noon: 12, afternoon: 15, evening: 19, night: 21 } as const;

/** A folded word → the value it stands for (several lists in one table). */
function lookup<T>(entries: [readonly string[], T][]): Map<string, T> {
  const table = new Map<string, T>();
  for (const [words, value] of entries) for (const word of words) table.set(foldPattern(word), value);
  return table;
}

function words(list: readonly string[]): string {
  return list.length ? alternatives(list) : "(?!)";
}

/** The compiled grammar of one language. */
export class Grammar {
  private readonly weekdayOf: Map<string, number>;
  private readonly monthOf: Map<string, number>;
  private readonly unitOf: Map<string, "day" | "week" | "month" | "year" | "hour" | "minute">;
  private readonly dualOf: Map<string, "day" | "week" | "month" | "year">;
  private readonly numberOf: Map<string, number>;
  private readonly dayPartOf: Map<string, keyof typeof DAY_PART_HOURS>;
  private readonly relativeOf: Map<string, number>;
  private readonly startWords: Set<string>;
  private readonly pmWords: Set<string>;
  private readonly amWords: Set<string>;
  private readonly adverbOf: Map<string, { frequency: "daily" | "weekly" | "monthly"; interval: number }>;
  private readonly rules: {
    pattern: RegExp;
    read(match: RegExpExecArray, context: GrammarContext): Omit<DateHit, "start" | "end"> | null;
  }[];
  private readonly timeRule: RegExp;
  private readonly bareHour: RegExp;
  private readonly recurrenceRules: RegExp[];
  private readonly workdays: RegExp;
  readonly prepositionBefore: RegExp;
  private readonly nextWord: RegExp;

  constructor(readonly language: Language) {
    const L = language;
    this.weekdayOf = lookup(L.weekdays.map((forms, index) => [forms, index]));
    this.monthOf = lookup(L.months.map((forms, index) => [forms, index + 1]));
    this.unitOf = lookup([
      [L.units.day, "day"],
      [L.units.week, "week"],
      [L.units.month, "month"],
      [L.units.year, "year"],
      [L.units.hour, "hour"],
      [L.units.minute, "minute"],
    ]);
    this.dualOf = lookup([
      [L.duals.day, "day"],
      [L.duals.week, "week"],
      [L.duals.month, "month"],
      [L.duals.year, "year"],
    ]);
    this.numberOf = lookup(Object.entries(L.numbers).map(([word, value]) => [[word], value]));
    this.dayPartOf = lookup(Object.entries(L.dayParts).map(([part, list]) => [list, part as keyof typeof DAY_PART_HOURS]));
    this.relativeOf = lookup([
      [L.today, 0],
      [L.tomorrow, 1],
      [L.dayAfterTomorrow, 2],
    ]);
    this.startWords = new Set([...L.start, ...L.attached.start].map(foldPattern));
    this.pmWords = new Set(["pm", "p.m.", ...L.pm].map(foldPattern));
    this.amWords = new Set(["am", "a.m.", ...L.am].map(foldPattern));
    this.adverbOf = lookup([
      [L.adverbs.day, { frequency: "daily", interval: 1 }],
      [L.adverbs.week, { frequency: "weekly", interval: 1 }],
      [L.adverbs.month, { frequency: "monthly", interval: 1 }],
      [L.adverbs.year, { frequency: "monthly", interval: 12 }],
      [L.adverbs.fortnightly, { frequency: "weekly", interval: 2 }],
    ]);

    // A preposition (a word, or a Hebrew prefix written onto the next word) before a date.
    const prepWords = words([...L.on, ...L.due, ...L.start, ...L.at]);
    const attached = words([...L.attached.on, ...L.attached.start, ...L.attached.due]);
    const P = `(?:(?<prep>${prepWords})\\s+)?(?:(?<att>${attached})-?)?`;
    const weekday = words(L.weekdays.flat());
    const month = words(L.months.flat());
    const unit = words(Object.values(L.units).flat());
    const dual = words(Object.values(L.duals).flat());
    const numberWord = words(Object.keys(L.numbers));
    const amPm = words(["am", "pm", "a.m.", "p.m.", ...L.am, ...L.pm]);
    const hourWord = words(L.hourWords);
    const flags = "giu";
    this.prepositionBefore = new RegExp(`${START}(?<word>${prepWords})\\s+$|${START}(?<prefix>${attached})-?$`, "iu");

    this.nextWord = new RegExp(`${START}${words([...L.next, ...L.nextAfter])}${END}`, "iu");

    this.rules = [
      {
        // today, tomorrow, the day after tomorrow (longest first: "pozítří" before "zítra")
        pattern: new RegExp(`${START}${P}(?<rel>${words([...L.today, ...L.tomorrow, ...L.dayAfterTomorrow])})${END}`, flags),
        read: (match, { today }) => {
          const days = this.relativeOf.get(match.groups!.rel!);
          return days === undefined ? null : { role: this.role(match), date: addDays(today, days) };
        },
      },
      {
        // (next|this) weekday (next), "v pátek", "příští středu", "ביום שישי הבא"
        pattern: new RegExp(
          `${START}${P}(?:(?<next>${words(L.next)})\\s+|(?:${words(L.thisWeek)})\\s+)?(?:(?<att2>${attached})-?)?(?<weekday>${weekday})\\.?(?:\\s+(?<nextAfter>${words(L.nextAfter)}))?${END}`,
          flags,
        ),
        read: (match, { today }) => {
          const index = this.weekdayOf.get(match.groups!.weekday!);
          if (index === undefined) return null;
          const next = match.groups!.next || match.groups!.nextAfter;
          const date = next ? weekdayNextWeek(today, index, L.weekStart) : comingWeekday(today, index);
          return { role: this.role(match), date };
        },
      },
      {
        // 5 ledna, 5. ledna 2027, 5th of January, 5 בינואר, "January 5"
        pattern: new RegExp(
          `${START}${P}(?:(?:the\\s+)?(?<day>\\d{1,2})(?:st|nd|rd|th)?\\.?\\s*(?:of\\s+|ב-?)?(?<month>${month})|(?<month2>${month})\\s+(?<day2>\\d{1,2})(?:st|nd|rd|th)?)\\.?(?:,?\\s+(?<year>\\d{4}))?${END}`,
          flags,
        ),
        read: (match, { today }) => {
          const g = match.groups!;
          const month = this.monthOf.get((g.month ?? g.month2)!);
          const day = Number(g.day ?? g.day2);
          if (month === undefined) return null;
          const date = this.dayAndMonth(today, day, month, g.year);
          return date && { role: this.role(match), date };
        },
      },
      {
        // 5.1. 5. 1. 5.1.2027 5/1 05/01/27 (day first, or month first for English in the Americas)
        pattern: new RegExp(
          `${START}${P}(?<a>\\d{1,2})(?<sep>[./])\\s?(?<b>\\d{1,2})(?:\\k<sep>(?<year>\\d{4}|\\d{2})${END})?(?<dot>\\.)?(?![\\p{N}:]|[.,/]\\p{N})`,
          flags,
        ),
        read: (match, context) => {
          const g = match.groups!;
          // "2.5 kg" is not a date: a dot needs a closing dot, a year, two digits of month or a preposition.
          if (g.sep === "." && !g.dot && !g.year && g.b!.length < 2 && !g.prep && !g.att) return null;
          const [day, month] = context.monthFirst ? [Number(g.b), Number(g.a)] : [Number(g.a), Number(g.b)];
          const date = this.dayAndMonth(context.today, day, month, g.year);
          return date && { role: this.role(match), date };
        },
      },
      {
        // in 3 days, za týden, через 2 недели, בעוד יומיים, in 2 hours
        pattern: new RegExp(
          `${START}(?<in>${words(L.in)})\\s+(?:(?<dual>${dual})|(?:(?<count>${NUMBER}|${numberWord})\\s*)?(?<unit>${unit}))${END}`,
          flags,
        ),
        read: (match, { today }) => {
          const g = match.groups!;
          const dualUnit = g.dual ? this.dualOf.get(g.dual) : undefined;
          const unit = dualUnit ?? this.unitOf.get(g.unit ?? "");
          if (!unit) return null;
          const count = dualUnit ? 2 : g.count ? (this.numberOf.get(g.count) ?? Number(g.count)) : 1;
          if (!Number.isFinite(count) || count < 1 || count > 999) return null;
          if (unit === "hour" || unit === "minute")
            return { role: "due", offsetMs: count * (unit === "hour" ? 3_600_000 : 60_000) };
          const date =
            unit === "day"
              ? addDays(today, count)
              : unit === "week"
                ? addDays(today, 7 * count)
                : addMonths(today, unit === "month" ? count : 12 * count);
          return { role: "due", date };
        },
      },
      {
        // evening, ráno, вечером, בערב: a time of day
        pattern: new RegExp(`${START}(?<part>${words(Object.values(L.dayParts).flat())})${END}`, flags),
        read: (match) => {
          const part = this.dayPartOf.get(match.groups!.part!);
          return part ? { role: "due", time: { hour: DAY_PART_HOURS[part], minute: 0 }, dayPart: true } : null;
        },
      },
    ];

    // at 9, v 9:30, 21h, ב־21:00, в 9 утра, 9 pm, o 14.30
    this.timeRule = new RegExp(
      `${START}(?:(?<at>${words([...L.at, ...L.on])})\\s*|(?<att>${words([...L.attached.on, ...L.attached.start])})-?\\s?)?(?<hour>\\d{1,2})(?:(?<sep>[:.])(?<minute>\\d{2}))?(?:\\s*(?<hourWord>${hourWord}|h)(?![\\p{L}]))?(?:\\s*(?<suffix>${amPm})(?![\\p{L}]))?`,
      flags,
    );
    // A bare hour right after a date: "tomorrow 9", "zítra 14:30"
    this.bareHour = new RegExp(
      `^[\\s,]+(?<hour>\\d{1,2})(?:(?<sep>[:.])(?<minute>\\d{2}))?(?:\\s*(?<hourWord>${hourWord}|h)(?![\\p{L}]))?(?:\\s*(?<suffix>${amPm})(?![\\p{L}]))?${END}(?!\\s*(?:${unit}|%|[.,]\\d))`,
      "iu",
    );

    const every = words(L.every);
    const other = words(L.everyOther);
    const units = words([...L.units.day, ...L.units.week, ...L.units.month, ...L.units.year]);
    const subDay = words([...L.units.hour, ...L.units.minute]);
    const adverbs = words(Object.values(L.adverbs).flat());
    const and = words(L.and);
    const R = "(?<bang>!)?";
    this.recurrenceRules = [
      // every Monday and Thursday: two weekdays (unsupported)
      new RegExp(
        `${START}${every}${R}\\s+(?:(?<att>${attached})-?)?(?<weekday>${weekday})(?<second>\\s*(?:${and})\\s*(?:(?:${every})\\s+)?(?:(?:${attached})-?)?(?:${weekday}|${words(L.andWeekdays)}))*${END}`,
        flags,
      ),
      // every 2 weeks, každé 3 dny, каждые 2 недели, כל 3 ימים, every other day, כל יומיים, every hour (unsupported)
      new RegExp(
        `${START}${every}${R}\\s+(?:(?<count>${NUMBER}|${numberWord})\\s*|(?<other>${other})\\s+)?(?:(?<unit>${units})|(?<dual>${dual})|(?<sub>${subDay}))${END}`,
        flags,
      ),
      // every 15th, každého 15., каждое 15 число, кожного 15 числа
      new RegExp(
        `${START}${every}${R}\\s+(?:month\\s+on\\s+the\\s+)?(?<monthDay>\\d{1,2})(?:st|nd|rd|th|\\.)?(?:\\s*(?:число|числа|dne|v měsíci|לחודש|of the month))?${END}`,
        flags,
      ),
      // daily, týdně, щомісяця
      new RegExp(`${START}(?<adverb>${adverbs})${R}${END}`, flags),
    ];
    this.workdays = new RegExp(`${START}(?:${words(L.workdays)})${END}`, flags);
  }

  private role(match: RegExpExecArray): "due" | "start" {
    const { prep, att } = match.groups ?? {};
    return (prep && this.startWords.has(prep)) || (att && this.startWords.has(att)) ? "start" : "due";
  }

  private dayAndMonth(today: LocalDate, day: number, month: number, year: string | undefined): LocalDate | null {
    if (year !== undefined) {
      const full = year.length === 2 ? 2000 + Number(year) : Number(year);
      return isValidDate(full, month, day) ? { year: full, month, day } : null;
    }
    return comingDayOfYear(today, month, day);
  }

  /** Whether `text` (folded) says "next" (of "next Friday"). */
  mentionsNext(text: string): boolean {
    return this.nextWord.test(text);
  }

  /** Whether the word before `end` in `text` means "from": the hit it precedes is a start date. */
  isStartWord(word: string): boolean {
    return this.startWords.has(word);
  }

  /** Dates, relative dates and parts of the day in `text` (folded), in text order, not overlapping each other. */
  dates(text: string, context: GrammarContext): DateHit[] {
    const hits: DateHit[] = [];
    let rest = text;
    const take = (hit: DateHit) => {
      hits.push(hit);
      rest = rest.slice(0, hit.start) + " ".repeat(hit.end - hit.start) + rest.slice(hit.end);
    };
    const [dayPart, ...dateRules] = [this.rules.at(-1)!, ...this.rules.slice(0, -1)];
    for (const rule of dateRules) {
      for (const match of rest.matchAll(rule.pattern)) {
        const read = rule.read(match, context);
        if (read) take({ start: match.index, end: match.index + match[0].length, ...read });
      }
    }
    // Times before parts of the day: "ve 3 odpoledne" is 15:00, not 03:00 and an afternoon.
    for (const hit of this.times(rest)) take(hit);
    for (const match of rest.matchAll(dayPart.pattern)) {
      const read = dayPart.read(match, context);
      if (read) take({ start: match.index, end: match.index + match[0].length, ...read });
    }
    return hits.sort((a, b) => a.start - b.start);
  }

  /** Times in `text` that say they are times: with a preposition, minutes, "h" or am/pm. */
  private times(text: string): DateHit[] {
    const hits: DateHit[] = [];
    for (const match of text.matchAll(this.timeRule)) {
      const g = match.groups!;
      const marked = g.at || g.att || g.sep === ":" || g.suffix || g.hourWord;
      if (!marked || (g.sep === "." && !g.at && !g.att)) continue;
      const time = this.clock(g.hour!, g.minute, g.suffix);
      if (!time) continue;
      // "v 5 dnech" or "at 3 days" is not a time.
      const after = text.slice(match.index + match[0].length);
      if (!g.minute && !g.suffix && !g.hourWord && this.unitFollows(after)) continue;
      hits.push({ start: match.index, end: match.index + match[0].length, role: "due", time });
    }
    return hits;
  }

  private unitFollows(after: string): boolean {
    const word = /^\s*([\p{L}']+)/u.exec(after)?.[1] ?? "";
    return this.unitOf.has(word);
  }

  /** An hour (and minutes) with an optional am/pm word; null when out of range. */
  clock(hourText: string, minuteText: string | undefined, suffix: string | undefined): ClockTime | null {
    let hour = Number(hourText);
    const minute = minuteText ? Number(minuteText) : 0;
    if (hour > 23 || minute > 59) return null;
    const folded = suffix ? foldPattern(suffix).toLowerCase() : "";
    if (this.pmWords.has(folded) && hour < 12) hour += 12;
    else if (this.amWords.has(folded) && hour === 12) hour = 0;
    return { hour, minute };
  }

  /** A bare hour at the start of `after` (the text right after a date): its length and time, or null. */
  hourAfterDate(after: string): { length: number; time: ClockTime } | null {
    const match = this.bareHour.exec(after);
    if (!match) return null;
    const time = this.clock(match.groups!.hour!, match.groups!.minute, match.groups!.suffix);
    return time && { length: match[0].length, time };
  }

  /** The first recurrence phrase in `text` (folded), or null. */
  recurrence(text: string): RecurrenceHit | null {
    const found: RecurrenceHit[] = [];
    const workdays = this.workdays.exec(text);
    if (workdays) {
      found.push({
        start: workdays.index,
        end: workdays.index + workdays[0].length,
        unsupported: "A task repeats daily, weekly or monthly: weekdays only or weekends cannot be stored",
      });
    }
    for (const pattern of this.recurrenceRules) {
      pattern.lastIndex = 0;
      const match = pattern.exec(text);
      if (!match) continue;
      const hit = this.readRecurrence(match);
      if (hit) found.push(hit);
    }
    // The earliest, and of those the longest ("every Monday and Thursday" over "every Monday").
    found.sort((a, b) => a.start - b.start || b.end - a.end);
    return found[0] ?? null;
  }

  private readRecurrence(match: RegExpExecArray): RecurrenceHit | null {
    const g = match.groups!;
    const span = { start: match.index, end: match.index + match[0].length };
    const anchor = g.bang ? ("completion" as const) : ("scheduled" as const);
    if (g.weekday !== undefined) {
      if (g.second) return { ...span, unsupported: "A task repeats on one weekday: several weekdays cannot be stored" };
      const weekday = this.weekdayOf.get(g.weekday);
      return weekday === undefined ? null : { ...span, frequency: "weekly", interval: 1, anchor, weekday };
    }
    if (g.sub) return { ...span, unsupported: "A task repeats daily at most: hours and minutes cannot be stored" };
    if (g.unit !== undefined || g.dual !== undefined) {
      const unit = g.dual ? this.dualOf.get(g.dual) : this.unitOf.get(g.unit!);
      const count = g.dual || g.other ? 2 : g.count ? (this.numberOf.get(g.count) ?? Number(g.count)) : 1;
      if (!unit || !Number.isFinite(count) || count < 1) return null;
      if (unit === "year") return count * 12 > 365 ? null : { ...span, frequency: "monthly", interval: 12 * count, anchor };
      if (unit === "hour" || unit === "minute") return null;
      if (count > 365) return { ...span, unsupported: "A task repeats at most every 365 units" };
      const frequency = unit === "day" ? "daily" : unit === "week" ? "weekly" : "monthly";
      return { ...span, frequency, interval: count, anchor };
    }
    if (g.monthDay !== undefined) {
      const monthDay = Number(g.monthDay);
      if (monthDay < 1 || monthDay > 31) return null;
      return { ...span, frequency: "monthly", interval: 1, anchor, monthDay };
    }
    if (g.adverb !== undefined) {
      const rule = this.adverbOf.get(g.adverb);
      return rule ? { ...span, ...rule, anchor } : null;
    }
    return null;
  }

  dayPartHour(word: string): number | undefined {
    const part = this.dayPartOf.get(word);
    return part && DAY_PART_HOURS[part];
  }

  /** Day-part words anywhere in `text` (folded): the first one's hour. */
  dayPartIn(text: string): number | undefined {
    for (const [word, part] of this.dayPartOf) {
      if (new RegExp(`${START}${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}${END}`, "iu").test(text)) {
        return DAY_PART_HOURS[part];
      }
    }
    return undefined;
  }
}
