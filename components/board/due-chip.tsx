"use client";

import { useLocale, useTranslations } from "next-intl";
import { WarningIcon } from "./board-icons";

interface Formatters {
  /** The calendar day, YYYY-MM-DD (comparable as text). */
  day: Intl.DateTimeFormat;
  date: Intl.DateTimeFormat;
  time: Intl.DateTimeFormat;
}

/**
 * The chip's formatters, made once per language and time zone: building an `Intl.DateTimeFormat` costs far more
 * than formatting with it, and a board shows a chip on most cards.
 */
const formatters = new Map<string, Formatters>();

function formattersFor(locale: string, timeZone: string): Formatters {
  const key = `${locale} ${timeZone}`;
  let made = formatters.get(key);
  if (!made) {
    made = {
      day: new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" }),
      date: new Intl.DateTimeFormat(locale, { timeZone, day: "numeric", month: "short" }),
      time: new Intl.DateTimeFormat(locale, { timeZone, hour: "numeric", minute: "2-digit" }),
    };
    formatters.set(key, made);
  }
  return made;
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * A card's due date as a short chip, in the user's time zone and the page's language: "Due today, 9:00",
 * "Due tomorrow, 9:00", "Due Mar 14"; past due (and not finished) it says "Overdue since Mar 12" with a warning
 * sign, so that it does not rely on its colour.
 */
export function DueChip({
  dueAt,
  now: nowAt,
  timeZone,
  finished,
}: {
  dueAt: string;
  now: string;
  timeZone: string;
  finished: boolean;
}) {
  const t = useTranslations("Board");
  const format = formattersFor(useLocale(), timeZone);
  const due = new Date(dueAt);
  const now = new Date(nowAt);
  const day = format.day.format(due);
  const overdue = !finished && due < now;

  let text: string;
  if (overdue) text = t("dueOverdue", { date: format.date.format(due) });
  else if (day === format.day.format(now)) text = t("dueToday", { time: format.time.format(due) });
  else if (day === format.day.format(new Date(now.getTime() + DAY_MS)))
    text = t("dueTomorrow", { time: format.time.format(due) });
  else text = t("dueOn", { date: format.date.format(due) });

  return (
    <time dateTime={dueAt} className={`board-due${overdue ? " board-due-overdue" : ""}`}>
      {overdue && <WarningIcon />}
      {text}
    </time>
  );
}
