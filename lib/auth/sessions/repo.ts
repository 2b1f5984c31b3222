import { and, desc, eq, gt, isNull, lt, lte, ne, or, sql } from "drizzle-orm";
import { nowDate } from "../../clock";
import { config } from "../../config";
import { db, type Executor } from "../../db/client";
import { sessions, type SessionRow } from "../../db/schema/sessions";
import { redis } from "../../redis/client";

/** What deciding whether a session token still works needs: whose it is, until when, and whether it ended. */
export interface SessionState {
  userId: string;
  /** When it signed in (lib/clock's time), for actions that need a recent sign-in. */
  createdAtMs: number;
  expiresAtMs: number;
  ended: boolean;
}

/*
 * Every signed-in request asks whether its session still works. The answer is kept as the session user is
 * (lib/auth/repo.ts): for a minute, in Redis when several processes share it (so that one deletion reaches every
 * process at once), else in this process's memory, and it is forgotten the moment the session ends
 * (`forgetSessionState`), so that a signed-out token stops working at once, everywhere. A Redis that does not answer
 * is skipped: the database decides.
 */
const TTL_MS = 60_000;
const MEMORY_MAX = 10_000;
const MEMORY = Symbol.for("spolu.session-states");
type Holder = { [MEMORY]?: Map<string, { state: SessionState | null; expiresAt: number }> };
const memory = ((globalThis as Holder)[MEMORY] ??= new Map());
const redisKey = (id: string) => `${config().REDIS_PREFIX}session:${id}`;

/** How stale `last_used_at` may get: it is written when the state is read from the database and older than this. */
const LAST_USED_PRECISION_MS = 5 * 60_000;

export async function findSessionState(id: string): Promise<SessionState | null> {
  const shared = redis();
  if (shared) {
    const cached = await shared.get(redisKey(id)).catch(() => null);
    if (cached) return JSON.parse(cached) as SessionState | null;
  } else {
    const cached = memory.get(id);
    if (cached && cached.expiresAt > Date.now()) return cached.state;
  }
  const state = await readSessionState(id);
  if (shared) await shared.set(redisKey(id), JSON.stringify(state), "PX", TTL_MS).catch(() => undefined);
  else {
    if (memory.size >= MEMORY_MAX) memory.delete(memory.keys().next().value!);
    memory.set(id, { state, expiresAt: Date.now() + TTL_MS });
  }
  return state;
}

/** Call after ending sessions: every process stops accepting their tokens at once. */
export async function forgetSessionStates(ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  for (const id of ids) memory.delete(id);
  await redis()
    ?.del(...ids.map(redisKey))
    .catch(() => undefined);
}

async function readSessionState(id: string): Promise<SessionState | null> {
  const [row] = await db()
    .select({
      userId: sessions.userId,
      createdAt: sessions.createdAt,
      expiresAt: sessions.expiresAt,
      endedAt: sessions.endedAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .where(eq(sessions.id, id))
    .limit(1);
  if (!row) return null;
  const now = nowDate();
  const stale = new Date(now.getTime() - LAST_USED_PRECISION_MS);
  if (!row.endedAt && row.lastUsedAt < stale) {
    // The condition again in SQL: of several processes reading the session at once, one writes.
    await db()
      .update(sessions)
      .set({ lastUsedAt: now })
      .where(and(eq(sessions.id, id), lt(sessions.lastUsedAt, stale)));
  }
  return {
    userId: row.userId,
    createdAtMs: row.createdAt.getTime(),
    expiresAtMs: row.expiresAt.getTime(),
    ended: row.endedAt !== null,
  };
}

export type NewSession = Pick<SessionRow, "userId" | "method" | "userAgent" | "ipAddress" | "createdAt" | "expiresAt">;

export async function insertSession(session: NewSession, executor: Executor = db()): Promise<SessionRow> {
  const [row] = await executor
    .insert(sessions)
    .values({ ...session, lastUsedAt: session.createdAt })
    .returning();
  return row!;
}

/** The user's sessions that still work (not ended, not expired), most recently used first. */
export async function listLiveSessions(userId: string, now: Date): Promise<SessionRow[]> {
  return db()
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), gt(sessions.expiresAt, now)))
    .orderBy(desc(sessions.lastUsedAt), desc(sessions.createdAt));
}

/** Ends one live session of the user; answers whether there was one. */
export async function endSessionRow(userId: string, id: string, now: Date): Promise<boolean> {
  const rows = await db()
    .update(sessions)
    .set({ endedAt: now })
    .where(and(eq(sessions.id, id), eq(sessions.userId, userId), isNull(sessions.endedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Ends every live session of the user (but `except`); answers their ids. */
export async function endUserSessionRows(
  userId: string,
  now: Date,
  except?: string,
  executor: Executor = db(),
): Promise<string[]> {
  const rows = await executor
    .update(sessions)
    .set({ endedAt: now })
    .where(and(eq(sessions.userId, userId), isNull(sessions.endedAt), except ? ne(sessions.id, except) : sql`true`))
    .returning({ id: sessions.id });
  return rows.map((row) => row.id);
}

/** Forgets the user's sessions that ended or expired more than `keepFor` ms ago (called as they sign in). */
export async function deleteOldSessions(userId: string, before: Date): Promise<void> {
  await db()
    .delete(sessions)
    .where(and(eq(sessions.userId, userId), or(lte(sessions.expiresAt, before), lte(sessions.endedAt, before))));
}
