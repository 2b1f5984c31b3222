import { addDays, isoWeekday, localDateOf, startOfLocalDay } from "../local-dates";
import { PRIORITIES } from "../tasks/vocabulary";
import { countOpenTasks, findGoals, findOpenTasks, type FactGoal, type FactTask } from "./repo";

/*
 * The facts every assistant feature starts from: one user's open tasks and active goals, and their calendar (the
 * local date and time zone). The built-in assistant renders them; for the AI endpoint they go into the prompt.
 * Nothing here reads anyone else's data.
 */

/** The open tasks a chat answer can name (the soonest due first): enough for any question, small enough to send. */
const FACT_TASKS_MAX = 300;

export interface Facts {
  now: Date;
  timeZone: string;
  /** The user's local date now. */
  today: string;
  /** Their open tasks, soonest due first (without a due time last); at most FACT_TASKS_MAX of `openCount`. */
  openTasks: FactTask[];
  openCount: number;
  /** Their active goals, nearest target date first. */
  goals: FactGoal[];
}

export async function gatherFacts(userId: string, timeZone: string, now: Date): Promise<Facts> {
  const openTasks = await findOpenTasks(userId, {}, FACT_TASKS_MAX);
  const openCount = await countOpenTasks(userId);
  const goals = await findGoals(userId, ["active"]);
  return { now, timeZone, today: localDateOf(now, timeZone), openTasks, openCount, goals };
}

/** The instants a local date starts and ends in a time zone. */
export function dayRange(date: string, timeZone: string): { start: Date; end: Date } {
  return { start: startOfLocalDay(date, timeZone), end: startOfLocalDay(addDays(date, 1), timeZone) };
}

/** The Sunday that ends the (ISO) week of a local date. */
export function endOfWeek(date: string): string {
  return addDays(date, 7 - isoWeekday(date));
}

export type Urgency = "overdue" | "today" | "week" | "later" | "undated";

/** How pressing a task is at `now`: overdue, due today, later this week, later, or without a due time. */
export function urgencyOf(task: FactTask, now: Date, timeZone: string): Urgency {
  if (!task.dueAt) return "undated";
  if (task.dueAt < now) return "overdue";
  const day = localDateOf(task.dueAt, timeZone);
  const today = localDateOf(now, timeZone);
  if (day === today) return "today";
  return day <= endOfWeek(today) ? "week" : "later";
}

const URGENCY_ORDER: readonly Urgency[] = ["overdue", "today", "week", "later", "undated"];

/**
 * Tasks in the order to do them: by how pressing their due time is (overdue, today, this week, later, none),
 * then by priority (urgent first), then by due time.
 */
export function byUrgency(tasks: readonly FactTask[], now: Date, timeZone: string): FactTask[] {
  const rank = (task: FactTask) => URGENCY_ORDER.indexOf(urgencyOf(task, now, timeZone));
  return [...tasks].sort(
    (a, b) =>
      rank(a) - rank(b) ||
      PRIORITIES.indexOf(b.priority) - PRIORITIES.indexOf(a.priority) ||
      (a.dueAt?.getTime() ?? Infinity) - (b.dueAt?.getTime() ?? Infinity),
  );
}

/** The open tasks due on a local date, soonest first. */
export function dueOn(facts: Facts, date: string): FactTask[] {
  const { start, end } = dayRange(date, facts.timeZone);
  return facts.openTasks.filter((task) => task.dueAt && task.dueAt >= start && task.dueAt < end);
}
