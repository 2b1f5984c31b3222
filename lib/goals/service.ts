import type { Precondition } from "../api/conditional";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { localDateOf } from "../local-dates";
import { findVisibleTask } from "../tasks/repo";
import {
  countLinks,
  countOwnGoals,
  countReports,
  deleteLink,
  deleteOwnGoal,
  deleteReport,
  findLatestReport,
  findOwnGoal,
  findOwnGoalAnswer,
  insertGoal,
  insertLink,
  insertReport,
  listLinkedTasks,
  listOwnGoals,
  listReports,
  lockOwnGoal,
  updateGoalRow,
  type GoalAnswerRow,
  type GoalPatch,
  type GoalRow,
  type LinkedTask,
  type ReportRow,
} from "./repo";
import type {
  CreateGoalInput,
  CreateReportInput,
  GoalListOutput,
  GoalOutput,
  ListGoalsQuery,
  ReportListOutput,
  ReportOutput,
  UpdateGoalInput,
} from "./schema";
import type { GoalStatus, ProgressMode } from "./vocabulary";

/*
 * Goals: private to their owner (anyone else gets 404 for every one of them). Progress is set by hand until a task
 * is linked; from then on it is derived from the linked tasks the owner can see: the share of them that is done,
 * cancelled ones left out, rounded down (so 100 means all done). A hand-set value is refused meanwhile (409),
 * and comes back once the last task is unlinked.
 */

const MAX_GOALS = 500;
export const MAX_LINKED_TASKS = 200;
const MAX_REPORTS = 1000;

const goalNotFound = () => new AppError("not_found", "No such goal");

/** The goal's progress as the API shows it: derived from its linked tasks while there are any, else as set by hand. */
export function goalProgress(
  manual: number,
  linked: readonly Pick<LinkedTask, "status">[],
): { progress: number; progressMode: ProgressMode } {
  if (linked.length === 0) return { progress: manual, progressMode: "manual" };
  const counted = linked.filter((task) => task.status !== "cancelled");
  const done = counted.filter((task) => task.status === "done").length;
  return { progress: counted.length ? Math.floor((100 * done) / counted.length) : 0, progressMode: "tasks" };
}

function toGoalOutput(goal: GoalRow, linked: readonly LinkedTask[]): GoalOutput {
  return goalAnswer({
    ...goal,
    achievedAt: goal.achievedAt?.toISOString() ?? null,
    createdAt: goal.createdAt.toISOString(),
    updatedAt: goal.updatedAt.toISOString(),
    linkedTasks: linked.map((task) => ({
      id: task.id,
      title: task.title,
      status: task.status,
      dueAt: task.dueAt?.toISOString() ?? null,
    })),
  });
}

/** A goal's answer from its fields, instants already ISO text: the one place that orders the answer's fields. */
function goalAnswer(goal: GoalAnswerRow): GoalOutput {
  return {
    id: goal.id,
    title: goal.title,
    description: goal.description,
    status: goal.status,
    ...goalProgress(goal.progress, goal.linkedTasks),
    targetDate: goal.targetDate,
    achievedAt: goal.achievedAt,
    linkedTasks: goal.linkedTasks,
    createdAt: goal.createdAt,
    updatedAt: goal.updatedAt,
  };
}

/** The actor's goal, or 404 (also for another user's goal: never a hint that it exists). */
export async function getOwnGoalOrThrow(actor: Actor, goalId: string, executor?: Executor): Promise<GoalRow> {
  const goal = await findOwnGoal(actor.userId, goalId, executor);
  if (!goal) throw goalNotFound();
  return goal;
}

/** The same, locked until the transaction ends. */
export async function lockOwnGoalOrThrow(actor: Actor, goalId: string, tx: Executor): Promise<GoalRow> {
  const goal = await lockOwnGoal(actor.userId, goalId, tx);
  if (!goal) throw goalNotFound();
  return goal;
}

