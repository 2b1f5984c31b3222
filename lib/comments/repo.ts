import { and, asc, eq, gt, inArray, or } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { comments, type CommentRow } from "../db/schema/comments";
import { users } from "../db/schema/users";

export type NewComment = typeof comments.$inferInsert;

export async function insertComment(row: NewComment, database: Executor): Promise<CommentRow> {
  const [inserted] = await database.insert(comments).values(row).returning();
  return inserted!;
}

/** A comment, locked for the rest of the transaction when `lock` (an edit or a deletion); null when there is none. */
export async function findCommentRow(id: string, database: Executor = db(), lock = false): Promise<CommentRow | null> {
  const query = database.select().from(comments).where(eq(comments.id, id)).limit(1);
  const [row] = lock ? await query.for("update") : await query;
  return row ?? null;
}

export async function updateCommentRow(
  id: string,
  patch: Partial<Pick<CommentRow, "body" | "mentions" | "updatedAt" | "editedAt">>,
  database: Executor,
): Promise<CommentRow> {
  const [row] = await database.update(comments).set(patch).where(eq(comments.id, id)).returning();
  return row!;
}

export async function deleteCommentRow(id: string, database: Executor): Promise<void> {
  await database.delete(comments).where(eq(comments.id, id));
}

/** A task's comments in the order they were written, after `after` (the last of the previous page). */
export async function listCommentRows(
  taskId: string,
  limit: number,
  after: { createdAt: Date; id: string } | null,
  database: Executor = db(),
): Promise<CommentRow[]> {
  const page = after
    ? or(gt(comments.createdAt, after.createdAt), and(eq(comments.createdAt, after.createdAt), gt(comments.id, after.id)))
    : undefined;
  return database
    .select()
    .from(comments)
    .where(and(eq(comments.taskId, taskId), page))
    .orderBy(asc(comments.createdAt), asc(comments.id))
    .limit(limit);
}

/** Names and languages of these users (those whose account still exists). */
export async function findUsers(
  ids: readonly string[],
  database: Executor = db(),
): Promise<Map<string, { name: string; locale: string }>> {
  if (ids.length === 0) return new Map();
  const rows = await database
    .select({ id: users.id, name: users.name, locale: users.locale })
    .from(users)
    .where(inArray(users.id, [...new Set(ids)]));
  return new Map(rows.map((row) => [row.id, { name: row.name, locale: row.locale }]));
}
