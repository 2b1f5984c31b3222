import { languageTag, type Locale } from "../i18n/locales";
import { serverTranslator, type ServerTranslator } from "../i18n/server-messages";
import { fromZonedWallTime, zonedWallTime } from "../tasks/recurrence";
import { byUrgency, dayRange, dueOn, endOfWeek, urgencyOf, type Facts } from "./facts";
import type { FactGoal, FactTask, GoalWeek } from "./repo";
import { fold, understand, type Intent } from "./understand";

/*
 * The built-in assistant: deterministic answers computed from the user's own facts, in their language. It names
 * their tasks by title, counts them, orders them by urgency and proposes actions (a new task, a new due time)
 * that the user confirms. Used whenever no AI endpoint is configured, and when the endpoint's answer is unusable.
 */

/** An action the assistant proposes; nothing happens until the user confirms it. */
export interface Proposal {
  kind: "create_task" | "reschedule_task";
  /** The new task's title, or the title of the task to reschedule. */
  title: string;
  dueAt: Date | null;
  /** The task to reschedule. */
  taskId: string | null;
}

export interface BuiltInAnswer {
  text: string;
  proposals: Proposal[];
}

/** A task due "tomorrow" is due at 17:00 local time (the end of a working day), or at 23:59 once that has passed. */
const DEFAULT_DUE = { hour: 17, minute: 0 };
const LATE_DUE = { hour: 23, minute: 59 };
/** Tasks listed in one answer; the rest are counted. */
const LIST_MAX = 10;

/** The instant a local date's `time` falls on in a time zone. */
function atLocalTime(date: string, time: { hour: number; minute: number }, timeZone: string): Date {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return fromZonedWallTime({ year, month, day, hour: time.hour, minute: time.minute, second: 0, millisecond: 0 }, timeZone);
}

/** The due time a task moved (or added) to a local date gets: its own time of day if it had one, else the default. */
export function dueAtOn(date: string, facts: Pick<Facts, "now" | "timeZone">, keepTimeOf: Date | null = null): Date {
  if (keepTimeOf) return atLocalTime(date, zonedWallTime(keepTimeOf, facts.timeZone), facts.timeZone);
  const usual = atLocalTime(date, DEFAULT_DUE, facts.timeZone);
  return usual > facts.now ? usual : atLocalTime(date, LATE_DUE, facts.timeZone);
}

/** The open tasks a request names: an exact title, else titles starting with it, else titles containing all its words. */
export function matchTasks(query: string, tasks: readonly FactTask[]): FactTask[] {
  const words = (text: string) =>
    fold(text)
      .replace(/[^\p{L}\p{N}]+/gu, " ")
      .trim();
  const wanted = words(query);
  if (!wanted) return [];
  const titled = tasks.map((task) => ({ task, title: words(task.title) }));
  const tiers = [
    titled.filter(({ title }) => title === wanted),
    titled.filter(({ title }) => title.startsWith(wanted) || wanted.startsWith(title)),
    titled.filter(({ title }) => wanted.split(" ").every((word) => title.split(" ").includes(word))),
    titled.filter(({ title }) => title.includes(wanted)),
  ];
  return (tiers.find((tier) => tier.length > 0) ?? []).map(({ task }) => task);
}

/**
 * Says things about one user's facts in one language: dates, times and lists as that language writes them. Its words
 * are the Assistant namespace of messages/<locale>.json (ICU messages, plurals included); values that come from the
 * user (titles) and dates formatted with Intl are passed in, so the sentences are whole there, never pieced together
 * from fragments. Requests to move a task it understands in English and Czech only; its help says so.
 */
class Speaker {
  readonly t: ServerTranslator<"Assistant">;
  private readonly tag: string;

  constructor(
    readonly facts: Pick<Facts, "now" | "timeZone" | "today">,
    readonly locale: Locale,
  ) {
    this.t = serverTranslator(locale, "Assistant");
    this.tag = languageTag(locale);
  }

  /**
   * A local date: "Friday, March 6"; in the other languages the weekday follows in brackets ("6. března
   * (pátek)"), so that the sentence around it may decline the date without a weekday in the nominative.
   */
  date(date: string): string {
    const noon = new Date(`${date}T12:00:00Z`);
    if (this.locale === "en")
      return new Intl.DateTimeFormat(this.tag, { timeZone: "UTC", weekday: "long", day: "numeric", month: "long" }).format(noon);
    const day = new Intl.DateTimeFormat(this.tag, { timeZone: "UTC", day: "numeric", month: "long" }).format(noon);
    return `${day} (${new Intl.DateTimeFormat(this.tag, { timeZone: "UTC", weekday: "long" }).format(noon)})`;
  }

  time(instant: Date): string {
    return new Intl.DateTimeFormat(this.tag, { timeZone: this.facts.timeZone, hour: "numeric", minute: "2-digit" }).format(
      instant,
    );
  }

