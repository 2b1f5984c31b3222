import { generateKeyBetween } from "fractional-indexing";
import { aiEndpointConfigured, BUILT_IN, complete, type AnsweredBy } from "../ai/provider";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { firstActiveGroupId, holdGroup } from "../groups/repo";
import { DEFAULT_LOCALE, isLocale, type Locale } from "../i18n/locales";
import { fromZonedWallTime } from "../tasks/recurrence";
import { insertSubtask, insertTask, lockedLastPosition } from "../tasks/repo";
import { announceTaskChange } from "../tasks/service";
import { countryOfTimeZone, isHolidayCountry, publicHolidays, type PublicHoliday } from "./holidays";
import { parseStudyPlanAnswer, studyPlanPrompt } from "./plan-prompt";
import { builtInStudyPlan, isSessionDay, planWindow, plannerTranslator, type PlanSession, type StudyPlanFacts } from "./planner";
import {
  countLinks,
  findOwnGoal,
  findStudyPlan,
  insertLink,
  listLinkedTasks,
  lockStudyPlan,
  markStudyPlanApplied,
  saveStudyPlan,
  updateGoalRow,
  type GoalRow,
  type StudyPlanRow,
} from "./repo";
import type { AppliedStudyPlanOutput, ApplyStudyPlanInput, GenerateStudyPlanInput, StudyPlanOutput } from "./schema";
import { getOwnGoalOrThrow, goalOutputFor, lockOwnGoalOrThrow, MAX_LINKED_TASKS, todayFor } from "./service";

/*
 * A goal's study plan: generated (or regenerated, replacing the previous one as the next version) by the built-in
 * planner or the configured AI endpoint, stored, and applied once: each session becomes a task of the owner's
 * (due at 18:00 on its date, the steps as subtasks, linked to the goal), all in one transaction.
 *
 * With an AI endpoint configured, the user asked for the AI: an endpoint that fails or times out is a 503, a
 * used-up daily budget a 429 (nothing is stored; `assistant: "built-in"` asks the built-in planner instead). An
 * endpoint that answers something unusable is not the user's problem: the built-in planner writes the plan and
 * `fallbackReason` says why.
 */

/** Sessions become tasks due at this hour of their local date. */
export const SESSION_DUE_HOUR = 18;
const MAX_ANSWER_TOKENS = 4000;

/** The plan as the study_plans row keeps it (`plan` column). */
interface StoredPlan {
  timeZone: string;
  startDate: string;
  endDate: string;
  sessions: PlanSession[];
  fallbackReason: string | null;
  /** What was repaired in the AI's answer (plans stored before repairs existed lack it). */
  adjustments?: string[];
  /** The days of the week asked for, the holidays' country and the holidays skipped (older plans lack them). */
  weekdays?: number[] | null;
  holidayCountry?: string | null;
  skippedHolidays?: PublicHoliday[];
}

const localeOf = (actor: Actor): Locale => (isLocale(actor.locale) ? actor.locale : DEFAULT_LOCALE);

const noPlan = () => new AppError("not_found", "This goal has no study plan yet: POST /goals/{id}/study-plan makes one");

