import type { Precondition } from "../api/conditional";
import { randomUUID } from "node:crypto";
import { generateKeyBetween } from "fractional-indexing";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { tasks, type Recurrence, type TaskRow } from "../db/schema/tasks";
import { findFamilyGroup } from "../family/repo";
import { findOwnGroup, firstActiveGroupId, holdGroup } from "../groups/repo";
import { requireOnTask, type TaskAction } from "../permissions/tasks";
import { publish } from "../events/publish";
import type { DomainEvent, DomainEventType } from "../events/types";
import { isModuleEnabled } from "../modules/registry";
import { findProjectRole } from "../projects/repo";
import { purgeDeletedMedia } from "../media/purge";
import { findMemberRole } from "../teams/repo";
import { boardLayout, columnForTask, placeTaskInColumn, type BoardScope } from "../board-columns/service";
import {
  boardColumns as readBoardColumns,
  countVisibleTasks,
  customBoardColumns,
  findPeopleNames,
  findVisibleTaskAnswer,
  deleteTaskRow,
  findTaskRowWithAudience,
  findUserGroupTaskIds,
  findVisibleTask,
  insertSubtask,
  insertTask,
  lockedLastPosition,
  listVisibleTaskAnswers,
  lockTask,
  positionAfter,
  positionBefore,
  replaceAssignees,
  taskAudience,
  taskAudiences,
  updateTaskRow,
  workloadCounts,
  type Keyset,
  type ListFilter,
  type NewTask,
  type SortKey,
  type TaskRecord,
  type BoardColumn as BoardColumnRead,
} from "./repo";
import {
  type CreateTaskInput,
  type ListTasksQuery,
  type MoveTaskInput,
  type TaskOutput,
  type TaskSort,
  type UpdateTaskInput,
  type ViewCountsOutput,
} from "./schema";
import { PRIORITIES, TASK_STATUSES } from "./vocabulary";
import { calendarDay, viewFilter, type TaskViewName } from "./views";

export function toTaskOutput(task: TaskRow): TaskOutput {
  return {
    id: task.id,
    ownerId: task.ownerId,
    groupId: task.groupId,
    projectId: task.projectId,
    userGroupId: task.userGroupId,
    title: task.title,
    description: task.description,
    status: task.status,
    priority: PRIORITIES[task.priority] ?? "normal",
    dueAt: task.dueAt?.toISOString() ?? null,
    startDate: task.startDate,
    tags: task.tags,
    assigneeIds: task.assigneeIds,
    collaboratorIds: task.collaboratorIds,
    position: task.position,
    recurrence: task.recurrence,
    seriesId: task.seriesId,
    occurrence: task.occurrence,
    subtasks: { total: task.subtaskTotal, done: task.subtaskDone },
    completedAt: task.completedAt?.toISOString() ?? null,
    createdAt: task.createdAt.toISOString(),
    updatedAt: task.updatedAt.toISOString(),
  };
}

const notFound = () => new AppError("not_found", "No such task");

/**
 * Announces a change to a task, in its transaction, after the change: `type` with the task as it is now to
 * everyone who sees it now (and `task.completed` when it was just completed), `task.unshared` with only its id to
 * those who saw it before and no longer do. Answers everyone whose cached lists the change makes stale, and the task
 * as announced (null when it is gone).
 */
export async function announceTaskChange(
  tx: Executor,
  change: {
    type: Exclude<DomainEventType, "task.deleted" | "task.unshared">;
    actorId: string | null;
    taskId: string;
    before: readonly string[];
    completed?: boolean;
  },
): Promise<{ audience: string[]; task: TaskOutput | null }> {
  const found = await findTaskRowWithAudience(change.taskId, tx);
  if (!found) return { audience: [...change.before], task: null };
  const after = found.audience;
  const task = toTaskOutput(found.row);
  const data = { task };
  const base = { actorId: change.actorId, taskId: change.taskId };
  const events: DomainEvent[] = [{ ...base, type: change.type, audience: after, data }];
  if (change.completed) events.push({ ...base, type: "task.completed", audience: after, data });
  const gone = change.before.filter((userId) => !after.includes(userId));
  if (gone.length) events.push({ ...base, type: "task.unshared", audience: gone, data: { taskId: change.taskId } });
  await publish(tx, ...events);
  return { audience: [...new Set([...change.before, ...after])], task };
}

