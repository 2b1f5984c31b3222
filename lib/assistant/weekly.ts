import { BUILT_IN } from "../ai/provider";
import { DEFAULT_LOCALE, isLocale } from "../i18n/locales";
import { localDateOf } from "../local-dates";
import { isModuleEnabled } from "../modules/registry";
import { trackedSecondsBetween } from "../time-tracking/service";
import { builtInWeekly, type WeekFacts } from "./built-in";
import { narrate, type Narrative } from "./narrative";
import { weeklyPrompt } from "./prompt";
import { findGoalsOverWeek, type GoalWeek } from "./repo";

/*
 * What the assistant adds to a weekly report (lib/notifications/summaries.ts makes, stores and sends it): how
 * the user's goals moved over the week, the time they tracked (lib/time-tracking: their own entries, each counted for
 * its part inside the week; 0 with `timeTrackingAvailable: false` while the time-tracking module is off), and a
 * narrative. While the `ai` module is switched off the report has no narrative (null): neither the AI endpoint nor
 * the built-in assistant writes one.
 */

export interface WeeklyInsights {
  goals: Pick<GoalWeek, "id" | "title" | "status" | "progress" | "progressAtStart">[];
  timeTrackedSeconds: number;
  timeTrackingAvailable: boolean;
  narrative: Narrative | null;
  /**
   * Nothing happened: no task completed, created or overdue, no time tracked, no goal moved. The report is kept, but
   * sent only to those who ask for quiet weeks too; its narrative is the built-in one (no AI request is spent on it).
   */
  quiet: boolean;
}

export interface ReportedWeek {
  weekStart: string;
  weekEnd: string;
  periodStart: Date;
  periodEnd: Date;
}

export async function weeklyInsights(
  user: { id: string; locale: string; timeZone: string },
  week: ReportedWeek,
  counts: Pick<WeekFacts, "completed" | "created" | "overdue" | "open">,
  now: Date,
): Promise<WeeklyInsights> {
  const goals = await findGoalsOverWeek(user.id, week.weekStart, week.periodStart, week.periodEnd);
  const locale = isLocale(user.locale) ? user.locale : DEFAULT_LOCALE;
  const facts: WeekFacts = { weekStart: week.weekStart, weekEnd: week.weekEnd, ...counts, goals };
  const calendar = { now, timeZone: user.timeZone, today: localDateOf(now, user.timeZone) };
  const timeTrackingAvailable = isModuleEnabled("time-tracking");
  const timeTrackedSeconds = timeTrackingAvailable
    ? await trackedSecondsBetween(user.id, week.periodStart, week.periodEnd, now)
    : 0;
  const quiet =
    counts.completed === 0 &&
    counts.created === 0 &&
    counts.overdue === 0 &&
    timeTrackedSeconds === 0 &&
    goals.every((goal) => goal.progressAtStart === goal.progress);
  const builtIn = () => builtInWeekly(facts, calendar, locale);
  const narrative = !isModuleEnabled("ai")
    ? null
    : quiet
      ? { text: builtIn(), answeredBy: BUILT_IN, fallbackReason: null }
      : await narrate(user.id, "weekly_report", () => weeklyPrompt(facts, calendar, locale), builtIn);
  return {
    goals: goals.map(({ id, title, status, progress, progressAtStart }) => ({ id, title, status, progress, progressAtStart })),
    timeTrackedSeconds,
    timeTrackingAvailable,
    narrative,
    quiet,
  };
}
