import { eq } from "drizzle-orm";
import { config } from "../config";
import { db, type Executor } from "../db/client";
import { users } from "../db/schema/users";
import { redis } from "../redis/client";

/** What deciding who is calling needs to know about a user. */
export interface SessionUser {
  id: string;
  email: string;
  tokenVersion: number;
  locale: string;
  timeZone: string;
}

/**
 * Every signed-in request needs its user's token version: it is kept for a short while in memory, or in
 * Redis when several processes share it, and forgotten the moment the user changes (`forgetSessionUser`),
 * so that a revoked token stops working at once.
 */
const TTL_MS = 60_000;
const MEMORY_MAX = 10_000;
const memory = new Map<string, { user: SessionUser; expiresAt: number }>();
const redisKey = (id: string) => `${config().REDIS_PREFIX}session-user:${id}`;

export async function findSessionUser(id: string): Promise<SessionUser | null> {
  const shared = redis();
  if (shared) {
    const cached = await shared.get(redisKey(id));
    if (cached) return JSON.parse(cached) as SessionUser;
  } else {
    const cached = memory.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached.user;
  }
  const user = await readSessionUser(id);
  if (user) {
    if (shared) await shared.set(redisKey(id), JSON.stringify(user), "PX", TTL_MS);
    else {
      if (memory.size >= MEMORY_MAX) memory.delete(memory.keys().next().value!);
      memory.set(id, { user, expiresAt: Date.now() + TTL_MS });
    }
  }
  return user;
}

/** Call after any change to a user (password, email, locale, deletion). */
export async function forgetSessionUser(id: string): Promise<void> {
  memory.delete(id);
  await redis()?.del(redisKey(id));
}

async function readSessionUser(id: string): Promise<SessionUser | null> {
  const [row] = await db()
    .select({ id: users.id, email: users.email, tokenVersion: users.tokenVersion, locale: users.locale, timeZone: users.timeZone })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  return row ?? null;
}

/**
 * Locks a user's row until the transaction ends: changes that must see one user's data as it really is (their
 * set of groups, the last task position) take it first, so that they happen one at a time. `no key update`
 * leaves rows that merely reference the user (a new task's foreign key) free to be written.
 */
export async function lockUserRow(tx: Executor, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
}