/**
 * After someone left a team or a project (in its transaction): tells them `task.unshared` for each of its tasks
 * (`taskIds`) they no longer see. Answers those task ids.
 */
export async function announceLostTasks(
  tx: Executor,
  change: { actorId: string; userId: string; taskIds: readonly string[] },
): Promise<string[]> {
  const audiences = await taskAudiences(change.taskIds, tx);
  const lost = [...audiences].filter(([, audience]) => !audience.includes(change.userId)).map(([taskId]) => taskId);
  await publish(
    tx,
    ...lost.map((taskId): DomainEvent => ({
      type: "task.unshared",
      actorId: change.actorId,
      taskId,
      audience: [change.userId],
      data: { taskId },
    })),
  );
  return lost;
}

/** The ids of the tasks assigned to a user group as a whole (for the teams module). */
export function userGroupTaskIds(groupId: string, tx: Executor): Promise<string[]> {
  return findUserGroupTaskIds(groupId, tx);
}

/**
 * Runs `change` in its transaction: a change to many tasks at once that also changes who sees them (deleting the
 * team, project or task group they belong to, moving them out of it, deleting them with it). Then announces each
 * task as `announceTaskChange` does (`task.updated` to everyone who still sees it, `task.unshared` to those who
 * saw it only through what changed), or `task.deleted` to everyone who saw it when it is gone. Answers what
 * `change` answers.
 */
export async function announceTasksAround<T>(
  tx: Executor,
  tasks: { actorId: string; taskIds: readonly string[] },
  change: () => Promise<T>,
): Promise<T> {
  const before = await taskAudiences(tasks.taskIds, tx);
  const result = await change();
  for (const [taskId, audience] of before) {
    const base = { actorId: tasks.actorId, taskId };
    // A task that is gone is announced by nobody there (null): it is deleted for everyone who saw it.
    const { task } = await announceTaskChange(tx, { ...base, type: "task.updated", before: audience });
    if (!task) await publish(tx, { ...base, type: "task.deleted", audience, data: { taskId } });
  }
  return result;
}

/** A task the actor can see, or 404 (also for another user's task: never a hint that it exists). */
export async function getVisibleTask(actor: Actor, taskId: string, database?: Executor): Promise<TaskRecord> {
  const task = await findVisibleTask(actor.userId, taskId, database);
  if (!task) throw notFound();
  return task;
}

/** A task the actor can see and may `action` (lib/permissions): 404 when they cannot see it, else 403. */
export async function getTaskFor(actor: Actor, taskId: string, action: TaskAction, database?: Executor): Promise<TaskRecord> {
  const task = await getVisibleTask(actor, taskId, database);
  requireOnTask(actor.userId, task, action);
  return task;
}

/** Dates are kept to the millisecond, as JavaScript has them: list cursors compare them exactly. */
const toDate = (value: string) => new Date(value);

/** Status changes: done sets completedAt (once), anything else clears it. */
function statusPatch(current: Pick<TaskRow, "status" | "completedAt"> | null, status: TaskRow["status"], now: Date) {
  if (status === "done")
    return { status, completedAt: current?.status === "done" ? current.completedAt : now, autoCompleted: false };
  return { status, completedAt: null, autoCompleted: false };
}

/** A recurrence starts (or restarts) a series at the task's due time. */
function seriesPatch(recurrence: Recurrence | null, dueAt: Date | null) {
  if (!recurrence) return { recurrence: null };
  if (!dueAt) throw invalidField("body", "/dueAt", "is required for a recurring task");
  return { recurrence, seriesId: randomUUID(), occurrence: 1, seriesStartAt: dueAt, successorCreated: false };
}

/**
 * A task group the actor may put tasks in: their own, or one shared with their family workspace. Called in the
 * transaction that writes the task, which then holds the group until it ends.
 */
async function groupFor(actor: Actor, groupId: string | undefined, database: Executor): Promise<string> {
  if (groupId !== undefined) {
    await holdGroup(groupId, database);
    // While the family module is off, no task goes into a family member's shared group (those there stay there).
    const usable =
      (await findOwnGroup(actor.userId, groupId, database)) ??
      (isModuleEnabled("family") ? await findFamilyGroup(actor.userId, groupId, database) : null);
    if (!usable) throw invalidField("body", "/groupId", "is not one of your groups or your family's");
    return groupId;
  }
  const first = await firstActiveGroupId(actor.userId, database);
  if (!first) throw invalidField("body", "/groupId", "is required: you have no active group");
  return first;
}