/** A goal of the actor's as the API answers it, with the linked tasks they can see. */
export async function goalOutputFor(actor: Actor, goal: GoalRow, executor?: Executor): Promise<GoalOutput> {
  return toGoalOutput(goal, await listLinkedTasks(actor.userId, [goal.id], executor));
}

/** Today's date on the actor's own calendar (their time zone). */
export function todayFor(actor: Actor): string {
  return localDateOf(nowDate(), actor.timeZone);
}

/** `achievedAt` follows the status: set when a goal becomes achieved, kept while it stays so, cleared otherwise. */
function achievedAtFor(status: GoalStatus, current: GoalRow | null): Date | null {
  if (status !== "achieved") return null;
  return current?.status === "achieved" ? current.achievedAt : nowDate();
}

// Goals

export async function listGoals(actor: Actor, query: ListGoalsQuery): Promise<GoalListOutput> {
  const rows = await listOwnGoals(actor.userId, query.status);
  const linked = await listLinkedTasks(
    actor.userId,
    rows.map((goal) => goal.id),
  );
  return {
    items: rows.map((goal) =>
      toGoalOutput(
        goal,
        linked.filter((task) => task.goalId === goal.id),
      ),
    ),
  };
}

export async function getGoal(actor: Actor, goalId: string): Promise<GoalOutput> {
  const goal = await findOwnGoalAnswer(actor.userId, goalId);
  if (!goal) throw goalNotFound();
  return goalAnswer(goal);
}

export async function createGoal(actor: Actor, input: CreateGoalInput): Promise<GoalOutput> {
  if ((await countOwnGoals(actor.userId)) >= MAX_GOALS) {
    throw new AppError("conflict", `You have ${MAX_GOALS} goals, the most there may be: delete some first`);
  }
  const status = input.status ?? "active";
  const goal = await insertGoal(actor.userId, {
    title: input.title,
    description: input.description ?? "",
    status,
    progress: input.progress ?? 0,
    targetDate: input.targetDate ?? null,
    achievedAt: achievedAtFor(status, null),
  });
  return toGoalOutput(goal, []);
}

/**
 * Edits a goal. `precondition` (an `If-Match`, lib/api/conditional.ts) is asked with the goal as it is once locked:
 * a goal changed since the client read it is left as it is (412).
 */
export async function updateGoal(
  actor: Actor,
  goalId: string,
  input: UpdateGoalInput,
  precondition?: Precondition,
): Promise<GoalOutput> {
  return db().transaction(async (tx) => {
    const goal = await lockOwnGoalOrThrow(actor, goalId, tx);
    const linked = await listLinkedTasks(actor.userId, [goalId], tx);
    await precondition?.(toGoalOutput(goal, linked));
    if (input.progress !== undefined && linked.length > 0) {
      throw new AppError(
        "conflict",
        `The progress of this goal is derived from its ${linked.length} linked task(s): unlink them to set it by hand`,
      );
    }
    const patch: GoalPatch = {
      title: input.title,
      description: input.description,
      progress: input.progress,
      targetDate: input.targetDate,
    };
    if (input.status !== undefined) Object.assign(patch, { status: input.status, achievedAt: achievedAtFor(input.status, goal) });
    await updateGoalRow(goalId, patch, tx);
    return toGoalOutput((await findOwnGoal(actor.userId, goalId, tx))!, linked);
  });
}

/** Deletes the goal with its links, reports and study plan; tasks made from the plan stay. `precondition` as for `updateGoal`. */
export async function deleteGoal(actor: Actor, goalId: string, precondition?: Precondition): Promise<void> {
  await db().transaction(async (tx) => {
    const goal = await lockOwnGoalOrThrow(actor, goalId, tx);
    await precondition?.(toGoalOutput(goal, await listLinkedTasks(actor.userId, [goalId], tx)));
    if (!(await deleteOwnGoal(actor.userId, goalId, tx))) throw goalNotFound();
  });
}

// Linked tasks

