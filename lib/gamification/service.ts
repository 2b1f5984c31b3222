import { AppError } from "../api/app-error";
import { decodeTimeCursor, encodeTimeCursor } from "../api/time-cursor";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { db, readSnapshot } from "../db/client";
import type { StoredDomainEvent } from "../events/types";
import { findMembership } from "../family/repo";
import { addDays, isoWeekday, localDateOf, startOfLocalDay } from "../local-dates";
import { notifyUser } from "../notifications/service";
import { PRIORITIES } from "../tasks/vocabulary";
import { findMemberGroup, listMemberGroups } from "../teams/repo";
import { badgeNotice, levelNotice } from "./notices";
import {
  activeDates,
  addProfilePoints,
  awardCounts,
  boardStanding,
  findProfile,
  findUserSettings,
  insertAward,
  insertBadges,
  insertLevelUps,
  listAwardRows,
  listBadgeRows,
  listBoardRows,
  listLevelUpRows,
  lockProfile,
  pointsSince,
  upsertOptIn,
  type BoardScope,
  type PointAwardRow,
} from "./repo";
import { BADGES, badgesReached, levelFor, levelProgress, levelThreshold, pointsFor, streaksOf, type BadgeStats } from "./rules";
import type {
  AwardOutput,
  BadgeListOutput,
  HistoryOutput,
  HistoryQuery,
  LeaderboardOutput,
  LeaderboardQuery,
  ProfileOutput,
  UpdateProfileInput,
} from "./schema";

/*
 * The rules (the routes' descriptions and docs/modules.md say the same):
 * - Completing a task (`task.completed`) earns its completer (the event's actor) points, once per user and task:
 *   reopening and completing it again earns nothing more, an event handled twice or by two processes awards once
 *   (the unique index on user and task). Someone else who completes the same task after it was reopened earns
 *   their own points for it, once. A completion by a job (no actor) earns nobody anything; so does one while the
 *   module is switched off, also later.
 * - Each award counts for the streak on its local date, in the completer's time zone at the time.
 * - Levels and badges are checked in the award's transaction, under the profile row's lock; each level reached
 *   and each badge earned is recorded once, with an in-app notification.
 */

interface CompletedTask {
  id: string;
  title: string;
  priority: string;
  dueAt: string | null;
  completedAt: string | null;
  ownerId: string;
  assigneeIds: string[];
  collaboratorIds: string[];
  userGroupId: string | null;
}

function completedTaskOf(event: StoredDomainEvent): CompletedTask | null {
  const task = event.data.task as Partial<CompletedTask> | undefined;
  if (!task || typeof task.id !== "string" || typeof task.title !== "string" || typeof task.ownerId !== "string") return null;
  return {
    id: task.id,
    title: task.title,
    priority: typeof task.priority === "string" ? task.priority : "normal",
    dueAt: typeof task.dueAt === "string" ? task.dueAt : null,
    completedAt: typeof task.completedAt === "string" ? task.completedAt : null,
    ownerId: task.ownerId,
    assigneeIds: Array.isArray(task.assigneeIds) ? task.assigneeIds : [],
    collaboratorIds: Array.isArray(task.collaboratorIds) ? task.collaboratorIds : [],
    userGroupId: typeof task.userGroupId === "string" ? task.userGroupId : null,
  };
}

/** Someone else owns it, is assigned or collaborates, or it is a team's task. */
function isShared(task: CompletedTask, userId: string): boolean {
  const people = new Set([task.ownerId, ...task.assigneeIds, ...task.collaboratorIds]);
  people.delete(userId);
  return people.size > 0 || task.userGroupId !== null;
}

/**
 * The `gamification` event handler: awards the completer of a task its points, then records the levels and
 * badges that reaches. Answers the award, or null when there was nothing (more) to award.
 */