/** A project the actor may add tasks to (owner, admin or member; not a viewer), or null. */
async function projectFor(actor: Actor, projectId: string | null | undefined, database?: Executor): Promise<string | null> {
  if (!projectId) return null;
  if (!isModuleEnabled("projects"))
    throw invalidField("body", "/projectId", "the projects module is switched off on this server");
  const role = await findProjectRole(projectId, actor.userId, database);
  if (!role) throw invalidField("body", "/projectId", "is not a project you belong to");
  if (role === "viewer") throw invalidField("body", "/projectId", "you can only view this project's tasks");
  return projectId;
}

/**
 * Assignees set through the task itself: its owner may assign themself and keep or remove people already
 * assigned. Anyone else joins through a collaboration request, which they accept.
 */
function checkAssignees(actor: Actor, requested: readonly string[], current: readonly string[]): string[] {
  const unique = [...new Set(requested)];
  unique.forEach((userId, index) => {
    if (userId !== actor.userId && !current.includes(userId)) {
      throw invalidField("body", `/assigneeIds/${index}`, "you can assign yourself; ask others with a collaboration request");
    }
  });
  return unique;
}

/** The user group to assign a task to: one the actor belongs to (anything else is a 400 that reveals nothing). */
async function userGroupFor(actor: Actor, userGroupId: string | null | undefined, database?: Executor): Promise<string | null> {
  if (!userGroupId) return null;
  if (!(await findMemberRole(userGroupId, actor.userId, database))) {
    throw invalidField("body", "/userGroupId", "is not a user group you belong to");
  }
  return userGroupId;
}

/**
 * Writes one new task in the caller's transaction: its group, project and user group checked for the actor, its
 * subtasks (open, in this order), and `task.created` published. Answers the task as published, which is the answer
 * to its creation: read in the transaction after every write of it, it is what the commit makes visible.
 */
async function insertTaskFor(
  tx: Executor,
  actor: Actor,
  input: CreateTaskInput,
  subtaskTitles: readonly string[] = [],
): Promise<TaskOutput> {
  const assigneeIds = checkAssignees(actor, input.assigneeIds ?? [], []);
  const now = nowDate();
  const dueAt = input.dueAt ? toDate(input.dueAt) : null;
  const row: Omit<NewTask, "position" | "groupId" | "projectId" | "userGroupId"> = {
    ownerId: actor.userId,
    title: input.title,
    description: input.description ?? "",
    priority: PRIORITIES.indexOf(input.priority ?? "normal"),
    dueAt,
    startDate: input.startDate ?? null,
    tags: input.tags ?? [],
    ...statusPatch(null, input.status ?? "todo", now),
    ...seriesPatch(input.recurrence ?? null, dueAt),
    createdAt: now,
    updatedAt: now,
  };
  const position = generateKeyBetween(await lockedLastPosition(actor.userId, tx), null);
  const groupId = await groupFor(actor, input.groupId, tx);
  const projectId = await projectFor(actor, input.projectId, tx);
  const userGroupId = await userGroupFor(actor, input.userGroupId, tx);
  const id = await insertTask({ ...row, position, groupId, projectId, userGroupId }, assigneeIds, tx);
  for (const [index, title] of subtaskTitles.entries()) {
    await insertSubtask(
      { taskId: id, title, done: false, position: index, completedAt: null, createdAt: now, updatedAt: now },
      tx,
    );
  }
  const { task } = await announceTaskChange(tx, {
    type: "task.created",
    actorId: actor.userId,
    taskId: id,
    before: [],
    completed: row.status === "done",
  });
  return task!;
}

export async function createTask(actor: Actor, input: CreateTaskInput): Promise<TaskOutput> {
  return db().transaction((tx) => insertTaskFor(tx, actor, input));
}

/**
 * Creates several tasks, each with its subtasks, in ONE transaction: every check of `createTask` applies to each,
 * and any failure (a bad group or project, a database error) leaves none of them. Events are published in the
 * transaction (so only on commit). Answers the tasks in the order given.
 */
