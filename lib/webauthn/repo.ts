import { and, asc, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { AppError, isUniqueViolation } from "../api/app-error";
import { db, type Executor } from "../db/client";
import { authChallenges, webauthnCredentials, type AuthChallengeRow, type WebauthnCredentialRow } from "../db/schema/auth";
import { users, type UserRow } from "../db/schema/users";

export const CHALLENGE_PURPOSES = ["webauthn.register", "webauthn.authenticate"] as const;
export type ChallengePurpose = (typeof CHALLENGE_PURPOSES)[number];

export interface NewChallenge {
  purpose: ChallengePurpose;
  challenge: string;
  userId?: string;
  email?: string;
  createdAt: Date;
  expiresAt: Date;
}

/**
 * Stores a challenge handed out, and deletes the WebAuthn challenges whose life ended before `staleBefore` (used or
 * not): the table holds only the last hour or so.
 */
export async function insertChallenge(challenge: NewChallenge, staleBefore: Date): Promise<void> {
  await db().transaction(async (tx) => {
    await deleteStaleChallenges(staleBefore, tx);
    await tx.insert(authChallenges).values(challenge);
  });
}

/**
 * Uses a challenge up, atomically: marks it used if it exists for that purpose and owner (the user for a
 * registration, the email for a sign-in), is unused and has not expired at `now`; answers it, or null when it is
 * not usable. Of two requests with the same challenge only one gets it.
 */
export async function consumeChallenge(
  where: { challenge: string; purpose: ChallengePurpose; userId?: string; email?: string },
  now: Date,
): Promise<AuthChallengeRow | null> {
  const [row] = await db()
    .update(authChallenges)
    .set({ usedAt: now })
    .where(
      and(
        eq(authChallenges.challenge, where.challenge),
        eq(authChallenges.purpose, where.purpose),
        where.userId === undefined ? undefined : eq(authChallenges.userId, where.userId),
        where.email === undefined ? undefined : eq(authChallenges.email, where.email),
        isNull(authChallenges.usedAt),
        gt(authChallenges.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Deletes challenges whose life ended before `before`; answers how many. */
export async function deleteStaleChallenges(before: Date, executor: Executor = db()): Promise<number> {
  const rows = await executor
    .delete(authChallenges)
    .where(and(inArray(authChallenges.purpose, [...CHALLENGE_PURPOSES]), lt(authChallenges.expiresAt, before)))
    .returning({ id: authChallenges.id });
  return rows.length;
}

/** A user's credentials, oldest first. */
export async function listUserCredentials(userId: string): Promise<WebauthnCredentialRow[]> {
  return db()
    .select()
    .from(webauthnCredentials)
    .where(eq(webauthnCredentials.userId, userId))
    .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
}

/** The credentials of the account with this email (none when there is no such account), oldest first. */
export async function listCredentialsByEmail(
  email: string,
): Promise<Pick<WebauthnCredentialRow, "credentialId" | "transports">[]> {
  return db()
    .select({ credentialId: webauthnCredentials.credentialId, transports: webauthnCredentials.transports })
    .from(webauthnCredentials)
    .innerJoin(users, eq(users.id, webauthnCredentials.userId))
    .where(eq(users.email, email))
    .orderBy(asc(webauthnCredentials.createdAt), asc(webauthnCredentials.id));
}

/** The credential with this credential id if it belongs to the account with this email, with that account. */
export async function findCredentialForSignIn(
  credentialId: string,
  email: string,
): Promise<{ credential: WebauthnCredentialRow; user: UserRow } | null> {
  const [row] = await db()
    .select({ credential: webauthnCredentials, user: users })
    .from(webauthnCredentials)
    .innerJoin(users, eq(users.id, webauthnCredentials.userId))
    .where(and(eq(webauthnCredentials.credentialId, credentialId), eq(users.email, email)))
    .limit(1);
  return row ?? null;
}

export type NewCredential = Pick<
  WebauthnCredentialRow,
  | "userId"
  | "credentialId"
  | "publicKey"
  | "counter"
  | "transports"
  | "attachment"
  | "aaguid"
  | "deviceType"
  | "backedUp"
  | "label"
  | "name"
  | "createdAt"
>;

/** Stores a new credential; a credential id registered already (by anyone) is a conflict. */
export async function insertCredential(credential: NewCredential): Promise<WebauthnCredentialRow> {
  try {
    const [row] = await db().insert(webauthnCredentials).values(credential).returning();
    return row!;
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError("conflict", "This passkey is registered already");
    throw error;
  }
}

/**
 * Records a sign-in with a credential: the new signature counter, backup state and time. The counter must go up,
 * or stay 0 for an authenticator that does not count; checked again here so that two sign-ins at once cannot both
 * pass with the same counter. Answers whether it was recorded.
 */
export async function recordCredentialUse(
  id: string,
  use: { counter: number; backedUp: boolean; usedAt: Date },
): Promise<boolean> {
  const rows = await db()
    .update(webauthnCredentials)
    .set({ counter: use.counter, backedUp: use.backedUp, lastUsedAt: use.usedAt })
    .where(
      and(
        eq(webauthnCredentials.id, id),
        or(
          lt(webauthnCredentials.counter, use.counter),
          and(eq(webauthnCredentials.counter, 0), sql`${use.counter}::integer = 0`),
        ),
      ),
    )
    .returning({ id: webauthnCredentials.id });
  return rows.length > 0;
}

/** Renames one of the user's credentials; null when the user has no such credential. */
export async function renameCredential(userId: string, id: string, name: string): Promise<WebauthnCredentialRow | null> {
  const [row] = await db()
    .update(webauthnCredentials)
    .set({ name })
    .where(and(eq(webauthnCredentials.id, id), eq(webauthnCredentials.userId, userId)))
    .returning();
  return row ?? null;
}
