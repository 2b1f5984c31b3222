import { and, asc, eq, getTableColumns, is, ne, sql, type SQL } from "drizzle-orm";
import { getTableConfig, PgTable, type PgColumn } from "drizzle-orm/pg-core";
import { db, readSnapshot, type Executor } from "../db/client";
import * as schema from "../db/schema/all";
import { visibleTaskCondition } from "../permissions/repo";
import { ACCOUNT_DATA_TABLES, NIL_UUID, type ColumnShape, type ExportView, type TableShape } from "./tables";

const { mediaItems, projectMembers, taskAssignees, taskCollaborators, taskGroups, tasks, userGroupMembers, userGroups, users } =
  schema;

/** Every table of the schema, by its SQL name. */
const TABLES: ReadonlyMap<string, PgTable> = new Map(
  (Object.values(schema) as unknown[])
    .filter((value): value is PgTable => is(value, PgTable))
    .map((table) => [getTableConfig(table).name, table]),
);

/** The schema as the account-data registry is checked against it (tables.ts: `registryProblems`). */
export function schemaShapes(): TableShape[] {
  return [...TABLES.values()].map((table) => {
    const config = getTableConfig(table);
    const references = new Map<string, NonNullable<ColumnShape["references"]>>();
    for (const foreignKey of config.foreignKeys) {
      const reference = foreignKey.reference();
      if (reference.columns.length !== 1) continue;
      references.set(reference.columns[0]!.name, {
        table: getTableConfig(reference.foreignTable).name,
        column: reference.foreignColumns[0]!.name,
        onDelete: foreignKey.onDelete ?? "no action",
      });
    }
    return {
      name: config.name,
      columns: config.columns.map((column) => ({
        name: column.name,
        type: column.getSQLType(),
        primaryKey: column.primary,
        notNull: column.notNull,
        ...(references.has(column.name) && { references: references.get(column.name)! }),
      })),
    };
  });
}

/** Whose data: the user's id and email, the parameters of the registry's conditions. */
export interface AccountOwner {
  userId: string;
  email: string;
}

/** A registry condition as SQL: `$user` and `$email` become parameters, the rest is the registry's own text. */
function bind(condition: string, owner: AccountOwner): SQL {
  const chunks = condition
    .split(/(\$user\b|\$email\b)/)
    .filter((chunk) => chunk !== "")
    .map((chunk) =>
      chunk === "$user" ? sql`${owner.userId}::uuid` : chunk === "$email" ? sql`${owner.email}::text` : sql.raw(chunk),
    );
  return sql.join(chunks, sql.raw(""));
}

function tableOrThrow(name: string): PgTable {
  const table = TABLES.get(name);
  if (!table) throw new Error(`No table ${name} in the schema`);
  return table;
}

/** A view's columns, by their JavaScript names (the export's keys): all but `omit`, or `only`. */
function viewColumns(table: PgTable, view: ExportView): Record<string, PgColumn> {
  return Object.fromEntries(
    Object.entries(getTableColumns(table)).filter(([, column]) =>
      view.only ? view.only.includes(column.name) : !(view.omit ?? []).includes(column.name),
    ),
  );
}

/** The table's primary key columns, for a stable order. */
function keyColumns(table: PgTable): PgColumn[] {
  const config = getTableConfig(table);
  const single = config.columns.filter((column) => column.primary);
  return single.length > 0 ? single : (config.primaryKeys[0]?.columns ?? []);
}

/**
 * Everything of the user's the registry exports: one query per key, all in one read-only transaction (one
 * consistent snapshot on PostgreSQL). Keys in the registry's order, `user` first.
 */
export async function readAccountData(owner: AccountOwner): Promise<Record<string, unknown>> {
  return (await readAccountExport(owner)).data;
}

/** A media file of the export: the row's id and display name, and where its bytes are stored. */
export interface AccountMediaFile {
  id: string;
  filename: string;
  storageKey: string;
}

/**
 * The export (readAccountData) and, in the same snapshot, the storage keys of the media items it lists (the
 * registry's `mediaItems` view, whose rows leave the key out), for the ZIP form.
 */
export async function readAccountExport(
  owner: AccountOwner,
): Promise<{ data: Record<string, unknown>; media: AccountMediaFile[] }> {
  return readSnapshot(async (tx) => {
    const data: Record<string, unknown> = {};
    for (const [name, entry] of Object.entries(ACCOUNT_DATA_TABLES)) {
      if (!Array.isArray(entry.export)) continue;
      const table = tableOrThrow(name);
      for (const view of entry.export as readonly ExportView[]) {
        const rows = await tx
          .select(viewColumns(table, view))
          .from(table)
          .where(bind(view.where, owner))
          .orderBy(...keyColumns(table).map((column) => asc(column)));
        data[view.key] = view.single ? (rows[0] ?? null) : rows;
      }
    }
    const [mediaView] = ACCOUNT_DATA_TABLES.media_items!.export as readonly ExportView[];
    const media = await tx
      .select({ id: mediaItems.id, filename: mediaItems.filename, storageKey: mediaItems.storageKey })
      .from(mediaItems)
      .where(bind(mediaView!.where, owner))
      .orderBy(asc(mediaItems.createdAt), asc(mediaItems.id));
    return { data, media };
  });
}

// Deleting an account

export interface AccountRow {
  id: string;
  email: string;
  passwordHash: string | null;
}

export async function findAccount(userId: string): Promise<AccountRow | null> {
  const [row] = await db()
    .select({ id: users.id, email: users.email, passwordHash: users.passwordHash })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row ?? null;
}

