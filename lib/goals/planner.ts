import type { TaskStatus } from "../db/schema/tasks";
import { languageTag, type Locale } from "../i18n/locales";
import { serverTranslator } from "../i18n/server-messages";
import { addDays, isoWeekday } from "../local-dates";
import type { PublicHoliday } from "./holidays";
import type { GoalStatus } from "./vocabulary";

/*
 * The built-in study planner: deterministic (the same facts always give the same plan) and computed from the goal
 * itself, in the user's language.
 *
 * Topics: each line of the goal's description (bullets and numbering stripped); a description of one line is cut
 * into sentences; without a description the goal's title is the one topic (at most 12, duplicates dropped).
 * Days: from the day the plan is made to the target date (two years at most; 4 weeks without one), never on a public
 * holiday of the person's country (lib/goals/holidays.ts). On the days of the week the person picked; without a
 * pick, preferring Mondays, Wednesdays and Fridays, then every weekday, then every day, whichever first offers a
 * session per topic plus a final review. At most 30 sessions, spread evenly over those days.
 * Sessions: each topic in turn (study, practise, note open questions; later rounds revisit, go deeper and
 * self-test), a review of the block just studied after about every fourth session, and a final review that ends
 * with a progress report. With fewer days than topics plus one, topics share sessions. The first session starts
 * with the open tasks already linked to the goal.
 */

/** What a planner may know: this goal, its linked tasks the user can see, and the user's calendar. Nothing else. */
export interface StudyPlanFacts {
  goal: { title: string; description: string; targetDate: string | null; status: GoalStatus; progress: number };
  linkedTasks: { title: string; status: TaskStatus; dueAt: string | null }[];
  locale: Locale;
  timeZone: string;
  today: string;
  /** The first and last local dates sessions may fall on. */
  startDate: string;
  endDate: string;
  /** The days of the week sessions may fall on (ISO: 1 Monday … 7 Sunday), as the person picked them; null: any. */
  weekdays: number[] | null;
  /** Public holidays in the period: no session falls on them. */
  holidays: PublicHoliday[];
}

export interface PlanSession {
  date: string;
  title: string;
  steps: string[];
}

export const DEFAULT_HORIZON_DAYS = 28;
/** A plan looks at most this far ahead, however distant the target date. */
export const MAX_PLAN_DAYS = 730;
export const MAX_SESSIONS = 30;
const MAX_TOPICS = 12;
const TOPIC_MAX = 120;
const TITLE_MAX = 200;
const REVIEW_EVERY = 4;
const LINKED_TASKS_NAMED = 3;

export type PlanTranslator = ReturnType<typeof plannerTranslator>;

/** The planner's texts (Goals.planner.*) in a language. */
export function plannerTranslator(locale: Locale) {
  return serverTranslator(locale, "Goals.planner");
}

/** The days a plan made on `today` may use: up to the target date (two years at most), or 4 weeks without one. */
export function planWindow(today: string, targetDate: string | null): { startDate: string; endDate: string } {
  const furthest = addDays(today, MAX_PLAN_DAYS - 1);
  const endDate = targetDate === null ? addDays(today, DEFAULT_HORIZON_DAYS - 1) : targetDate < furthest ? targetDate : furthest;
  return { startDate: today, endDate };
}

