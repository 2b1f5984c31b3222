/*
 * Calendar days in a time zone, as the task pages read them: the due date's "today" and "tomorrow", the list's
 * Today and Upcoming views and their day headings.
 */

/**
 * One day formatter per time zone, made once: building an `Intl.DateTimeFormat` costs far more than formatting with
 * it, and a list of 50 tasks asked for up to four per task (16 % of the list page's server time). At most one per IANA zone.
 */
const dayFormatters = new Map<string, Intl.DateTimeFormat>();

/** The calendar day of an instant in a time zone, as YYYY-MM-DD (comparable as text). */
export function dayIn(instant: Date, timeZone: string): string {
  let formatter = dayFormatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
    dayFormatters.set(timeZone, formatter);
  }
  return formatter.format(instant);
}

/** Day headings ("Monday 30 November") per language and time zone, made once each. */
const headingFormatters = new Map<string, Intl.DateTimeFormat>();

/** A day's heading in a language (a BCP 47 tag) and time zone. */
export function dayHeading(instant: Date, localeTag: string, timeZone: string): string {
  const key = `${localeTag}|${timeZone}`;
  let formatter = headingFormatters.get(key);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat(localeTag, { timeZone, weekday: "long", day: "numeric", month: "long" });
    headingFormatters.set(key, formatter);
  }
  return formatter.format(instant);
}
