import { and, asc, count, eq, sql } from "drizzle-orm";
import { db } from "../db/client";
import { savedFilters, type SavedFilterRow } from "../db/schema/saved-filters";
import { users } from "../db/schema/users";

/*
 * The saved_filters table: every statement scoped to the user whose filters they are.
 */

export type { SavedFilterRow };

export function listSavedFilterRows(userId: string): Promise<SavedFilterRow[]> {
  return db()
    .select()
    .from(savedFilters)
    .where(eq(savedFilters.userId, userId))
    .orderBy(asc(savedFilters.createdAt), asc(savedFilters.id));
}

/**
 * Adds a filter unless the user has `max` already (then null). The user's row is locked first, so that two saves at
 * once cannot both pass the count.
 */
export async function insertSavedFilter(
  userId: string,
  name: string,
  query: string,
  max: number,
): Promise<SavedFilterRow | null> {
  return db().transaction(async (tx) => {
    await tx.execute(sql`select 1 from ${users} where ${users.id} = ${userId} for update`);
    const [held] = await tx.select({ n: count() }).from(savedFilters).where(eq(savedFilters.userId, userId));
    if ((held?.n ?? 0) >= max) return null;
    const [row] = await tx.insert(savedFilters).values({ userId, name, query }).returning();
    return row!;
  });
}

/** Changes the user's filter; null when the user has none with this id. */
export async function updateSavedFilterRow(
  userId: string,
  id: string,
  patch: { name?: string; query?: string },
  now: Date,
): Promise<SavedFilterRow | null> {
  const [row] = await db()
    .update(savedFilters)
    .set({ ...patch, updatedAt: now })
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)))
    .returning();
  return row ?? null;
}

/** Deletes the user's filter; false when the user has none with this id. */
export async function deleteSavedFilterRow(userId: string, id: string): Promise<boolean> {
  const deleted = await db()
    .delete(savedFilters)
    .where(and(eq(savedFilters.id, id), eq(savedFilters.userId, userId)))
    .returning({ id: savedFilters.id });
  return deleted.length > 0;
}
