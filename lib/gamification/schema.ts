import { z } from "@hono/zod-openapi";
import { BADGE_IDS } from "./rules";

export const LEADERBOARD_SCOPES = ["global", "team", "family"] as const;
export const LEADERBOARD_PERIODS = ["week", "month", "all"] as const;

const levelSchema = z
  .object({
    level: z.number().int().min(1),
    levelPoints: z.number().int().openapi({ description: "Points at which the current level started" }),
    nextLevelPoints: z.number().int().openapi({ description: "Points at which the next level starts" }),
    percent: z
      .number()
      .int()
      .min(0)
      .max(100)
      .openapi({ description: "Progress from this level to the next, 0-100 (rounded down)" }),
  })
  .openapi("GamificationLevel");

const streakSchema = z
  .object({
    current: z
      .number()
      .int()
      .min(0)
      .openapi({ description: "Days in a row up to today (or yesterday, while today has no completion yet)" }),
    longest: z.number().int().min(0),
    lastActiveDate: z.iso.date().nullable().openapi({ description: "The last local date with a completion that earned points" }),
    today: z.iso.date().openapi({ description: "Today in your time zone, which the streak is counted against" }),
  })
  .openapi("GamificationStreak");

export const profileOutput = z
  .object({
    points: z.number().int().min(0),
    level: levelSchema,
    streak: streakSchema,
    tasksCompleted: z.number().int().min(0).openapi({ description: "Tasks that earned you points (each once)" }),
    onTimeCompleted: z.number().int().min(0).openapi({ description: "Of them, completed at or before their due time" }),
    badgesEarned: z.number().int().min(0),
    leaderboardOptIn: z.boolean(),
    levelUps: z.array(z.object({ level: z.number().int(), points: z.number().int(), reachedAt: z.iso.datetime() })).openapi({
      description: "Each level you reached after level 1, lowest first",
    }),
  })
  .openapi("GamificationProfile");
export type ProfileOutput = z.infer<typeof profileOutput>;

export const updateProfileInput = z
  .strictObject({
    leaderboardOptIn: z
      .boolean({ message: "must be true or false" })
      .openapi({ description: "Appear on leaderboards (off by default)" }),
  })
  .openapi("UpdateGamificationProfileInput");
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const badgeOutput = z
  .object({
    id: z.enum(BADGE_IDS),
    rule: z.string().openapi({ description: "How it is earned, in English" }),
    earned: z.boolean(),
    earnedAt: z.iso.datetime().nullable(),
    progress: z.object({ current: z.number().int().min(0), target: z.number().int().min(1) }).openapi({
      description: "Where you stand towards it (`current` stops at `target`)",
    }),
  })
  .openapi("GamificationBadge");
export type BadgeOutput = z.infer<typeof badgeOutput>;

export const badgeListOutput = z.object({ items: z.array(badgeOutput) }).openapi("GamificationBadgeList");
export type BadgeListOutput = z.infer<typeof badgeListOutput>;

export const leaderboardQuery = z
  .strictObject({
    scope: z
      .enum(LEADERBOARD_SCOPES, { message: `must be one of ${LEADERBOARD_SCOPES.join(", ")}` })
      .default("global")
      .openapi({ description: "`global` (default), `team` (with `teamId`) or `family` (yours)" }),
    teamId: z
      .uuid("must be a team id")
      .optional()
      .openapi({ description: "A team (user group) you belong to; required with `scope=team`" }),
    period: z
      .enum(LEADERBOARD_PERIODS, { message: `must be one of ${LEADERBOARD_PERIODS.join(", ")}` })
      .default("all")
      .openapi({ description: "`week` (since Monday), `month` (since the 1st), both in your time zone, or `all` (default)" }),
    limit: z.coerce
      .number({ message: "must be a whole number from 1 to 100" })
      .int("must be a whole number from 1 to 100")
      .min(1, "must be a whole number from 1 to 100")
      .max(100, "must be a whole number from 1 to 100")
      .default(20)
      .openapi({ description: "How many of the top to list, 1-100 (default 20)" }),
  })
  .superRefine((query, context) => {
    if (query.scope === "team" && !query.teamId)
      context.addIssue({ code: "custom", path: ["teamId"], message: "is required with scope=team" });
    if (query.scope !== "team" && query.teamId)
      context.addIssue({ code: "custom", path: ["teamId"], message: "is only for scope=team" });
  })
  .openapi("LeaderboardQuery");
export type LeaderboardQuery = z.infer<typeof leaderboardQuery>;

const entrySchema = z
  .object({
    rank: z.number().int().min(1).openapi({ description: "1 + how many have more points (equal points share a rank)" }),
    userId: z.uuid(),
    name: z.string(),
    points: z.number().int().min(0).openapi({ description: "Points in the period" }),
    level: z.number().int().min(1),
    isYou: z.boolean(),
  })
  .openapi("LeaderboardEntry");
export type LeaderboardEntry = z.infer<typeof entrySchema>;

export const leaderboardOutput = z
  .object({
    scope: z.enum(LEADERBOARD_SCOPES),
    teamId: z.uuid().nullable(),
    period: z.enum(LEADERBOARD_PERIODS),
    since: z.iso.datetime().nullable().openapi({ description: "Where the period starts; null for `all`" }),
    listed: z.number().int().min(0).openapi({ description: "How many people appear on this board in all" }),
    entries: z.array(entrySchema),
    you: z
      .object({
        optedIn: z.boolean(),
        points: z.number().int().min(0),
        rank: z.number().int().min(1).openapi({
          description:
            "Your rank among those listed; when you are not opted in, where you would stand (you are still not shown to anyone)",
        }),
      })
      .openapi({ description: "You, always (only you see this)" }),
  })
  .openapi("Leaderboard");
export type LeaderboardOutput = z.infer<typeof leaderboardOutput>;

export const historyQuery = z
  .strictObject({
    limit: z.coerce
      .number({ message: "must be a whole number from 1 to 100" })
      .int("must be a whole number from 1 to 100")
      .min(1, "must be a whole number from 1 to 100")
      .max(100, "must be a whole number from 1 to 100")
      .default(20)
      .openapi({ description: "Entries per page, 1-100 (default 20)" }),
    cursor: z
      .string()
      .max(200, "is not a cursor of this list")
      .optional()
      .openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("GamificationHistoryQuery");
export type HistoryQuery = z.infer<typeof historyQuery>;

export const awardOutput = z
  .object({
    id: z.uuid(),
    taskId: z.uuid().nullable().openapi({ description: "Null once the task was deleted" }),
    taskTitle: z.string().openapi({ description: "The task's title when it was completed" }),
    points: z.number().int().min(1),
    basePoints: z.number().int(),
    onTimeBonus: z.number().int(),
    priorityBonus: z.number().int(),
    onTime: z.boolean().nullable().openapi({ description: "Null when the task had no due time" }),
    shared: z.boolean(),
    completedAt: z.iso.datetime(),
    localDate: z.iso.date().openapi({ description: "The day it counts for in your streak" }),
  })
  .openapi("PointAward");
export type AwardOutput = z.infer<typeof awardOutput>;

export const historyOutput = z
  .object({ items: z.array(awardOutput), nextCursor: z.string().nullable() })
  .openapi("GamificationHistory");
export type HistoryOutput = z.infer<typeof historyOutput>;
