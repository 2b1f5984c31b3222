import { and, eq, isNull, lt, lte, or } from "drizzle-orm";
import { db } from "../db/client";
import { idempotencyKeys, type IdempotencyKeyRow } from "../db/schema/idempotency";

/** A stored answer, replayed to repeats. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * Claims the key for a request: answers true when this request may run (the key was free, or its row had expired,
 * or a request holding it stopped answering before `staleBefore`), false when another row holds it.
 */
export async function claimIdempotencyKey(
  claim: { userId: string; key: string; requestHash: string; now: Date; expiresAt: Date },
  staleBefore: Date,
): Promise<boolean> {
  const inserted = await db()
    .insert(idempotencyKeys)
    .values({
      userId: claim.userId,
      key: claim.key,
      requestHash: claim.requestHash,
      lockedAt: claim.now,
      expiresAt: claim.expiresAt,
    })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (inserted.length > 0) return true;
  // An expired row, or one whose request died without answering (a killed process), is taken over, in one statement:
  // of several requests trying at once, one gets it.
  const taken = await db()
    .update(idempotencyKeys)
    .set({
      requestHash: claim.requestHash,
      lockedAt: claim.now,
      expiresAt: claim.expiresAt,
      responseStatus: null,
      responseHeaders: null,
      responseBody: null,
    })
    .where(
      and(
        eq(idempotencyKeys.userId, claim.userId),
        eq(idempotencyKeys.key, claim.key),
        or(
          lte(idempotencyKeys.expiresAt, claim.now),
          and(
            isNull(idempotencyKeys.responseStatus),
            lt(idempotencyKeys.lockedAt, staleBefore),
            eq(idempotencyKeys.requestHash, claim.requestHash),
          ),
        ),
      ),
    )
    .returning({ key: idempotencyKeys.key });
  return taken.length > 0;
}

export async function findIdempotencyKey(userId: string, key: string): Promise<IdempotencyKeyRow | null> {
  const [row] = await db()
    .select()
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row ?? null;
}

/** Keeps the answer of the request that holds the key. */
export async function storeIdempotentResponse(
  userId: string,
  key: string,
  requestHash: string,
  response: StoredResponse,
): Promise<void> {
  await db()
    .update(idempotencyKeys)
    .set({ responseStatus: response.status, responseHeaders: response.headers, responseBody: response.body })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key), eq(idempotencyKeys.requestHash, requestHash)));
}

/** Frees the key of a request that did not succeed, so that the client may try again with it. */
export async function releaseIdempotencyKey(userId: string, key: string, requestHash: string): Promise<void> {
  await db()
    .delete(idempotencyKeys)
    .where(
      and(
        eq(idempotencyKeys.userId, userId),
        eq(idempotencyKeys.key, key),
        eq(idempotencyKeys.requestHash, requestHash),
        isNull(idempotencyKeys.responseStatus),
      ),
    );
}

/** Deletes the rows that expired before `now` (the purge job); answers how many. */
export async function deleteExpiredIdempotencyKeys(now: Date): Promise<number> {
  const rows = await db()
    .delete(idempotencyKeys)
    .where(lte(idempotencyKeys.expiresAt, now))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