export async function awardCompletion(event: StoredDomainEvent): Promise<PointAwardRow | null> {
  if (event.type !== "task.completed" || !event.actorId) return null;
  const task = completedTaskOf(event);
  if (!task) return null;
  const userId = event.actorId;
  const completedAt = task.completedAt ? new Date(task.completedAt) : event.createdAt;
  const priority = PRIORITIES.indexOf(task.priority as (typeof PRIORITIES)[number]);
  const breakdown = pointsFor({
    priority: priority < 0 ? 1 : priority,
    dueAt: task.dueAt ? new Date(task.dueAt) : null,
    completedAt,
  });

  return db().transaction(async (tx) => {
    const user = await findUserSettings(userId, tx);
    if (!user) return null;
    const profile = await lockProfile(userId, tx);
    const award = await insertAward(
      {
        userId,
        taskId: task.id,
        taskTitle: task.title,
        eventId: event.id,
        ...breakdown,
        shared: isShared(task, userId),
        completedAt,
        localDate: localDateOf(completedAt, user.timeZone),
      },
      tx,
    );
    if (!award) return null;
    const points = await addProfilePoints(userId, award.points, tx);

    const before = levelFor(profile.points);
    const level = levelFor(points);
    const reached = Array.from({ length: level - before }, (_, index) => before + index + 1);
    const newLevels = await insertLevelUps(
      reached.map((value) => ({ userId, level: value, points: levelThreshold(value), reachedAt: completedAt })),
      tx,
    );

    const stats: BadgeStats = {
      ...(await awardCounts(userId, tx)),
      longestStreak: streaksOf(await activeDates(userId, tx), award.localDate).longest,
      level,
    };
    const newBadges = await insertBadges(
      badgesReached(stats).map((badge) => ({ userId, badge, earnedAt: completedAt })),
      tx,
    );

    for (const levelUp of newLevels) await notifyUser(userId, levelNotice(user.locale, levelUp.level), tx);
    for (const badge of newBadges) await notifyUser(userId, badgeNotice(user.locale, badge.badge), tx);
    return award;
  });
}

// Your progress

export async function getProfile(actor: Actor): Promise<ProfileOutput> {
  // One snapshot: an award committing between two of these reads would show its count without its points.
  const [profile, counts, dates, badges, levels] = await readSnapshot(
    async (tx) =>
      [
        await findProfile(actor.userId, tx),
        await awardCounts(actor.userId, tx),
        await activeDates(actor.userId, tx),
        await listBadgeRows(actor.userId, tx),
        await listLevelUpRows(actor.userId, tx),
      ] as const,
  );
  const points = profile?.points ?? 0;
  const today = localDateOf(nowDate(), actor.timeZone);
  const { current, longest, lastActiveDate } = streaksOf(dates, today);
  return {
    points,
    level: levelProgress(points),
    streak: { current, longest, lastActiveDate, today },
    tasksCompleted: counts.tasks,
    onTimeCompleted: counts.onTime,
    badgesEarned: badges.length,
    leaderboardOptIn: profile?.leaderboardOptIn ?? false,
    levelUps: levels.map((row) => ({ level: row.level, points: row.points, reachedAt: row.reachedAt.toISOString() })),
  };
}

export async function updateProfile(actor: Actor, input: UpdateProfileInput): Promise<ProfileOutput> {
  await upsertOptIn(actor.userId, input.leaderboardOptIn);
  return getProfile(actor);
}

export async function listBadges(actor: Actor): Promise<BadgeListOutput> {
  const [profile, counts, dates, rows] = await readSnapshot(
    async (tx) =>
      [
        await findProfile(actor.userId, tx),
        await awardCounts(actor.userId, tx),
        await activeDates(actor.userId, tx),
        await listBadgeRows(actor.userId, tx),
      ] as const,
  );
  const stats: BadgeStats = {
    ...counts,
    longestStreak: streaksOf(dates, localDateOf(nowDate(), actor.timeZone)).longest,
    level: levelFor(profile?.points ?? 0),
  };
  const earned = new Map(rows.map((row) => [row.badge, row.earnedAt]));
  return {
    items: BADGES.map((badge) => {
      const earnedAt = earned.get(badge.id) ?? null;
      return {
        id: badge.id,
        rule: badge.rule,
        earned: earnedAt !== null,
        earnedAt: earnedAt?.toISOString() ?? null,
        progress: { current: earnedAt ? badge.target : Math.min(stats[badge.measure], badge.target), target: badge.target },
      };
    }),
  };
}

