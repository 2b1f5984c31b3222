/**
 * Recurring tasks: when the next occurrence of a series is due. Pure functions, no database.
 *
 * Product rules:
 * - All calendar arithmetic happens in the task owner's IANA time zone, on local wall-clock date and time: a task
 *   due 09:00 local stays due 09:00 local across a DST change (its UTC instant shifts by the change).
 * - A local time that does not exist (spring-forward gap, e.g. 02:30 on 2026-03-29 in Europe/Prague) moves
 *   forward by the gap's length (to 03:30); an ambiguous local time (fall-back, e.g. 02:30 on 2026-10-25 in
 *   Europe/Prague) takes the earlier instant (the first, summer-time one).
 * - Steps: `daily` is +interval days, `weekly` +7×interval days, `monthly` +interval months keeping the series'
 *   day of month; in a shorter month that day falls on the month's last day, without drifting
 *   (Jan 31 → Feb 28, or 29 in leap years → Mar 31 → Apr 30).
 * - Anchor `scheduled`: occurrence n (1-based) is due at seriesStart + (n−1) steps, always counted from the
 *   series start (the due instant of occurrence 1), which is what keeps month ends from drifting.
 * - Anchor `completion`: the next occurrence is due one step after the instant the previous one was completed,
 *   in local time as above (monthly keeps the completion date's day of month, clamped to the month end); the
 *   chain restarts there, so that due instant becomes the new series start.
 * - `count`: no occurrence numbered above count. `until`: no occurrence whose local due date is after `until`
 *   (the until date itself is allowed, whatever the UTC date is then).
 *
 * Inputs are validated upstream (zone names, intervals, dates); nothing is checked here.
 */
import type { Recurrence } from "../db/schema/tasks";

/** A local wall-clock date and time; `month` is 1..12. */
export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

export interface Occurrence {
  occurrence: number;
  dueAt: Date;
  seriesStartAt: Date;
}

const DAY_MS = 86_400_000;
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterFor(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** The wall-clock date and time that `instant` shows in `timeZone`. */
export function zonedWallTime(instant: Date, timeZone: string): WallTime {
  const parts: Record<string, number> = {};
  for (const { type, value } of formatterFor(timeZone).formatToParts(instant)) parts[type] = Number(value);
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    hour: parts.hour ?? 0,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
    millisecond: instant.getUTCMilliseconds(),
  };
}

/** Wall time read as if it were UTC, in ms; out-of-range fields roll over (day 32 is the next month's 1st). */
function wallAsUtc(wall: WallTime): number {
  return Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
}

/** How far `timeZone`'s wall clock is ahead of UTC at `utcMs`, in ms. */
function offsetAt(utcMs: number, timeZone: string): number {
  return wallAsUtc(zonedWallTime(new Date(utcMs), timeZone)) - utcMs;
}

/**
 * The instant at which `timeZone`'s wall clock shows `wall`. A time inside a spring-forward gap moves forward by
 * the gap's length; an ambiguous fall-back time takes the earlier instant. Assumes at most one offset change
 * within a day of `wall`, which holds for every real zone.
 */
export function fromZonedWallTime(wall: WallTime, timeZone: string): Date {
  const local = wallAsUtc(wall);
  const before = local - offsetAt(local - DAY_MS, timeZone);
  const after = local - offsetAt(local + DAY_MS, timeZone);
  const valid = [before, after].filter((t) => t + offsetAt(t, timeZone) === local);
  // No valid instant: the time lies in a gap, and the offset in force before it pushes it forward past the gap.
  return new Date(valid.length > 0 ? Math.min(...valid) : before);
}

/**
 * The instant that is `steps` frequency units after `start`, in `timeZone`'s wall-clock time (monthly clamps to
 * month end, keeping start's day of month).
 */
export function addRecurrenceSteps(start: Date, frequency: Recurrence["frequency"], steps: number, timeZone: string): Date {
  const wall = zonedWallTime(start, timeZone);
  if (frequency !== "monthly") {
    return fromZonedWallTime({ ...wall, day: wall.day + (frequency === "weekly" ? 7 : 1) * steps }, timeZone);
  }
  const monthIndex = wall.month - 1 + steps;
  const year = wall.year + Math.floor(monthIndex / 12);
  const month = (((monthIndex % 12) + 12) % 12) + 1;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return fromZonedWallTime({ ...wall, year, month, day: Math.min(wall.day, daysInMonth) }, timeZone);
}

/** `instant`'s local date in `timeZone` as YYYY-MM-DD. */
function localDate(instant: Date, timeZone: string): string {
  const { year, month, day } = zonedWallTime(instant, timeZone);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/**
 * The next occurrence after occurrence `occurrence` (1-based) of a series, or null when the series has ended
 * (count or until) or, for anchor `completion`, while the current occurrence is not completed yet.
 */
export function nextOccurrence(
  rule: Recurrence,
  current: { occurrence: number; seriesStartAt: Date; completedAt: Date | null },
  timeZone: string,
): Occurrence | null {
  const occurrence = current.occurrence + 1;
  if (rule.count !== null && occurrence > rule.count) return null;
  let next: Occurrence;
  if (rule.anchor === "scheduled") {
    const dueAt = addRecurrenceSteps(current.seriesStartAt, rule.frequency, (occurrence - 1) * rule.interval, timeZone);
    next = { occurrence, dueAt, seriesStartAt: current.seriesStartAt };
  } else {
    if (current.completedAt === null) return null;
    const dueAt = addRecurrenceSteps(current.completedAt, rule.frequency, rule.interval, timeZone);
    next = { occurrence, dueAt, seriesStartAt: dueAt };
  }
  if (rule.until !== null && localDate(next.dueAt, timeZone) > rule.until) return null;
  return next;
}
