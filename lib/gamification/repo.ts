import { and, asc, count, desc, eq, gte, isNull, lt, or, sql, type SQL } from "drizzle-orm";
import { nowDate } from "../clock";
import { db, type Executor } from "../db/client";
import { familyMembers } from "../db/schema/family";
import {
  earnedBadges,
  gamificationProfiles,
  levelUps,
  pointAwards,
  type EarnedBadgeRow,
  type GamificationProfileRow,
  type LevelUpRow,
  type PointAwardRow,
} from "../db/schema/gamification";
import { userGroupMembers } from "../db/schema/teams";
import { users } from "../db/schema/users";
import type { BadgeStats } from "./rules";

export type { EarnedBadgeRow, GamificationProfileRow, LevelUpRow, PointAwardRow };
export type NewAward = Omit<PointAwardRow, "id" | "createdAt">;

/** The user's name, language and time zone; null for an account that no longer exists. */
export async function findUserSettings(
  userId: string,
  database: Executor = db(),
): Promise<{ locale: string; timeZone: string } | null> {
  const [row] = await database.select({ locale: users.locale, timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
  return row ?? null;
}

export async function findProfile(userId: string, database: Executor = db()): Promise<GamificationProfileRow | null> {
  const [row] = await database.select().from(gamificationProfiles).where(eq(gamificationProfiles.userId, userId));
  return row ?? null;
}

/** The user's profile, created when missing and locked until the transaction ends: one award at a time per user. */
export async function lockProfile(userId: string, tx: Executor): Promise<GamificationProfileRow> {
  const now = nowDate();
  await tx
    .insert(gamificationProfiles)
    .values({ userId, createdAt: now, updatedAt: now })
    .onConflictDoNothing({ target: gamificationProfiles.userId });
  const [row] = await tx.select().from(gamificationProfiles).where(eq(gamificationProfiles.userId, userId)).for("update");
  return row!;
}

export async function upsertOptIn(userId: string, leaderboardOptIn: boolean): Promise<GamificationProfileRow> {
  const now = nowDate();
  const [row] = await db()
    .insert(gamificationProfiles)
    .values({ userId, leaderboardOptIn, createdAt: now, updatedAt: now })
    .onConflictDoUpdate({ target: gamificationProfiles.userId, set: { leaderboardOptIn, updatedAt: now } })
    .returning();
  return row!;
}

/** Stores an award unless the user has one for that task already (then null). */
export async function insertAward(award: NewAward, tx: Executor): Promise<PointAwardRow | null> {
  const [row] = await tx
    .insert(pointAwards)
    .values({ ...award, createdAt: nowDate() })
    .onConflictDoNothing({ target: [pointAwards.userId, pointAwards.taskId] })
    .returning();
  return row ?? null;
}

export async function addProfilePoints(userId: string, points: number, tx: Executor): Promise<number> {
  const [row] = await tx
    .update(gamificationProfiles)
    .set({ points: sql`${gamificationProfiles.points} + ${points}`, updatedAt: nowDate() })
    .where(eq(gamificationProfiles.userId, userId))
    .returning({ points: gamificationProfiles.points });
  return row!.points;
}

/** Records levels reached (each once); answers those that were new. */
export async function insertLevelUps(rows: readonly LevelUpRow[], tx: Executor): Promise<LevelUpRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(levelUps)
    .values([...rows])
    .onConflictDoNothing({ target: [levelUps.userId, levelUps.level] })
    .returning();
}

/** Records badges earned (each once); answers those that were new. */
export async function insertBadges(rows: readonly EarnedBadgeRow[], tx: Executor): Promise<EarnedBadgeRow[]> {
  if (rows.length === 0) return [];
  return tx
    .insert(earnedBadges)
    .values([...rows])
    .onConflictDoNothing({ target: [earnedBadges.userId, earnedBadges.badge] })
    .returning();
}

/** The counts badges are measured by (all but the streak and the level). */
export async function awardCounts(
  userId: string,
  database: Executor = db(),
): Promise<Pick<BadgeStats, "tasks" | "onTime" | "shared">> {
  const [row] = await database
    .select({
      tasks: count(),
      onTime: sql<number>`count(*) filter (where ${pointAwards.onTime})::int`,
      shared: sql<number>`count(*) filter (where ${pointAwards.shared})::int`,
    })
    .from(pointAwards)
    .where(eq(pointAwards.userId, userId));
  return { tasks: row?.tasks ?? 0, onTime: row?.onTime ?? 0, shared: row?.shared ?? 0 };
}

/** The local dates the user earned points on, ascending, each once. */
export async function activeDates(userId: string, database: Executor = db()): Promise<string[]> {
  const rows = await database
    .selectDistinct({ date: pointAwards.localDate })
    .from(pointAwards)
    .where(eq(pointAwards.userId, userId))
    .orderBy(asc(pointAwards.localDate));
  return rows.map((row) => row.date);
}

export async function listBadgeRows(userId: string, database: Executor = db()): Promise<EarnedBadgeRow[]> {
  return database.select().from(earnedBadges).where(eq(earnedBadges.userId, userId)).orderBy(asc(earnedBadges.earnedAt));
}

export async function listLevelUpRows(userId: string, database: Executor = db()): Promise<LevelUpRow[]> {
  return database.select().from(levelUps).where(eq(levelUps.userId, userId)).orderBy(asc(levelUps.level));
}

export interface AwardKeyset {
  completedAt: Date;
  id: string;
}

/** The user's awards, newest completion first, after `after` when given. */
export async function listAwardRows(userId: string, limit: number, after: AwardKeyset | null): Promise<PointAwardRow[]> {
  const page = after
    ? or(
        lt(pointAwards.completedAt, after.completedAt),
        and(eq(pointAwards.completedAt, after.completedAt), lt(pointAwards.id, after.id)),
      )
    : undefined;
  return db()
    .select()
    .from(pointAwards)
    .where(and(eq(pointAwards.userId, userId), page))
    .orderBy(desc(pointAwards.completedAt), desc(pointAwards.id))
    .limit(limit);
}

// The leaderboard

/** Whose points a board compares: everyone, the members of a team, or of a family workspace. */
export type BoardScope = { kind: "global" } | { kind: "team"; teamId: string } | { kind: "family"; familyId: string };

export interface BoardRow {
  userId: string;
  name: string;
  /** Points in the period. */
  points: number;
  /** All points ever (for the level). */
  totalPoints: number;
}

function inScope(scope: BoardScope): SQL | undefined {
  switch (scope.kind) {
    case "global":
      return undefined;
    case "team":
      return sql`${gamificationProfiles.userId} in (select ${userGroupMembers.userId} from ${userGroupMembers} where ${userGroupMembers.groupId} = ${scope.teamId})`;
    case "family":
      return sql`${gamificationProfiles.userId} in (select ${familyMembers.userId} from ${familyMembers} where ${familyMembers.familyId} = ${scope.familyId})`;
  }
}

/** Points of a user since `since` (all of them without it). */
function periodPoints(since: Date | null): SQL<number> {
  const window = since ? sql` and ${pointAwards.completedAt} >= ${since.toISOString()}::timestamptz` : sql``;
  return sql<number>`coalesce((select sum(${pointAwards.points}) from ${pointAwards} where ${pointAwards.userId} = ${gamificationProfiles.userId}${window}), 0)::int`;
}

/** Who appears: opted in, in scope, not disabled by an administrator. */
const listed = (scope: BoardScope) =>
  and(eq(gamificationProfiles.leaderboardOptIn, true), isNull(users.disabledAt), inScope(scope));

/** The top of a board: most points in the period first, then by name. */
export async function listBoardRows(scope: BoardScope, since: Date | null, limit: number): Promise<BoardRow[]> {
  const points = periodPoints(since);
  return db()
    .select({ userId: gamificationProfiles.userId, name: users.name, points, totalPoints: gamificationProfiles.points })
    .from(gamificationProfiles)
    .innerJoin(users, eq(users.id, gamificationProfiles.userId))
    .where(listed(scope))
    .orderBy(desc(points), asc(users.name), asc(gamificationProfiles.userId))
    .limit(limit);
}

/** How many appear on a board, and how many of them (the caller aside) have more than `points`. */
export async function boardStanding(
  scope: BoardScope,
  since: Date | null,
  userId: string,
  points: number,
): Promise<{ listed: number; ahead: number }> {
  const period = periodPoints(since);
  const [row] = await db()
    .select({
      listed: count(),
      ahead: sql<number>`count(*) filter (where ${gamificationProfiles.userId} <> ${userId} and ${period} > ${points})::int`,
    })
    .from(gamificationProfiles)
    .innerJoin(users, eq(users.id, gamificationProfiles.userId))
    .where(listed(scope));
  return { listed: row?.listed ?? 0, ahead: row?.ahead ?? 0 };
}

/** The user's points since `since`. */
export async function pointsSince(userId: string, since: Date | null): Promise<number> {
  const [row] = await db()
    .select({ points: sql<number>`coalesce(sum(${pointAwards.points}), 0)::int` })
    .from(pointAwards)
    .where(and(eq(pointAwards.userId, userId), since ? gte(pointAwards.completedAt, since) : undefined));
  return row?.points ?? 0;
}
