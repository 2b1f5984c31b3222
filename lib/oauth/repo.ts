import { and, asc, eq, gt, isNull, lte, or, isNotNull, sql } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../api/app-error";
import { db, type Executor } from "../db/client";
import { oauthStates, userIdentities, type UserIdentityRow } from "../db/schema/auth";
import { users, type UserRow } from "../db/schema/users";

export type OAuthStateRow = typeof oauthStates.$inferSelect;
export type NewOAuthState = Pick<
  OAuthStateRow,
  "state" | "provider" | "codeVerifier" | "nonce" | "returnTo" | "timeZone" | "browserHash" | "expiresAt"
> &
  Partial<Pick<OAuthStateRow, "linkUserId">>;

export async function insertOAuthState(row: NewOAuthState): Promise<void> {
  await db().insert(oauthStates).values(row);
}

/**
 * Marks the provider's state used and answers it, in one statement: of two callbacks with the same state only
 * one gets the row. Unknown, used, expired, another provider's state, or one started in another browser (its
 * binding's hash differs): null.
 */
export async function consumeOAuthState(
  state: string,
  provider: string,
  browserHash: string,
  now: Date,
): Promise<OAuthStateRow | null> {
  const [row] = await db()
    .update(oauthStates)
    .set({ usedAt: now })
    .where(
      and(
        eq(oauthStates.state, state),
        eq(oauthStates.provider, provider),
        eq(oauthStates.browserHash, browserHash),
        isNull(oauthStates.usedAt),
        gt(oauthStates.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Deletes the states that can no longer be used (expired or used); answers how many. */
export async function deleteSpentOAuthStates(now: Date): Promise<number> {
  const rows = await db()
    .delete(oauthStates)
    .where(or(lte(oauthStates.expiresAt, now), isNotNull(oauthStates.usedAt)))
    .returning({ state: oauthStates.state });
  return rows.length;
}

/** The user an external account (provider, subject) is linked to, with the link. */
export async function findUserByIdentity(
  provider: string,
  subject: string,
  executor: Executor = db(),
): Promise<{ user: UserRow; identity: UserIdentityRow } | null> {
  const [row] = await executor
    .select({ user: users, identity: userIdentities })
    .from(userIdentities)
    .innerJoin(users, eq(users.id, userIdentities.userId))
    .where(and(eq(userIdentities.provider, provider), eq(userIdentities.subject, subject)))
    .limit(1);
  return row ?? null;
}

export async function findUserByEmail(email: string, executor: Executor = db()): Promise<UserRow | null> {
  const [row] = await executor.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/** Links an external account to a user. The same (provider, subject) linked already: 409. */
export async function insertIdentity(
  identity: Pick<UserIdentityRow, "userId" | "provider" | "subject" | "email" | "lastUsedAt">,
  executor: Executor = db(),
): Promise<UserIdentityRow> {
  try {
    const [row] = await executor.insert(userIdentities).values(identity).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error))
      throw new AppError("conflict", "This external account was linked at the same moment; sign in again");
    throw error;
  }
}

/** Notes a sign-in through a link, and the email the provider gave this time. */
export async function touchIdentity(id: string, email: string | null, now: Date, executor: Executor = db()): Promise<void> {
  await executor.update(userIdentities).set({ lastUsedAt: now, email }).where(eq(userIdentities.id, id));
}

/** The external accounts linked to a user, oldest link first. */
export async function listUserIdentities(userId: string): Promise<UserIdentityRow[]> {
  return db()
    .select()
    .from(userIdentities)
    .where(eq(userIdentities.userId, userId))
    .orderBy(asc(userIdentities.createdAt), asc(userIdentities.id));
}

/** Whether the user has a password (else they sign in with passkeys or linked accounts only). */
export async function userHasPassword(userId: string): Promise<boolean> {
  const [row] = await db()
    .select({ hasPassword: sql<boolean>`${users.passwordHash} is not null` })
    .from(users)
    .where(eq(users.id, userId));
  return row?.hasPassword ?? false;
}
