import { addDays, startOfLocalDay } from "../local-dates";
import { zonedWallTime } from "../tasks/recurrence";
import { TOP_APPS, type ActivityCategory } from "./vocabulary";

/*
 * Usage counted on the user's calendar (pure). A record's `seconds` are taken as spread evenly over its range, so a
 * record from 23:30 to 00:30 gives half its seconds to each day. Shares are rounded on the running total
 * (`secondsBefore`), so a record's shares of any split of its range add up to exactly its seconds, and a day counts
 * the same whether it is summed alone or as part of a week.
 *
 * Slots are the hours of local days: from each day's first instant in steps of one real hour. A day has 23 slots
 * when the clocks go forward and 25 when they go back (the repeated hour has two slots with the same wall hour).
 */

export interface UsageRecord {
  app: string;
  category: ActivityCategory;
  seconds: number;
  startedAt: Date;
  endedAt: Date;
}

export interface HourSlot {
  /** The local date the slot belongs to (YYYY-MM-DD). */
  date: string;
  startsAt: Date;
  endsAt: Date;
  /** The wall-clock hour (0-23) the slot starts at. */
  hour: number;
}

const HOUR_MS = 3_600_000;

/** Every local date from `from` to `to`, both included. */
export function datesBetween(from: string, to: string): string[] {
  const dates: string[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) dates.push(date);
  return dates;
}

/** The instants a run of local dates covers: from the first one's start to the start of the day after the last. */
export function windowOf(from: string, to: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfLocalDay(from, timeZone), end: startOfLocalDay(addDays(to, 1), timeZone) };
}

/** The hour slots of the local dates `from` to `to` in `timeZone`, in order. */
export function hourSlots(from: string, to: string, timeZone: string): HourSlot[] {
  const slots: HourSlot[] = [];
  for (const date of datesBetween(from, to)) {
    const { start, end } = windowOf(date, date, timeZone);
    for (let at = start.getTime(); at < end.getTime(); at += HOUR_MS) {
      const startsAt = new Date(at);
      slots.push({
        date,
        startsAt,
        endsAt: new Date(Math.min(at + HOUR_MS, end.getTime())),
        hour: zonedWallTime(startsAt, timeZone).hour,
      });
    }
  }
  return slots;
}

/** The part of a record's seconds that falls before `instant`, rounded. */
export function secondsBefore(record: UsageRecord, instant: Date): number {
  const start = record.startedAt.getTime();
  const length = record.endedAt.getTime() - start;
  if (length <= 0) return 0; // an instant holds no time (validation allows it 0 seconds only)
  const elapsed = Math.min(Math.max(instant.getTime() - start, 0), length);
  return Math.round((record.seconds * elapsed) / length);
}

/** The part of a record's seconds that falls in [from, to). */
export function secondsBetween(record: UsageRecord, from: Date, to: Date): number {
  return secondsBefore(record, to) - secondsBefore(record, from);
}

export interface AppTotal {
  app: string;
  /** The category the app's time was mostly reported under. */
  category: ActivityCategory;
  seconds: number;
}

export interface Tally {
  totalSeconds: number;
  /** Seconds per slot, in the order of the slots given. */
  slotSeconds: number[];
  /** Categories with any time, most time first. */
  categories: { category: ActivityCategory; seconds: number }[];
  /** Apps with any time, most time first (then by name). */
  apps: AppTotal[];
}

/** Index of the first slot that ends after `instant` (slots are in order and do not overlap). */
function firstSlotAfter(slots: readonly HourSlot[], instant: number): number {
  let [low, high] = [0, slots.length];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (slots[middle]!.endsAt.getTime() <= instant) low = middle + 1;
    else high = middle;
  }
  return low;
}

const byMostSeconds =
  <T extends { seconds: number }>(key: (item: T) => string) =>
  (a: T, b: T) =>
    b.seconds - a.seconds || key(a).localeCompare(key(b));

/** Adds up the records' time over the slots (time outside them is not counted). */
export function tally(records: readonly UsageRecord[], slots: readonly HourSlot[]): Tally {
  const slotSeconds = slots.map(() => 0);
  const categories = new Map<ActivityCategory, number>();
  const apps = new Map<string, Map<ActivityCategory, number>>();
  for (const record of records) {
    let recordSeconds = 0;
    const end = record.endedAt.getTime();
    for (
      let index = firstSlotAfter(slots, record.startedAt.getTime());
      index < slots.length && slots[index]!.startsAt.getTime() < end;
      index++
    ) {
      const seconds = secondsBetween(record, slots[index]!.startsAt, slots[index]!.endsAt);
      slotSeconds[index]! += seconds;
      recordSeconds += seconds;
    }
    if (recordSeconds === 0) continue;
    categories.set(record.category, (categories.get(record.category) ?? 0) + recordSeconds);
    const perCategory = apps.get(record.app) ?? new Map<ActivityCategory, number>();
    perCategory.set(record.category, (perCategory.get(record.category) ?? 0) + recordSeconds);
    apps.set(record.app, perCategory);
  }
  return {
    totalSeconds: slotSeconds.reduce((sum, seconds) => sum + seconds, 0),
    slotSeconds,
    categories: [...categories]
      .map(([category, seconds]) => ({ category, seconds }))
      .sort(byMostSeconds((item) => item.category)),
    apps: [...apps]
      .map(([app, perCategory]) => {
        const [category] = [...perCategory].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0]!;
        return { app, category, seconds: [...perCategory.values()].reduce((sum, seconds) => sum + seconds, 0) };
      })
      .sort(byMostSeconds((item) => item.app)),
  };
}

/** The apps named as the top ones. */
export function topApps(apps: readonly AppTotal[]): AppTotal[] {
  return apps.slice(0, TOP_APPS);
}

/** Seconds per local date, in date order. */
export function secondsPerDate(slots: readonly HourSlot[], slotSeconds: readonly number[]): { date: string; seconds: number }[] {
  const days: { date: string; seconds: number }[] = [];
  slots.forEach((slot, index) => {
    const last = days.at(-1);
    if (last?.date === slot.date) last.seconds += slotSeconds[index]!;
    else days.push({ date: slot.date, seconds: slotSeconds[index]! });
  });
  return days;
}
