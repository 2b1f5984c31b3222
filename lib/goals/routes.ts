import { ifMatch, jsonWithETag } from "../api/conditional";
import {
  apiRoute,
  ifMatchHeader,
  ifNoneMatchHeader,
  jsonBody,
  jsonContent,
  notModified,
  problemResponse,
  stale,
  withETag,
} from "../api/route";
import { createRouter } from "../api/router";
import {
  appliedStudyPlanOutput,
  applyStudyPlanInput,
  createGoalInput,
  createReportInput,
  generateStudyPlanInput,
  goalIdParams,
  goalListOutput,
  goalOutput,
  goalTaskParams,
  listGoalsQuery,
  reportListOutput,
  reportOutput,
  reportParams,
  studyPlanOutput,
  updateGoalInput,
} from "./schema";
import {
  addGoalReport,
  createGoal,
  deleteGoal,
  deleteGoalReport,
  getGoal,
  linkTask,
  listGoalReports,
  listGoals,
  unlinkTask,
  updateGoal,
} from "./service";
import { applyStudyPlan, generateStudyPlan, getStudyPlan } from "./study-plan";

// Goals live under /api/v1 only (no root alias).
const TAGS = ["Goals"];
const ABOUT =
  "Goals are private: only their owner sees them, and to anyone else every `/goals/{id}` route answers 404. " +
  "A goal's `progress` (0-100) is set by hand until a task is linked to it; while tasks are linked it is derived " +
  "from those you can see: the share of them that is done, cancelled ones left out, rounded down " +
  "(`progressMode: tasks`), and setting it by hand is a 409.";
const NOT_FOUND = "No such goal, or not yours (both answer the same)";
const PLANNERS =
  "Without an AI endpoint (AI_BASE_URL) the built-in planner writes the plan: deterministic, from the goal's " +
  "description (one topic per line, or per sentence of a one-line description; the title without one), sessions on " +
  "Mondays, Wednesdays and Fridays where the period allows (else weekdays, else every day; at most 30), each topic " +
  "in turn with concrete steps, reviews in between and a final review. With an endpoint, it is asked for a JSON " +
  'object `{"sessions": [{"date", "title", "steps": [...]}]}` with dates in the period, given only this goal, ' +
  "its linked tasks you can see, your time zone and today's date; an answer that is not such an object is replaced " +
  "by the built-in plan, with `fallbackReason` saying why. Because you asked for the AI, an endpoint that fails or " +
  "times out is a 503 and a used-up daily budget a 429 (nothing is stored then); `assistant: built-in` asks the " +
  "built-in planner instead. `answeredBy` names who wrote the plan.";