function toStudyPlanOutput(row: StudyPlanRow): StudyPlanOutput {
  const plan = row.plan as unknown as StoredPlan;
  return {
    goalId: row.goalId,
    version: row.version,
    answeredBy: row.answeredBy as unknown as AnsweredBy,
    fallbackReason: plan.fallbackReason,
    adjustments: plan.adjustments ?? [],
    timeZone: plan.timeZone,
    startDate: plan.startDate,
    endDate: plan.endDate,
    weekdays: plan.weekdays ?? null,
    holidayCountry: plan.holidayCountry ?? null,
    skippedHolidays: plan.skippedHolidays ?? [],
    sessions: plan.sessions,
    appliedAt: row.appliedAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The country whose holidays the plan skips: the one asked for (null: none), else the time zone's where known. */
function holidayCountryFor(actor: Actor, input: GenerateStudyPlanInput): string | null {
  if (input.holidayCountry === undefined) return countryOfTimeZone(actor.timeZone);
  if (input.holidayCountry !== null && !isHolidayCountry(input.holidayCountry)) {
    throw invalidField("body", "/holidayCountry", `has no public holiday data (${input.holidayCountry}); send null to skip none`);
  }
  return input.holidayCountry;
}

/**
 * Everything a planner may see: this goal, the linked tasks the actor can see, their language and calendar (the
 * days of the week they picked, their country's public holidays in the period).
 */
async function studyPlanFacts(
  actor: Actor,
  goal: GoalRow,
  input: GenerateStudyPlanInput,
): Promise<StudyPlanFacts & { holidayCountry: string | null }> {
  const today = todayFor(actor);
  if (goal.targetDate !== null && goal.targetDate < today) {
    throw new AppError("conflict", `The goal's target date ${goal.targetDate} has passed: move it or clear it to plan`);
  }
  const holidayCountry = holidayCountryFor(actor, input);
  const window = planWindow(today, goal.targetDate);
  const locale = localeOf(actor);
  const linked = await listLinkedTasks(actor.userId, [goal.id]);
  return {
    goal: {
      title: goal.title,
      description: goal.description,
      targetDate: goal.targetDate,
      status: goal.status,
      progress: goal.progress,
    },
    linkedTasks: linked.map((task) => ({ title: task.title, status: task.status, dueAt: task.dueAt?.toISOString() ?? null })),
    locale,
    timeZone: actor.timeZone,
    today,
    ...window,
    weekdays: input.weekdays ? [...input.weekdays].sort((a, b) => a - b) : null,
    holidays: holidayCountry ? publicHolidays(holidayCountry, window.startDate, window.endDate, locale) : [],
    holidayCountry,
  };
}

async function writePlan(
  actor: Actor,
  facts: StudyPlanFacts,
  assistant: GenerateStudyPlanInput["assistant"],
): Promise<{ sessions: PlanSession[]; answeredBy: AnsweredBy; fallbackReason: string | null; adjustments: string[] }> {
  if (assistant === "built-in" || !aiEndpointConfigured()) {
    return { sessions: builtInStudyPlan(facts), answeredBy: BUILT_IN, fallbackReason: null, adjustments: [] };
  }
  const answer = await complete({
    userId: actor.userId,
    purpose: "study_plan",
    messages: studyPlanPrompt(facts),
    json: true,
    maxTokens: MAX_ANSWER_TOKENS,
  });
  const parsed = parseStudyPlanAnswer(answer.text, facts);
  if ("sessions" in parsed) return { ...parsed, answeredBy: answer.answeredBy, fallbackReason: null };
  return { sessions: builtInStudyPlan(facts), answeredBy: BUILT_IN, fallbackReason: parsed.reason, adjustments: [] };
}

export async function getStudyPlan(actor: Actor, goalId: string): Promise<StudyPlanOutput> {
  await getOwnGoalOrThrow(actor, goalId);
  const row = await findStudyPlan(goalId);
  if (!row) throw noPlan();
  return toStudyPlanOutput(row);
}

export async function generateStudyPlan(actor: Actor, goalId: string, input: GenerateStudyPlanInput): Promise<StudyPlanOutput> {
  const facts = await studyPlanFacts(actor, await getOwnGoalOrThrow(actor, goalId), input);
  const { sessions, answeredBy, fallbackReason, adjustments } = await writePlan(actor, facts, input.assistant);
  const plan: StoredPlan = {
    timeZone: facts.timeZone,
    startDate: facts.startDate,
    endDate: facts.endDate,
    weekdays: facts.weekdays,
    holidayCountry: facts.holidayCountry,
    skippedHolidays: facts.holidays.filter((holiday) => isSessionDay(holiday.date, { ...facts, holidays: [] })),
    sessions,
    fallbackReason,
    adjustments,
  };
  const row = await db().transaction(async (tx) => {
    // The goal may have been deleted while the endpoint was thinking.
    await lockOwnGoalOrThrow(actor, goalId, tx);
    return saveStudyPlan({ goalId, userId: actor.userId, plan: plan as unknown as Record<string, unknown>, answeredBy }, tx);
  });
  return toStudyPlanOutput(row);
}

/** Creates one session's task with its steps as subtasks, linked to the goal; answers its id and who sees it. */
async function insertSessionTask(
  tx: Executor,
  actor: Actor,
  goalId: string,
  session: PlanSession,
  task: { groupId: string; position: string; description: string; timeZone: string },
): Promise<string> {
  const [year, month, day] = session.date.split("-").map(Number) as [number, number, number];
  const now = nowDate();
  const taskId = await insertTask(
    {
      ownerId: actor.userId,
      groupId: task.groupId,
      title: session.title,
      description: task.description,
      dueAt: fromZonedWallTime({ year, month, day, hour: SESSION_DUE_HOUR, minute: 0, second: 0, millisecond: 0 }, task.timeZone),
      startDate: session.date,
      position: task.position,
      createdAt: now,
      updatedAt: now,
    },
    [],
    tx,
  );
  for (const [position, title] of session.steps.entries()) {
    await insertSubtask({ taskId, title, done: false, position, completedAt: null, createdAt: now, updatedAt: now }, tx);
  }
  await insertLink(goalId, taskId, tx);
  await announceTaskChange(tx, { type: "task.created", actorId: actor.userId, taskId, before: [] });
  return taskId;
}

/**
 * Turns the plan's sessions into tasks, all or none: one task per session in the actor's first active task group,
 * due at SESSION_DUE_HOUR on its date in the plan's time zone, its steps as subtasks, linked to the goal. Once per
 * version: applying it again is a 409 until the plan is regenerated.
 */
export async function applyStudyPlan(
  actor: Actor,
  goalId: string,
  input: ApplyStudyPlanInput = {},
): Promise<AppliedStudyPlanOutput> {
  return db().transaction(async (tx) => {
    const goal = await lockOwnGoalOrThrow(actor, goalId, tx);
    const row = await lockStudyPlan(goalId, tx);
    if (!row) throw noPlan();
    if (row.appliedAt) {
      throw new AppError("conflict", "This study plan was applied already (its tasks exist): regenerate it to apply a new one");
    }
    const plan = row.plan as unknown as StoredPlan;
    const links = await countLinks(goalId, tx);
    // Linked tasks make the progress theirs: a figure set by hand would silently become 0 %, so ask first.
    if (links === 0 && goal.progress > 0 && !input.replaceManualProgress) {
      throw new AppError(
        "progress_set_by_hand",
        `This goal's progress (${goal.progress} %) was set by hand; the plan's tasks would measure it instead ` +
          "(0 % until one is done). Send replaceManualProgress: true to apply it anyway",
      );
    }
    if (links + plan.sessions.length > MAX_LINKED_TASKS) {
      throw new AppError("conflict", `A goal has at most ${MAX_LINKED_TASKS} linked tasks: unlink some before applying the plan`);
    }
    // Locks the actor's row: new tasks get distinct positions even while others are being created.
    let position = await lockedLastPosition(actor.userId, tx);
    const groupId = await firstActiveGroupId(actor.userId, tx);
    if (!groupId) throw new AppError("conflict", "You have no active task group to put the plan's tasks in");
    await holdGroup(groupId, tx);
    const t = plannerTranslator(localeOf(actor));
    const total = plan.sessions.length;
    const taskIds: string[] = [];
    for (const [index, session] of plan.sessions.entries()) {
      position = generateKeyBetween(position, null);
      const description = t("taskDescription", { session: index + 1, total, goal: goal.title });
      taskIds.push(
        await insertSessionTask(tx, actor, goalId, session, { groupId, position, description, timeZone: plan.timeZone }),
      );
    }
    const applied = await markStudyPlanApplied(goalId, tx);
    await updateGoalRow(goalId, {}, tx);
    const current = (await findOwnGoal(actor.userId, goalId, tx))!;
    return { studyPlan: toStudyPlanOutput(applied), goal: await goalOutputFor(actor, current, tx), taskIds };
  });
}
