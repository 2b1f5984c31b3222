import type { AiMessage } from "../ai/provider";
import type { ActivityFacts, Insight } from "./schema";
import { LATE_NIGHT_FROM_HOUR, LATE_NIGHT_UNTIL_HOUR, LEISURE_CATEGORIES } from "./vocabulary";

/*
 * The analysis of a week of activity (pure): the built-in assistant's rules over the user's facts, and the prompt
 * that gives the same facts, and nothing else, to the AI endpoint.
 */

/** A focus block: one pomodoro. */
export const FOCUS_BLOCK_MINUTES = 25;
const FOCUS_BLOCKS_MAX = 4;

/**
 * Focus time for the open tasks: one block per two pressing tasks (overdue or due within the week), at least one
 * and at most four a day, taken from the heaviest leisure category that averages at least one block a day.
 */
function focusInsight(facts: ActivityFacts, peakHour: number | null): Insight {
  const { open, overdue, dueSoon, next } = facts.tasks;
  const blocks = Math.min(FOCUS_BLOCKS_MAX, Math.max(1, Math.ceil((overdue + dueSoon) / 2)));
  const minutesPerDay = blocks * FOCUS_BLOCK_MINUTES;
  const source = facts.categories.find(
    ({ category, seconds }) => LEISURE_CATEGORIES.includes(category) && seconds / facts.days >= FOCUS_BLOCK_MINUTES * 60,
  );
  return {
    kind: "focus",
    minutesPerDay,
    openTasks: open,
    overdueTasks: overdue,
    dueSoonTasks: dueSoon,
    fromCategory: source?.category ?? null,
    peakHour,
    nextTask: next[0] ?? null,
  };
}

/** The built-in assistant's findings, most telling first. */
export function builtInInsights(facts: ActivityFacts): Insight[] {
  const insights: Insight[] = [];
  if (facts.totalSeconds > 0 || facts.previousTotalSeconds > 0) {
    insights.push({
      kind: "change",
      totalSeconds: facts.totalSeconds,
      previousTotalSeconds: facts.previousTotalSeconds,
      changePercent: facts.changePercent,
    });
  }
  const [heaviest] = facts.categories;
  const [topApp] = facts.topApps;
  if (facts.totalSeconds === 0 || !heaviest || !topApp) {
    insights.unshift({ kind: "noData" });
  } else {
    insights.push({
      kind: "heaviestCategory",
      category: heaviest.category,
      seconds: heaviest.seconds,
      sharePercent: Math.round((heaviest.seconds / facts.totalSeconds) * 100),
      dailyAverageSeconds: Math.round(heaviest.seconds / facts.days),
    });
    insights.push({ kind: "topApp", ...topApp, dailyAverageSeconds: Math.round(topApp.seconds / facts.days) });
    if (facts.lateNightSeconds > 0)
      insights.push({ kind: "lateNight", seconds: facts.lateNightSeconds, nights: facts.lateNights });
  }
  insights.push(facts.tasks.open > 0 ? focusInsight(facts, facts.peakHour) : { kind: "noOpenTasks" });
  return insights;
}

/** The change against the period before, in whole percent; null when that period had no time. */
export function changePercent(total: number, previous: number): number | null {
  return previous > 0 ? Math.round(((total - previous) / previous) * 100) : null;
}

/** Whether a wall-clock hour is late at night. */
export function isLateNight(hour: number): boolean {
  return hour >= LATE_NIGHT_FROM_HOUR || hour < LATE_NIGHT_UNTIL_HOUR;
}

export interface AnalysisWindow {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  timeZone: string;
}

/** The messages for the AI endpoint: instructions, then the user's own facts as JSON (nobody else's). */
export function analysisPrompt(facts: ActivityFacts, window: AnalysisWindow, language: string): AiMessage[] {
  const instructions = [
    "You are the activity coach of Spolu, a task app. You get one person's phone usage and open tasks as JSON facts:",
    `seconds per category and app from ${window.from} to ${window.to} and in the ${facts.days} days before,`,
    `late-night use (${LATE_NIGHT_FROM_HOUR}:00 to 0${LATE_NIGHT_UNTIL_HOUR}:00), the hour of the day with the most use, and their open tasks.`,
    `Write a short analysis for them in ${language}, at most 150 words of plain text without headings:`,
    "compare with the period before, name the heaviest category, mention late-night use if there is any, and suggest",
    "concrete focus time for their tasks (name the task due first, if any). Use only these facts; never invent numbers.",
  ].join(" ");
  const data = {
    period: { from: window.from, to: window.to },
    previousPeriod: { from: window.previousFrom, to: window.previousTo },
    timeZone: window.timeZone,
    ...facts,
  };
  return [
    { role: "system", content: instructions },
    { role: "user", content: JSON.stringify(data) },
  ];
}
