import { and, eq, gt, isNull, lt, or, isNotNull } from "drizzle-orm";
import { db, type Executor } from "../db/client";
import { accountTokens, type AccountTokenRow } from "../db/schema/account-tokens";
import type { AccountTokenPurpose } from "./schema";

export type NewAccountToken = Pick<AccountTokenRow, "userId" | "purpose" | "tokenHash" | "email" | "createdAt" | "expiresAt">;

export async function insertAccountToken(token: NewAccountToken, executor: Executor = db()): Promise<void> {
  await executor.insert(accountTokens).values(token);
}

/**
 * Uses up the token with this hash and purpose if it is unused and unexpired, in one statement (of two uses at once,
 * one wins); answers it, or null.
 */
export async function useAccountToken(
  purpose: AccountTokenPurpose,
  tokenHash: string,
  now: Date,
  executor: Executor = db(),
): Promise<AccountTokenRow | null> {
  const [row] = await executor
    .update(accountTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(accountTokens.tokenHash, tokenHash),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, now),
      ),
    )
    .returning();
  return row ?? null;
}

/** Ends every unused token of a user for a purpose (a reset link stops working once the password was reset). */
export async function endUserAccountTokens(
  userId: string,
  purpose: AccountTokenPurpose,
  now: Date,
  executor: Executor = db(),
): Promise<void> {
  await executor
    .update(accountTokens)
    .set({ usedAt: now })
    .where(and(eq(accountTokens.userId, userId), eq(accountTokens.purpose, purpose), isNull(accountTokens.usedAt)));
}

/** Deletes the tokens that expired or were used before `before`. */
export async function deleteSpentAccountTokens(before: Date, executor: Executor = db()): Promise<number> {
  const rows = await executor
    .delete(accountTokens)
    .where(or(lt(accountTokens.expiresAt, before), and(isNotNull(accountTokens.usedAt), lt(accountTokens.usedAt, before))))
    .returning({ id: accountTokens.id });
  return rows.length;
}