const listRoute = apiRoute({
  method: "get",
  path: "/goals",
  tags: TAGS,
  summary: "Your goals",
  description: `${ABOUT} Newest first, each with its linked tasks; \`status\` keeps only goals with that status.`,
  access: "user",
  request: { query: listGoalsQuery },
  responses: { 200: jsonContent(goalListOutput, "Your goals") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/goals",
  tags: TAGS,
  summary: "Create a goal",
  description: `${ABOUT} A user has at most 500 goals (409 beyond).`,
  access: "user",
  request: { body: jsonBody(createGoalInput) },
  responses: { 201: jsonContent(goalOutput, "The new goal"), 409: problemResponse("You have 500 goals already") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/goals/{id}",
  tags: TAGS,
  summary: "One of your goals",
  description: ABOUT,
  access: "user",
  request: { params: goalIdParams, headers: ifNoneMatchHeader },
  responses: { 200: withETag(jsonContent(goalOutput, "The goal")), 304: notModified, 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/goals/{id}",
  tags: TAGS,
  summary: "Edit a goal",
  description:
    "The fields given change, the others stay; give at least one. `status: achieved` sets `achievedAt` (kept while " +
    "it stays achieved), any other status clears it. `targetDate: null` removes the target date. `progress` is " +
    "refused with a 409 while tasks are linked: the progress is derived from them then.",
  access: "user",
  request: { params: goalIdParams, headers: ifMatchHeader, body: jsonBody(updateGoalInput) },
  responses: {
    200: withETag(jsonContent(goalOutput, "The updated goal")),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("`progress` was given, but the goal's progress is derived from its linked tasks"),
    412: stale,
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/goals/{id}",
  tags: TAGS,
  summary: "Delete a goal",
  description: "Its links, progress reports and study plan go with it; the tasks themselves stay.",
  access: "user",
  request: { params: goalIdParams, headers: ifMatchHeader },
  responses: { 204: { description: "Deleted" }, 404: problemResponse(NOT_FOUND), 412: stale },
});

const linkRoute = apiRoute({
  method: "put",
  path: "/goals/{id}/tasks/{taskId}",
  tags: TAGS,
  summary: "Link a task to a goal",
  description:
    "Any task you can see (yours, or shared with you in any way) may be linked; linking it again changes nothing. " +
    "From then on the goal's progress is derived from its linked tasks. At most 200 tasks per goal (409).",
  access: "user",
  request: { params: goalTaskParams },
  responses: {
    200: jsonContent(goalOutput, "The goal with the task among its linked tasks"),
    404: problemResponse(`${NOT_FOUND}; or no such task that you can see`),
    409: problemResponse("The goal has 200 linked tasks already"),
  },
});

const unlinkRoute = apiRoute({
  method: "delete",
  path: "/goals/{id}/tasks/{taskId}",
  tags: TAGS,
  summary: "Unlink a task from a goal",
  description: "The task itself stays. Once no task is linked, the progress is the value set by hand again.",
  access: "user",
  request: { params: goalTaskParams },
  responses: {
    200: jsonContent(goalOutput, "The goal without the task"),
    404: problemResponse(`${NOT_FOUND}; or the task is not linked to it`),
  },
});

const listReportsRoute = apiRoute({
  method: "get",
  path: "/goals/{id}/reports",
  tags: TAGS,
  summary: "A goal's progress reports",
  description: "Oldest date first (reports of one date in the order they were written): the points of the goal's progress chart.",
  access: "user",
  request: { params: goalIdParams },
  responses: { 200: jsonContent(reportListOutput, "The reports"), 404: problemResponse(NOT_FOUND) },
});

const addReportRoute = apiRoute({
  method: "post",
  path: "/goals/{id}/reports",
  tags: TAGS,
  summary: "Report progress on a goal",
  description:
    "A dated entry: the progress measured that day (0-100) and a note. The date is today or earlier in your time " +
    "zone (a future date is a 400 naming `date`). Several reports may share a date. At most 1000 per goal (409). " +
    "The newest report sets the goal's `progress` while it is measured by hand (`progressMode: manual`): a report " +
    "dated on or after every other one makes `progress` its `value` (35 reported means the goal shows 35 % done); " +
    "one dated earlier only fills in the history. A goal with linked tasks (`progressMode: tasks`) keeps the share of " +
    "them done: its reports stay a history beside it and do not change `progress`.",
  access: "user",
  request: { params: goalIdParams, body: jsonBody(createReportInput) },
  responses: {
    201: jsonContent(reportOutput, "The new report"),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("The goal has 1000 reports already"),
  },
});

const deleteReportRoute = apiRoute({
  method: "delete",
  path: "/goals/{id}/reports/{reportId}",
  tags: TAGS,
  summary: "Delete a progress report",
  description:
    "Deleting the newest report of a goal measured by hand sets its `progress` to the report before it (deleting the " +
    "only report leaves `progress` as it is); deleting an older one changes nothing else.",
  access: "user",
  request: { params: reportParams },
  responses: { 204: { description: "Deleted" }, 404: problemResponse(`${NOT_FOUND}; or no such report of the goal`) },
});

const getPlanRoute = apiRoute({
  method: "get",
  path: "/goals/{id}/study-plan",
  tags: TAGS,
  summary: "A goal's study plan",
  description: "The current version: its sessions with dates and steps, who wrote it, and whether it was applied.",
  access: "user",
  module: "ai",
  request: { params: goalIdParams },
  responses: {
    200: jsonContent(studyPlanOutput, "The study plan"),
    404: problemResponse(`${NOT_FOUND}; or it has no study plan yet`),
  },
});

const generatePlanRoute = apiRoute({
  method: "post",
  path: "/goals/{id}/study-plan",
  tags: TAGS,
  summary: "Generate (or regenerate) a goal's study plan",
  description:
    "Plans sessions from today (in your time zone) to the goal's target date (two years ahead at most), or over the " +
    "next 4 weeks without one; a target date that has passed is a 409. A new plan replaces the previous one as the " +
    "next `version`, not applied yet (tasks made from the previous one stay). " +
    PLANNERS,
  access: "user",
  module: "ai",
  request: {
    params: goalIdParams,
    body: { required: false, content: { "application/json": { schema: generateStudyPlanInput } } },
  },
  responses: {
    201: jsonContent(studyPlanOutput, "The new plan"),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("The goal's target date has passed"),
    503: problemResponse("The AI endpoint failed or did not answer in time"),
  },
});

const applyPlanRoute = apiRoute({
  method: "post",
  path: "/goals/{id}/study-plan/apply",
  tags: TAGS,
  summary: "Turn a study plan into tasks",
  description:
    "In one transaction, all or nothing: one task per session in your first active task group, due at 18:00 on the " +
    "session's date in the plan's time zone (its `startDate` that date too), the session's steps as its subtasks, " +
    "linked to the goal (whose progress then follows them). Once per version: applying it again is a 409 until the " +
    "plan is regenerated. Sessions whose date has passed become overdue tasks. A goal whose progress was set by hand " +
    "(above 0 % without linked tasks) would have it replaced by its tasks' progress: that is a 409 " +
    "`progress_set_by_hand` unless the body says `replaceManualProgress: true`.",
  access: "user",
  module: "ai",
  request: {
    params: goalIdParams,
    body: { required: false, content: { "application/json": { schema: applyStudyPlanInput } } },
  },
  responses: {
    201: jsonContent(appliedStudyPlanOutput, "The applied plan, the goal and the new tasks' ids"),
    404: problemResponse(`${NOT_FOUND}; or it has no study plan yet`),
    409: problemResponse(
      "Applied already; or the goal would pass 200 linked tasks; or you have no active task group; or " +
        "`progress_set_by_hand`: its progress was set by hand and the body does not say `replaceManualProgress: true`",
    ),
  },
});

export const goalsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listGoals(c.var.actor, c.req.valid("query")), 200))
  .openapi(createRoute, async (c) => c.json(await createGoal(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => jsonWithETag(c, await getGoal(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    jsonWithETag(c, await updateGoal(c.var.actor, c.req.valid("param").id, c.req.valid("json"), ifMatch(c)), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteGoal(c.var.actor, c.req.valid("param").id, ifMatch(c));
    return c.body(null, 204);
  })
  .openapi(linkRoute, async (c) => {
    const { id, taskId } = c.req.valid("param");
    return c.json(await linkTask(c.var.actor, id, taskId), 200);
  })
  .openapi(unlinkRoute, async (c) => {
    const { id, taskId } = c.req.valid("param");
    return c.json(await unlinkTask(c.var.actor, id, taskId), 200);
  })
  .openapi(listReportsRoute, async (c) => c.json(await listGoalReports(c.var.actor, c.req.valid("param").id), 200))
  .openapi(addReportRoute, async (c) =>
    c.json(await addGoalReport(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(deleteReportRoute, async (c) => {
    const { id, reportId } = c.req.valid("param");
    await deleteGoalReport(c.var.actor, id, reportId);
    return c.body(null, 204);
  })
  .openapi(getPlanRoute, async (c) => c.json(await getStudyPlan(c.var.actor, c.req.valid("param").id), 200))
  .openapi(generatePlanRoute, async (c) =>
    c.json(await generateStudyPlan(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(applyPlanRoute, async (c) =>
    c.json(await applyStudyPlan(c.var.actor, c.req.valid("param").id, c.req.valid("json") ?? {}), 201),
  );
