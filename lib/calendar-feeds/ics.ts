import { getVtimezoneComponent } from "@touch4it/ical-timezones";
import ical from "ical-generator";
import { DateTime } from "luxon";
import type { Recurrence, TaskRow } from "../db/schema/tasks";

/*
 * The iCalendar text of a feed (RFC 5545), made with ical-generator (times handed over as Luxon DateTimes, which
 * ical-generator converts to the event's zone itself): one VEVENT per open task with a due date, at its
 * due time and without an end (a point in time, as a due date is). Times are written in the feed owner's time zone
 * (`DTSTART;TZID=Europe/Prague:20261201T090000`) with that zone's VTIMEZONE (from @touch4it/ical-timezones), which
 * every common calendar app (Google, Apple, Outlook, Thunderbird) reads; with the zone UTC, in UTC (`...Z`).
 *
 * A recurring task (anchor `scheduled`) is the current occurrence of its series: it becomes a series from that
 * occurrence on, `RRULE:FREQ=DAILY|WEEKLY|MONTHLY;INTERVAL=n` with the series' `count` (less the occurrences already
 * past) and `until` (the end of that local day). A monthly series on the 29th-31st falls on the month's last day
 * in shorter months, as Spolu schedules it (`BYMONTHDAY=-1` for the 31st, `BYMONTHDAY=28,29,30;BYSETPOS=-1` for the 30th). Its UID is the
 * series', so that a calendar app replaces the series when the next occurrence takes over. A series repeated after
 * completion (anchor `completion`) has no dates to foretell: only its current occurrence is shown.
 */

export interface FeedTask {
  task: TaskRow;
  /** Whether this task is the latest open occurrence of its series (the one that carries the RRULE). */
  seriesHead: boolean;
}

const FREQUENCY = { daily: "DAILY", weekly: "WEEKLY", monthly: "MONTHLY" } as const;

const utcStamp = (instant: DateTime) => instant.toUTC().toFormat("yyyyLLdd'T'HHmmss'Z'");

/** The RRULE (without `RRULE:`) of a series from its current occurrence on, or null when it has none to give. */
export function recurrenceRule(task: TaskRow, timeZone: string): string | null {
  const recurrence: Recurrence | null = task.recurrence;
  if (!recurrence || recurrence.anchor === "completion" || !task.dueAt) return null;
  const parts = [`FREQ=${FREQUENCY[recurrence.frequency]}`, `INTERVAL=${recurrence.interval}`];
  if (recurrence.frequency === "monthly") {
    // The series keeps the day of month of its start, clamped to shorter months.
    const day = DateTime.fromJSDate(task.seriesStartAt ?? task.dueAt, { zone: timeZone }).day;
    // The 31st is the month's last day, which every calendar app expands alike; the 29th and 30th are "the last of
    // these days the month has" (RFC 5545 BYSETPOS, which some parsers, ical.js among them, do not apply to days).
    if (day === 31) parts.push("BYMONTHDAY=-1");
    else if (day > 28)
      parts.push(`BYMONTHDAY=${Array.from({ length: day - 27 }, (_, index) => 28 + index).join(",")}`, "BYSETPOS=-1");
    else parts.push(`BYMONTHDAY=${day}`);
  }
  if (recurrence.count !== null) {
    const left = recurrence.count - (task.occurrence ?? 1) + 1;
    if (left <= 1) return null;
    parts.push(`COUNT=${left}`);
  } else if (recurrence.until) {
    // Through the whole `until` day, in the zone: UNTIL is in UTC, as RFC 5545 asks with a TZID start.
    parts.push(`UNTIL=${utcStamp(DateTime.fromISO(recurrence.until, { zone: timeZone }).endOf("day").startOf("second"))}`);
  }
  return parts.join(";");
}

/** The feed's iCalendar text. */
export function calendarText(
  feedTasks: readonly FeedTask[],
  options: { timeZone: string; name: string; taskUrl?: (id: string) => string },
) {
  const { timeZone } = options;
  const zoned = timeZone !== "UTC";
  const calendar = ical({ name: options.name, prodId: { company: "Spolu", product: "Tasks", language: "EN" } });
  if (zoned) calendar.timezone({ name: null, generator: getVtimezoneComponent });
  calendar.ttl(60 * 60);
  for (const { task, seriesHead } of feedTasks) {
    if (!task.dueAt) continue;
    const rule = seriesHead ? recurrenceRule(task, timeZone) : null;
    calendar.createEvent({
      id: rule && task.seriesId ? `series-${task.seriesId}@spolu` : `task-${task.id}@spolu`,
      start: DateTime.fromJSDate(task.dueAt, { zone: timeZone }),
      timezone: zoned ? timeZone : null,
      summary: task.title,
      description: task.description || null,
      url: options.taskUrl?.(task.id) ?? null,
      repeating: rule,
      stamp: task.updatedAt,
      lastModified: task.updatedAt,
      created: task.createdAt,
    });
  }
  return calendar.toString();
}
