import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  analysisInput,
  analysisOutput,
  dailyOutput,
  dailyQuery,
  deleteRecordsOutput,
  deleteRecordsQuery,
  reportRecordsInput,
  reportRecordsOutput,
  summaryOutput,
  summaryQuery,
} from "./schema";
import { analyseActivity, deleteRecords, getDaily, getSummary, reportRecords } from "./service";
import {
  BATCH_MAX,
  CLOCK_SKEW_SECONDS,
  LATE_NIGHT_FROM_HOUR,
  LATE_NIGHT_UNTIL_HOUR,
  RECORD_RANGE_MAX_HOURS,
  WINDOW_DAYS_MAX,
} from "./vocabulary";

/** The activity monitor: phone usage reported by clients, its summaries and analysis (issue 8). Under /api/v1 only. */
const TAGS = ["Activity"];

const COUNTING =
  "Dates are local dates in your time zone (your profile's). A record's seconds are taken as spread evenly over its " +
  "range, so a record from 23:30 to 00:30 gives half to each day; shares are rounded so that they add up to the " +
  "record's seconds exactly. Days are counted on the wall clock: the day the clocks go forward has 23 hours, the day " +
  "they go back 25.";
const WINDOW = `\`from\` and \`to\` (both included) cover at most ${WINDOW_DAYS_MAX} days; by default the last seven days, today included.`;

const reportRoute = apiRoute({
  method: "post",
  path: "/activity/records",
  tags: TAGS,
  summary: "Report phone usage (a batch of records)",
  description:
    `Up to ${BATCH_MAX} records: \`seconds\` spent in \`app\` between \`startedAt\` and \`endedAt\`. Idempotent by the ` +
    "record's `id` (yours, 1-100 characters): a record whose id you sent before is skipped as a duplicate whatever " +
    "it holds now (the first one stored stays), and `items` says so per record; sending the same batch twice adds " +
    "nothing.\n\n" +
    "**All or nothing.** The whole batch is checked before anything is stored, and one bad record rejects it (400, " +
    "nothing stored); `errors` names every broken rule by JSON Pointer (`/records/3/seconds`). The rules: `seconds` a " +
    "whole number, not negative, at most the range's length (rounded up to whole seconds); `endedAt` not before " +
    `\`startedAt\` and at most ${RECORD_RANGE_MAX_HOURS} hours after it; nothing in the future (more than ` +
    `${CLOCK_SKEW_SECONDS / 60} minutes after the server's clock); no id twice in one batch (\`/records/n/id\`); ` +
    "`category` one of the listed values.\n\n" +
    "**Overlaps.** Two records of the same app (names compared exactly, after trimming spaces) overlap when their " +
    "ranges share any time: a.startedAt < b.endedAt and b.startedAt < a.endedAt (ranges that only touch are fine). " +
    "A new record that overlaps an earlier new one in the batch, or one you stored before, is refused at " +
    "`/records/n/startedAt`. Records of different apps may overlap (split screen, music in the background).",
  access: "user",
  module: "activity",
  request: { body: jsonBody(reportRecordsInput) },
  responses: { 200: jsonContent(reportRecordsOutput, "What was stored and what was a duplicate") },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/activity/records",
  tags: TAGS,
  summary: "Delete your activity records",
  description:
    "Give `before` (a local date: deletes the records that started before it) or `all=true` (deletes everything " +
    "you reported); exactly one of them.",
  access: "user",
  module: "activity",
  request: { query: deleteRecordsQuery },
  responses: { 200: jsonContent(deleteRecordsOutput, "How many records were deleted") },
});

const summaryRoute = apiRoute({
  method: "get",
  path: "/activity/summary",
  tags: TAGS,
  summary: "Your usage over some days: per category, per app, per day",
  description: `${WINDOW} ${COUNTING}`,
  access: "user",
  module: "activity",
  request: { query: summaryQuery },
  responses: { 200: jsonContent(summaryOutput, "The summary") },
});

const dailyRoute = apiRoute({
  method: "get",
  path: "/activity/daily",
  tags: TAGS,
  summary: "One day of usage: per hour, per category, per app",
  description: `\`date\` is a local date, today by default. ${COUNTING}`,
  access: "user",
  module: "activity",
  request: { query: dailyQuery },
  responses: { 200: jsonContent(dailyOutput, "The day") },
});

const analysisRoute = apiRoute({
  method: "post",
  path: "/activity/analysis",
  tags: TAGS,
  summary: "Analyse your week of phone usage",
  description:
    `${WINDOW} It is compared with the same number of days just before. The facts (yours only: totals per ` +
    `category and app, late-night use from ${LATE_NIGHT_FROM_HOUR}:00 to 0${LATE_NIGHT_UNTIL_HOUR}:00, the busiest ` +
    "hour and day, and the open tasks you are responsible for) are in `facts`; the built-in assistant's rule-based " +
    "findings in `insights`, always. Without an AI endpoint (AI_BASE_URL) the built-in assistant answers and `text` " +
    "is null; with one, the endpoint is given the facts and writes `text` in your language. `answeredBy` says which " +
    "answered. You asked for the endpoint's answer, so an endpoint that fails or does not answer in time is a 503, " +
    "and a used-up daily AI budget a 429 (both with Retry-After); an empty answer falls back to the built-in " +
    "assistant with a `fallbackReason`. The body may be left out or be `{}`. Nothing is stored. " +
    COUNTING,
  access: "user",
  module: "activity",
  request: { body: { required: false, content: { "application/json": { schema: analysisInput } } } },
  responses: {
    200: jsonContent(analysisOutput, "The analysis"),
    503: problemResponse("The AI endpoint failed or did not answer in time"),
  },
});

export const activityRoutes = createRouter()
  .openapi(reportRoute, async (c) => c.json(await reportRecords(c.var.actor, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => c.json(await deleteRecords(c.var.actor, c.req.valid("query")), 200))
  .openapi(summaryRoute, async (c) => c.json(await getSummary(c.var.actor, c.req.valid("query")), 200))
  .openapi(dailyRoute, async (c) => c.json(await getDaily(c.var.actor, c.req.valid("query")), 200))
  .openapi(analysisRoute, async (c) => c.json(await analyseActivity(c.var.actor, c.req.valid("json") ?? {}), 200));
