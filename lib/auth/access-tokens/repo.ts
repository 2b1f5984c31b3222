import { and, count, desc, eq, isNull, lt, or } from "drizzle-orm";
import { nowDate } from "../../clock";
import { config } from "../../config";
import { db } from "../../db/client";
import { accessTokens, type AccessTokenRow } from "../../db/schema/access-tokens";
import { redis } from "../../redis/client";
import type { TokenScope } from "./schema";

/** What deciding whether a personal access token works needs: whose it is, what it may do, until when. */
export interface AccessTokenState {
  id: string;
  userId: string;
  scopes: TokenScope[];
  /** Null: never expires. */
  expiresAtMs: number | null;
}

/*
 * Every request with a personal access token looks it up by the hash of its secret. As with sessions
 * (lib/auth/sessions/repo.ts), the answer is kept for a minute, in Redis when processes share it, else in this
 * process's memory, and forgotten the moment the token is deleted, so that a revoked token stops working at once,
 * everywhere. `last_used_at` is written only when the database is read and it is older than 5 minutes: at most one
 * write per token every few minutes, whatever the request rate.
 */
const TTL_MS = 60_000;
const MEMORY_MAX = 10_000;
const MEMORY = Symbol.for("spolu.access-token-states");
type Holder = { [MEMORY]?: Map<string, { state: AccessTokenState | null; expiresAt: number }> };
const memory = ((globalThis as Holder)[MEMORY] ??= new Map());
const redisKey = (hash: string) => `${config().REDIS_PREFIX}access-token:${hash}`;
const LAST_USED_PRECISION_MS = 5 * 60_000;

export async function findAccessTokenState(hash: string): Promise<AccessTokenState | null> {
  const shared = redis();
  if (shared) {
    const cached = await shared.get(redisKey(hash)).catch(() => null);
    if (cached) return JSON.parse(cached) as AccessTokenState | null;
  } else {
    const cached = memory.get(hash);
    if (cached && cached.expiresAt > Date.now()) return cached.state;
  }
  const state = await readAccessTokenState(hash);
  if (shared) await shared.set(redisKey(hash), JSON.stringify(state), "PX", TTL_MS).catch(() => undefined);
  else {
    if (memory.size >= MEMORY_MAX) memory.delete(memory.keys().next().value!);
    memory.set(hash, { state, expiresAt: Date.now() + TTL_MS });
  }
  return state;
}

/** Call after deleting tokens: every process stops accepting them at once. */
export async function forgetAccessTokenStates(hashes: readonly string[]): Promise<void> {
  if (hashes.length === 0) return;
  for (const hash of hashes) memory.delete(hash);
  await redis()
    ?.del(...hashes.map(redisKey))
    .catch(() => undefined);
}

async function readAccessTokenState(hash: string): Promise<AccessTokenState | null> {
  const [row] = await db()
    .select({
      id: accessTokens.id,
      userId: accessTokens.userId,
      scopes: accessTokens.scopes,
      expiresAt: accessTokens.expiresAt,
      lastUsedAt: accessTokens.lastUsedAt,
    })
    .from(accessTokens)
    .where(eq(accessTokens.tokenHash, hash))
    .limit(1);
  if (!row) return null;
  const now = nowDate();
  const stale = new Date(now.getTime() - LAST_USED_PRECISION_MS);
  if (!row.lastUsedAt || row.lastUsedAt < stale) {
    // The condition again in SQL: of several processes reading the token at once, one writes.
    await db()
      .update(accessTokens)
      .set({ lastUsedAt: now })
      .where(and(eq(accessTokens.id, row.id), or(isNull(accessTokens.lastUsedAt), lt(accessTokens.lastUsedAt, stale))));
  }
  return {
    id: row.id,
    userId: row.userId,
    scopes: row.scopes as TokenScope[],
    expiresAtMs: row.expiresAt?.getTime() ?? null,
  };
}

export type NewAccessToken = Pick<AccessTokenRow, "userId" | "name" | "scopes" | "tokenHash" | "prefix" | "expiresAt">;

export async function insertAccessToken(token: NewAccessToken): Promise<AccessTokenRow> {
  const [row] = await db().insert(accessTokens).values(token).returning();
  return row!;
}

export async function countAccessTokens(userId: string): Promise<number> {
  const [row] = await db().select({ n: count() }).from(accessTokens).where(eq(accessTokens.userId, userId));
  return row?.n ?? 0;
}

/** The user's tokens, newest first. */
export async function listAccessTokenRows(userId: string): Promise<AccessTokenRow[]> {
  return db()
    .select()
    .from(accessTokens)
    .where(eq(accessTokens.userId, userId))
    .orderBy(desc(accessTokens.createdAt), desc(accessTokens.id));
}

/** Deletes one of the user's tokens; answers its hash (to forget), or null when the user has no such token. */
export async function deleteAccessTokenRow(userId: string, id: string): Promise<string | null> {
  const rows = await db()
    .delete(accessTokens)
    .where(and(eq(accessTokens.id, id), eq(accessTokens.userId, userId)))
    .returning({ tokenHash: accessTokens.tokenHash });
  return rows[0]?.tokenHash ?? null;
}
