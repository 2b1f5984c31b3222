import { useFormatter, useTranslations } from "next-intl";

/*
 * How the activity page writes durations and local dates. Local dates (YYYY-MM-DD in the user's zone) are formatted
 * at noon UTC in UTC, so that no time zone can move them to another day; the same on the server and in the browser.
 */

/** "2 h 5 min", "25 min", "40 s" in the page's language. */
export function useDuration(): (seconds: number) => string {
  const t = useTranslations("Activity");
  return (seconds) => {
    if (seconds < 60) return t("durationSeconds", { seconds });
    const minutes = Math.round(seconds / 60);
    if (minutes < 60) return t("durationMinutes", { minutes });
    return t("durationHours", { hours: Math.floor(minutes / 60), minutes: minutes % 60 });
  };
}

const noonUtc = (date: string) => new Date(`${date}T12:00:00Z`);

/** A local date: its weekday ("Tue", for an axis of one week) or in full ("Tuesday, 10 November 2026"). */
export function useLocalDate(): (date: string, style: "weekday" | "full") => string {
  const format = useFormatter();
  return (date, style) =>
    format.dateTime(
      noonUtc(date),
      style === "weekday" ? { timeZone: "UTC", weekday: "short" } : { timeZone: "UTC", dateStyle: "full" },
    );
}

/** A wall-clock hour (0-23) as the language writes it: "21:00", "9 PM". */
export function useWallHour(): (hour: number) => string {
  const format = useFormatter();
  return (hour) => format.dateTime(new Date(Date.UTC(2000, 0, 1, hour)), { timeZone: "UTC", hour: "numeric", minute: "2-digit" });
}

/** A value's share of the largest one, as a CSS percentage (a sliver for anything above zero, so that it shows). */
export function barSize(value: number, largest: number): string {
  if (value <= 0 || largest <= 0) return "0%";
  return `${Math.max(2, (value / largest) * 100).toFixed(1)}%`;
}