export async function createTasksWithSubtasks(
  actor: Actor,
  items: readonly { task: CreateTaskInput; subtasks: readonly string[] }[],
): Promise<TaskOutput[]> {
  return db().transaction(async (tx) => {
    const created: TaskOutput[] = [];
    for (const item of items) created.push(await insertTaskFor(tx, actor, item.task, item.subtasks));
    return created;
  });
}

/** A task the actor can see: its stored answer JSON, read by a statement built once (not the row, mapped). */
export async function getTask(actor: Actor, taskId: string): Promise<TaskOutput> {
  const answer = await findVisibleTaskAnswer(actor.userId, taskId);
  if (answer === null) throw notFound();
  return JSON.parse(answer) as TaskOutput;
}

/** The fields that need the `manage` permission; the rest need `edit`. */
const MANAGED_FIELDS = ["groupId", "projectId", "userGroupId", "assigneeIds", "recurrence"] as const;

/**
 * Changes a task. `precondition` (an `If-Match`, lib/api/conditional.ts) is asked with the task as it is once locked:
 * a task changed since the client read it is left as it is (412).
 */
export async function updateTask(
  actor: Actor,
  taskId: string,
  input: UpdateTaskInput,
  precondition?: Precondition,
): Promise<TaskOutput> {
  await db().transaction(async (tx) => {
    await lockTask(taskId, tx);
    const task = await getTaskFor(actor, taskId, "edit", tx);
    await precondition?.(toTaskOutput(task));
    if (MANAGED_FIELDS.some((field) => input[field] !== undefined)) requireOnTask(actor.userId, task, "manage");
    // Who saw it before the change: a new user group or fewer assignees must not leave their lists stale.
    const before = await taskAudience([taskId], tx);
    const now = nowDate();
    const patch: Partial<NewTask> = { updatedAt: now };
    if (input.title !== undefined) patch.title = input.title;
    if (input.description !== undefined) patch.description = input.description;
    if (input.priority !== undefined) patch.priority = PRIORITIES.indexOf(input.priority);
    if (input.startDate !== undefined) patch.startDate = input.startDate;
    if (input.tags !== undefined) patch.tags = input.tags;
    if (input.dueAt !== undefined) patch.dueAt = input.dueAt ? toDate(input.dueAt) : null;
    // Inside the transaction, read through it: PGlite has one connection, and a read outside would wait forever.
    if (input.groupId !== undefined) patch.groupId = await groupFor(actor, input.groupId, tx);
    if (input.projectId !== undefined) patch.projectId = await projectFor(actor, input.projectId, tx);
    if (input.userGroupId !== undefined) patch.userGroupId = await userGroupFor(actor, input.userGroupId, tx);
    if (input.status !== undefined && input.status !== task.status) Object.assign(patch, statusPatch(task, input.status, now));
    const dueAt = patch.dueAt === undefined ? task.dueAt : patch.dueAt;
    if (input.recurrence !== undefined) Object.assign(patch, seriesPatch(input.recurrence, dueAt));
    else if (task.recurrence && patch.dueAt !== undefined && !task.successorCreated) {
      // A recurring task moved to another time: the series goes on from there.
      Object.assign(patch, seriesPatch(task.recurrence, dueAt));
    }
    await updateTaskRow(taskId, patch, tx);
    const assigneeIds =
      input.assigneeIds === undefined ? task.assigneeIds : checkAssignees(actor, input.assigneeIds, task.assigneeIds);
    if (input.assigneeIds !== undefined) await replaceAssignees(taskId, assigneeIds, tx);
    const completed = patch.status === "done" && task.status !== "done";
    await announceTaskChange(tx, { type: "task.updated", actorId: actor.userId, taskId, before, completed });
  });
  return getTask(actor, taskId);
}

/** Deletes a task with its subtasks; `precondition` as for `updateTask`. */
export async function deleteTask(actor: Actor, taskId: string, precondition?: Precondition): Promise<void> {
  await db().transaction(async (tx) => {
    await lockTask(taskId, tx);
    const task = await getTaskFor(actor, taskId, "delete", tx);
    await precondition?.(toTaskOutput(task));
    const audience = await taskAudience([taskId], tx);
    await deleteTaskRow(taskId, tx);
    await publish(tx, { type: "task.deleted", actorId: actor.userId, taskId, audience, data: { taskId } });
  });
  // Its media rows went with it (a cascade): remove their files too.
  await purgeDeletedMedia();
}

