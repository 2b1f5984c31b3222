import { and, asc, desc, eq, gte, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import { db } from "../db/client";
import { chatActions, chatMessages } from "../db/schema/assistant";
import { goalProgressReports, goals, goalTasks, type GoalStatus } from "../db/schema/goals";
import { tasks } from "../db/schema/tasks";
import { readRelations } from "../permissions/repo";
import { PRIORITIES, type Priority, type TaskStatus } from "../tasks/vocabulary";

/*
 * What the assistant reads and keeps. "Your tasks" are those you own, are assigned to or collaborate on (the
 * tasks you see only through a team, project or family are left out: they are other people's work), and only
 * ever yours: every query here is scoped to one user. Goals are read from the goals tables directly.
 */

export interface FactTask {
  id: string;
  title: string;
  status: TaskStatus;
  priority: Priority;
  dueAt: Date | null;
}

const OPEN = sql`${tasks.status} in ('todo', 'in_progress')`;

function yourTask(userId: string): SQL {
  const { owner, assignee, collaborator } = readRelations(userId);
  return sql`(${owner} or ${assignee} or ${collaborator})`;
}

const factColumns = { id: tasks.id, title: tasks.title, status: tasks.status, priority: tasks.priority, dueAt: tasks.dueAt };

function toFactTask(row: { id: string; title: string; status: TaskStatus; priority: number; dueAt: Date | null }): FactTask {
  return { ...row, priority: PRIORITIES[row.priority] ?? "normal" };
}

export interface OpenTaskFilter {
  /** Only those due at or after this instant. */
  dueFrom?: Date;
  /** Only those due before this instant. */
  dueBefore?: Date;
}

/** The user's open tasks (todo, in progress), soonest due first (those without a due time last), at most `limit`. */
export async function findOpenTasks(userId: string, filter: OpenTaskFilter, limit: number): Promise<FactTask[]> {
  const rows = await db()
    .select(factColumns)
    .from(tasks)
    .where(
      and(
        OPEN,
        yourTask(userId),
        filter.dueFrom ? gte(tasks.dueAt, filter.dueFrom) : undefined,
        filter.dueBefore ? lt(tasks.dueAt, filter.dueBefore) : undefined,
      ),
    )
    .orderBy(sql`${tasks.dueAt} asc nulls last`, desc(tasks.priority), asc(tasks.id))
    .limit(limit);
  return rows.map(toFactTask);
}

export async function countOpenTasks(userId: string): Promise<number> {
  const [row] = await db()
    .select({ count: sql<number>`count(*)::int` })
    .from(tasks)
    .where(and(OPEN, yourTask(userId)));
  return row?.count ?? 0;
}

/** One of the user's tasks (any status), for checking what a proposed action names. */
export async function findYourTask(userId: string, taskId: string): Promise<FactTask | null> {
  const [row] = await db()
    .select(factColumns)
    .from(tasks)
    .where(and(eq(tasks.id, taskId), yourTask(userId)))
    .limit(1);
  return row ? toFactTask(row) : null;
}

// Goals

export interface FactGoal {
  id: string;
  title: string;
  status: GoalStatus;
  progress: number;
  progressMode: "manual" | "tasks";
  targetDate: string | null;
}

/**
 * The goal's id inside the subqueries below, written qualified: in selected expressions Drizzle renders a column
 * without its table, and `id` would then mean the subquery's own rows.
 */
const GOAL_ID = sql.raw(`"goals"."id"`);

/** Linked tasks of a goal that count (cancelled ones do not), and those of them done (before `doneBefore`, if given). */
function linkedCount(doneOnly: boolean, doneBefore?: Date): SQL<number> {
  const done = doneOnly ? sql` and t.status = 'done'` : sql``;
  const before = doneBefore ? sql` and t.completed_at < ${doneBefore.toISOString()}::timestamptz` : sql``;
  return sql<number>`(select count(*)::int from ${goalTasks} gt join ${tasks} t on t.id = gt.task_id
    where gt.goal_id = ${GOAL_ID} and t.status <> 'cancelled'${done}${before})`;
}

/** A goal's progress: the share of its linked tasks that are done when it has any, else the value set by hand. */
function derivedProgress(linked: number, done: number, stored: number): Pick<FactGoal, "progress" | "progressMode"> {
  if (linked === 0) return { progress: stored, progressMode: "manual" };
  return { progress: Math.round((done * 100) / linked), progressMode: "tasks" };
}

/** The user's goals in these states, nearest target date first (those without one last). */
export async function findGoals(userId: string, statuses: readonly GoalStatus[]): Promise<FactGoal[]> {
  const rows = await db()
    .select({
      id: goals.id,
      title: goals.title,
      status: goals.status,
      progress: goals.progress,
      targetDate: goals.targetDate,
      linked: linkedCount(false),
      done: linkedCount(true),
    })
    .from(goals)
    .where(and(eq(goals.ownerId, userId), inArray(goals.status, [...statuses])))
    .orderBy(sql`${goals.targetDate} asc nulls last`, asc(goals.createdAt), asc(goals.id));
  return rows.map(({ linked, done, progress, ...goal }) => ({ ...goal, ...derivedProgress(linked, done, progress) }));
}

export interface GoalWeek extends FactGoal {
  /** Its progress when the week began; null when nothing tells (a hand-set goal with no report from before). */
  progressAtStart: number | null;
}

/**
 * The user's goals over a week (`periodStart` to `periodEnd`; `weekStart` its first local date): those active now
 * or achieved during the week, that existed before it ended, with their progress now and when it began. A goal
 * made during the week began at 0; a hand-set one otherwise at its last progress report dated before the week.
 */
export async function findGoalsOverWeek(
  userId: string,
  weekStart: string,
  periodStart: Date,
  periodEnd: Date,
): Promise<GoalWeek[]> {
  const rows = await db()
    .select({
      id: goals.id,
      title: goals.title,
      status: goals.status,
      progress: goals.progress,
      targetDate: goals.targetDate,
      createdAt: goals.createdAt,
      linked: linkedCount(false),
      done: linkedCount(true),
      doneAtStart: linkedCount(true, periodStart),
      reportedAtStart: sql<number | null>`(select r.value from ${goalProgressReports} r where r.goal_id = ${GOAL_ID}
        and r.reported_on < ${weekStart} order by r.reported_on desc, r.created_at desc limit 1)`,
    })
    .from(goals)
    .where(
      and(
        eq(goals.ownerId, userId),
        lt(goals.createdAt, periodEnd),
        or(eq(goals.status, "active"), and(eq(goals.status, "achieved"), gte(goals.achievedAt, periodStart))),
      ),
    )
    .orderBy(sql`${goals.targetDate} asc nulls last`, asc(goals.createdAt), asc(goals.id));
  return rows.map(({ linked, done, doneAtStart, reportedAtStart, createdAt, progress, ...goal }) => {
    const now = derivedProgress(linked, done, progress);
    const newThisWeek = createdAt >= periodStart;
    let progressAtStart: number | null;
    if (newThisWeek) progressAtStart = 0;
    else if (now.progressMode === "tasks") progressAtStart = Math.round((doneAtStart * 100) / linked);
    else progressAtStart = reportedAtStart;
    return { ...goal, ...now, progressAtStart };
  });
}

// The conversation

export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type ChatActionRow = typeof chatActions.$inferSelect;
export type NewChatAction = Pick<typeof chatActions.$inferInsert, "kind" | "params">;

export interface StoredExchange {
  question: ChatMessageRow;
  answer: ChatMessageRow;
  actions: ChatActionRow[];
}

/** Stores a question, its answer and the actions the answer proposes, together (all or nothing). */
export async function insertExchange(
  userId: string,
  question: string,
  answer: { content: string; answeredBy: Record<string, unknown> },
  actions: readonly NewChatAction[],
  now: Date,
): Promise<StoredExchange> {
  return db().transaction(async (tx) => {
    const [asked] = await tx.insert(chatMessages).values({ userId, role: "user", content: question, createdAt: now }).returning();
    const [answered] = await tx
      .insert(chatMessages)
      .values({ userId, role: "assistant", content: answer.content, answeredBy: answer.answeredBy, createdAt: now })
      .returning();
    const proposed = actions.length
      ? await tx
          .insert(chatActions)
          .values(actions.map((action) => ({ ...action, userId, messageId: answered!.id, createdAt: now })))
          .returning()
      : [];
    return { question: asked!, answer: answered!, actions: proposed };
  });
}

/** A page of the user's messages, newest first, older than the message `before`; with their actions. */
export async function listChatMessages(
  userId: string,
  limit: number,
  before: number | null,
): Promise<{ messages: ChatMessageRow[]; actions: ChatActionRow[] }> {
  const messages = await db()
    .select()
    .from(chatMessages)
    .where(and(eq(chatMessages.userId, userId), before ? lt(chatMessages.id, before) : undefined))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
  if (messages.length === 0) return { messages, actions: [] };
  const actions = await db()
    .select()
    .from(chatActions)
    .where(
      and(
        eq(chatActions.userId, userId),
        inArray(
          chatActions.messageId,
          messages.map((message) => message.id),
        ),
      ),
    )
    .orderBy(asc(chatActions.createdAt), asc(chatActions.id));
  return { messages, actions };
}

/** The user's latest messages, oldest first (the conversation so far, for the endpoint's prompt). */
export async function recentChatMessages(userId: string, limit: number): Promise<ChatMessageRow[]> {
  const rows = await db()
    .select()
    .from(chatMessages)
    .where(eq(chatMessages.userId, userId))
    .orderBy(desc(chatMessages.id))
    .limit(limit);
  return rows.reverse();
}

/** Deletes the user's conversation (their proposed actions go with it); answers how many messages. */
export async function deleteChatMessages(userId: string): Promise<number> {
  const rows = await db().delete(chatMessages).where(eq(chatMessages.userId, userId)).returning({ id: chatMessages.id });
  return rows.length;
}

export async function findChatAction(userId: string, id: string): Promise<ChatActionRow | null> {
  const [row] = await db()
    .select()
    .from(chatActions)
    .where(and(eq(chatActions.id, id), eq(chatActions.userId, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * Decides a proposed action of the user's (confirmed or dismissed), unless it was decided already: the one
 * update that finds it still `proposed` wins; null to everyone else.
 */
export async function decideChatAction(
  userId: string,
  id: string,
  state: "confirmed" | "dismissed",
  now: Date,
): Promise<ChatActionRow | null> {
  const [row] = await db()
    .update(chatActions)
    .set({ state, decidedAt: now })
    .where(and(eq(chatActions.id, id), eq(chatActions.userId, userId), eq(chatActions.state, "proposed")))
    .returning();
  return row ?? null;
}

/** Puts a confirmed action back to `proposed` (carrying it out failed: the user may try again or dismiss it). */
export async function reopenChatAction(id: string): Promise<void> {
  await db().update(chatActions).set({ state: "proposed", decidedAt: null }).where(eq(chatActions.id, id));
}

/** Records the task a confirmed action created or changed. */
export async function setChatActionTask(id: string, taskId: string): Promise<ChatActionRow> {
  const [row] = await db().update(chatActions).set({ taskId }).where(eq(chatActions.id, id)).returning();
  return row!;
}
