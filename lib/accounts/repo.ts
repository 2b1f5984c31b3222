import { eq, sql } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../api/app-error";
import { forgetSessionUser } from "../auth/repo";
import { db, type Executor } from "../db/client";
import { users, type UserRow } from "../db/schema/users";
import { insertDefaultGroups } from "../groups/repo";

export type NewUser = Pick<UserRow, "email" | "name" | "passwordHash"> &
  Partial<Pick<UserRow, "locale" | "timeZone" | "emailVerifiedAt">>;
export type UserPatch = Partial<
  Pick<UserRow, "email" | "name" | "locale" | "timeZone" | "avatarUrl" | "passwordHash" | "emailVerifiedAt">
>;

const emailTaken = () => new AppError("conflict", "An account with this email already exists");

/**
 * Adds a user with the default task groups, in one transaction (the caller's, when given: accepting an invitation
 * registers inside its own): no user is ever without them.
 */
export async function insertUser(user: NewUser, transaction?: Executor): Promise<UserRow> {
  const insert = async (tx: Executor) => {
    const [row] = await tx.insert(users).values(user).returning();
    await insertDefaultGroups(row!.id, tx);
    return row!;
  };
  try {
    return await (transaction ? insert(transaction) : db().transaction(insert));
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}

export async function findUserById(id: string): Promise<UserRow | null> {
  const [row] = await db().select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

export async function findUserByEmail(email: string): Promise<UserRow | null> {
  const [row] = await db().select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/** Applies a patch; `revokeTokens` raises the token version so that every earlier token stops working. */
export async function updateUser(id: string, patch: UserPatch, revokeTokens = false): Promise<UserRow | null> {
  try {
    const [row] = await db()
      .update(users)
      .set({
        ...patch,
        updatedAt: new Date(),
        ...(revokeTokens && { tokenVersion: sql`${users.tokenVersion} + 1` }),
      })
      .where(eq(users.id, id))
      .returning();
    await forgetSessionUser(id);
    return row ?? null;
  } catch (error) {
    if (isUniqueViolation(error)) throw emailTaken();
    throw error;
  }
}
