import { createHash, randomBytes } from "node:crypto";
import { nowDate } from "../clock";
import { deleteSpentAccountTokens, endUserAccountTokens, insertAccountToken, useAccountToken } from "./repo";
import type { AccountTokenPurpose } from "./schema";

/*
 * Single-use tokens sent by email (a password reset, an email verification). A token is 32 random bytes in base64url
 * (43 characters); only its SHA-256 is stored, so that reading the database gives nobody a working link. A token
 * works once, before it expires; the flows that use them live in lib/accounts.
 */

/** How long each kind of link works. */
export const TOKEN_TTL_MS: Record<AccountTokenPurpose, number> = {
  password_reset: 3600 * 1000,
  email_verification: 48 * 3600 * 1000,
};

const hashToken = (token: string) => createHash("sha256").update(token, "utf8").digest("hex");

/** Makes a token for the user and answers it (the only time it exists in clear). */
export async function issueAccountToken(user: { id: string; email: string }, purpose: AccountTokenPurpose): Promise<string> {
  const token = randomBytes(32).toString("base64url");
  const createdAt = nowDate();
  await insertAccountToken({
    userId: user.id,
    purpose,
    email: user.email,
    tokenHash: hashToken(token),
    createdAt,
    expiresAt: new Date(createdAt.getTime() + TOKEN_TTL_MS[purpose]),
  });
  return token;
}

/** Uses up a token: answers whose it was and the address it was sent to, or null (unknown, used, expired). */
export async function redeemAccountToken(
  token: string,
  purpose: AccountTokenPurpose,
): Promise<{ userId: string; email: string } | null> {
  const row = await useAccountToken(purpose, hashToken(token), nowDate());
  return row && { userId: row.userId, email: row.email };
}

/** Ends the user's other tokens of a purpose. */
export function endAccountTokens(userId: string, purpose: AccountTokenPurpose): Promise<void> {
  return endUserAccountTokens(userId, purpose, nowDate());
}

/** Deletes the tokens that expired or were used more than a day ago. */
export function purgeAccountTokens(): Promise<number> {
  return deleteSpentAccountTokens(new Date(nowDate().getTime() - 24 * 3600 * 1000));
}