const shorten = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1).trimEnd()}…`);

const BULLET = /^\s*(?:[-*•–]|\d+[.)])\s+/u;

/** The goal's topics, as the file comment says. */
export function topicsOf(title: string, description: string): string[] {
  let parts = description
    .split(/\r?\n/)
    .map((line) => line.replace(BULLET, "").trim())
    .filter(Boolean);
  if (parts.length === 1) parts = parts[0]!.split(/(?<=[.!?])\s+/u);
  const seen = new Set<string>();
  const topics: string[] = [];
  for (const part of parts) {
    const topic = shorten(part.replace(/[\s.,;:!?]+$/u, "").trim(), TOPIC_MAX);
    if (!topic || seen.has(topic.toLowerCase())) continue;
    seen.add(topic.toLowerCase());
    topics.push(topic);
  }
  return topics.length ? topics.slice(0, MAX_TOPICS) : [shorten(title, TOPIC_MAX)];
}

/** `max` days out of `days`, spread evenly, the first and the last always among them. */
function spread(days: readonly string[], max: number): string[] {
  if (days.length <= max) return [...days];
  if (max === 1) return [days.at(-1)!];
  return Array.from({ length: max }, (_, index) => days[Math.round((index * (days.length - 1)) / (max - 1))]!);
}

/** Whether a session may fall on a day: one of the picked days of the week (if any), not a holiday. */
export function isSessionDay(day: string, facts: Pick<StudyPlanFacts, "weekdays" | "holidays">): boolean {
  return (facts.weekdays === null || facts.weekdays.includes(isoWeekday(day))) && !facts.holidays.some((h) => h.date === day);
}

/** The session days of the plan's period for `wanted` sessions, as the file comment says. */
export function sessionDays(
  facts: Pick<StudyPlanFacts, "startDate" | "endDate" | "weekdays" | "holidays">,
  wanted: number,
): string[] {
  const all: string[] = [];
  for (let day = facts.startDate; day <= facts.endDate; day = addDays(day, 1)) if (isSessionDay(day, facts)) all.push(day);
  const pools =
    facts.weekdays === null
      ? [all.filter((day) => [1, 3, 5].includes(isoWeekday(day))), all.filter((day) => isoWeekday(day) <= 5), all]
      : [all];
  return spread(pools.find((pool) => pool.length >= wanted) ?? all, MAX_SESSIONS);
}

type SessionContent = Omit<PlanSession, "date">;

function listOf(locale: Locale, items: readonly string[]): string {
  return new Intl.ListFormat(languageTag(locale), { style: "long", type: "conjunction" }).format(items);
}

/** One session per slot: topics in turn, reviews between blocks, a final review (more slots than topics). */
function spacedSessions(
  t: PlanTranslator,
  locale: Locale,
  goalTitle: string,
  topics: readonly string[],
  count: number,
): SessionContent[] {
  const slots = count - 1;
  const reviews = Math.min(Math.floor(slots / REVIEW_EVERY), Math.max(0, slots - topics.length));
  const studies = slots - reviews;
  const sessions: SessionContent[] = [];
  let study = 0;
  for (let block = 0; block <= reviews; block++) {
    const size = Math.floor(studies / (reviews + 1)) + (block < studies % (reviews + 1) ? 1 : 0);
    const covered = new Set<string>();
    for (let index = 0; index < size; index++, study++) {
      const topic = topics[study % topics.length]!;
      const round = Math.floor(study / topics.length) + 1;
      covered.add(topic);
      sessions.push(
        round === 1
          ? { title: topic, steps: [t("learn", { topic }), t("practise", { topic }), t("question", { topic })] }
          : {
              title: shorten(t("roundTitle", { topic, round }), TITLE_MAX),
              steps: [t("revisit", { topic }), t("deeper", { topic }), t("selfTest", { topic })],
            },
      );
    }
    if (block < reviews) {
      const list = listOf(locale, [...covered]);
      sessions.push({
        title: shorten(t("reviewTitle", { topics: list }), TITLE_MAX),
        steps: [t("reviewNotes", { topics: list }), t("reviewQuiz", { topics: list })],
      });
    }
  }
  sessions.push(finalSession(t, goalTitle, []));
  return sessions;
}

function finalSession(t: PlanTranslator, goalTitle: string, before: string[]): SessionContent {
  return {
    title: shorten(t("finalTitle", { goal: goalTitle }), TITLE_MAX),
    steps: [...before, t("finalAll", { goal: goalTitle }), t("finalCheck")],
  };
}

/** Topics sharing the few days there are (no more slots than topics); the last session also holds the final review. */
function packedSessions(
  t: PlanTranslator,
  locale: Locale,
  goalTitle: string,
  topics: readonly string[],
  count: number,
): SessionContent[] {
  const sessions: SessionContent[] = [];
  let next = 0;
  for (let index = 0; index < count; index++) {
    const size = Math.floor(topics.length / count) + (index < topics.length % count ? 1 : 0);
    const chunk = topics.slice(next, next + size);
    next += size;
    const steps = [...chunk.map((topic) => t("learn", { topic })), t("practise", { topic: listOf(locale, chunk) })];
    sessions.push(
      index === count - 1
        ? { ...finalSession(t, goalTitle, steps), title: shorten(listOf(locale, chunk), TITLE_MAX) }
        : { title: shorten(listOf(locale, chunk), TITLE_MAX), steps },
    );
  }
  return sessions;
}

export function builtInStudyPlan(facts: StudyPlanFacts): PlanSession[] {
  const t = plannerTranslator(facts.locale);
  const topics = topicsOf(facts.goal.title, facts.goal.description);
  const days = sessionDays(facts, topics.length + 1);
  const contents =
    days.length > topics.length
      ? spacedSessions(t, facts.locale, facts.goal.title, topics, days.length)
      : packedSessions(t, facts.locale, facts.goal.title, topics, days.length);
  const open = facts.linkedTasks.filter((task) => task.status === "todo" || task.status === "in_progress");
  if (open.length) {
    const named = listOf(
      facts.locale,
      open.slice(0, LINKED_TASKS_NAMED).map((task) => task.title),
    );
    contents[0]!.steps.unshift(t("linkedTasks", { count: open.length, tasks: named }));
  }
  return contents.map((content, index) => ({ date: days[index]!, ...content }));
}