/**
 * Locks the user's row until the transaction ends, against every change and every new row that refers to it (a
 * foreign key check needs a share lock on it). False when the account is gone already.
 */
export async function lockAccount(userId: string, tx: Executor): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  return rows.length > 0;
}

const ids = (rows: { id: string }[]) => rows.map((row) => row.id);

/** Every task the user sees (lib/permissions): whose audiences deleting them can change. */
export async function visibleTaskIds(userId: string, tx: Executor): Promise<string[]> {
  return ids(await tx.select({ id: tasks.id }).from(tasks).where(visibleTaskCondition(userId)));
}

/** The user's own tasks that someone else sees too (an assignee, a collaborator, a team, a project, a family). */
export async function ownTasksSeenByOthers(userId: string, tx: Executor): Promise<string[]> {
  return ids(
    await tx
      .select({ id: tasks.id })
      .from(tasks)
      .where(
        and(
          eq(tasks.ownerId, userId),
          sql`(
            exists (select 1 from ${taskAssignees} a where a.task_id = ${tasks.id} and a.user_id <> ${userId})
            or exists (select 1 from ${taskCollaborators} c where c.task_id = ${tasks.id} and c.user_id <> ${userId})
            or ${tasks.userGroupId} is not null
            or ${tasks.projectId} is not null
            or exists (select 1 from ${taskGroups} g where g.id = ${tasks.groupId} and g.family_id is not null)
          )`,
        ),
      ),
  );
}

/** Other people's tasks the user is assigned to or collaborates on, or that sit in one of the user's groups. */
export async function othersTasksOfUser(userId: string, tx: Executor): Promise<string[]> {
  return ids(
    await tx
      .select({ id: tasks.id })
      .from(tasks)
      .where(
        and(
          ne(tasks.ownerId, userId),
          sql`(${tasks.id} in (select a.task_id from ${taskAssignees} a where a.user_id = ${userId}
              union select c.task_id from ${taskCollaborators} c where c.user_id = ${userId}
              union select t.id from ${tasks} t join ${taskGroups} g on g.id = t.group_id where g.owner_id = ${userId}))`,
        ),
      ),
  );
}

export interface TaskInGroup {
  id: string;
  ownerId: string;
  groupId: string;
}

/** Tasks of other people in the user's task groups (groups shared with a family hold them). */
export async function othersTasksInGroupsOf(userId: string, tx: Executor): Promise<TaskInGroup[]> {
  return tx
    .select({ id: tasks.id, ownerId: tasks.ownerId, groupId: tasks.groupId })
    .from(tasks)
    .innerJoin(taskGroups, eq(taskGroups.id, tasks.groupId))
    .where(and(eq(taskGroups.ownerId, userId), ne(tasks.ownerId, userId)))
    .orderBy(asc(tasks.groupId), asc(tasks.id));
}

/** The user groups (teams) in which the user holds the owner role. */
export async function ownedUserGroupIds(userId: string, tx: Executor): Promise<string[]> {
  const rows = await tx
    .select({ id: userGroupMembers.groupId })
    .from(userGroupMembers)
    .where(and(eq(userGroupMembers.userId, userId), eq(userGroupMembers.role, "owner")))
    .orderBy(asc(userGroupMembers.groupId));
  return ids(rows);
}

/** The projects in which the user holds the owner role. */
export async function ownedProjectIds(userId: string, tx: Executor): Promise<string[]> {
  const rows = await tx
    .select({ id: projectMembers.projectId })
    .from(projectMembers)
    .where(and(eq(projectMembers.userId, userId), eq(projectMembers.role, "owner")))
    .orderBy(asc(projectMembers.projectId));
  return ids(rows);
}

/** Deletes a user group and its memberships; its tasks stay, in no group (the foreign key sets null). */
export async function deleteUserGroupById(groupId: string, tx: Executor): Promise<void> {
  await tx.delete(userGroups).where(eq(userGroups.id, groupId));
}

/**
 * Deletes the user and everything of theirs, following the registry (tables.ts), in the caller's transaction:
 * first the rows it deletes explicitly (`deleteWhere`), then the columns without a foreign key (`nullify`,
 * `remove`, `scrub`), then the user's row, whose foreign keys do the rest (`cascade`, `set-null`). The caller has
 * handed over or deleted what others share with them (teams, projects, family) and moved others' tasks out of
 * the user's groups.
 */
export async function eraseAccount(owner: AccountOwner, tx: Executor): Promise<void> {
  const entries = Object.entries(ACCOUNT_DATA_TABLES);
  for (const [name, entry] of entries) {
    if (entry.deleteWhere) await tx.execute(sql`delete from ${sql.identifier(name)} where ${bind(entry.deleteWhere, owner)}`);
  }
  const id = owner.userId;
  for (const [name, entry] of entries) {
    const table = sql.identifier(name);
    for (const [columnName, rule] of Object.entries(entry.userColumns ?? {})) {
      const column = sql.identifier(columnName);
      if (rule === "nullify") {
        await tx.execute(sql`update ${table} set ${column} = null where ${column} = ${id}::uuid`);
      } else if (rule === "remove") {
        await tx.execute(
          sql`update ${table} set ${column} = array_remove(${column}, ${id}::uuid) where ${column} @> array[${id}::uuid]`,
        );
      } else if (rule === "scrub") {
        await tx.execute(
          sql`update ${table} set ${column} = regexp_replace(${column}::text, ${id}::text, ${NIL_UUID}::text, 'gi')::jsonb
              where strpos(lower(${column}::text), ${id}::text) > 0`,
        );
      }
    }
  }
  await tx.delete(users).where(eq(users.id, id));
}
