import { weeklyInsights } from "../assistant/weekly";
import { nowDate } from "../clock";
import { sendEmailToUser } from "../email/service";
import { localeOrDefault } from "../i18n/locales";
import { log } from "../log";
import { addDays, isoWeekday, localDateOf, startOfLocalDay } from "../local-dates";
import { sendPushToUser } from "../push/service";
import { zonedWallTime } from "../tasks/recurrence";
import { deliver, skipAll } from "./reminders";
import {
  claimFire,
  insertWeeklyReport,
  openTasksDueBefore,
  summaryRecipients,
  weekCounts,
  type SummaryKind,
  type SummaryRecipient,
  type SummaryTask,
} from "./repo";
import { effectiveSettings, formatLocalDate, formatTimeOfDay, message, notifyUser } from "./service";

/*
 * The daily summary and the weekly report (jobs `daily-summaries` and `weekly-reports`, every minute).
 *
 * Daily summary: at the user's `dailySummaryTime` (default 07:00) on their wall clock, in their time zone, once per
 * local date (reminder_fires subject `daily`, kind `daily`, occurrence = the local date). It is compared on the
 * wall clock, so it stays at 07:00 local across DST changes; a time that a spring-forward gap skips goes out when
 * the clock jumps past it, and a time the fall-back hour repeats goes out the first time. Catch-up: if the time
 * passed while the service was down, it goes out later that same local day, never on the next. It lists the open
 * tasks the user is responsible for that are due today or overdue, leaving out those whose preferences say
 * `daily: false`; with nothing to list, nothing is sent and every channel is logged as skipped.
 *
 * Weekly report: Mondays at 08:00 on the user's wall clock (catch-up: later that Monday), once per user and week
 * (reminder_fires subject `weekly`; weekly_reports unique per user and week). It covers the week before, Monday
 * 00:00 to Monday 00:00 local, and `weekStart` names that week's Monday. Counted over the tasks the user is
 * responsible for: completed and created during the week; overdue and still open when it is made. The assistant
 * adds how the user's goals moved, the time tracked and a narrative (lib/assistant/weekly.ts; an AI endpoint that
 * fails never costs a report: the built-in narrative stands in, with the reason). Stored (GET /reports/weekly)
 * and sent on `summaryChannels`; a quiet week (nothing completed, created, overdue or tracked, no goal moved) is kept but
 * sent only to those whose settings say `weeklyReportWhenQuiet`, and its narrative is the built-in one (no AI request).
 * The e-mail carries the narrative and links to the report's page.
 */

export const WEEKLY_REPORT_HOUR = 8;
const BATCH = 500;
const SUMMARY_TASKS_MAX = 50;
export const NOT_CHOSEN_IN_SETTINGS = "not chosen in notification settings";
export const NOTHING_TO_SAY = "nothing due today or overdue";
export const QUIET_WEEK = "nothing happened this week; quiet weeks are sent only when asked for in the settings";

export interface DailySlot {
  /** The local date the summary is for (its occurrence). */
  date: string;
  dayStart: Date;
  dayEnd: Date;
}

/**
 * The daily summary due at `now` for a user in `timeZone` who wants it at `time` (HH:MM local) and last had one
 * for the local date `last` (null: never); null when none is due. Due once the wall clock shows `time` or later
 * on a local date that has not had its summary yet.
 */
export function dailySummaryDue(now: Date, timeZone: string, time: string, last: string | null): DailySlot | null {
  const wall = zonedWallTime(now, timeZone);
  const date = localDateOf(now, timeZone);
  if (last !== null && last >= date) return null;
  const [hour, minute] = time.split(":").map(Number) as [number, number];
  if (wall.hour * 60 + wall.minute < hour * 60 + minute) return null;
  return { date, dayStart: startOfLocalDay(date, timeZone), dayEnd: startOfLocalDay(addDays(date, 1), timeZone) };
}

export interface WeeklySlot {
  /** Monday of the reported week (the report's occurrence and weekStart). */
  weekStart: string;
  /** Its Sunday. */
  weekEnd: string;
  periodStart: Date;
  periodEnd: Date;
}