/** Links a task the actor can see (any relation of the `read` permission) to their goal; linking it again changes nothing. */
export async function linkTask(actor: Actor, goalId: string, taskId: string): Promise<GoalOutput> {
  return db().transaction(async (tx) => {
    const goal = await lockOwnGoalOrThrow(actor, goalId, tx);
    if (!(await findVisibleTask(actor.userId, taskId, tx))) throw new AppError("not_found", "No such task");
    if ((await countLinks(goalId, tx)) >= MAX_LINKED_TASKS) {
      throw new AppError("conflict", `A goal has at most ${MAX_LINKED_TASKS} linked tasks`);
    }
    if (await insertLink(goalId, taskId, tx)) await updateGoalRow(goalId, {}, tx);
    return goalOutputFor(actor, (await findOwnGoal(actor.userId, goal.id, tx))!, tx);
  });
}

export async function unlinkTask(actor: Actor, goalId: string, taskId: string): Promise<GoalOutput> {
  return db().transaction(async (tx) => {
    await lockOwnGoalOrThrow(actor, goalId, tx);
    if (!(await deleteLink(goalId, taskId, tx))) throw new AppError("not_found", "This task is not linked to the goal");
    await updateGoalRow(goalId, {}, tx);
    return goalOutputFor(actor, (await findOwnGoal(actor.userId, goalId, tx))!, tx);
  });
}

// Progress reports

function toReportOutput(report: ReportRow): ReportOutput {
  return {
    id: report.id,
    goalId: report.goalId,
    date: report.reportedOn,
    value: report.value,
    note: report.note,
    createdAt: report.createdAt.toISOString(),
  };
}

export async function listGoalReports(actor: Actor, goalId: string): Promise<ReportListOutput> {
  await getOwnGoalOrThrow(actor, goalId);
  return { items: (await listReports(goalId)).map(toReportOutput) };
}

export async function addGoalReport(actor: Actor, goalId: string, input: CreateReportInput): Promise<ReportOutput> {
  const today = todayFor(actor);
  return db().transaction(async (tx) => {
    await lockOwnGoalOrThrow(actor, goalId, tx);
    if (input.date > today)
      throw invalidField("body", "/date", `must not be in the future (today is ${today} in ${actor.timeZone})`);
    if ((await countReports(goalId, tx)) >= MAX_REPORTS) {
      throw new AppError("conflict", `A goal has at most ${MAX_REPORTS} progress reports: delete old ones first`);
    }
    const report = await insertReport(
      { goalId, userId: actor.userId, reportedOn: input.date, value: input.value, note: input.note ?? "" },
      tx,
    );
    // A report dated before the newest one is history filled in later: it leaves the progress as it is.
    if ((await findLatestReport(goalId, tx))?.id === report.id) await takeProgressFromReport(actor, goalId, report.value, tx);
    return toReportOutput(report);
  });
}

/**
 * A goal measured by hand shows what its newest report says (a 35 % report means 35 % done): when the newest report
 * changes (one is added, or the newest is deleted), the goal's progress becomes its value. A goal with linked tasks
 * keeps the share of them done; its reports stay a history beside it (the page says so).
 */
async function takeProgressFromReport(actor: Actor, goalId: string, value: number, tx: Executor): Promise<void> {
  if ((await listLinkedTasks(actor.userId, [goalId], tx)).length > 0) return;
  await updateGoalRow(goalId, { progress: value }, tx);
}

export async function deleteGoalReport(actor: Actor, goalId: string, reportId: string): Promise<void> {
  await db().transaction(async (tx) => {
    await lockOwnGoalOrThrow(actor, goalId, tx);
    const newest = await findLatestReport(goalId, tx);
    if (!(await deleteReport(goalId, reportId, tx))) throw new AppError("not_found", "No such progress report");
    // Only deleting the newest report moves the progress (to the report before it); deleting the only one keeps it.
    const before = newest?.id === reportId ? await findLatestReport(goalId, tx) : null;
    if (before) await takeProgressFromReport(actor, goalId, before.value, tx);
  });
}
