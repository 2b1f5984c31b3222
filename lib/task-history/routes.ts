import { apiRoute, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { taskIdParams } from "../tasks/schema";
import { historyOutput, historyQuery } from "./schema";
import { getTaskHistory } from "./service";

const historyRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/activity",
  tags: ["Comments"],
  summary: "A task's history, newest first",
  description:
    "Who created the task, changed which fields from what to what (assignees and collaborators by name: assigned, " +
    "shared), moved or completed it, and who commented, edited or deleted a comment; read from the event log. Anyone " +
    "who can see the task reads it (404 otherwise). Paged: pass `nextCursor` as `cursor` for older entries.",
  access: "user",
  request: { params: taskIdParams, query: historyQuery },
  responses: {
    200: jsonContent(historyOutput, "A page of the history"),
    404: problemResponse("No such task, or not one you can see"),
  },
});

export const taskHistoryRoutes = createRouter().openapi(historyRoute, async (c) =>
  c.json(await getTaskHistory(c.var.actor, c.req.valid("param").id, c.req.valid("query")), 200),
);
