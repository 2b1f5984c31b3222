/** Local calendar dates and clock times, as the user's wall clock shows them. Pure arithmetic, no time zone. */

export interface LocalDate {
  year: number;
  /** 1..12 */
  month: number;
  day: number;
}

export interface ClockTime {
  hour: number;
  minute: number;
}

const asUtc = (date: LocalDate) => Date.UTC(date.year, date.month - 1, date.day);

function fromUtc(ms: number): LocalDate {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return fromUtc(asUtc(date) + days * 86_400_000);
}

export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** `months` later, on the same day of the month or the month's last day when it is shorter (Jan 31 → Feb 28). */
export function addMonths(date: LocalDate, months: number): LocalDate {
  const index = date.month - 1 + months;
  const year = date.year + Math.floor(index / 12);
  const month = (((index % 12) + 12) % 12) + 1;
  return { year, month, day: Math.min(date.day, daysInMonth(year, month)) };
}

/** 0 Sunday .. 6 Saturday. */
export function weekdayOf(date: LocalDate): number {
  return new Date(asUtc(date)).getUTCDay();
}

export function compareDates(a: LocalDate, b: LocalDate): number {
  return asUtc(a) - asUtc(b);
}

export function isValidDate(year: number, month: number, day: number): boolean {
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
}

/** The first `weekday` on or after `from` (today counts: "Friday" said on a Friday is today). */
export function comingWeekday(from: LocalDate, weekday: number): LocalDate {
  return addDays(from, (weekday - weekdayOf(from) + 7) % 7);
}

/** `weekday` in the week after this one, weeks starting on `weekStart` ("next Friday"). */
export function weekdayNextWeek(from: LocalDate, weekday: number, weekStart: 0 | 1): LocalDate {
  const startOfThisWeek = addDays(from, -((weekdayOf(from) - weekStart + 7) % 7));
  return addDays(startOfThisWeek, 7 + ((weekday - weekStart + 7) % 7));
}

/** The next date with this day of the month, today counting; a shorter month gives its last day. */
export function comingMonthDay(from: LocalDate, day: number): LocalDate {
  const thisMonth = { ...from, day: Math.min(day, daysInMonth(from.year, from.month)) };
  if (compareDates(thisMonth, from) >= 0) return thisMonth;
  return clampDay(addMonths({ ...from, day: 1 }, 1), day);
}

function clampDay(date: LocalDate, day: number): LocalDate {
  return { ...date, day: Math.min(day, daysInMonth(date.year, date.month)) };
}

/** A day and month without a year: this year's, or next year's when this year's has passed. */
export function comingDayOfYear(from: LocalDate, month: number, day: number): LocalDate | null {
  // Four years ahead at most: 29 February comes back by then.
  for (let year = from.year; year <= from.year + 4; year++) {
    if (!isValidDate(year, month, day)) continue;
    const date = { year, month, day };
    if (compareDates(date, from) >= 0) return date;
  }
  return null;
}

export function isoDate(date: LocalDate): string {
  const pad = (value: number, length = 2) => String(value).padStart(length, "0");
  return `${pad(date.year, 4)}-${pad(date.month)}-${pad(date.day)}`;
}
