/*
 * The task page's date-time field works in the user's profile time zone, not the browser's: `datetime-local`
 * shows and takes a wall-clock time, which is read in that zone. lib/tasks/recurrence.ts already converts wall
 * times in a zone (the recurrence job needs exactly this, DST gaps included); it is pure and imports nothing at
 * run time, so the browser bundle takes it as it is.
 */
import { fromZonedWallTime, zonedWallTime } from "@/lib/tasks/recurrence";

const pad = (value: number, length = 2) => String(value).padStart(length, "0");

/** The `datetime-local` value (`2026-12-01T09:00`) that an instant shows in a time zone; "" for none. */
export function wallInputValue(iso: string | null, timeZone: string): string {
  if (!iso) return "";
  const wall = zonedWallTime(new Date(iso), timeZone);
  return `${pad(wall.year, 4)}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}`;
}

/**
 * The instant (ISO 8601, UTC) of a `datetime-local` value read in a time zone; null when the value is not a
 * complete date and time. A time skipped by a DST change moves forward by the gap, as the recurrence job does.
 */
export function instantOfWallInput(value: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1).map((part) => Number(part ?? 0));
  const wall = { year: year!, month: month!, day: day!, hour: hour!, minute: minute!, second: second!, millisecond: 0 };
  return fromZonedWallTime(wall, timeZone).toISOString();
}
