import { count, desc, eq, ilike, or, sql, type SQL } from "drizzle-orm";
import { forgetSessionUser } from "../auth/repo";
import { db } from "../db/client";
import { tasks } from "../db/schema/tasks";
import { users, type UserRow } from "../db/schema/users";

export type AdminUserRow = Pick<UserRow, "id" | "name" | "email" | "locale" | "createdAt" | "lastSeenAt" | "disabledAt"> & {
  taskCount: number;
};

const adminUserColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  locale: users.locale,
  createdAt: users.createdAt,
  lastSeenAt: users.lastSeenAt,
  disabledAt: users.disabledAt,
  // Through tasks_owner_position_idx: one index range per listed user. (Qualified by hand: Drizzle leaves the
  // table out of a column's name in a single-table query, which would make both sides tasks' columns.)
  taskCount: sql<number>`(select count(*)::int from ${tasks} where ${tasks}.owner_id = ${users}.id)`,
};

/** Users whose name or email contains `search` literally (`%`, `_` and `\` match themselves), any case. */
function matching(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const pattern = `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
  return or(ilike(users.name, pattern), ilike(users.email, pattern));
}

/** One page of the users matching `search`, newest accounts first, with the number of tasks each owns. */
export async function listAdminUsers(search: string | undefined, limit: number, offset: number): Promise<AdminUserRow[]> {
  return db()
    .select(adminUserColumns)
    .from(users)
    .where(matching(search))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit)
    .offset(offset);
}

export async function countAdminUsers(search: string | undefined): Promise<number> {
  const [row] = await db().select({ count: count() }).from(users).where(matching(search));
  return row?.count ?? 0;
}

export async function findAdminUser(id: string): Promise<AdminUserRow | null> {
  const [row] = await db().select(adminUserColumns).from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/**
 * Disables the account (raising its token version, so that every token issued so far stops working) or enables it
 * again (its old tokens stay revoked: the user signs in anew).
 */
export async function setUserDisabled(id: string, disabled: boolean, at: Date): Promise<void> {
  await db()
    .update(users)
    .set(
      disabled
        ? { disabledAt: at, tokenVersion: sql`${users.tokenVersion} + 1`, updatedAt: at }
        : { disabledAt: null, updatedAt: at },
    )
    .where(eq(users.id, id));
  await forgetSessionUser(id);
}