  /** A due time: only the time today, else the day and time ("Fri, Mar 6, 17:00"). */
  due(instant: Date): string {
    const today = dayRange(this.facts.today, this.facts.timeZone);
    if (today.start <= instant && instant < today.end) return this.time(instant);
    return new Intl.DateTimeFormat(this.tag, {
      timeZone: this.facts.timeZone,
      weekday: "short",
      day: "numeric",
      month: "short",
      hour: "numeric",
      minute: "2-digit",
    }).format(instant);
  }

  titles(tasks: readonly FactTask[]): string {
    return new Intl.ListFormat(this.tag, { type: "disjunction" }).format(tasks.map((task) => task.title));
  }

  /** One line per task (at most LIST_MAX, then how many more). */
  taskLines(tasks: readonly FactTask[]): string[] {
    const lines = tasks
      .slice(0, LIST_MAX)
      .map((task) =>
        task.dueAt
          ? this.t("taskLine", { title: task.title, due: this.due(task.dueAt) })
          : this.t("taskLineNoDue", { title: task.title }),
      );
    if (tasks.length > LIST_MAX) lines.push(this.t("more", { count: tasks.length - LIST_MAX }));
    return lines;
  }

  goalLines(goals: readonly FactGoal[]): string[] {
    return goals.map((goal) =>
      goal.targetDate
        ? this.t("goalLineTarget", { title: goal.title, progress: goal.progress, date: this.date(goal.targetDate) })
        : this.t("goalLine", { title: goal.title, progress: goal.progress }),
    );
  }
}

const answer = (lines: (string | string[])[], proposals: Proposal[] = []): BuiltInAnswer => ({
  text: lines.flat().join("\n"),
  proposals,
});

function overdueTasks(facts: Facts): FactTask[] {
  return facts.openTasks.filter((task) => task.dueAt && task.dueAt < facts.now);
}

function counts(say: Speaker, facts: Facts): string[] {
  const overdue = overdueTasks(facts).length;
  const today = dueOn(facts, facts.today).length;
  return [
    say.t("openCount", { count: facts.openCount }),
    ...(overdue ? [say.t("overdueCount", { count: overdue })] : []),
    ...(today ? [say.t("todayCount", { count: today })] : []),
  ];
}

function nextUp(say: Speaker, facts: Facts): string[] {
  const [first, ...rest] = byUrgency(facts.openTasks, facts.now, facts.timeZone);
  if (!first) return [say.t("nextNone")];
  const urgency = urgencyOf(first, facts.now, facts.timeZone);
  let reason: string;
  if (urgency === "overdue") reason = "overdue";
  else if (urgency === "today") reason = "today";
  else if (first.dueAt) reason = "due";
  else reason = first.priority === "urgent" || first.priority === "high" ? first.priority : "other";
  const due = first.dueAt ? (urgency === "today" ? say.time(first.dueAt) : say.due(first.dueAt)) : "";
  const line = say.t("next", { title: first.title, reason, due });
  return rest.length ? [line, say.t("nextAfter"), ...say.taskLines(rest.slice(0, 2))] : [line];
}

function dueOnAnswer(say: Speaker, facts: Facts, date: string): BuiltInAnswer {
  const tasks = dueOn(facts, date);
  if (date === facts.today)
    return answer(tasks.length ? [say.t("dueToday", { count: tasks.length }), say.taskLines(tasks)] : [say.t("dueTodayNone")]);
  const day = say.date(date);
  return answer(
    tasks.length
      ? [say.t("dueOn", { count: tasks.length, date: day }), say.taskLines(tasks)]
      : [say.t("dueOnNone", { date: day })],
  );
}

function weekAnswer(say: Speaker, facts: Facts): BuiltInAnswer {
  const sunday = endOfWeek(facts.today);
  const from = dayRange(facts.today, facts.timeZone).start;
  const until = dayRange(sunday, facts.timeZone).end;
  const tasks = facts.openTasks.filter((task) => task.dueAt && task.dueAt >= from && task.dueAt < until);
  const date = say.date(sunday);
  return answer(
    tasks.length ? [say.t("dueWeek", { count: tasks.length, date }), say.taskLines(tasks)] : [say.t("dueWeekNone", { date })],
  );
}

function createAnswer(say: Speaker, facts: Facts, intent: Extract<Intent, { kind: "create_task" }>): BuiltInAnswer {
  if (!intent.title) return answer([say.t("createNeedsTitle")]);
  const dueAt = intent.date ? dueAtOn(intent.date, facts) : null;
  const text = dueAt
    ? say.t("createProposal", { title: intent.title, due: say.due(dueAt) })
    : say.t("createProposalNoDue", { title: intent.title });
  return answer([text], [{ kind: "create_task", title: intent.title, dueAt, taskId: null }]);
}

