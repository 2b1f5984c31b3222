import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { BADGES, BASE_POINTS, LEVEL_TABLE, ON_TIME_BONUS, PRIORITY_BONUS } from "./rules";
import {
  badgeListOutput,
  historyOutput,
  historyQuery,
  leaderboardOutput,
  leaderboardQuery,
  profileOutput,
  updateProfileInput,
} from "./schema";
import { getLeaderboard, getProfile, listBadges, listHistory, updateProfile } from "./service";

// Gamification lives under /api/v1 only (no root alias).
const TAGS = ["Gamification"];
const MODULE = "gamification";

const POINTS =
  `**Points.** Completing a task earns its completer (whoever set it done, or completed its last open subtask) ` +
  `${BASE_POINTS} points, ${ON_TIME_BONUS} more when it had a due time and was completed at or before it (none when ` +
  `late or without a due time), and by priority ${PRIORITY_BONUS[2]} more for high and ${PRIORITY_BONUS[3]} for urgent ` +
  `(low and normal: none). A task earns each person points once: reopening and completing it again earns nothing ` +
  "more; another assignee or collaborator who completes it after it was reopened earns their own points once; the " +
  "others who work on a task earn nothing when someone else completes it. The next occurrence of a recurring task is " +
  "a new task and earns again. Completions while the module is switched off never earn points, also not later.";
const STREAKS =
  "**Streaks.** A day counts when you earned points on it, as a calendar day in your time zone (`timeZone` of your " +
  "profile) when you completed the task; the current streak counts the days in a row up to today, or up to " +
  "yesterday while today has none yet; a day without one ends it. Days at daylight-saving changes count as one day.";
const LEVELS =
  `**Levels** rise by themselves: level n starts at 25 × n × (n − 1) points (${LEVEL_TABLE.map((row) => `${row.level}: ${row.points}`).join(", ")}, ` +
  "and so on without end). Each level reached is recorded once, with an in-app notification.";
const BADGE_RULES = `**Badges**, each earned once, with the time of the completion that earned it and an in-app notification: ${BADGES.map(
  (badge) => `\`${badge.id}\` (${badge.rule.charAt(0).toLowerCase()}${badge.rule.slice(1)})`,
).join("; ")}.`;
const BOARD =
  "**Leaderboards** list only people who turned `leaderboardOptIn` on (off by default), with their name, level and " +
  "points: everyone's (`global`), a team's you belong to (`team`, another team's id is a 404), or your family " +
  "workspace's (`family`, 404 when you are in none). Accounts an administrator disabled are not listed. You always " +
  "see your own points and rank in `you` (when you are not opted in, where you would stand), which nobody else sees.";

const profileRoute = apiRoute({
  method: "get",
  path: "/gamification/me",
  tags: TAGS,
  summary: "Your points, level, streaks and badges",
  description: `${POINTS}\n\n${STREAKS}\n\n${LEVELS}`,
  access: "user",
  module: MODULE,
  responses: { 200: jsonContent(profileOutput, "Your gamification profile (all zero before your first completed task)") },
});

const updateProfileRoute = apiRoute({
  method: "patch",
  path: "/gamification/me",
  tags: TAGS,
  summary: "Appear on leaderboards, or not",
  description: `${BOARD} Turning it off takes you off every board at once; your points stay.`,
  access: "user",
  module: MODULE,
  request: { body: jsonBody(updateProfileInput) },
  responses: { 200: jsonContent(profileOutput, "Your gamification profile") },
});

const badgesRoute = apiRoute({
  method: "get",
  path: "/gamification/badges",
  tags: TAGS,
  summary: "Every badge, earned or not yet, with your progress",
  description: BADGE_RULES,
  access: "user",
  module: MODULE,
  responses: { 200: jsonContent(badgeListOutput, "The badge catalog in a fixed order") },
});

const leaderboardRoute = apiRoute({
  method: "get",
  path: "/gamification/leaderboard",
  tags: TAGS,
  summary: "A leaderboard: global, a team's or your family's",
  description:
    `${BOARD} Ordered by points in the period (week: since Monday 00:00, month: since the 1st 00:00, both in your ` +
    "time zone; all: every point), then by name; equal points share a rank. The top `limit` are listed.",
  access: "user",
  module: MODULE,
  request: { query: leaderboardQuery },
  responses: {
    200: jsonContent(leaderboardOutput, "The board"),
    404: problemResponse(
      "No such team, or you are not one of its members; or you are in no family workspace; or the module is switched off",
    ),
  },
});

const historyRoute = apiRoute({
  method: "get",
  path: "/gamification/history",
  tags: TAGS,
  summary: "The points you earned, task by task",
  description: `${POINTS} Newest completion first; \`nextCursor\` pages on.`,
  access: "user",
  module: MODULE,
  request: { query: historyQuery },
  responses: { 200: jsonContent(historyOutput, "Your awards") },
});

export const gamificationRoutes = createRouter()
  .openapi(profileRoute, async (c) => c.json(await getProfile(c.var.actor), 200))
  .openapi(updateProfileRoute, async (c) => c.json(await updateProfile(c.var.actor, c.req.valid("json")), 200))
  .openapi(badgesRoute, async (c) => c.json(await listBadges(c.var.actor), 200))
  .openapi(leaderboardRoute, async (c) => c.json(await getLeaderboard(c.var.actor, c.req.valid("query")), 200))
  .openapi(historyRoute, async (c) => c.json(await listHistory(c.var.actor, c.req.valid("query")), 200));
