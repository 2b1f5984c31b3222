import { fromZonedWallTime, zonedWallTime } from "./tasks/recurrence";

/*
 * Local-calendar arithmetic (pure): dates as the user's wall calendar has them (YYYY-MM-DD, comparable as text),
 * in their IANA time zone. The summaries, the weekly report and the assistant count days with these.
 */

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** The local date (YYYY-MM-DD) that `instant` falls on in `timeZone`. */
export function localDateOf(instant: Date, timeZone: string): string {
  const { year, month, day } = zonedWallTime(instant, timeZone);
  return `${pad(year, 4)}-${pad(month)}-${pad(day)}`;
}

/** A local date `days` calendar days later (or earlier, negative). */
export function addDays(date: string, days: number): string {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day + days)).toISOString().slice(0, 10);
}

/** The ISO weekday of a local date: 1 Monday … 7 Sunday. */
export function isoWeekday(date: string): number {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).getUTCDay() || 7;
}

/** The instant a local date starts in `timeZone` (its first existing minute, should midnight be skipped). */
export function startOfLocalDay(date: string, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return fromZonedWallTime({ year, month, day, hour: 0, minute: 0, second: 0, millisecond: 0 }, timeZone);
}
