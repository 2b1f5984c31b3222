import { and, asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, statementRows, type Executor } from "../db/client";
import { isoText } from "../db/iso-text";
import { goalProgressReports, goals, goalTasks, studyPlans, type GoalRow } from "../db/schema/goals";
import { tasks, type TaskStatus } from "../db/schema/tasks";
import { visibleTaskCondition } from "../permissions/repo";
import type { GoalStatus } from "./vocabulary";

export type { GoalRow };
export type ReportRow = typeof goalProgressReports.$inferSelect;
export type StudyPlanRow = typeof studyPlans.$inferSelect;
export type GoalPatch = Partial<Pick<GoalRow, "title" | "description" | "status" | "progress" | "targetDate" | "achievedAt">>;

/** A task linked to a goal, as its owner may see it. */
export interface LinkedTask {
  goalId: string;
  id: string;
  title: string;
  status: TaskStatus;
  dueAt: Date | null;
}

/** A goal with the linked tasks its owner can see, as its answer shows them: instants as ISO text. */
export interface GoalAnswerRow {
  id: string;
  title: string;
  description: string;
  status: GoalStatus;
  /** As set by hand (the answer derives it from the linked tasks while there are any). */
  progress: number;
  targetDate: string | null;
  achievedAt: string | null;
  createdAt: string;
  updatedAt: string;
  linkedTasks: { id: string; title: string; status: TaskStatus; dueAt: string | null }[];
}

const own = (ownerId: string, goalId: string) => and(eq(goals.id, goalId), eq(goals.ownerId, ownerId));

// Goals