// The leaderboard

/** Where a period starts for the caller: Monday or the 1st, at local midnight in their time zone; null for all. */
function periodStart(period: LeaderboardQuery["period"], timeZone: string): Date | null {
  if (period === "all") return null;
  const today = localDateOf(nowDate(), timeZone);
  const first = period === "week" ? addDays(today, 1 - isoWeekday(today)) : `${today.slice(0, 8)}01`;
  return startOfLocalDay(first, timeZone);
}

async function boardScope(actor: Actor, query: LeaderboardQuery): Promise<BoardScope> {
  if (query.scope === "team") {
    const team = await findMemberGroup(actor.userId, query.teamId!);
    if (!team) throw new AppError("not_found", "No such team, or you are not one of its members");
    return { kind: "team", teamId: team.id };
  }
  if (query.scope === "family") {
    const membership = await findMembership(actor.userId);
    if (!membership) throw new AppError("not_found", "You are not in a family workspace");
    return { kind: "family", familyId: membership.family.id };
  }
  return { kind: "global" };
}

/** The boards the caller may look at besides the global one: their teams and whether they have a family (for the page). */
export async function leaderboardChoices(actor: Actor): Promise<{ teams: { id: string; name: string }[]; family: boolean }> {
  const teams = await listMemberGroups(actor.userId);
  return {
    teams: teams.map((team) => ({ id: team.id, name: team.name })),
    family: (await findMembership(actor.userId)) !== null,
  };
}

export async function getLeaderboard(actor: Actor, query: LeaderboardQuery): Promise<LeaderboardOutput> {
  const scope = await boardScope(actor, query);
  const since = periodStart(query.period, actor.timeZone);
  const rows = await listBoardRows(scope, since, query.limit);
  const profile = await findProfile(actor.userId);
  const myPoints = await pointsSince(actor.userId, since);
  const standing = await boardStanding(scope, since, actor.userId, myPoints);
  return {
    scope: query.scope,
    teamId: scope.kind === "team" ? scope.teamId : null,
    period: query.period,
    since: since?.toISOString() ?? null,
    listed: standing.listed,
    entries: rows.map((row) => ({
      rank: 1 + rows.filter((other) => other.points > row.points).length,
      userId: row.userId,
      name: row.name,
      points: row.points,
      level: levelFor(row.totalPoints),
      isYou: row.userId === actor.userId,
    })),
    you: { optedIn: profile?.leaderboardOptIn ?? false, points: myPoints, rank: standing.ahead + 1 },
  };
}

// History

function toAwardOutput(row: PointAwardRow): AwardOutput {
  return {
    id: row.id,
    taskId: row.taskId,
    taskTitle: row.taskTitle,
    points: row.points,
    basePoints: row.basePoints,
    onTimeBonus: row.onTimeBonus,
    priorityBonus: row.priorityBonus,
    onTime: row.onTime,
    shared: row.shared,
    completedAt: row.completedAt.toISOString(),
    localDate: row.localDate,
  };
}

export async function listHistory(actor: Actor, query: HistoryQuery): Promise<HistoryOutput> {
  const cursor = query.cursor ? decodeTimeCursor(query.cursor) : null;
  const after = cursor && { completedAt: cursor.at, id: cursor.id };
  const rows = await listAwardRows(actor.userId, query.limit + 1, after);
  const items = rows.slice(0, query.limit).map(toAwardOutput);
  const last = items.at(-1);
  return { items, nextCursor: rows.length > query.limit && last ? encodeTimeCursor(last.completedAt, last.id) : null };
}
