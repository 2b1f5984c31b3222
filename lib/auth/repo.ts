import { and, eq, isNull, lt, or, sql } from "drizzle-orm";
import { nowDate } from "../clock";
import { config } from "../config";
import { db, type Executor } from "../db/client";
import { userIdentities, webauthnCredentials } from "../db/schema/auth";
import { users } from "../db/schema/users";
import { errorText, log } from "../log";
import { MemoryCache, stringBytes } from "../memory-cache";
import { redis } from "../redis/client";

/** What deciding who is calling needs to know about a user. */
export interface SessionUser {
  id: string;
  email: string;
  tokenVersion: number;
  locale: string;
  timeZone: string;
  /** Set while an administrator has disabled the account: no session works. */
  disabled: boolean;
}

/**
 * Every signed-in request needs its user's token version: it is kept for a short while in memory, or in
 * Redis when several processes share it, and forgotten the moment the user changes (`forgetSessionUser`),
 * so that a revoked token stops working at once.
 */
const TTL_MS = 60_000;
/** About 10,000 users' entries (id, email, locale and zone as strings, plus the object). */
const MEMORY_MAX_BYTES = 4 * 1024 * 1024;
/**
 * One map per process, not per copy of this module: the pages (Next's bundle) and the API (loaded by server.ts)
 * each have their own copy, and a user forgotten by the API must be forgotten by the pages too.
 */
const MEMORY = Symbol.for("spolu.session-users");
type Holder = { [MEMORY]?: MemoryCache<SessionUser> };
const memory = ((globalThis as Holder)[MEMORY] ??= new MemoryCache<SessionUser>(
  MEMORY_MAX_BYTES,
  (id, user) => stringBytes(id) + stringBytes(JSON.stringify(user)),
  TTL_MS,
));
const redisKey = (id: string) => `${config().REDIS_PREFIX}session-user:${id}`;

export async function findSessionUser(id: string): Promise<SessionUser | null> {
  const shared = redis();
  if (shared) {
    // While Redis is down the user is read from the database on every request: slower, never stale.
    const cached = await shared.get(redisKey(id)).catch(() => null);
    if (cached) return JSON.parse(cached) as SessionUser;
  } else {
    const cached = memory.get(id);
    if (cached) return cached;
  }
  const user = await readSessionUser(id);
  if (user) {
    if (shared) await shared.set(redisKey(id), JSON.stringify(user), "PX", TTL_MS).catch(() => null);
    else {
      memory.set(id, user);
    }
  }
  return user;
}

/**
 * Call after any change to a user (password, email, locale, deletion). While Redis is down nothing is cached there
 * to forget; if Redis was unreachable from this process only (a partition), what the others cached expires within
 * TTL_MS.
 */
export async function forgetSessionUser(id: string): Promise<void> {
  memory.delete(id);
  await redis()
    ?.del(redisKey(id))
    .catch((error: unknown) => log.warn("Could not forget a signed-in user in Redis", { userId: id, error: errorText(error) }));
}

/** How stale `last_seen_at` may get: it is written when a session user is read and it is older than this. */
const LAST_SEEN_PRECISION_MS = 5 * 60_000;

/**
 * The user behind a session, read when the cache above does not hold them (at most once a minute per user and
 * process): that is also when their `last_seen_at` is brought up to date, so that keeping it costs no query on
 * the other requests.
 */
async function readSessionUser(id: string): Promise<SessionUser | null> {
  const [row] = await db()
    .select({
      id: users.id,
      email: users.email,
      tokenVersion: users.tokenVersion,
      locale: users.locale,
      timeZone: users.timeZone,
      disabledAt: users.disabledAt,
      lastSeenAt: users.lastSeenAt,
    })
    .from(users)
    .where(eq(users.id, id))
    .limit(1);
  if (!row) return null;
  const { disabledAt, lastSeenAt, ...user } = row;
  const now = nowDate();
  const stale = new Date(now.getTime() - LAST_SEEN_PRECISION_MS);
  if (!disabledAt && (!lastSeenAt || lastSeenAt < stale)) {
    // The condition again in SQL: of several processes reading the user at once, one writes.
    await db()
      .update(users)
      .set({ lastSeenAt: now })
      .where(and(eq(users.id, id), or(isNull(users.lastSeenAt), lt(users.lastSeenAt, stale))));
  }
  return { ...user, disabled: disabledAt !== null };
}

/**
 * Locks a user's row until the transaction ends: changes that must see one user's data as it really is (their
 * set of groups, the last task position) take it first, so that they happen one at a time. `no key update`
 * leaves rows that merely reference the user (a new task's foreign key) free to be written.
 */
export async function lockUserRow(tx: Executor, userId: string): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("no key update");
}

/** A way to sign in that a person may remove: a linked external account or a passkey. */
export type RemovableSignInMethod = "identity" | "passkey";

/** What became of a removal: done, not the user's (or no such thing), or refused as their last way to sign in. */
export type SignInMethodRemoval = "deleted" | "not_found" | "last_method";

const METHOD_TABLES = { identity: userIdentities, passkey: webauthnCredentials } as const;

/**
 * Removes one of the user's linked accounts or passkeys while another way to sign in remains (a password, a
 * passkey or a linked account): the one rule for DELETE /auth/identities/{id} and DELETE /webauthn/devices/{id}.
 * The user's row is locked first, so that two removals at once cannot both pass the check and leave the account
 * with no way in.
 */
export async function deleteSignInMethodKeepingAWayIn(
  userId: string,
  kind: RemovableSignInMethod,
  id: string,
): Promise<SignInMethodRemoval> {
  return db().transaction(async (tx) => {
    const [user] = await tx
      .select({ hasPassword: sql<boolean>`${users.passwordHash} is not null` })
      .from(users)
      .where(eq(users.id, userId))
      .for("update");
    if (!user) return "not_found";
    const table = METHOD_TABLES[kind];
    const [owned] = await tx
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.id, id), eq(table.userId, userId)));
    if (!owned) return "not_found";
    const counts = await Promise.all(
      Object.values(METHOD_TABLES).map((each) =>
        tx
          .select({ count: sql<number>`count(*)::int` })
          .from(each)
          .where(eq(each.userId, userId)),
      ),
    );
    const methods = counts.reduce((sum, [row]) => sum + (row?.count ?? 0), 0);
    if (!user.hasPassword && methods <= 1) return "last_method";
    await tx.delete(table).where(and(eq(table.id, id), eq(table.userId, userId)));
    return "deleted";
  });
}
