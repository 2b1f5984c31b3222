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
  const narrative = !isModuleEnabled("ai")
    ? null
    : await narrate(
        user.id,
        "weekly_report",
        () => weeklyPrompt(facts, calendar, locale),
        () => builtInWeekly(facts, calendar, locale),
      );
  const timeTrackingAvailable = isModuleEnabled("time-tracking");
  return {
    goals: goals.map(({ id, title, status, progress, progressAtStart }) => ({ id, title, status, progress, progressAtStart })),
    timeTrackedSeconds: timeTrackingAvailable ? await trackedSecondsBetween(user.id, week.periodStart, week.periodEnd, now) : 0,
    timeTrackingAvailable,
    narrative,
  };
}