/**
 * The weekly report due at `now` for a user in `timeZone` whose latest report is for the week starting `last`
 * (null: none yet); null when none is due. Due on a Monday from 08:00 local until that Monday ends; it reports
 * on the seven days before that Monday.
 */
export function weeklyReportDue(now: Date, timeZone: string, last: string | null): WeeklySlot | null {
  const wall = zonedWallTime(now, timeZone);
  const today = localDateOf(now, timeZone);
  if (isoWeekday(today) !== 1 || wall.hour < WEEKLY_REPORT_HOUR) return null;
  const weekStart = addDays(today, -7);
  if (last !== null && last >= weekStart) return null;
  return {
    weekStart,
    weekEnd: addDays(today, -1),
    periodStart: startOfLocalDay(weekStart, timeZone),
    periodEnd: startOfLocalDay(today, timeZone),
  };
}

/**
 * Whether it is Monday 08:00 or later, still Monday, anywhere on Earth (UTC+14 to UTC−12): from Sunday 18:00 to
 * Tuesday 12:00 UTC. The rest of the week the weekly job need not look at anyone.
 */
export function weeklyWindowOpen(now: Date): boolean {
  const hoursIntoWeek = ((now.getUTCDay() + 6) % 7) * 24 + now.getUTCHours(); // from Monday 00:00 UTC
  const week = 7 * 24;
  return hoursIntoWeek >= week - 6 || hoursIntoWeek < 36;
}

// The jobs

/** Calls `each` for every user who receives summaries of this kind, a page at a time; answers how many it sent. */
async function forEachRecipient(kind: SummaryKind, each: (recipient: SummaryRecipient) => Promise<boolean>): Promise<number> {
  let sent = 0;
  let after: string | null = null;
  for (;;) {
    const page = await summaryRecipients(kind, after, BATCH);
    for (const recipient of page) {
      const done = await each(recipient).catch((error: unknown) => {
        log.error(`The ${kind} summary could not be sent`, { userId: recipient.id, error: String(error) });
        return false;
      });
      if (done) sent++;
    }
    if (page.length < BATCH) return sent;
    after = page.at(-1)!.id;
  }
}

function taskLine(task: SummaryTask, recipient: SummaryRecipient): string {
  const time = formatTimeOfDay(new Date(task.dueAt), recipient.timeZone, recipient.locale);
  return message(recipient.locale, "taskLine", { title: task.title, time });
}

async function sendDailySummary(recipient: SummaryRecipient, slot: DailySlot, now: Date): Promise<boolean> {
  const fireId = await claimFire({
    userId: recipient.id,
    subject: "daily",
    kind: "daily",
    occurrence: slot.date,
    taskId: null,
    firedAt: now,
  });
  if (fireId === null) return false;
  const channels = effectiveSettings(recipient.settings).summaryChannels;
  const tasks = await openTasksDueBefore(recipient.id, slot.dayEnd, SUMMARY_TASKS_MAX);
  if (tasks.length === 0) {
    await skipAll(fireId, channels, NOTHING_TO_SAY, NOT_CHOSEN_IN_SETTINGS);
    return true;
  }
  const overdue = tasks.filter((task) => new Date(task.dueAt) < slot.dayStart);
  const dueToday = tasks.filter((task) => new Date(task.dueAt) >= slot.dayStart);
  const { locale } = recipient;
  const title = message(locale, "dailyTitle", { date: formatLocalDate(slot.date, locale) });
  const sections = [
    dueToday.length
      ? [message(locale, "dueToday", { count: dueToday.length }), ...dueToday.map((task) => taskLine(task, recipient))]
      : [],
    overdue.length
      ? [message(locale, "overdue", { count: overdue.length }), ...overdue.map((task) => taskLine(task, recipient))]
      : [],
  ].filter((lines) => lines.length > 0);
  const body = sections.map((lines) => lines.join("\n")).join("\n\n");
  const emailTask = (task: SummaryTask) => ({ id: task.id, title: task.title, dueAt: task.dueAt });
  const data = { date: slot.date, dueToday: dueToday.map((task) => task.id), overdue: overdue.map((task) => task.id) };
  await deliver(fireId, channels, NOT_CHOSEN_IN_SETTINGS, {
    in_app: async () => {
      await notifyUser(recipient.id, { kind: "daily_summary", title, body, data });
      return { status: "sent" };
    },
    push: () =>
      sendPushToUser(recipient.id, { title, body, url: `/${localeOrDefault(locale)}`, tag: `daily:${slot.date}`, data }),
    email: () =>
      sendEmailToUser(recipient.id, {
        template: "daily_summary",
        params: { date: slot.date, dueToday: dueToday.map(emailTask), overdue: overdue.map(emailTask) },
      }),
  });
  return true;
}

