import { and, asc, desc, eq, getTableColumns, gt, inArray, lt, lte, max, or, sql, type Placeholder, type SQL } from "drizzle-orm";
import { lockUserRow } from "../auth/repo";
import { db, statementRows, statementSnapshot, type Executor, type SnapshotRows } from "../db/client";
import { subtasks, taskAssignees, taskGroups, tasks, type SubtaskRow, type TaskRow } from "../db/schema/tasks";
import { boardColumns as boardColumnTable, boardPlacements } from "../db/schema/board-columns";
import { taskCollaborators } from "../db/schema/collaboration";
import { familyMembers } from "../db/schema/family";
import { projectMembers } from "../db/schema/projects";
import { userGroupMembers, userGroups } from "../db/schema/teams";
import { users } from "../db/schema/users";
import {
  familyGroupsOf,
  projectsOf,
  readRelations,
  userGroupsOf,
  viewerLinkColumns,
  visibleTaskCondition,
} from "../permissions/repo";
import type { ViewerLinks } from "../permissions/tasks";

/**
 * A task as the service reads it for one user. Who is assigned or collaborates and how far its subtasks are come
 * with the row: database triggers keep `assigneeIds`, `collaboratorIds`, `subtaskTotal` and `subtaskDone` in step
 * with their tables. `viewer` is how that user reaches it through their groups (for lib/permissions).
 */
export type TaskRecord = TaskRow & { viewer: ViewerLinks };

export async function findVisibleTask(userId: string, taskId: string, database: Executor = db()): Promise<TaskRecord | null> {
  const [row] = await database
    .select({ ...getTableColumns(tasks), ...viewerLinkColumns(userId) })
    .from(tasks)
    .where(and(eq(tasks.id, taskId), visibleTaskCondition(userId)))
    .limit(1);
  if (!row) return null;
  const { teamMember, projectRole, familyRole, ...task } = row;
  return { ...task, viewer: { teamMember, projectRole, familyRole } };
}

/**
 * A task the user can see, as its answer JSON (`tasks.answer`, the `Task` shape that `toTaskOutput` makes), or null.
 * The statement is built once (see `statementRows`): Drizzle building it was about a fifth of a single read's CPU.
 */
export async function findVisibleTaskAnswer(userId: string, taskId: string): Promise<string | null> {
  const [row] = await statementRows<{ json: string }>(
    "task-answer",
    () =>
      sql`select ${tasks.answer} as json from ${tasks} where ${tasks.id} = ${sql.placeholder("taskId")} and ${visibleTaskCondition(sql.placeholder("userId"))} limit 1`,
    { userId, taskId },
  );
  return row?.json ?? null;
}

/** A task by id, whoever may see it (for announcing a change to everyone who does). */
export async function findTaskRow(taskId: string, database: Executor = db()): Promise<TaskRow | null> {
  const [row] = await database.select().from(tasks).where(eq(tasks.id, taskId)).limit(1);
  return row ?? null;
}

/** The same task, locked until the transaction ends (writes to one task happen one at a time). */
export async function lockTask(taskId: string, database: Executor): Promise<void> {
  await database.execute(sql`select 1 from ${tasks} where ${tasks.id} = ${taskId} for update`);
}

export interface ListFilter {
  statuses?: readonly string[];
  groupId?: string;
  projectId?: string;
  userGroupId?: string;
  assigneeId?: string;
  dueBefore?: Date;
  dueAfter?: Date;
  words?: readonly string[];
  tag?: string;
}

/** A sort: the column, its direction, and whether the column can be null (nulls come last either way). */
export interface SortKey {
  column: typeof tasks.position | typeof tasks.dueAt | typeof tasks.priority | typeof tasks.createdAt | typeof tasks.updatedAt;
  descending: boolean;
  nullable: boolean;
}

/** Where the previous page ended: the last task's sort value and id. */
export interface Keyset {
  value: string | number | Date | null;
  id: string;
}

/**
 * The values of a list statement, named as its placeholders. Which names are present is the statement's shape:
 * every filter given adds a condition, so the same names always mean the same SQL text (with the sort).
 */
type ListValues = Record<string, string | number>;