// The list

const SORT_KEYS: Record<TaskSort, SortKey> = {
  position: { column: tasks.position, descending: false, nullable: false },
  dueAt: { column: tasks.dueAt, descending: false, nullable: true },
  "-dueAt": { column: tasks.dueAt, descending: true, nullable: true },
  priority: { column: tasks.priority, descending: false, nullable: false },
  "-priority": { column: tasks.priority, descending: true, nullable: false },
  createdAt: { column: tasks.createdAt, descending: false, nullable: false },
  "-createdAt": { column: tasks.createdAt, descending: true, nullable: false },
  updatedAt: { column: tasks.updatedAt, descending: false, nullable: false },
  "-updatedAt": { column: tasks.updatedAt, descending: true, nullable: false },
};

/** The value a page's last task has in the sort's column, as the cursor keeps it. */
function sortValue(task: TaskOutput, sort: TaskSort): string | number | null {
  switch (sort.replace("-", "")) {
    case "position":
      return task.position;
    case "dueAt":
      return task.dueAt;
    case "priority":
      return PRIORITIES.indexOf(task.priority);
    case "createdAt":
      return task.createdAt;
    default:
      return task.updatedAt;
  }
}

function encodeCursor(sort: TaskSort, task: TaskOutput): string {
  return Buffer.from(JSON.stringify([sort, sortValue(task, sort), task.id])).toString("base64url");
}

const badCursor = () => invalidField("query", "/cursor", "is not a cursor of this list and sort; start again without it");

function decodeCursor(cursor: string, sort: TaskSort): Keyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString());
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 3 || parsed[0] !== sort || typeof parsed[2] !== "string") throw badCursor();
  const [, value, id] = parsed as [string, unknown, string];
  if (!/^[0-9a-f-]{36}$/.test(id)) throw badCursor();
  const column = sort.replace("-", "");
  if (value === null && column === "dueAt") return { value: null, id };
  if (column === "position" && typeof value === "string") return { value, id };
  if (column === "priority" && typeof value === "number") return { value, id };
  if (typeof value === "string" && !Number.isNaN(Date.parse(value)) && column !== "position" && column !== "priority") {
    return { value: new Date(value), id };
  }
  throw badCursor();
}

/** The repo's filter of a `GET /tasks` query. */
function listFilterOf(query: Omit<ListTasksQuery, "sort" | "limit" | "cursor">): ListFilter {
  return {
    statuses: query.status,
    groupId: query.groupId,
    projectId: query.projectId,
    userGroupId: query.userGroupId,
    assigneeId: query.assigneeId,
    dueBefore: query.dueBefore ? toDate(query.dueBefore) : undefined,
    dueAfter: query.dueAfter ? toDate(query.dueAfter) : undefined,
    words: query.q?.split(/\s+/),
    tag: query.tag,
  };
}

/** How many tasks the actor sees that match the filters of a `GET /tasks` query (the list page's counts). */
export function countTasks(actor: Actor, query: Omit<ListTasksQuery, "sort" | "limit" | "cursor">): Promise<number> {
  return countVisibleTasks(actor.userId, listFilterOf(query));
}

/**
 * `GET /tasks/view-counts`: how many open tasks the actor sees in the task list's Today and Upcoming views, in whole
 * days of their time zone at `now` (the list page renders its first numbers with this too).
 */
export async function countTaskViews(actor: Actor, now: Date = nowDate()): Promise<ViewCountsOutput> {
  const day = calendarDay(now, actor.timeZone);
  const count = (view: TaskViewName) => {
    const { status, ...due } = viewFilter(view, day, actor.timeZone);
    return countTasks(actor, { status: [...status], ...due });
  };
  const [today, upcoming] = await Promise.all([count("today"), count("upcoming")]);
  return { day, timeZone: actor.timeZone, today, upcoming };
}

