import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  calendarFeedIdParams,
  calendarFeedListOutput,
  calendarFileParams,
  createCalendarFeedInput,
  createdCalendarFeedOutput,
} from "./schema";
import { createFeed, feedCalendar, listCalendarFeeds, revokeFeed } from "./service";

const TAGS = ["Calendar"];
const ABOUT =
  "A calendar feed is a secret address of an iCalendar file (RFC 5545) with your open tasks (to do, in progress) " +
  "that have a due date, including those shared with you, in your time zone; a recurring task appears as a series " +
  "(`RRULE`). Subscribe to it in Google Calendar, Apple Calendar, Outlook or Thunderbird; they fetch it again every " +
  "few hours (the file suggests hourly). The secret in the address is its only credential: only its hash is kept.";

const createRoute = apiRoute({
  method: "post",
  path: "/calendar-feeds",
  tags: TAGS,
  summary: "Make a calendar feed",
  description: `${ABOUT} The answer carries the feed's \`url\`, shown this once: keep it, or make another feed.`,
  access: "user",
  request: { body: jsonBody(createCalendarFeedInput) },
  responses: { 201: jsonContent(createdCalendarFeedOutput, "The feed, with its secret address") },
});

const listRoute = apiRoute({
  method: "get",
  path: "/calendar-feeds",
  tags: TAGS,
  summary: "Your calendar feeds",
  description: `${ABOUT} Lists your feeds, the newest first, without their addresses.`,
  access: "user",
  responses: { 200: jsonContent(calendarFeedListOutput, "Your calendar feeds") },
});

const revokeRoute = apiRoute({
  method: "delete",
  path: "/calendar-feeds/{id}",
  tags: TAGS,
  summary: "Revoke a calendar feed",
  description: `${ABOUT} Its address answers 404 from now on.`,
  access: "user",
  request: { params: calendarFeedIdParams },
  responses: { 204: { description: "Revoked" }, 404: problemResponse("No calendar feed of yours has this id") },
});

const feedRoute = apiRoute({
  method: "get",
  path: "/calendar/{file}",
  tags: TAGS,
  summary: "A calendar feed's iCalendar file",
  description:
    `${ABOUT} Served at \`/calendar/<secret>.ics\` (and under /api/v1); no Authorization header: the secret is the ` +
    "credential. Each task is a `VEVENT` at its due time (`DTSTART;TZID=<your zone>` with the zone's `VTIMEZONE`, or " +
    "UTC), its title as `SUMMARY`, its description, and a link to it when APP_URL is set. A recurring task repeated " +
    "on schedule is a series from its current occurrence on (`RRULE:FREQ=DAILY|WEEKLY|MONTHLY;INTERVAL=n` with " +
    "`COUNT` or `UNTIL`); one repeated after completion shows its current occurrence only. At most 2000 tasks, the " +
    "soonest due first. An unknown or revoked secret: 404.",
  access: "public",
  request: { params: calendarFileParams },
  responses: {
    200: {
      description: "The iCalendar file",
      content: {
        "text/calendar": {
          schema: { type: "string" },
          example:
            "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Spolu//Tasks//EN\r\nNAME:Spolu: Phone\r\nBEGIN:VTIMEZONE\r\n" +
            "TZID:Europe/Prague\r\n…\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:series-0b6e…@spolu\r\n" +
            "DTSTART;TZID=Europe/Prague:20261201T090000\r\nRRULE:FREQ=WEEKLY;INTERVAL=1\r\nSUMMARY:Water the plants\r\n" +
            "END:VEVENT\r\nEND:VCALENDAR\r\n",
        },
      },
    },
    404: problemResponse("No feed has this secret (or it was revoked)"),
  },
});

export const calendarFeedsRoutes = createRouter()
  .openapi(createRoute, async (c) => c.json(await createFeed(c.var.actor, c.req.valid("json"), new URL(c.req.url).origin), 201))
  .openapi(listRoute, async (c) => c.json(await listCalendarFeeds(c.var.actor), 200))
  .openapi(revokeRoute, async (c) => {
    await revokeFeed(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(feedRoute, async (c) =>
    c.body(await feedCalendar(c.req.valid("param").file), 200, {
      "Content-Type": "text/calendar; charset=utf-8",
      "Content-Disposition": 'inline; filename="spolu.ics"',
      "Cache-Control": "private, no-cache",
      "Referrer-Policy": "no-referrer",
      "X-Robots-Tag": "noindex, nofollow",
    }),
  );