function rescheduleAnswer(say: Speaker, facts: Facts, intent: Extract<Intent, { kind: "reschedule_task" }>): BuiltInAnswer {
  if (!intent.query) return answer([say.t("rescheduleNeedsTask")]);
  const matches = matchTasks(intent.query, facts.openTasks);
  const [task] = matches;
  if (!task) return answer([say.t("rescheduleNotFound", { query: intent.query })]);
  if (matches.length > 1)
    return answer([say.t("rescheduleAmbiguous", { query: intent.query, titles: say.titles(matches.slice(0, 5)) })]);
  if (!intent.date) return answer([say.t("rescheduleNeedsDate", { title: task.title })]);
  const dueAt = dueAtOn(intent.date, facts, task.dueAt);
  return answer(
    [say.t("rescheduleProposal", { title: task.title, due: say.due(dueAt) })],
    [{ kind: "reschedule_task", title: task.title, dueAt, taskId: task.id }],
  );
}

/** The built-in assistant's answer to a chat message. */
export function builtInChat(message: string, facts: Facts, locale: Locale): BuiltInAnswer {
  const say = new Speaker(facts, locale);
  const intent = understand(message, facts.today);
  switch (intent.kind) {
    case "create_task":
      return createAnswer(say, facts, intent);
    case "reschedule_task":
      return rescheduleAnswer(say, facts, intent);
    case "overdue": {
      const overdue = overdueTasks(facts);
      return answer(
        overdue.length ? [say.t("overdue", { count: overdue.length }), say.taskLines(overdue)] : [say.t("overdueNone")],
      );
    }
    case "week":
      return weekAnswer(say, facts);
    case "due_on":
      return dueOnAnswer(say, facts, intent.date);
    case "count":
      return answer(counts(say, facts));
    case "next":
      return answer(nextUp(say, facts));
    case "goals":
      return answer(facts.goals.length ? [say.t("goals"), say.goalLines(facts.goals)] : [say.t("goalsNone")]);
    case "overview":
      return answer([
        say.t("overview"),
        counts(say, facts),
        facts.openCount ? nextUp(say, facts) : [],
        facts.goals.length ? [say.t("goals"), ...say.goalLines(facts.goals.slice(0, 3))] : [],
        say.t("help"),
      ]);
  }
}

export interface BriefingFacts {
  date: string;
  today: FactTask[];
  overdue: FactTask[];
  goals: FactGoal[];
  /** Spaced-repetition cards due by the end of the day (absent or null while the module is off). */
  reviews?: { total: number } | null;
}

/** A few sentences about a day: what is due, what is overdue, where to start, the nearest goal, the cards to review. */
export function builtInBriefing(
  briefing: BriefingFacts,
  calendar: Pick<Facts, "now" | "timeZone" | "today">,
  locale: Locale,
): string {
  const say = new Speaker(calendar, locale);
  const date = say.date(briefing.date);
  const sentences: string[] = [];
  if (briefing.today.length === 0 && briefing.overdue.length === 0) sentences.push(say.t("briefingEmpty", { date }));
  else {
    sentences.push(say.t("briefingDay", { count: briefing.today.length, date }));
    if (briefing.overdue.length) sentences.push(say.t("briefingOverdue", { count: briefing.overdue.length }));
    const [first] = byUrgency([...briefing.overdue, ...briefing.today], calendar.now, calendar.timeZone);
    if (first) sentences.push(say.t("briefingStart", { title: first.title }));
  }
  const [goal] = briefing.goals;
  if (goal) {
    sentences.push(
      goal.targetDate
        ? say.t("briefingGoalTarget", { title: goal.title, progress: goal.progress, date: say.date(goal.targetDate) })
        : say.t("briefingGoal", { title: goal.title, progress: goal.progress }),
    );
  }
  if (briefing.reviews?.total) sentences.push(say.t("briefingReviews", { count: briefing.reviews.total }));
  return sentences.join(" ");
}

export interface WeekFacts {
  weekStart: string;
  weekEnd: string;
  completed: number;
  created: number;
  overdue: number;
  open: number;
  goals: GoalWeek[];
}

/** Goals a weekly narrative mentions by name. */
const WEEKLY_GOALS_MAX = 5;

/** A few sentences about a week: done and created, what is still open or overdue, how each goal moved. */
export function builtInWeekly(week: WeekFacts, calendar: Pick<Facts, "now" | "timeZone" | "today">, locale: Locale): string {
  const say = new Speaker(calendar, locale);
  const sentences = [
    say.t("weeklyDone", {
      start: say.date(week.weekStart),
      end: say.date(week.weekEnd),
      completed: week.completed,
      created: week.created,
    }),
    say.t("weeklyOpen", { count: week.open }),
  ];
  if (week.overdue) sentences.push(say.t("weeklyOverdue", { count: week.overdue }));
  for (const goal of week.goals.slice(0, WEEKLY_GOALS_MAX)) {
    if (goal.progressAtStart === null) sentences.push(say.t("weeklyGoalNow", { title: goal.title, to: goal.progress }));
    else if (goal.progressAtStart === goal.progress)
      sentences.push(say.t("weeklyGoalSame", { title: goal.title, to: goal.progress }));
    else sentences.push(say.t("weeklyGoalMoved", { title: goal.title, from: goal.progressAtStart, to: goal.progress }));
  }
  return sentences.join(" ");
}
