import { createHash, randomBytes } from "node:crypto";
import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { config } from "../config";
import type { CalendarFeedRow } from "../db/schema/calendar-feeds";
import { calendarText, type FeedTask } from "./ics";
import { deleteFeed, findFeedBySecretHash, insertFeed, listFeeds, listOpenDueTasks, touchFeed } from "./repo";
import type { CalendarFeedListOutput, CalendarFeedOutput, CreateCalendarFeedInput, CreatedCalendarFeedOutput } from "./schema";

/** The most tasks one feed carries (the soonest due first). */
export const FEED_MAX_TASKS = 2000;
/** A fetch is recorded as the feed's last use at most this often. */
const TOUCH_EVERY_MS = 5 * 60_000;

/** Where the feeds are served: `/calendar/<secret>.ics` at the site root (and under /api/v1). */
export const CALENDAR_PATH = "/calendar";

const hashOf = (secret: string) => createHash("sha256").update(secret).digest("hex");

function toOutput(row: CalendarFeedRow): CalendarFeedOutput {
  return {
    id: row.id,
    name: row.name,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Makes a feed: its URL (with the secret) is in this answer only. */
export async function createFeed(
  actor: Actor,
  input: CreateCalendarFeedInput,
  requestOrigin: string,
): Promise<CreatedCalendarFeedOutput> {
  const secret = randomBytes(32).toString("base64url");
  const row = await insertFeed(actor.userId, input.name, hashOf(secret));
  const url = new URL(`${CALENDAR_PATH}/${secret}.ics`, config().APP_URL ?? requestOrigin).href;
  return { ...toOutput(row), url };
}

export async function listCalendarFeeds(actor: Actor): Promise<CalendarFeedListOutput> {
  return { items: (await listFeeds(actor.userId)).map(toOutput) };
}

/** Revokes a feed: its URL answers 404 from now on. Another user's feed, or one revoked already: 404. */
export async function revokeFeed(actor: Actor, id: string): Promise<void> {
  if (!(await deleteFeed(actor.userId, id))) throw new AppError("not_found", "No calendar feed of yours has this id");
}

/** Marks, among open tasks, the latest open occurrence of each series (the one whose series the feed shows). */
function withSeriesHeads(tasks: readonly FeedTask["task"][]): FeedTask[] {
  const latest = new Map<string, number>();
  for (const task of tasks) {
    if (task.seriesId) latest.set(task.seriesId, Math.max(latest.get(task.seriesId) ?? 0, task.occurrence ?? 0));
  }
  return tasks.map((task) => ({ task, seriesHead: !task.seriesId || latest.get(task.seriesId) === (task.occurrence ?? 0) }));
}

/**
 * The iCalendar text for `<secret>.ics`: the open tasks with a due date that the feed's owner sees, in the owner's
 * time zone. An unknown or revoked secret, or a disabled account: 404 (the same answer, so a secret cannot be probed).
 */
export async function feedCalendar(file: string): Promise<string> {
  const secret = file.replace(/\.ics$/, "");
  const found = await findFeedBySecretHash(hashOf(secret));
  if (!found || found.disabled) throw new AppError("not_found", "No such calendar feed (it may have been revoked)");
  const now = nowDate();
  await touchFeed(found.feed.id, now, new Date(now.getTime() - TOUCH_EVERY_MS));
  const tasks = await listOpenDueTasks(found.feed.userId, FEED_MAX_TASKS);
  const appUrl = config().APP_URL;
  return calendarText(withSeriesHeads(tasks), {
    timeZone: found.timeZone,
    name: `Spolu: ${found.feed.name}`,
    // The task's page (`/tasks/...` without a locale is the API's path).
    taskUrl: appUrl ? (id) => new URL(`/${found.locale}/tasks/${id}`, appUrl).href : undefined,
  });
}