/** `GET /tasks`'s answer as JSON bytes: the tasks' stored JSON goes out as it is (cached: lib/tasks/answers.ts). */
export async function listTasks(actor: Actor, query: ListTasksQuery): Promise<Buffer> {
  const after = query.cursor ? decodeCursor(query.cursor, query.sort) : null;
  const answers = await listVisibleTaskAnswers(actor.userId, listFilterOf(query), SORT_KEYS[query.sort], query.limit + 1, after);
  const page = answers.slice(0, query.limit);
  const nextCursor = answers.length > query.limit ? encodeCursor(query.sort, JSON.parse(page.at(-1)!) as TaskOutput) : null;
  return Buffer.from(`{"items":[${page.join(",")}],"nextCursor":${JSON.stringify(nextCursor)}}`);
}

/** The first `limit` tasks the actor sees with these filters, in board order (for copying them, e.g. into a template). */
export async function listVisibleTasks(
  actor: Actor,
  filter: { groupId?: string; projectId?: string; statuses?: readonly TaskRow["status"][] },
  limit: number,
): Promise<TaskOutput[]> {
  const answers = await listVisibleTaskAnswers(actor.userId, filter, SORT_KEYS.position, limit, null);
  return answers.map((answer) => JSON.parse(answer) as TaskOutput);
}

/**
 * Every task the actor sees, as `GET /tasks/{id}` answers it, in creation order (lib/sync). Read in batches keyed on
 * the creation time, which never changes: a task changed or moved while this runs is neither skipped nor read twice.
 */
export async function listAllVisibleTasks(actor: Actor, batch = 1000): Promise<TaskOutput[]> {
  const all: TaskOutput[] = [];
  let after: Keyset | null = null;
  for (;;) {
    const answers = await listVisibleTaskAnswers(actor.userId, {}, SORT_KEYS.createdAt, batch, after);
    const page = answers.map((answer) => JSON.parse(answer) as TaskOutput);
    all.push(...page);
    if (page.length < batch) return all;
    const last = page.at(-1)!;
    after = { value: new Date(last.createdAt), id: last.id };
  }
}

// The board

export interface BoardRequest {
  groupId?: string;
  projectId?: string;
  /** A team's board. */
  userGroupId?: string;
  /** Cards per column. */
  limit: number;
  /** Only this status's columns (to load more of one, with `cursor`). */
  status?: TaskRow["status"];
  /** Only this one of the project's or team's own columns (to load more of it, with `cursor`). */
  columnId?: string;
  /** A column's `nextCursor`: its cards after the last one shown. */
  cursor?: string;
}

/**
 * The board's columns, each card as the answer JSON the database keeps (`tasks.answer`), with the column's total
 * and a cursor to its next cards (the same cursor as `GET /tasks?sort=position` makes, so either continues it).
 * The columns are read in one snapshot, each from the user's own rows.
 */
async function boardColumns(actor: Actor, request: BoardRequest) {
  const after = request.cursor ? decodeCursor(request.cursor, "position") : null;
  const filter = { groupId: request.groupId, projectId: request.projectId, userGroupId: request.userGroupId };
  // A project's board shows the project's own columns (when it has some and the actor belongs to it), else a team's.
  const scope: BoardScope | null = request.projectId
    ? { kind: "project", id: request.projectId }
    : request.userGroupId
      ? { kind: "team", id: request.userGroupId }
      : null;
  const layout = scope ? await boardLayout(actor, scope) : null;
  let read: (BoardColumnRead & { id: string | null; name: string | null })[];
  if (layout) {
    if (request.columnId !== undefined && !layout.some((column) => column.id === request.columnId))
      throw invalidField("query", "/columnId", "is not a column of this board");
    const chosen = layout.filter(
      (column) =>
        (request.columnId === undefined || column.id === request.columnId) &&
        (request.status === undefined || column.status === request.status),
    );
    if (request.cursor && chosen.length !== 1)
      throw invalidField("query", "/columnId", "is required with cursor: a cursor continues one column");
    const names = new Map(layout.map((column) => [column.id, column.name]));
    const owner = scope!.kind === "project" ? { projectId: scope!.id } : { userGroupId: scope!.id };
    const columns = chosen.length ? await customBoardColumns(actor.userId, owner, chosen, filter, request.limit, after) : [];
    read = columns.map((column) => ({ ...column, name: names.get(column.id) ?? null }));
  } else {
    if (request.columnId !== undefined) throw invalidField("query", "/columnId", "is not a column of this board");
    if (request.cursor && !request.status)
      throw invalidField("query", "/status", "is required with cursor: a cursor continues one column");
    const statuses = request.status ? [request.status] : TASK_STATUSES;
    const columns = await readBoardColumns(actor.userId, statuses, filter, request.limit, after);
    read = columns.map((column) => ({ ...column, id: null, name: null }));
  }
  const columns = read.map(({ id, name, status, tasks, more, total }) => {
    const last = tasks.at(-1);
    const nextCursor = more && last ? encodeCursor("position", JSON.parse(last) as TaskOutput) : null;
    return { id, name, status, tasks, total, nextCursor };
  });
  const assigneeIds = new Set(columns.flatMap((column) => column.tasks.flatMap(assigneeIdsOf)));
  return { columns, people: await findPeopleNames([...assigneeIds]) };
}

