import { apiRoute, jsonContent, problemResponse } from "../../api/route";
import { createRouter } from "../../api/router";
import { statusOutput } from "../schema";
import { courseListOutput, gradeListOutput, gradesQuery, learningQuery } from "./schema";
import { learningCourses, learningGrades, learningStatus } from "./service";

/** The learning platform (Moodle web services, issue 10): a learning connection's status, courses and grades. */
const TAGS = ["Learning"];

const WHICH =
  "`connectionId` names one of your `learning` connections (a personal one, or a team's you belong to); without " +
  "it, your only one (personal first). A connection you do not see: 404. Several possible and none named: 400 " +
  "naming `connectionId`. While the learning module is switched off: 404 `module_disabled`.";
const NOT_FOUND = "No learning connection with this id that you can see (or you have none)";
const AMBIGUOUS = "You have several learning connections: name one with `connectionId`";

const statusRoute = apiRoute({
  method: "get",
  path: "/learning/status",
  tags: TAGS,
  summary: "Check the Moodle connection",
  description:
    "Calls `core_webservice_get_site_info` now: `version` is Moodle's release, `details` the site name, the token's " +
    "user (`tokenUserId`), the user whose courses are synced (`syncedUserId`) and `missingFunctions`, the web " +
    "service functions the import needs that the token's external service does not offer (also said in `error`). " +
    "An invalid token: `authenticated: false`. The connection's status follows the answer, like " +
    `POST /connectors/{id}/check. ${WHICH}`,
  access: "user",
  module: "learning",
  request: { query: learningQuery },
  responses: {
    200: jsonContent(statusOutput, "What Moodle answered"),
    400: problemResponse(AMBIGUOUS),
    404: problemResponse(NOT_FOUND),
  },
});

const coursesRoute = apiRoute({
  method: "get",
  path: "/learning/courses",
  tags: TAGS,
  summary: "The Moodle user's courses, each with the goal it was imported to",
  description:
    "Asks Moodle now (`core_enrol_get_users_courses` for the synced user) and marks each course with `goalId`, " +
    "the goal POST /connectors/{id}/import made of it (null: not imported yet, or its goal was deleted here). " +
    "Moodle not answering, or refusing the token: 503 with Moodle's reason. " +
    WHICH,
  access: "user",
  module: "learning",
  request: { query: learningQuery },
  responses: {
    200: jsonContent(courseListOutput, "The courses, as Moodle lists them"),
    400: problemResponse(AMBIGUOUS),
    404: problemResponse(NOT_FOUND),
    503: problemResponse("Moodle did not answer, or refused the call (its reason in `detail`)"),
  },
});

const gradesRoute = apiRoute({
  method: "get",
  path: "/learning/grades",
  tags: TAGS,
  summary: "The grades imported from Moodle",
  description:
    "What the last import (or webhook) of each course stored from `gradereport_user_get_grade_items` for the " +
    "synced Moodle user: every grade item of the course (activities, the course total), by course then grade item. " +
    "An assignment's grade names the assignment (`assignmentId`) and the task it became (`taskId`). Nothing is " +
    "asked of Moodle here; run an import for fresh grades. Anyone who sees the connection sees them (a team's " +
    `connection: its members). ${WHICH}`,
  access: "user",
  module: "learning",
  request: { query: gradesQuery },
  responses: {
    200: jsonContent(gradeListOutput, "The stored grades"),
    400: problemResponse(AMBIGUOUS),
    404: problemResponse(NOT_FOUND),
  },
});

export const learningRoutes = createRouter()
  .openapi(statusRoute, async (c) => c.json(await learningStatus(c.var.actor, c.req.valid("query")), 200))
  .openapi(coursesRoute, async (c) => c.json(await learningCourses(c.var.actor, c.req.valid("query")), 200))
  .openapi(gradesRoute, async (c) => c.json(await learningGrades(c.var.actor, c.req.valid("query")), 200));
