import { z } from "zod";
import type { AiMessage } from "../ai/provider";
import { ENGLISH_LANGUAGE_NAMES, type Locale } from "../i18n/locales";
import { zonedWallTime } from "../tasks/recurrence";
import { dueAtOn, type BriefingFacts, type Proposal, type WeekFacts } from "./built-in";
import { byUrgency, urgencyOf, type Facts } from "./facts";
import type { FactTask } from "./repo";

/*
 * Prompts for the AI endpoint, built from one user's facts only, and what is read back from its answers. The prompts
 * are instructions to the model, never shown to the user, so they are written in English and not kept with the
 * messages (messages/*.json); they name the language to answer in (ENGLISH_LANGUAGE_NAMES).
 *
 * Proposed actions: the model may end a chat answer with one fenced block, exactly
 *
 *   ```spolu-actions
 *   {"actions": [{"kind": "create_task", "title": "Buy milk", "dueAt": "2026-03-06T17:00:00+01:00"},
 *                {"kind": "reschedule_task", "taskId": "<an id from the facts>", "dueAt": "2026-03-09"}]}
 *   ```
 *
 * `dueAt` is an ISO 8601 date-time with an offset, a local date (the task is then due at 17:00 that day, or
 * keeps its time of day when rescheduled), or null for a new task without one. The block is never shown to the
 * user. Each action is checked: a missing or overlong title, an unreadable date, or a task id that is not one of
 * the user's open tasks in the facts drops that action (the rest stay); at most ACTIONS_MAX are kept.
 */

export const ACTIONS_FENCE = "```spolu-actions";
const ACTIONS_MAX = 5;
/** Open tasks a prompt lists (the most pressing first); the count says how many there are in all. */
const PROMPT_TASKS_MAX = 60;
/** Earlier messages of the conversation sent with a chat prompt. */
export const PROMPT_HISTORY_MAX = 12;

type Calendar = Pick<Facts, "now" | "timeZone" | "today">;

/** An instant as the user's wall clock shows it, with the offset: 2026-03-05T17:00+01:00. */
export function localIso(instant: Date, timeZone: string): string {
  const wall = zonedWallTime(instant, timeZone);
  const pad = (value: number) => String(Math.abs(value)).padStart(2, "0");
  const wallMs = Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute, wall.second, wall.millisecond);
  const offset = Math.round((wallMs - instant.getTime()) / 60_000);
  const sign = offset < 0 ? "-" : "+";
  return `${wall.year}-${pad(wall.month)}-${pad(wall.day)}T${pad(wall.hour)}:${pad(wall.minute)}${sign}${pad(Math.trunc(offset / 60))}:${pad(offset % 60)}`;
}

function taskFact(task: FactTask, calendar: Calendar) {
  return {
    id: task.id,
    title: task.title,
    status: task.status,
    priority: task.priority,
    due: task.dueAt ? localIso(task.dueAt, calendar.timeZone) : null,
    overdue: urgencyOf(task, calendar.now, calendar.timeZone) === "overdue",
  };
}

function preamble(calendar: Calendar, locale: Locale): string {
  const weekday = new Intl.DateTimeFormat("en", { timeZone: calendar.timeZone, weekday: "long" }).format(calendar.now);
  return [
    "You are the assistant in Spolu, a task manager. You help one user with their own tasks and goals.",
    `It is now ${localIso(calendar.now, calendar.timeZone)} (${weekday}) in the user's time zone ${calendar.timeZone}.`,
    `Answer in ${ENGLISH_LANGUAGE_NAMES[locale]}, briefly, in plain text without Markdown.`,
    "Use only the facts below; never invent tasks or goals. When you name a task, use its exact title.",
  ].join("\n");
}

export function chatPrompt(facts: Facts, locale: Locale, history: readonly AiMessage[], message: string): AiMessage[] {
  const tasks = byUrgency(facts.openTasks, facts.now, facts.timeZone).slice(0, PROMPT_TASKS_MAX);
  const system = [
    preamble(facts, locale),
    "If the user asks to add a task or to change a due date, do not say it is done: propose it at the very end of your answer in one block, exactly like this:",
    ACTIONS_FENCE,
    '{"actions": [{"kind": "create_task", "title": "<title>", "dueAt": "<ISO 8601 date-time with offset, a date YYYY-MM-DD, or null>"}, {"kind": "reschedule_task", "taskId": "<id of one of the open tasks below>", "dueAt": "<ISO 8601 date-time with offset, or a date YYYY-MM-DD>"}]}',
    "```",
    "The user confirms each proposed action in the app. Leave the block out when there is nothing to propose.",
    "Facts (JSON):",
    JSON.stringify({
      openTaskCount: facts.openCount,
      openTasks: tasks.map((task) => taskFact(task, facts)),
      goals: facts.goals.map(({ title, progress, targetDate, status }) => ({ title, status, progress, targetDate })),
    }),
  ].join("\n");
  return [{ role: "system", content: system }, ...history, { role: "user", content: message }];
}

