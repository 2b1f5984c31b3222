import { z } from "@hono/zod-openapi";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  createEntryInput,
  entryIdParams,
  entryListOutput,
  exportQuery,
  listEntriesQuery,
  reportOutput,
  reportQuery,
  startedTimerOutput,
  startTimerInput,
  taskIdParams,
  taskTimeOutput,
  timeEntryOutput,
  timerOutput,
  updateEntryInput,
} from "./schema";
import {
  createEntry,
  deleteEntry,
  exportCsv,
  getReport,
  getTaskTime,
  getTimer,
  listEntries,
  startTimer,
  stopTimer,
  updateEntry,
} from "./service";

// Time tracking lives under /api/v1 (the timer start also under the /tasks root alias).
const TAGS = ["Time tracking"];
const module = "time-tracking" as const;
const TASK_404 = "No such task that you can see (another user's task answers the same)";
const ENTRY_404 = "No such time entry of yours (another user's entry answers the same)";
const RANGE =
  "`from` and `to` are local dates in your profile's time zone, both included (by default the last 7 days up to " +
  "today; at most 366 days; `to` before `from` is a 400 naming `to`).";
const SCOPE =
  "Covers everyone's time on the tasks you can see now (your own, and shared ones: assigned, collaborating, team, " +
  "project, family); time on a task you no longer see leaves your reports. Running timers count up to now.";

const getTimerRoute = apiRoute({
  method: "get",
  path: "/timer",
  tags: TAGS,
  summary: "Your running timer",
  description: "You have at most one timer running; `running` is null when none is.",
  access: "user",
  module,
  responses: { 200: jsonContent(timerOutput, "The running timer or null") },
});

const startRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/timer/start",
  tags: TAGS,
  summary: "Start a timer on a task",
  description:
    "On any task you can see. One timer runs per person: a timer running on another task is stopped at this moment " +
    "(answered as `stopped`), in the same transaction; one already running on this task goes on unchanged (`stopped` " +
    "null). Two starts at the same moment run one after the other, so exactly one timer is left running. The body " +
    "(optional) may carry a `note`.",
  access: "user",
  module,
  request: { params: taskIdParams, body: { required: false, content: { "application/json": { schema: startTimerInput } } } },
  responses: {
    200: jsonContent(startedTimerOutput, "The running timer, and the one it stopped"),
    404: problemResponse(TASK_404),
  },
});

const stopRoute = apiRoute({
  method: "post",
  path: "/timer/stop",
  tags: TAGS,
  summary: "Stop your running timer",
  description: "Ends it now; it becomes an ordinary entry you can edit or delete.",
  access: "user",
  module,
  responses: { 200: jsonContent(timeEntryOutput, "The finished entry"), 409: problemResponse("No timer is running") },
});

const taskTimeRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/time",
  tags: TAGS,
  summary: "Time tracked on a task",
  description: "Everyone's total on a task you can see, your part of it, and your timer if it runs on this task.",
  access: "user",
  module,
  request: { params: taskIdParams },
  responses: { 200: jsonContent(taskTimeOutput, "The task's time"), 404: problemResponse(TASK_404) },
});

const listRoute = apiRoute({
  method: "get",
  path: "/time-entries",
  tags: TAGS,
  summary: "Your time entries",
  description:
    `${RANGE} Your own entries (timers and entries by hand) that overlap the range, oldest first (at most 10,000), ` +
    "on tasks you can still see; `taskId` keeps one task's (a task you cannot see is a 404).",
  access: "user",
  module,
  request: { query: listEntriesQuery },
  responses: { 200: jsonContent(entryListOutput, "Your entries"), 404: problemResponse(TASK_404) },
});

const createEntryRoute = apiRoute({
  method: "post",
  path: "/time-entries",
  tags: TAGS,
  summary: "Add time by hand",
  description:
    "On a task you can see (another is a 404). Give `startedAt` and either `endedAt` or `durationSeconds`. The entry " +
    "must have ended already, last at most 7 days, and end after it starts (else a 400 naming `endedAt`); it may " +
    "overlap other entries.",
  access: "user",
  module,
  request: { body: jsonBody(createEntryInput) },
  responses: { 201: jsonContent(timeEntryOutput, "The new entry"), 404: problemResponse(TASK_404) },
});