/** A card's assignees, from its stored JSON: parsed only when it has some (most cards have none). */
function assigneeIdsOf(card: string): string[] {
  return card.includes(`"assigneeIds":[]`) ? [] : (JSON.parse(card) as TaskOutput).assigneeIds;
}

/**
 * `GET /board`'s answer as JSON bytes (cached: lib/tasks/answers.ts): the cards' stored JSON goes out as it is,
 * neither parsed nor serialised again.
 */
export async function boardAnswer(actor: Actor, request: BoardRequest): Promise<Buffer> {
  const { columns, people } = await boardColumns(actor, request);
  const parts = columns.map(
    (column) =>
      `{"id":${JSON.stringify(column.id)},"name":${JSON.stringify(column.name)},"status":"${column.status}","tasks":[${column.tasks.join(",")}],"total":${column.total},"nextCursor":${JSON.stringify(column.nextCursor)}}`,
  );
  return Buffer.from(`{"columns":[${parts.join(",")}],"people":${JSON.stringify(people)}}`);
}

/**
 * Drops a task between two neighbours (and into a column). Only the moved task gets a new position key,
 * between its neighbours' keys: the rest of the column is never renumbered.
 */
export async function moveTask(actor: Actor, taskId: string, input: MoveTaskInput): Promise<TaskOutput> {
  const task = await getTaskFor(actor, taskId, "edit");
  const neighbour = async (id: string | null | undefined, pointer: string) => {
    if (!id) return null;
    if (id === taskId) throw invalidField("body", pointer, "is the task being moved");
    const found = await findVisibleTask(actor.userId, id);
    if (!found) throw invalidField("body", pointer, "no such task");
    return found.position;
  };
  let lower = await neighbour(input.afterId, "/afterId");
  let upper = await neighbour(input.beforeId, "/beforeId");
  // One neighbour given: the drop point is next to it, before whatever already follows (or precedes) it.
  if (lower !== null && input.beforeId === undefined) upper = await positionAfter(actor.userId, lower);
  if (upper !== null && input.afterId === undefined) lower = await positionBefore(actor.userId, upper);
  if (lower !== null && upper !== null && lower === upper) upper = await positionAfter(actor.userId, lower);
  if (lower !== null && upper !== null && lower > upper) {
    throw new AppError("conflict", "afterId must be above beforeId: the board changed, reload it");
  }
  const now = nowDate();
  const patch: Partial<NewTask> = { updatedAt: now };
  if (input.afterId !== undefined || input.beforeId !== undefined) {
    patch.position = generateKeyBetween(lower === upper ? null : lower, upper);
  }
  const column = input.columnId === undefined ? null : await columnForTask(actor, task, input.columnId);
  if (column && input.status !== undefined && input.status !== column.status)
    throw invalidField("body", "/status", `must be the column's status (${column.status}), or left out`);
  const status = column?.status ?? input.status;
  if (status !== undefined && status !== task.status) Object.assign(patch, statusPatch(task, status, now));
  await db().transaction(async (tx) => {
    await updateTaskRow(taskId, patch, tx);
    if (column) await placeTaskInColumn(taskId, column, tx);
    const before = await taskAudience([taskId], tx);
    const completed = patch.status === "done" && task.status !== "done";
    await announceTaskChange(tx, { type: "task.moved", actorId: actor.userId, taskId, before, completed });
  });
  return getTask(actor, taskId);
}

// Workload

export async function getWorkload(actor: Actor, completedSince: string | undefined) {
  const counts = await workloadCounts(actor.userId, nowDate(), completedSince ? toDate(completedSince) : null);
  return { userId: actor.userId, ...counts };
}
