import { and, eq, sql } from "drizzle-orm";
import { db } from "../db/client";
import { aiUsage } from "../db/schema/ai";

/**
 * Counts one request against the user's budget for `day`, atomically: answers false, counting nothing, when
 * `limit` requests were already made that day (two processes cannot both take the last one).
 */
export async function takeDailyRequest(userId: string, day: string, limit: number): Promise<boolean> {
  const rows = await db()
    .insert(aiUsage)
    .values({ userId, day, requests: 1 })
    .onConflictDoUpdate({
      target: [aiUsage.userId, aiUsage.day],
      set: { requests: sql`${aiUsage.requests} + 1` },
      setWhere: sql`${aiUsage.requests} < ${limit}`,
    })
    .returning({ requests: aiUsage.requests });
  return rows.length > 0;
}

/** Gives back a request the endpoint never answered (it failed or timed out): failures do not use up the budget. */
export async function returnDailyRequest(userId: string, day: string): Promise<void> {
  await db()
    .update(aiUsage)
    .set({ requests: sql`greatest(${aiUsage.requests} - 1, 0)` })
    .where(and(eq(aiUsage.userId, userId), eq(aiUsage.day, day)));
}

export async function addTokens(userId: string, day: string, tokens: number): Promise<void> {
  await db()
    .update(aiUsage)
    .set({ tokens: sql`${aiUsage.tokens} + ${tokens}` })
    .where(and(eq(aiUsage.userId, userId), eq(aiUsage.day, day)));
}

export async function requestsOn(userId: string, day: string): Promise<number> {
  const [row] = await db()
    .select({ requests: aiUsage.requests })
    .from(aiUsage)
    .where(and(eq(aiUsage.userId, userId), eq(aiUsage.day, day)));
  return row?.requests ?? 0;
}
