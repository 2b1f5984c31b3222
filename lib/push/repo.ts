import { and, asc, desc, eq, ne, notInArray, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { appSettings, pushSubscriptions, type PushSubscriptionRow } from "../db/schema/push";
import { users } from "../db/schema/users";

export type { PushSubscriptionRow };

export interface NewSubscription {
  endpoint: string;
  p256dh: string;
  auth: string;
  userAgent: string | null;
}

/**
 * Stores a browser's subscription for the user, in one transaction. An endpoint stored already is updated (new keys,
 * failures forgotten); one that belonged to another user moves to this one, as a new subscription. Beyond `keep`
 * subscriptions the user's oldest others are deleted. `created`: the subscription is new to this user.
 */
export async function saveSubscription(
  userId: string,
  subscription: NewSubscription,
  keep: number,
): Promise<{ row: PushSubscriptionRow; created: boolean }> {
  return db().transaction(async (tx) => {
    const [previous] = await tx
      .select({ userId: pushSubscriptions.userId })
      .from(pushSubscriptions)
      .where(eq(pushSubscriptions.endpoint, subscription.endpoint))
      .for("update");
    const created = previous?.userId !== userId;
    const now = nowDate();
    const [row] = await tx
      .insert(pushSubscriptions)
      .values({ ...subscription, userId, failureCount: 0, createdAt: now })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          userId,
          p256dh: subscription.p256dh,
          auth: subscription.auth,
          userAgent: subscription.userAgent,
          failureCount: 0,
          ...(created ? { createdAt: now, lastSuccessAt: null } : {}),
        },
      })
      .returning();
    if (created) await pruneSubscriptions(tx, userId, row!.id, keep);
    return { row: row!, created };
  });
}

/** Deletes the user's subscriptions but `keepId` and the `keep - 1` newest others. */
async function pruneSubscriptions(tx: Executor, userId: string, keepId: string, keep: number): Promise<void> {
  const newest = tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), ne(pushSubscriptions.id, keepId)))
    .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id))
    .limit(keep - 1);
  await tx
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.userId, userId), ne(pushSubscriptions.id, keepId), notInArray(pushSubscriptions.id, newest)));
}

/** The user's subscriptions, oldest first. */
export async function listUserSubscriptions(userId: string): Promise<PushSubscriptionRow[]> {
  return db()
    .select()
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .orderBy(asc(pushSubscriptions.createdAt), asc(pushSubscriptions.id));
}

/** Deletes the user's subscription; false when the user has none of that id. */
export async function deleteUserSubscription(userId: string, id: string): Promise<boolean> {
  const rows = await db()
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.id, id), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

/** Deletes the user's subscription with that endpoint; false when the user has none. */
export async function deleteUserSubscriptionByEndpoint(userId: string, endpoint: string): Promise<boolean> {
  const rows = await db()
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

/** A subscription the push service says is gone (404, 410). */
export async function deleteSubscription(id: string): Promise<void> {
  await db().delete(pushSubscriptions).where(eq(pushSubscriptions.id, id));
}

/** The push service accepted a message: remember when, and forget earlier failures. */
export async function recordDelivery(id: string): Promise<void> {
  await db().update(pushSubscriptions).set({ lastSuccessAt: nowDate(), failureCount: 0 }).where(eq(pushSubscriptions.id, id));
}

export async function recordFailure(id: string): Promise<void> {
  await db()
    .update(pushSubscriptions)
    .set({ failureCount: sql`${pushSubscriptions.failureCount} + 1` })
    .where(eq(pushSubscriptions.id, id));
}

export async function userExists(userId: string): Promise<boolean> {
  const rows = await db().select({ id: users.id }).from(users).where(eq(users.id, userId)).limit(1);
  return rows.length > 0;
}

/** Stores a setting unless one of that key exists (then the stored one stays). */
export async function insertSettingIfAbsent(key: string, value: unknown): Promise<void> {
  await db().insert(appSettings).values({ key, value, createdAt: nowDate() }).onConflictDoNothing({ target: appSettings.key });
}

export async function findSetting(key: string): Promise<unknown> {
  const [row] = await db().select({ value: appSettings.value }).from(appSettings).where(eq(appSettings.key, key)).limit(1);
  return row?.value ?? null;
}