const updateEntryRoute = apiRoute({
  method: "patch",
  path: "/time-entries/{id}",
  tags: TAGS,
  summary: "Edit one of your time entries",
  description:
    "The fields given change, the others stay; the same rules as for a new entry. Giving `endedAt` to your running " +
    "timer stops it. Only your own entries: others' are a 404, also on tasks you share.",
  access: "user",
  module,
  request: { params: entryIdParams, body: jsonBody(updateEntryInput) },
  responses: { 200: jsonContent(timeEntryOutput, "The entry"), 404: problemResponse(ENTRY_404) },
});

const deleteEntryRoute = apiRoute({
  method: "delete",
  path: "/time-entries/{id}",
  tags: TAGS,
  summary: "Delete one of your time entries",
  description: "The running timer too (then none runs). Only your own entries.",
  access: "user",
  module,
  request: { params: entryIdParams },
  responses: { 204: { description: "Deleted" }, 404: problemResponse(ENTRY_404) },
});

const reportRoute = apiRoute({
  method: "get",
  path: "/time-entries/report",
  tags: TAGS,
  summary: "Time report per task, person or day",
  description:
    `${RANGE} ${SCOPE} Each entry counts for the part of it inside the range; \`by=day\` splits entries at local ` +
    "midnight (23:30-00:30 is 30 minutes on each day) and lists every day of the range, 0 where nothing was " +
    "tracked; `by=task` and `by=user` list only rows with time, longest first. Seconds are whole, rounded down; " +
    "`totalSeconds` is the whole range's.",
  access: "user",
  module,
  request: { query: reportQuery },
  responses: { 200: jsonContent(reportOutput, "The report") },
});

const exportRoute = apiRoute({
  method: "get",
  path: "/time-entries/export.csv",
  tags: TAGS,
  summary: "Download time entries as CSV",
  description:
    `${RANGE} ${SCOPE} RFC 4180 CSV (UTF-8, CRLF line ends, a header record ` +
    "`date,started_at,ended_at,duration_seconds,person,task,note`): one record per entry overlapping the range, oldest " +
    "first; `date` is the local date it started, the times are UTC, `duration_seconds` is the whole entry's (the " +
    "running timer's so far, with `ended_at` empty). Text cells starting with =, +, -, @, a tab or a carriage return " +
    "get a leading apostrophe so that spreadsheets do not run them as formulas.",
  access: "user",
  module,
  request: { query: exportQuery },
  responses: {
    200: {
      description: "The CSV file, as a download",
      headers: {
        "Content-Disposition": { description: 'attachment; filename="time-<from>-<to>.csv"', schema: { type: "string" } },
        "Cache-Control": { description: "no-store", schema: { type: "string" } },
      },
      content: {
        "text/csv": {
          schema: z.string(),
          example:
            "date,started_at,ended_at,duration_seconds,person,task,note\r\n" +
            "2026-11-27,2026-11-27T09:00:00.000Z,2026-11-27T10:30:00.000Z,5400,Jana Nováková,Write the report,First draft\r\n",
        },
      },
    },
  },
});

export const timeTrackingRoutes = createRouter()
  .openapi(getTimerRoute, async (c) => c.json(await getTimer(c.var.actor), 200))
  .openapi(startRoute, async (c) =>
    c.json(await startTimer(c.var.actor, c.req.valid("param").id, c.req.valid("json") ?? {}), 200),
  )
  .openapi(stopRoute, async (c) => c.json(await stopTimer(c.var.actor), 200))
  .openapi(taskTimeRoute, async (c) => c.json(await getTaskTime(c.var.actor, c.req.valid("param").id), 200))
  .openapi(listRoute, async (c) => c.json(await listEntries(c.var.actor, c.req.valid("query")), 200))
  .openapi(reportRoute, async (c) => c.json(await getReport(c.var.actor, c.req.valid("query")), 200))
  .openapi(exportRoute, async (c) => {
    const { filename, body } = await exportCsv(c.var.actor, c.req.valid("query"));
    return c.body(body, 200, {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename}"`,
      "Cache-Control": "no-store",
    });
  })
  .openapi(createEntryRoute, async (c) => c.json(await createEntry(c.var.actor, c.req.valid("json")), 201))
  .openapi(updateEntryRoute, async (c) =>
    c.json(await updateEntry(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(deleteEntryRoute, async (c) => {
    await deleteEntry(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