export async function insertGoal(
  ownerId: string,
  goal: Pick<GoalRow, "title" | "description" | "status" | "progress" | "targetDate" | "achievedAt">,
): Promise<GoalRow> {
  const now = nowDate();
  const [row] = await db()
    .insert(goals)
    .values({ ...goal, ownerId, createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function countOwnGoals(ownerId: string): Promise<number> {
  const [row] = await db().select({ goals: count() }).from(goals).where(eq(goals.ownerId, ownerId));
  return row?.goals ?? 0;
}

/** The user's goals, newest first, optionally of one status. */
export async function listOwnGoals(ownerId: string, status?: GoalStatus): Promise<GoalRow[]> {
  return db()
    .select()
    .from(goals)
    .where(and(eq(goals.ownerId, ownerId), status ? eq(goals.status, status) : undefined))
    .orderBy(desc(goals.createdAt), desc(goals.id));
}

/** The goal if it is the user's; else null (also for a goal that does not exist). */
export async function findOwnGoal(ownerId: string, goalId: string, executor: Executor = db()): Promise<GoalRow | null> {
  const [row] = await executor.select().from(goals).where(own(ownerId, goalId)).limit(1);
  return row ?? null;
}

/** The same, locked until the transaction ends: changes to one goal (links, plan) happen one at a time. */
export async function lockOwnGoal(ownerId: string, goalId: string, tx: Executor): Promise<GoalRow | null> {
  const [row] = await tx.select().from(goals).where(own(ownerId, goalId)).for("update");
  return row ?? null;
}

/**
 * The user's goal with the linked tasks they can see (those of `listLinkedTasks`, in its order), or null when it is
 * not theirs. One statement, built once (see `statementRows`): the goal and its linked tasks were two statements that
 * Drizzle built on every read (the second with the whole `read` permission in it) and PostgreSQL parsed and planned
 * on every run: 2.1-2.9 times the CPU of a page of 50 tasks (docs/performance.md, "Board and single reads").
 */
export async function findOwnGoalAnswer(ownerId: string, goalId: string): Promise<GoalAnswerRow | null> {
  const [row] = await statementRows<Omit<GoalAnswerRow, "linkedTasks"> & { linkedTasks: string }>(
    "goal-answer",
    () => {
      const userId = sql.placeholder("userId");
      const linked = sql`json_build_object('id', ${tasks.id}, 'title', ${tasks.title}, 'status', ${tasks.status}, 'dueAt', ${isoText(tasks.dueAt)})`;
      return sql`select ${goals.id} as id, ${goals.title} as title, ${goals.description} as description,
          ${goals.status} as status, ${goals.progress} as progress, to_char(${goals.targetDate}, 'YYYY-MM-DD') as "targetDate",
          ${isoText(goals.achievedAt)} as "achievedAt", ${isoText(goals.createdAt)} as "createdAt",
          ${isoText(goals.updatedAt)} as "updatedAt",
          (select coalesce(json_agg(${linked} order by ${goalTasks.createdAt}, ${tasks.id}), '[]')::text
            from ${goalTasks} inner join ${tasks} on ${tasks.id} = ${goalTasks.taskId}
            where ${goalTasks.goalId} = ${goals.id} and ${visibleTaskCondition(userId)}) as "linkedTasks"
        from ${goals} where ${goals.id} = ${sql.placeholder("goalId")} and ${goals.ownerId} = ${userId}`;
    },
    { userId: ownerId, goalId },
  );
  return row ? { ...row, linkedTasks: JSON.parse(row.linkedTasks) as GoalAnswerRow["linkedTasks"] } : null;
}

export async function updateGoalRow(goalId: string, patch: GoalPatch, executor: Executor): Promise<void> {
  await executor
    .update(goals)
    .set({ ...patch, updatedAt: nowDate() })
    .where(eq(goals.id, goalId));
}

/** Deletes the user's goal with its links, reports and plan (cascade); false when there is no such goal of theirs. */
export async function deleteOwnGoal(ownerId: string, goalId: string, database: Executor = db()): Promise<boolean> {
  const rows = await database.delete(goals).where(own(ownerId, goalId)).returning({ id: goals.id });
  return rows.length > 0;
}

// Linked tasks

/**
 * The tasks linked to these goals that `userId` can see (lib/permissions), in the order they were linked. A linked
 * task that was unshared from the user since stays linked but is left out here.
 */
export async function listLinkedTasks(
  userId: string,
  goalIds: readonly string[],
  executor: Executor = db(),
): Promise<LinkedTask[]> {
  if (goalIds.length === 0) return [];
  return executor
    .select({ goalId: goalTasks.goalId, id: tasks.id, title: tasks.title, status: tasks.status, dueAt: tasks.dueAt })
    .from(goalTasks)
    .innerJoin(tasks, eq(tasks.id, goalTasks.taskId))
    .where(and(inArray(goalTasks.goalId, [...goalIds]), visibleTaskCondition(userId)))
    .orderBy(asc(goalTasks.createdAt), asc(tasks.id));
}

/** Every link of a goal, seen or not (what the limit counts). */
export async function countLinks(goalId: string, executor: Executor): Promise<number> {
  const [row] = await executor.select({ links: count() }).from(goalTasks).where(eq(goalTasks.goalId, goalId));
  return row?.links ?? 0;
}

/** Links a task to a goal; false (changing nothing) when it already is. */
export async function insertLink(goalId: string, taskId: string, executor: Executor): Promise<boolean> {
  const rows = await executor
    .insert(goalTasks)
    .values({ goalId, taskId, createdAt: nowDate() })
    .onConflictDoNothing({ target: [goalTasks.goalId, goalTasks.taskId] })
    .returning({ taskId: goalTasks.taskId });
  return rows.length > 0;
}

/** Unlinks a task; false when it was not linked. */
export async function deleteLink(goalId: string, taskId: string, executor: Executor): Promise<boolean> {
  const rows = await executor
    .delete(goalTasks)
    .where(and(eq(goalTasks.goalId, goalId), eq(goalTasks.taskId, taskId)))
    .returning({ taskId: goalTasks.taskId });
  return rows.length > 0;
}

// Progress reports

export async function insertReport(
  report: Pick<ReportRow, "goalId" | "userId" | "reportedOn" | "value" | "note">,
  executor: Executor,
): Promise<ReportRow> {
  const [row] = await executor
    .insert(goalProgressReports)
    .values({ ...report, createdAt: nowDate() })
    .returning();
  return row!;
}

export async function countReports(goalId: string, executor: Executor): Promise<number> {
  const [row] = await executor
    .select({ reports: count() })
    .from(goalProgressReports)
    .where(eq(goalProgressReports.goalId, goalId));
  return row?.reports ?? 0;
}

/** A goal's reports by date, oldest first; those of one date in the order they were written. */
export async function listReports(goalId: string): Promise<ReportRow[]> {
  return db()
    .select()
    .from(goalProgressReports)
    .where(eq(goalProgressReports.goalId, goalId))
    .orderBy(asc(goalProgressReports.reportedOn), asc(goalProgressReports.createdAt), asc(goalProgressReports.id));
}

/** The goal's newest report: the latest date, of that date the last written; null when it has none. */
export async function findLatestReport(goalId: string, executor: Executor): Promise<ReportRow | null> {
  const [row] = await executor
    .select()
    .from(goalProgressReports)
    .where(eq(goalProgressReports.goalId, goalId))
    .orderBy(desc(goalProgressReports.reportedOn), desc(goalProgressReports.createdAt), desc(goalProgressReports.id))
    .limit(1);
  return row ?? null;
}

/** Deletes a report of the goal; false when the goal has no such report. */
export async function deleteReport(goalId: string, reportId: string, executor: Executor = db()): Promise<boolean> {
  const rows = await executor
    .delete(goalProgressReports)
    .where(and(eq(goalProgressReports.goalId, goalId), eq(goalProgressReports.id, reportId)))
    .returning({ id: goalProgressReports.id });
  return rows.length > 0;
}

// Study plans

export async function findStudyPlan(goalId: string, executor: Executor = db()): Promise<StudyPlanRow | null> {
  const [row] = await executor.select().from(studyPlans).where(eq(studyPlans.goalId, goalId)).limit(1);
  return row ?? null;
}

/** The goal's plan, locked until the transaction ends (it is applied once). */
export async function lockStudyPlan(goalId: string, tx: Executor): Promise<StudyPlanRow | null> {
  const [row] = await tx.select().from(studyPlans).where(eq(studyPlans.goalId, goalId)).for("update");
  return row ?? null;
}

/** Stores a goal's new plan: the first is version 1; a new one replaces it as the next version, not applied yet. */
export async function saveStudyPlan(
  plan: Pick<StudyPlanRow, "goalId" | "userId" | "plan" | "answeredBy">,
  executor: Executor,
): Promise<StudyPlanRow> {
  const now = nowDate();
  const [row] = await executor
    .insert(studyPlans)
    .values({ ...plan, version: 1, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({
      target: studyPlans.goalId,
      set: {
        plan: plan.plan,
        answeredBy: plan.answeredBy,
        version: sql`${studyPlans.version} + 1`,
        appliedAt: null,
        updatedAt: now,
      },
    })
    .returning();
  return row!;
}

export async function markStudyPlanApplied(goalId: string, executor: Executor): Promise<StudyPlanRow> {
  const now = nowDate();
  const [row] = await executor
    .update(studyPlans)
    .set({ appliedAt: now, updatedAt: now })
    .where(eq(studyPlans.goalId, goalId))
    .returning();
  return row!;
}