function listValues(userId: string, filter: ListFilter, after: Keyset | null): ListValues {
  const values: ListValues = { userId };
  // Statuses are validated names: the array literal needs no quoting (PGlite takes no JavaScript arrays).
  if (filter.statuses?.length) values.statuses = `{${filter.statuses.join(",")}}`;
  if (filter.groupId) values.groupId = filter.groupId;
  if (filter.projectId) values.projectId = filter.projectId;
  if (filter.userGroupId) values.userGroupId = filter.userGroupId;
  if (filter.assigneeId) values.assigneeId = filter.assigneeId;
  if (filter.dueBefore) values.dueBefore = filter.dueBefore.toISOString();
  if (filter.dueAfter) values.dueAfter = filter.dueAfter.toISOString();
  filter.words?.forEach((word, index) => {
    values[`word${index}`] = `%${word.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  });
  if (filter.tag) values.tag = filter.tag;
  if (after) {
    values.afterId = after.id;
    if (after.value !== null) values.afterValue = after.value instanceof Date ? after.value.toISOString() : after.value;
  }
  return values;
}

const bind = sql.placeholder;

/**
 * The conditions of a list's filters. With `status`, the tasks' status must equal it (a board's column, given by the
 * statement around this one) and `statuses` is left to that statement; `column` adds a custom column's own condition.
 */
function filterConditions(values: ListValues, status?: SQL, column?: SQL): SQL[] {
  const conditions: SQL[] = [];
  if (status) conditions.push(sql`${tasks.status} = ${status}`);
  else if ("statuses" in values) conditions.push(sql`${tasks.status} = any(${bind("statuses")}::text[])`);
  if (column) conditions.push(column);
  if ("groupId" in values) conditions.push(sql`${tasks.groupId} = ${bind("groupId")}`);
  if ("projectId" in values) conditions.push(sql`${tasks.projectId} = ${bind("projectId")}`);
  if ("userGroupId" in values) conditions.push(sql`${tasks.userGroupId} = ${bind("userGroupId")}`);
  if ("assigneeId" in values) {
    conditions.push(
      sql`exists (select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id} and ${taskAssignees.userId} = ${bind("assigneeId")})`,
    );
  }
  if ("dueBefore" in values) conditions.push(sql`${tasks.dueAt} < ${bind("dueBefore")}`);
  if ("dueAfter" in values) conditions.push(sql`${tasks.dueAt} >= ${bind("dueAfter")}`);
  for (let index = 0; `word${index}` in values; index++) {
    const pattern = bind(`word${index}`);
    conditions.push(sql`(${tasks.title} ilike ${pattern} or ${tasks.description} ilike ${pattern})`);
  }
  if ("tag" in values) conditions.push(sql`${tasks.tags} @> array[${bind("tag")}]::text[]`);
  return conditions;
}

function afterKeyset({ column, descending, nullable }: SortKey, values: ListValues): SQL {
  const beyond = sql.raw(descending ? "<" : ">");
  if (!("afterValue" in values)) return sql`(${column} is null and ${tasks.id} ${beyond} ${bind("afterId")})`;
  const value = bind("afterValue");
  const next = sql`(${column} ${beyond} ${value} or (${column} = ${value} and ${tasks.id} ${beyond} ${bind("afterId")}))`;
  return nullable ? sql`(${next} or ${column} is null)` : next;
}

/**
 * A page of the tasks a user can see (`visibleTaskCondition`), as a query. Written as ordered, limited branches,
 * one per relation of the `read` permission, merged by the same order: PostgreSQL reads about one page from each
 * instead of every visible task (0.3 ms against 32-68 ms for a user with 10,000 tasks). The tasks they own come
 * through the (owner, position, id) and (owner, due) indexes, those assigned to them or shared with them as a
 * collaborator through their rows in task_assignees and task_collaborators. The tasks of their user groups,
 * projects and family come group by group: a lateral page per group they belong to, so that a user in no group
 * costs nothing, whatever the planner estimates (with `column in (their groups)`, it read every task of the table
 * for a user without a family when all tasks sat in one task group: 1.5-2.5 ms a page).
 * Each branch leaves out what an earlier branch returns, so no task comes twice. The limit stays a parameter,
 * although the statement is prepared: with the limit in the text, PostgreSQL costed a generic plan (one for any
 * values) as cheap on a freshly filled table and kept it after five runs, and that plan read and sorted all
 * 10,000 tasks (3 ms a run); with the parameter it plans for the values until the table's statistics make a
 * generic plan as good.
 */
function visiblePage(values: ListValues, sort: SortKey, status?: SQL, column?: SQL): SQL {
  const conditions = filterConditions(values, status, column);
  if ("afterId" in values) conditions.push(afterKeyset(sort, values));
  const order = sql.join(orderOf(sort), sql`, `);
  const limit = bind("limit");
  const userId = bind("userId");
  const branches = visibleBranches(
    userId,
    conditions,
    (where) => sql`(select * from ${tasks} where ${where} order by ${order} limit ${limit})`,
    (groups, column, where) =>
      sql`(select page.* from ${groups} as mine(id) cross join lateral
        (select * from ${tasks} where ${column} = mine.id and ${where} order by ${order} limit ${limit}) page)`,
  );
  return sql`${sql.join(branches, sql` union all `)} order by ${sql.raw(outerOrder(sort, ""))} limit ${limit}`;
}

/**
 * The branches of a read over the tasks a user can see, one per relation of the `read` permission (see
 * `visiblePage`): `direct` makes the branch of a relation held on the task row or its own tables (owner,
 * assignee, collaborator), `perGroup` the branch of a relation through a group (team, project, family), given
 * the user's groups as a one-column query and the task column that names the group. Each branch's condition
 * leaves out what an earlier branch covers, so that the branches are disjoint.
 */
function visibleBranches(
  userId: Placeholder,
  conditions: SQL[],
  direct: (where: SQL) => SQL,
  perGroup: (groups: SQL, column: SQL, where: SQL) => SQL,
): SQL[] {
  const relations = readRelations(userId);
  const seen: SQL[] = [];
  /** The conditions of one branch: its relation, none of the earlier ones, the filters. */
  const only = (relation: SQL) => {
    const condition = and(relation, seen.length ? sql`(${sql.join(seen, sql` or `)}) is not true` : undefined, ...conditions)!;
    seen.push(relation);
    return condition;
  };
  return [
    direct(only(relations.owner)),
    direct(only(relations.assignee)),
    direct(only(relations.collaborator)),
    perGroup(userGroupsOf(userId), sql`${tasks.userGroupId}`, only(relations.team)),
    perGroup(projectsOf(userId), sql`${tasks.projectId}`, only(relations.project)),
    perGroup(familyGroupsOf(userId), sql`${tasks.groupId}`, only(relations.family)),
  ];
}

function orderOf(sort: SortKey): SQL[] {
  const direction = sort.descending ? desc : asc;
  return [
    sort.nullable ? sql`${sort.column} ${sql.raw(sort.descending ? "desc" : "asc")} nulls last` : direction(sort.column),
    direction(tasks.id),
  ];
}

/** The statement's shape: the names of its values and the sort. */
function shapeOf(kind: string, values: ListValues, sort?: SortKey): string {
  return `${kind}:${Object.keys(values).join(",")}${sort ? `:${sort.column.name}:${sort.descending ? "desc" : "asc"}` : ""}`;
}

/**
 * A page of the tasks a user can see, each already in its answer's JSON (the `Task` shape of lib/tasks/schema.ts,
 * as `toTaskOutput` makes it), in one round trip: the list is the one read that must be fast. The JSON is the
 * row's `answer` column, which a trigger makes on every write (migration 0012): building it here, with four
 * timestamps formatted per task, was more than half of PostgreSQL's CPU per page (0.35-0.45 of 0.6-0.8 ms). The
 * statement's text is built once per shape (see `statementRows`).
 */
export async function listVisibleTaskAnswers(
  userId: string,
  filter: ListFilter,
  sort: SortKey,
  limit: number,
  after: Keyset | null,
  run: SnapshotRows = statementRows,
): Promise<string[]> {
  const values = { ...listValues(userId, filter, after), limit };
  const rows = await run<{ json: string }>(
    shapeOf("task-answers", values, sort),
    () => sql`select t.answer as json from (${visiblePage(values, sort)}) t order by ${sql.raw(outerOrder(sort))}`,
    values,
  );
  return rows.map((row) => row.json);
}

/** The page's order again, on the union's own column names. */
function outerOrder(sort: SortKey, table = "t."): string {
  const direction = sort.descending ? "desc" : "asc";
  return `${table}${sort.column.name} ${direction}${sort.nullable ? " nulls last" : ""}, ${table}id ${direction}`;
}

/**
 * How many tasks a user can see that match a filter: a count per branch of `visiblePage`, summed, so that it reads
 * the user's own rows through the same indexes (one condition over the whole table, an `or` of the relations,
 * scanned every task of the installation: 17-33 ms a board on 16,000 tasks, for a user with 3 tasks or 10,000).
 */
export async function countVisibleTasks(userId: string, filter: ListFilter, run: SnapshotRows = statementRows): Promise<number> {
  const values = listValues(userId, filter, null);
  const [row] = await run<{ total: number }>(shapeOf("task-count", values), () => visibleCount(values), values);
  return row?.total ?? 0;
}

/** The count of `countVisibleTasks` as a query (`total`); with `status`, of that status (see `filterConditions`). */
function visibleCount(values: ListValues, status?: SQL, column?: SQL): SQL {
  const branches = visibleBranches(
    bind("userId"),
    filterConditions(values, status, column),
    (where) => sql`(select count(*) as n from ${tasks} where ${where})`,
    (groups, column, where) =>
      sql`(select count(*) as n from ${groups} as mine(id) join ${tasks} on ${column} = mine.id where ${where})`,
  );
  return sql`select coalesce(sum(n), 0)::int as total from (${sql.join(branches, sql` union all `)}) counts`;
}

export const BOARD_ORDER: SortKey = { column: tasks.position, descending: false, nullable: false };

export interface BoardColumn {
  status: TaskRow["status"];
  /** The cards as answer JSON, in position order. */
  tasks: string[];
  /** Whether more cards follow the last of `tasks`. */
  more: boolean;
  /** How many cards the column holds. */
  total: number;
}

/**
 * Board columns: each status's tasks in position order (as answer JSON), `limit` of them after `after` (the last
 * card already shown; null: from the top), whether more follow, and how many the column holds. One statement: for
 * each status (`unnest … with ordinality`), a lateral page and a lateral count, each through the user's own rows
 * (the branches of `visiblePage`), so a board costs the same however many tasks other people have. Eight
 * statements (a page and a count per column) cost eight round trips, plans and executions: most of a board's CPU on
 * both sides. It runs on a generic plan (`statementSnapshot`: the six-branch unions took 1-1.3 ms to plan on a
 * skewed table, docs/performance.md).
 */
export function boardColumns(
  userId: string,
  statuses: readonly TaskRow["status"][],
  filter: Pick<ListFilter, "groupId" | "projectId" | "userGroupId">,
  limit: number,
  after: Keyset | null,
): Promise<BoardColumn[]> {
  const values = { ...listValues(userId, { ...filter, statuses }, after), limit: limit + 1 };
  return statementSnapshot(async (run) => {
    const rows = await run<{ status: TaskRow["status"]; json: string | null; total: number | null }>(
      shapeOf("board", values, BOARD_ORDER),
      () => {
        const column = sql.raw("col.status");
        const statusesOf = sql`unnest(${bind("statuses")}::text[]) with ordinality as col(status, n)`;
        return sql`select status, json, total from (
            select col.n, col.status, page.json, null::int as total, page.position, page.id
            from ${statusesOf} cross join lateral
              (select t.answer as json, t.position, t.id from (${visiblePage(values, BOARD_ORDER, column)}) t) page
            union all
            select col.n, col.status, null, counts.total, null, null
            from ${statusesOf} cross join lateral (${visibleCount(values, column)}) counts
          ) board
          order by n, total is null, position, id`;
      },
      values,
    );
    return statuses.map((status) => {
      const mine = rows.filter((row) => row.status === status);
      const cards = mine.flatMap((row) => (row.json === null ? [] : [row.json]));
      const total = mine.find((row) => row.total !== null)?.total ?? 0;
      return { status, tasks: cards.slice(0, limit), more: cards.length > limit, total };
    });
  });
}

/** A column of a project's or team's own board (lib/board-columns): `first` when it is its status's first. */
export interface CustomColumn {
  id: string;
  status: TaskRow["status"];
  first: boolean;
}

/**
 * The columns of a project's or team's own board (`scope`), as `boardColumns` reads the status columns: a column
 * holds the tasks of its status placed in it (board_placements), and its status's first column also those placed in
 * no column of that status on this board. Same single statement, one lateral page and count per column.
 */
export function customBoardColumns(
  userId: string,
  scope: { projectId: string } | { userGroupId: string },
  columns: readonly CustomColumn[],
  filter: Pick<ListFilter, "groupId" | "projectId" | "userGroupId">,
  limit: number,
  after: Keyset | null,
): Promise<(BoardColumn & { id: string })[]> {
  const values: ListValues = {
    ...listValues(userId, filter, after),
    limit: limit + 1,
    columnIds: `{${columns.map((column) => column.id).join(",")}}`,
    columnStatuses: `{${columns.map((column) => column.status).join(",")}}`,
    columnFirsts: `{${columns.map((column) => (column.first ? "t" : "f")).join(",")}}`,
    scopeId: "projectId" in scope ? scope.projectId : scope.userGroupId,
  };
  const scopeColumn = sql.raw("projectId" in scope ? "bc.project_id" : "bc.user_group_id");
  return statementSnapshot(async (run) => {
    const rows = await run<{ column_id: string; json: string | null; total: number | null }>(
      shapeOf(`board-custom-${"projectId" in scope ? "project" : "team"}`, values, BOARD_ORDER),
      () => {
        const status = sql.raw("col.status");
        const placedHere = sql`exists (select 1 from ${boardPlacements} p where p.task_id = ${tasks.id} and p.column_id = col.column_id)`;
        const placedElsewhere = sql`exists (select 1 from ${boardPlacements} p join ${boardColumnTable} bc on bc.id = p.column_id
          where p.task_id = ${tasks.id} and ${scopeColumn} = ${bind("scopeId")} and bc.status = col.status and bc.id <> col.column_id)`;
        const column = sql`(${placedHere} or (col.first and not ${placedElsewhere}))`;
        const columnsOf = sql`unnest(${bind("columnIds")}::uuid[], ${bind("columnStatuses")}::text[], ${bind("columnFirsts")}::bool[])
          with ordinality as col(column_id, status, first, n)`;
        return sql`select column_id, json, total from (
            select col.n, col.column_id, page.json, null::int as total, page.position, page.id
            from ${columnsOf} cross join lateral
              (select t.answer as json, t.position, t.id from (${visiblePage(values, BOARD_ORDER, status, column)}) t) page
            union all
            select col.n, col.column_id, null, counts.total, null, null
            from ${columnsOf} cross join lateral (${visibleCount(values, status, column)}) counts
          ) board
          order by n, total is null, position, id`;
      },
      values,
    );
    return columns.map(({ id, status }) => {
      const mine = rows.filter((row) => row.column_id === id);
      const cards = mine.flatMap((row) => (row.json === null ? [] : [row.json]));
      const total = mine.find((row) => row.total !== null)?.total ?? 0;
      return { id, status, tasks: cards.slice(0, limit), more: cards.length > limit, total };
    });
  });
}

/**
 * The last position key among a user's own tasks (new tasks go after it). Call it in the transaction that
 * inserts the task: the owner's row stays locked until it ends, so that tasks created at the same moment get
 * distinct keys. Whoever also locks a task of the owner locks the owner first (no deadlock).
 */
export async function lockedLastPosition(ownerId: string, database: Executor): Promise<string | null> {
  // Two statements on purpose: under READ COMMITTED a statement reads the snapshot taken when it started, before it
  // waited for the lock, so a maximum read in the locking statement would miss the task of the transaction it waited
  // for (subtasks-board.test.ts, "tasks created at the same moment get distinct positions", fails on PostgreSQL).
  await lockUserRow(database, ownerId);
  const [row] = await database
    .select({ last: max(tasks.position) })
    .from(tasks)
    .where(eq(tasks.ownerId, ownerId));
  return row?.last ?? null;
}

/** The first position key after `position` among the tasks a user can see (a drop point's lower neighbour). */
export async function positionAfter(userId: string, position: string): Promise<string | null> {
  const [row] = await db()
    .select({ position: tasks.position })
    .from(tasks)
    .where(and(visibleTaskCondition(userId), gt(tasks.position, position)))
    .orderBy(asc(tasks.position))
    .limit(1);
  return row?.position ?? null;
}

/** The last position key before `position` among the tasks a user can see. */
export async function positionBefore(userId: string, position: string): Promise<string | null> {
  const [row] = await db()
    .select({ position: tasks.position })
    .from(tasks)
    .where(and(visibleTaskCondition(userId), lt(tasks.position, position)))
    .orderBy(desc(tasks.position))
    .limit(1);
  return row?.position ?? null;
}

/** A task to insert or a change to one; the columns the triggers keep are not the application's to write. */
export type NewTask = Omit<
  typeof tasks.$inferInsert,
  "assigneeIds" | "collaboratorIds" | "subtaskTotal" | "subtaskDone" | "answer"
>;

export async function insertTask(task: NewTask, assigneeIds: readonly string[], database: Executor): Promise<string> {
  const [row] = await database.insert(tasks).values(task).returning({ id: tasks.id });
  if (assigneeIds.length) {
    await database.insert(taskAssignees).values(assigneeIds.map((userId) => ({ taskId: row!.id, userId })));
  }
  return row!.id;
}

export async function updateTaskRow(taskId: string, patch: Partial<NewTask>, database: Executor): Promise<void> {
  await database.update(tasks).set(patch).where(eq(tasks.id, taskId));
}

export async function replaceAssignees(taskId: string, userIds: readonly string[], database: Executor): Promise<void> {
  await database.delete(taskAssignees).where(eq(taskAssignees.taskId, taskId));
  if (userIds.length) await database.insert(taskAssignees).values(userIds.map((userId) => ({ taskId, userId })));
}

export async function deleteTaskRow(taskId: string, database: Executor = db()): Promise<void> {
  await database.delete(tasks).where(eq(tasks.id, taskId));
}

/** Everyone who can see these tasks (see `visibleTaskCondition`): whose cached lists a change to them makes stale. */
export async function taskAudience(taskIds: readonly string[], database: Executor = db()): Promise<string[]> {
  return [...new Set([...(await taskAudiences(taskIds, database)).values()].flat())];
}

/**
 * Who sees the tasks whose ids are the uuid array `ids` (see `visibleTaskCondition`): one row (task_id, user_id) per
 * task and person, from every way of seeing a task.
 */
function audienceRows(ids: SQL): SQL {
  return sql`
    select t.id as task_id, t.owner_id as user_id from ${tasks} t where t.id = any(${ids})
    union
    select a.task_id, a.user_id from ${taskAssignees} a where a.task_id = any(${ids})
    union
    select t.id, m.user_id from ${tasks} t join ${userGroupMembers} m on m.group_id = t.user_group_id where t.id = any(${ids})
    union
    select c.task_id, c.user_id from ${taskCollaborators} c where c.task_id = any(${ids})
    union
    select t.id, p.user_id from ${tasks} t join ${projectMembers} p on p.project_id = t.project_id where t.id = any(${ids})
    union
    select t.id, f.user_id from ${tasks} t join ${taskGroups} g on g.id = t.group_id join ${familyMembers} f on f.family_id = g.family_id
      where t.id = any(${ids})`;
}

/** Who sees each of the tasks (see taskAudience), by task id; a task nobody sees (or that does not exist) is absent. */
export async function taskAudiences(taskIds: readonly string[], database: Executor = db()): Promise<Map<string, string[]>> {
  if (taskIds.length === 0) return new Map();
  const ids = sql`${`{${taskIds.join(",")}}`}::uuid[]`;
  const result = (await database.execute(audienceRows(ids))) as unknown as { rows: { task_id: string; user_id: string }[] };
  const audiences = new Map<string, string[]>();
  for (const row of result.rows) audiences.set(row.task_id, [...(audiences.get(row.task_id) ?? []), row.user_id]);
  return audiences;
}

/** A task's row and everyone who sees it (as `taskAudience` answers), in one statement; null for no such task. */
export async function findTaskRowWithAudience(
  taskId: string,
  database: Executor,
): Promise<{ row: TaskRow; audience: string[] } | null> {
  const [found] = await database
    .select({
      row: tasks,
      audience: sql<string[]>`array(select seen.user_id::text from (${audienceRows(sql`array[${tasks.id}]`)}) seen)`,
    })
    .from(tasks)
    .where(eq(tasks.id, taskId))
    .limit(1);
  return found ?? null;
}

/** The ids of the tasks assigned to a user group as a whole. */
export async function findUserGroupTaskIds(groupId: string, database: Executor = db()): Promise<string[]> {
  const rows = await database.select({ id: tasks.id }).from(tasks).where(eq(tasks.userGroupId, groupId));
  return rows.map((row) => row.id);
}

// People

export interface Person {
  id: string;
  name: string;
}

/** The names of these users (the board's assignees), in one query; unknown ids are left out. */
export async function findPeopleNames(userIds: string[], database: Executor = db()): Promise<Person[]> {
  if (userIds.length === 0) return [];
  return database.select({ id: users.id, name: users.name }).from(users).where(inArray(users.id, userIds));
}

/**
 * The names of a task's people: its owner and user group (null when it has none), its assignees in the order they
 * were assigned and its collaborators in the order they joined. Null when there is no such task.
 */
export async function findTaskPeople(
  taskId: string,
  database: Executor = db(),
): Promise<{ owner: Person; userGroup: Person | null; assignees: Person[]; collaborators: Person[] } | null> {
  const [task] = await database
    .select({ ownerId: users.id, ownerName: users.name, userGroupId: userGroups.id, userGroupName: userGroups.name })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.ownerId))
    .leftJoin(userGroups, eq(userGroups.id, tasks.userGroupId))
    .where(eq(tasks.id, taskId))
    .limit(1);
  if (!task) return null;
  const person = { id: users.id, name: users.name };
  const [assignees, collaborators] = await Promise.all([
    database
      .select(person)
      .from(taskAssignees)
      .innerJoin(users, eq(users.id, taskAssignees.userId))
      .where(eq(taskAssignees.taskId, taskId))
      .orderBy(asc(taskAssignees.createdAt), asc(users.id)),
    database
      .select(person)
      .from(taskCollaborators)
      .innerJoin(users, eq(users.id, taskCollaborators.userId))
      .where(eq(taskCollaborators.taskId, taskId))
      .orderBy(asc(taskCollaborators.createdAt), asc(users.id)),
  ]);
  return {
    owner: { id: task.ownerId, name: task.ownerName },
    userGroup: task.userGroupId && task.userGroupName !== null ? { id: task.userGroupId, name: task.userGroupName } : null,
    assignees,
    collaborators,
  };
}

// Subtasks

export async function listSubtasks(taskId: string, database: Executor = db()): Promise<SubtaskRow[]> {
  return database.select().from(subtasks).where(eq(subtasks.taskId, taskId)).orderBy(asc(subtasks.position), asc(subtasks.id));
}

export async function findSubtask(taskId: string, subtaskId: string, database: Executor = db()): Promise<SubtaskRow | null> {
  const [row] = await database
    .select()
    .from(subtasks)
    .where(and(eq(subtasks.taskId, taskId), eq(subtasks.id, subtaskId)))
    .limit(1);
  return row ?? null;
}

export async function insertSubtask(row: typeof subtasks.$inferInsert, database: Executor): Promise<SubtaskRow> {
  const [inserted] = await database.insert(subtasks).values(row).returning();
  return inserted!;
}

export async function updateSubtaskRow(
  subtaskId: string,
  patch: Partial<typeof subtasks.$inferInsert>,
  database: Executor,
): Promise<SubtaskRow> {
  const [row] = await database.update(subtasks).set(patch).where(eq(subtasks.id, subtaskId)).returning();
  return row!;
}

export async function deleteSubtaskRow(subtaskId: string, database: Executor): Promise<void> {
  await database.delete(subtasks).where(eq(subtasks.id, subtaskId));
}

// Workload

/**
 * The counts every workload shows, over the `tasks` rows a query reaches (counting `tasks.id`, so a left join that
 * reaches none counts 0): `active` in_progress, `pending` todo, `completed` done (since `completedSince` when
 * given), `overdue` todo or in_progress with a due time before `now`. Cancelled tasks count nowhere.
 */
export function workloadCountColumns(now: Date, completedSince: Date | null = null) {
  const completedFilter = completedSince ? sql` and ${tasks.completedAt} >= ${completedSince.toISOString()}::timestamptz` : sql``;
  return {
    active: sql<number>`count(${tasks.id}) filter (where ${tasks.status} = 'in_progress')::int`,
    pending: sql<number>`count(${tasks.id}) filter (where ${tasks.status} = 'todo')::int`,
    completed: sql<number>`count(${tasks.id}) filter (where ${tasks.status} = 'done'${completedFilter})::int`,
    overdue: sql<number>`count(${tasks.id}) filter (where ${tasks.status} in ('todo', 'in_progress') and ${tasks.dueAt} < ${now.toISOString()}::timestamptz)::int`,
  };
}

export async function workloadCounts(userId: string, now: Date, completedSince: Date | null) {
  const responsible = sql`(exists (select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id} and ${taskAssignees.userId} = ${userId})
    or (${tasks.ownerId} = ${userId} and not exists (select 1 from ${taskAssignees} where ${taskAssignees.taskId} = ${tasks.id})))`;
  const [row] = await db().select(workloadCountColumns(now, completedSince)).from(tasks).where(responsible);
  return row ?? { active: 0, pending: 0, completed: 0, overdue: 0 };
}

// Recurrence

/** Recurring tasks whose next occurrence is due to be created, with their owner's time zone. */
export async function recurrenceCandidates(now: Date, limit: number, database: Executor = db()) {
  return database
    .select({ id: tasks.id, ownerId: tasks.ownerId, timeZone: users.timeZone })
    .from(tasks)
    .innerJoin(users, eq(users.id, tasks.ownerId))
    .where(
      and(
        sql`${tasks.recurrence} is not null`,
        eq(tasks.successorCreated, false),
        or(
          and(sql`${tasks.recurrence}->>'anchor' = 'scheduled'`, or(lte(tasks.dueAt, now), eq(tasks.status, "done"))),
          and(sql`${tasks.recurrence}->>'anchor' = 'completion'`, eq(tasks.status, "done")),
        ),
      ),
    )
    .orderBy(asc(tasks.dueAt))
    .limit(limit);
}

/**
 * Locks a recurring task for its runner; null when another runner holds it or has already handled it. The lock is
 * FOR NO KEY UPDATE: it excludes other runners, but not the key-share locks that inserting a row referring to the
 * task takes (a gamification award of its completion, a notification): with FOR UPDATE those made the runner skip
 * a task that had just been completed.
 */
export async function claimRecurringTask(taskId: string, database: Executor): Promise<TaskRow | null> {
  const [row] = await database
    .select()
    .from(tasks)
    .where(and(eq(tasks.id, taskId), eq(tasks.successorCreated, false)))
    .for("no key update", { skipLocked: true });
  return row ?? null;
}

/** Inserts an occurrence unless it exists already (the unique series/occurrence index decides). */
export async function insertOccurrence(task: NewTask, database: Executor): Promise<string | null> {
  const [row] = await database
    .insert(tasks)
    .values(task)
    .onConflictDoNothing({ target: [tasks.seriesId, tasks.occurrence] })
    .returning({ id: tasks.id });
  return row?.id ?? null;
}

export async function copyAssigneesAndSubtasks(
  fromTaskId: string,
  toTaskId: string,
  now: Date,
  database: Executor,
): Promise<void> {
  await database.execute(
    sql`insert into ${taskAssignees} (task_id, user_id, created_at) select ${toTaskId}, user_id, created_at from ${taskAssignees} where task_id = ${fromTaskId}`,
  );
  await database.execute(
    sql`insert into ${subtasks} (task_id, title, done, position, created_at, updated_at) select ${toTaskId}, title, false, position, ${now.toISOString()}::timestamptz, ${now.toISOString()}::timestamptz from ${subtasks} where task_id = ${fromTaskId}`,
  );
}
