import { apiRoute, jsonBody, jsonContent } from "../api/route";
import { createRouter } from "../api/router";
import { parseQuickAddInput, quickAddOutput } from "./schema";
import { parseQuickAddFor } from "./service";

const parseRoute = apiRoute({
  method: "post",
  path: "/tasks/parse",
  tags: ["Tasks"],
  summary: "Quick add: what a typed line means",
  description:
    "Reads a line as quick add does (English, Czech, Hebrew, Russian, Ukrainian): due date and time, start, repeat " +
    "rule, priority (`!1`…`!4`, `p1`…`p4`: 1 is urgent; `!high` and the localized words), `#tags`, and `+name` of " +
    "one of your groups (any of its names) or projects. Dates are in your profile's time zone: a time that has " +
    "passed today means tomorrow, a weekday is the coming one (today counts), a date without a time is due at " +
    "23:59. Nothing is created: send the fields to `POST /tasks`. `spans` say which characters meant what " +
    "(UTF-16 offsets); `notes` list what was noticed but not applied (a repeat rule tasks cannot store stays in " +
    "the title). The task list page runs the same parser in the browser as you type.",
  access: "user",
  request: { body: jsonBody(parseQuickAddInput) },
  responses: { 200: jsonContent(quickAddOutput, "What the line means") },
});

export const quickAddRoutes = createRouter().openapi(parseRoute, async (c) =>
  c.json(await parseQuickAddFor(c.var.actor, c.req.valid("json")), 200),
);
