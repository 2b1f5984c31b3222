import { z } from "zod";
import type { AiMessage } from "../ai/provider";
import { ENGLISH_LANGUAGE_NAMES } from "../i18n/locales";
import { isSessionDay, MAX_SESSIONS, type PlanSession, type StudyPlanFacts } from "./planner";

/*
 * The study plan from the AI endpoint: the prompt (only the facts of lib/goals/planner.ts: this goal, its linked
 * tasks the user can see, their time zone and today) and the check of its answer, a JSON object of the shape
 * below. An answer that is not such an object is refused with a reason; the caller then falls back to the
 * built-in planner. A usable answer with a few faulty sessions is repaired rather than thrown away: a session dated
 * outside the period, on a day of the week the person did not pick or on a public holiday is dropped, extra steps
 * and sessions beyond the limits are left out, and each repair is said in `adjustments`; only an answer with no
 * usable session at all is refused.
 * The prompt is written in English whatever the user's language (it instructs the model and is never shown; it names
 * the language to write in). The repairs and the refusal's reason are diagnostics in English, like the API's error
 * details: the goal's page says only, in the user's language, that the plan was adjusted or written by the built-in
 * planner (Goals messages).
 */

const MAX_STEPS = 10;
const SESSION_TITLE_MAX = 200;
const STEP_MAX = 500;

export const STUDY_PLAN_ANSWER_SHAPE =
  '{"sessions": [{"date": "YYYY-MM-DD", "title": "a short title", "steps": ["a concrete step", "…"]}]}';

/** One session as the answer must give it, its date not yet checked against the period. */
const sessionSchema = z.object({
  date: z.iso.date("must be a date YYYY-MM-DD"),
  title: z.string().trim().min(1, "must not be empty").max(SESSION_TITLE_MAX, `must be at most ${SESSION_TITLE_MAX} characters`),
  steps: z
    .array(z.string().trim().min(1, "must not be empty").max(STEP_MAX, `must be at most ${STEP_MAX} characters`))
    .min(1, "must hold at least one step"),
});

const answerSchema = z.object({ sessions: z.array(z.unknown()).min(1, "must hold at least one session") });

export function studyPlanPrompt(facts: StudyPlanFacts): AiMessage[] {
  const system = [
    "You are a study coach. Write a study plan for the user's goal below.",
    `Answer with one JSON object and nothing else, of this shape: ${STUDY_PLAN_ANSWER_SHAPE}`,
    `1 to ${MAX_SESSIONS} sessions in date order, each on a date from ${facts.startDate} to ${facts.endDate} (inclusive), ` +
      `with 1 to ${MAX_STEPS} concrete steps of at most ${STEP_MAX} characters; titles of at most ${SESSION_TITLE_MAX} characters.`,
    "Spread the sessions over the period, prefer weekdays, build on the goal's description and its linked tasks, " +
      "and end with a review that checks the progress.",
    ...(facts.weekdays ? [`Only on these ISO days of the week (1 Monday … 7 Sunday): ${facts.weekdays.join(", ")}.`] : []),
    ...(facts.holidays.length ? ["Never on the public holidays listed in the facts."] : []),
    `Write the titles and steps in ${ENGLISH_LANGUAGE_NAMES[facts.locale]}.`,
  ].join("\n");
  const user = JSON.stringify(
    {
      today: facts.today,
      timeZone: facts.timeZone,
      period: { from: facts.startDate, to: facts.endDate },
      ...(facts.weekdays ? { weekdays: facts.weekdays } : {}),
      ...(facts.holidays.length ? { publicHolidays: facts.holidays } : {}),
      goal: facts.goal,
      linkedTasks: facts.linkedTasks,
    },
    null,
    2,
  );
  return [
    { role: "system", content: system },
    { role: "user", content: user },
  ];
}

/** Some models wrap JSON in a Markdown code fence even when asked not to. */
const FENCE = /^```(?:json)?\s*([\s\S]*?)\s*```$/;

/**
 * The sessions of an answer (sorted by date) with what was repaired in it, or why it cannot be used at all. Repairs:
 * a session that is not of the shape or is dated outside the period is dropped; steps beyond MAX_STEPS and
 * sessions beyond MAX_SESSIONS (in date order) are left out.
 */
export function parseStudyPlanAnswer(
  text: string,
  facts: StudyPlanFacts,
): { sessions: PlanSession[]; adjustments: string[] } | { reason: string } {
  const trimmed = text.trim();
  let json: unknown;
  try {
    json = JSON.parse(FENCE.exec(trimmed)?.[1] ?? trimmed);
  } catch {
    return { reason: "The AI answer was not JSON" };
  }
  const result = answerSchema.safeParse(json);
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const where = issue.path.length ? issue.path.join(".") : "the answer";
    return { reason: `The AI answer did not have the study plan's shape (${where}: ${issue.message})` };
  }
  const adjustments: string[] = [];
  const sessions: PlanSession[] = [];
  for (const [index, candidate] of result.data.sessions.entries()) {
    const session = sessionSchema.safeParse(candidate);
    if (!session.success) {
      const issue = session.error.issues[0]!;
      const where = issue.path.length ? issue.path.join(".") : "the session";
      adjustments.push(`Session ${index + 1} was left out (${where}: ${issue.message})`);
      continue;
    }
    const { date, title, steps } = session.data;
    if (date < facts.startDate || date > facts.endDate) {
      adjustments.push(`Session ${index + 1} (${date}) was left out: it is outside ${facts.startDate} to ${facts.endDate}`);
      continue;
    }
    if (!isSessionDay(date, facts)) {
      const holiday = facts.holidays.find((candidate) => candidate.date === date);
      adjustments.push(
        holiday
          ? `Session ${index + 1} (${date}) was left out: it is a public holiday (${holiday.name})`
          : `Session ${index + 1} (${date}) was left out: it is not on one of the days of the week asked for`,
      );
      continue;
    }
    if (steps.length > MAX_STEPS) adjustments.push(`Session ${index + 1} kept its first ${MAX_STEPS} of ${steps.length} steps`);
    sessions.push({ date, title, steps: steps.slice(0, MAX_STEPS) });
  }
  if (sessions.length === 0) {
    return { reason: `The AI answer had no usable session (${adjustments[0] ?? "none given"})` };
  }
  // Array.prototype.sort is stable: sessions of one date keep the answer's order.
  sessions.sort((a, b) => a.date.localeCompare(b.date));
  if (sessions.length > MAX_SESSIONS) {
    adjustments.push(`The plan kept its first ${MAX_SESSIONS} of ${sessions.length} sessions`);
    sessions.length = MAX_SESSIONS;
  }
  return { sessions, adjustments };
}