/** One run of the daily summaries at `now`: sends each that is due; answers how many went out (or were logged as empty). */
export async function runDailySummaries(now: Date = nowDate()): Promise<number> {
  return forEachRecipient("daily", async (recipient) => {
    const time = effectiveSettings(recipient.settings).dailySummaryTime;
    const slot = time === null ? null : dailySummaryDue(now, recipient.timeZone, time, recipient.last);
    return slot ? sendDailySummary(recipient, slot, now) : false;
  });
}

async function sendWeeklyReport(recipient: SummaryRecipient, slot: WeeklySlot, now: Date): Promise<boolean> {
  // Made before it is claimed, so that the claim and the stored report follow each other closely (the narrative
  // may wait on the AI endpoint): a process that stops in between leaves no claimed week without its report.
  const counts = await weekCounts(recipient.id, slot.periodStart, slot.periodEnd, now);
  const { quiet, ...insights } = await weeklyInsights(recipient, slot, counts, now);
  const fireId = await claimFire({
    userId: recipient.id,
    subject: "weekly",
    kind: "weekly",
    occurrence: slot.weekStart,
    taskId: null,
    firedAt: now,
  });
  if (fireId === null) return false;
  await insertWeeklyReport({
    userId: recipient.id,
    weekStart: slot.weekStart,
    summary: { weekEnd: slot.weekEnd, timeZone: recipient.timeZone, ...counts, ...insights },
    createdAt: now,
  });
  const { locale } = recipient;
  const title = message(locale, "weeklyTitle", {
    start: formatLocalDate(slot.weekStart, locale),
    end: formatLocalDate(slot.weekEnd, locale),
  });
  const body = message(locale, "weeklyBody", { ...counts });
  const data = { weekStart: slot.weekStart, weekEnd: slot.weekEnd, ...counts };
  const settings = effectiveSettings(recipient.settings);
  // A quiet week's report is kept (GET /reports/weekly) and every channel logged as skipped, unless asked for.
  const held = quiet && !settings.weeklyReportWhenQuiet;
  const reportPath = `/${localeOrDefault(locale)}/reports/${slot.weekStart}`;
  await deliver(fireId, held ? [] : settings.summaryChannels, held ? QUIET_WEEK : NOT_CHOSEN_IN_SETTINGS, {
    in_app: async () => {
      await notifyUser(recipient.id, { kind: "weekly_report", title, body, data });
      return { status: "sent" };
    },
    push: () =>
      sendPushToUser(recipient.id, {
        title,
        body,
        url: reportPath,
        tag: `weekly:${slot.weekStart}`,
        data,
      }),
    email: () =>
      sendEmailToUser(recipient.id, {
        template: "weekly_report",
        params: {
          weekStart: slot.weekStart,
          weekEnd: slot.weekEnd,
          ...counts,
          narrative: insights.narrative?.text ?? null,
          reportPath,
        },
      }),
  });
  return true;
}

/** One run of the weekly reports at `now`: makes, stores and sends each that is due; answers how many. */
export async function runWeeklyReports(now: Date = nowDate()): Promise<number> {
  if (!weeklyWindowOpen(now)) return 0;
  return forEachRecipient("weekly", async (recipient) => {
    const slot = weeklyReportDue(now, recipient.timeZone, recipient.last);
    return slot ? sendWeeklyReport(recipient, slot, now) : false;
  });
}