export function briefingPrompt(briefing: BriefingFacts, calendar: Calendar, locale: Locale): AiMessage[] {
  const system = [
    preamble(calendar, locale),
    `Write the user's briefing for ${briefing.date}: two to four friendly sentences on what is due, what is overdue, where to start and how their goals stand.`,
    "Facts (JSON):",
    JSON.stringify({
      date: briefing.date,
      dueThatDay: briefing.today.map((task) => taskFact(task, calendar)),
      overdue: briefing.overdue.map((task) => taskFact(task, calendar)),
      goals: briefing.goals.map(({ title, progress, targetDate }) => ({ title, progress, targetDate })),
      ...(briefing.reviews && { flashcardsDueForReview: briefing.reviews.total }),
    }),
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: `My briefing for ${briefing.date}, please.` },
  ];
}

export function weeklyPrompt(week: WeekFacts, calendar: Calendar, locale: Locale): AiMessage[] {
  const system = [
    preamble(calendar, locale),
    `Write a short review of the user's week from ${week.weekStart} to ${week.weekEnd}: two to four encouraging sentences on what they completed, what is still open or overdue and how their goals moved.`,
    "Facts (JSON):",
    JSON.stringify({
      completedTasks: week.completed,
      createdTasks: week.created,
      overdueNow: week.overdue,
      openNow: week.open,
      goals: week.goals.map(({ title, progress, progressAtStart }) => ({
        title,
        progressNow: progress,
        progressAtWeekStart: progressAtStart,
      })),
    }),
  ].join("\n");
  return [
    { role: "system", content: system },
    { role: "user", content: `My week from ${week.weekStart} to ${week.weekEnd}, please.` },
  ];
}

// Reading the answer

const localDate = z.iso.date();
const dueValue = z.union([z.iso.datetime({ offset: true }), localDate]);
const proposedAction = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("create_task"), title: z.string().trim().min(1).max(500), dueAt: dueValue.nullable().optional() }),
  z.object({ kind: z.literal("reschedule_task"), taskId: z.string(), dueAt: dueValue }),
]);

/** The due time a proposed `dueAt` means: a date-time as given, a local date at the usual time (or the task's own). */
function dueOf(value: string, facts: Facts, task: FactTask | null): Date {
  return localDate.safeParse(value).success ? dueAtOn(value, facts, task?.dueAt ?? null) : new Date(value);
}

/** The valid actions of an answer's block (invalid ones dropped); none when there is no readable block. */
export function parseProposals(block: string, facts: Facts): Proposal[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(block);
  } catch {
    return [];
  }
  const items = Array.isArray(parsed) ? parsed : (parsed as { actions?: unknown } | null)?.actions;
  if (!Array.isArray(items)) return [];
  const proposals: Proposal[] = [];
  for (const item of items) {
    const action = proposedAction.safeParse(item);
    if (!action.success) continue;
    if (action.data.kind === "create_task") {
      const { title, dueAt } = action.data;
      proposals.push({ kind: "create_task", title, dueAt: dueAt ? dueOf(dueAt, facts, null) : null, taskId: null });
    } else {
      const { taskId, dueAt } = action.data;
      const task = facts.openTasks.find((candidate) => candidate.id === taskId);
      if (task) proposals.push({ kind: "reschedule_task", title: task.title, dueAt: dueOf(dueAt, facts, task), taskId });
    }
    if (proposals.length === ACTIONS_MAX) break;
  }
  return proposals;
}

/**
 * Splits an answer as it streams in: the text to show (everything before the actions block, sent on as it comes,
 * holding back only what may be the start of the fence) and, at the end, the actions of the block.
 */
export class AnswerReader {
  private text = "";
  private shown = 0;

  /** Adds a piece of the answer; answers the part of it that may now be shown. */
  push(piece: string): string {
    this.text += piece;
    const end = this.showableEnd();
    const delta = this.text.slice(this.shown, end);
    this.shown = Math.max(this.shown, end);
    return delta;
  }

  private showableEnd(): number {
    const fence = this.text.indexOf(ACTIONS_FENCE);
    if (fence !== -1) return fence;
    for (let keep = Math.min(ACTIONS_FENCE.length - 1, this.text.length); keep > 0; keep--) {
      if (ACTIONS_FENCE.startsWith(this.text.slice(-keep))) return this.text.length - keep;
    }
    return this.text.length;
  }

  /** The whole answer: its text (without the block) and the valid actions of its block. */
  finish(facts: Facts): { text: string; proposals: Proposal[] } {
    const fence = this.text.indexOf(ACTIONS_FENCE);
    if (fence === -1) return { text: this.text.trim(), proposals: [] };
    const block = this.text.slice(fence + ACTIONS_FENCE.length);
    const close = block.indexOf("```");
    return {
      text: this.text.slice(0, fence).trim(),
      proposals: parseProposals(close === -1 ? block : block.slice(0, close), facts),
    };
  }
}
