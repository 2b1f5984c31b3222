import { fromZonedWallTime, zonedWallTime } from "./recurrence";
import type { TASK_VIEWS, TaskStatus } from "./vocabulary";

/*
 * The task list's views as `GET /tasks` filters: Today (open tasks overdue or due today) and Upcoming (open tasks due
 * today or in the 13 days after it), in whole calendar days of the user's time zone. The list page renders a view
 * with these filters and `GET /tasks/view-counts` counts them, so the sidebar's numbers and the lists agree.
 */

export type TaskViewName = (typeof TASK_VIEWS)[number];

/** Upcoming: today and the 13 days after it. */
export const UPCOMING_DAYS = 14;

const OPEN_STATUSES = ["todo", "in_progress"] as const satisfies readonly TaskStatus[];

export interface ViewFilter {
  status: typeof OPEN_STATUSES;
  /** Inclusive, ISO instant (Upcoming only: Today includes the overdue). */
  dueAfter?: string;
  /** Exclusive, ISO instant. */
  dueBefore: string;
}

/** The instant a local calendar day (YYYY-MM-DD) starts in a time zone; `plusDays` moves to a later day. */
export function startOfDay(day: string, timeZone: string, plusDays = 0): string {
  const [year = 0, month = 1, date = 1] = day.split("-").map(Number);
  const wall = { year, month, day: date + plusDays, hour: 0, minute: 0, second: 0, millisecond: 0 };
  return fromZonedWallTime(wall, timeZone).toISOString();
}

/** The calendar day (YYYY-MM-DD) `instant` falls on in `timeZone`. */
export function calendarDay(instant: Date, timeZone: string): string {
  const { year, month, day } = zonedWallTime(instant, timeZone);
  return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
}

/** The filters of a view for someone whose day (YYYY-MM-DD in `timeZone`) is `today`. */
export function viewFilter(view: TaskViewName, today: string, timeZone: string): ViewFilter {
  const dueBefore = startOfDay(today, timeZone, view === "today" ? 1 : UPCOMING_DAYS);
  return view === "upcoming"
    ? { status: OPEN_STATUSES, dueAfter: startOfDay(today, timeZone), dueBefore }
    : { status: OPEN_STATUSES, dueBefore };
}
