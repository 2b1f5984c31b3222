import { z } from "@hono/zod-openapi";
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
import { answerMiss, xCacheHeader } from "../api/cached-get";
import { createRouter } from "../api/router";
import {
  boardOutput,
  boardQuery,
  createSubtaskInput,
  createTaskInput,
  listTasksQuery,
  moveTaskInput,
  reorderInput,
  subtaskOutput,
  subtaskParams,
  taskIdParams,
  taskListOutput,
  taskOutput,
  taskPeopleOutput,
  updateSubtaskInput,
  updateTaskInput,
  viewCountsOutput,
  viewCountsQuery,
  workloadOutput,
  workloadQuery,
} from "./schema";
import { boardAnswers, taskListAnswers } from "./answers";
import { countTaskViews, createTask, deleteTask, getTask, getWorkload, moveTask, updateTask } from "./service";
import { getTaskPeople } from "./people";
import { addSubtask, getSubtask, getSubtasks, removeSubtask, reorderSubtasks, updateSubtask } from "./subtasks";

const noTask = problemResponse("No such task, or not one you can see");
const notAllowed = problemResponse("You can see the task but may not do this (docs/permissions.md)");

const listRoute = apiRoute({
  method: "get",
  path: "/tasks",
  tags: ["Tasks"],
  summary: "Your tasks: filtered, sorted, a page at a time",
  description:
    "The tasks you can see: yours, those you are assigned to or collaborate on, and those of your user groups, " +
    "projects and family workspace (docs/permissions.md). Filters combine " +
    "(AND): `status` is a comma list; `dueAfter` is " +
    "inclusive and `dueBefore` exclusive; `q` matches every word in the title or description, ignoring case; " +
    "`tag` is one exact tag. Pages follow `nextCursor`. Answers are cached for 30 seconds per user and query string, " +
    "and `X-Cache` says HIT or MISS; any change to a task drops the cached lists of everyone who can see it.",
  access: "user",
  cached: taskListAnswers,
  request: { query: listTasksQuery },
  responses: {
    200: {
      ...jsonContent(taskListOutput, "A page of tasks"),
      headers: { "X-Cache": xCacheHeader },
    },
  },
});

const createRoute = apiRoute({
  method: "post",
  path: "/tasks",
  tags: ["Tasks"],
  summary: "Create a task",
  description: "It goes to the end of the board order. A recurring task needs `dueAt`.",
  access: "user",
  request: { body: jsonBody(createTaskInput) },
  responses: { 201: jsonContent(taskOutput, "The new task") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}",
  tags: ["Tasks"],
  summary: "One task",
  access: "user",
  request: { params: taskIdParams, headers: ifNoneMatchHeader },
  responses: { 200: withETag(jsonContent(taskOutput, "The task")), 304: notModified, 404: noTask },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/tasks/{id}",
  tags: ["Tasks"],
  summary: "Change a task",
  description:
    "Send only the fields to change. Moving to `done` sets completedAt; any other status clears it. Assignees " +
    "may edit everything but groupId, projectId, userGroupId, assigneeIds and recurrence; members of the task's " +
    "user group see it but may not change it (403). Setting `recurrence` (or moving " +
    "`dueAt` of a recurring task) starts the series again from this task; `recurrence: null` stops it and " +
    "keeps every task made so far. With `If-Match` (the ETag of `GET /tasks/{id}` or of the last change), the change " +
    "is made only if the task is still as the client read it; otherwise nothing changes and the answer is 412 " +
    "`precondition_failed` with the current ETag.",
  access: "user",
  request: { params: taskIdParams, headers: ifMatchHeader, body: jsonBody(updateTaskInput) },
  responses: { 200: withETag(jsonContent(taskOutput, "The changed task")), 403: notAllowed, 404: noTask, 412: stale },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/tasks/{id}",
  tags: ["Tasks"],
  summary: "Delete a task with its subtasks",
  description: "With `If-Match`, only if the task is still as the client read it (else 412, and nothing is deleted).",
  access: "user",
  request: { params: taskIdParams, headers: ifMatchHeader },
  responses: { 204: { description: "Deleted" }, 403: notAllowed, 404: noTask, 412: stale },
});

const moveRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/move",
  tags: ["Board"],
  summary: "Drag and drop: a new column and a place between two neighbours",
  description:
    "`afterId` is the task just above the drop point and `beforeId` the one just below (null for the top or " +
    "the bottom); with only one of them the task goes right next to it. Only the moved task gets a new " +
    "position key, between its neighbours': nothing else is renumbered. 409 when the neighbours are no longer " +
    "in that order (reload the board).",
  access: "user",
  request: { params: taskIdParams, body: jsonBody(moveTaskInput) },
  responses: {
    200: jsonContent(taskOutput, "The moved task"),
    403: notAllowed,
    404: noTask,
    409: problemResponse("The board changed"),
  },
});

const boardRoute = apiRoute({
  method: "get",
  path: "/board",
  tags: ["Board"],
  summary: "The kanban board: one column per status, tasks in board order",
  description:
    "Each column holds its first `limit` cards (default 50), its `total` and a `nextCursor` when more follow; " +
    "`?status=<column>&cursor=<nextCursor>` (with the same filters) answers that column's next cards only. The cursor " +
    "is the one `GET /tasks?status=<column>&sort=position` makes, so either continues the other. The board reads only " +
    "the tasks you can see, through your own rows: its cost does not grow with other people's tasks. Boards are " +
    "cached as task lists are (30 seconds per user and query, `X-Cache` says HIT or MISS): any change to a task drops " +
    "the cached boards of everyone who can see it, so a board never misses a change to its cards; a person's new name " +
    "in `people` may take up to 30 seconds to show.",
  access: "user",
  cached: boardAnswers,
  request: { query: boardQuery },
  responses: { 200: { ...jsonContent(boardOutput, "The board"), headers: { "X-Cache": xCacheHeader } } },
});

const workloadRoute = apiRoute({
  method: "get",
  path: "/workload",
  tags: ["Tasks"],
  summary: "Your workload: active, pending, completed and overdue counts",
  access: "user",
  request: { query: workloadQuery },
  responses: { 200: jsonContent(workloadOutput, "The counts") },
});

const viewCountsRoute = apiRoute({
  method: "get",
  path: "/tasks/view-counts",
  tags: ["Tasks"],
  summary: "How many open tasks the Today and Upcoming views hold",
  description:
    "The numbers the task list shows beside its views, counted now: `today` is the open (`todo` or `in_progress`) " +
    "tasks overdue or due before tomorrow begins, `upcoming` those due from the start of today to the end of the 13th " +
    "day after it, both in whole days of your profile's time zone (`day` and `timeZone` say which). The same tasks " +
    "as `GET /tasks` with `status=todo,in_progress` and those `dueAfter`/`dueBefore` bounds. Per-group numbers: " +
    "`GET /groups?counts=true`. Not cached: a client asks again after the live events that may change it.",
  access: "user",
  request: { query: viewCountsQuery },
  responses: { 200: jsonContent(viewCountsOutput, "The views' counts") },
});

const peopleRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/people",
  tags: ["Tasks"],
  summary: "Who takes part in a task, by name",
  description:
    "The names behind a task's ids: its owner, assignees (in the order they were assigned), collaborators (in the " +
    "order they joined) and the user group it is assigned to. Anyone who may read the task sees them; no emails.",
  access: "user",
  request: { params: taskIdParams },
  responses: { 200: jsonContent(taskPeopleOutput, "The task's people"), 404: noTask },
});

const listSubtasksRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/subtasks",
  tags: ["Subtasks"],
  summary: "A task's subtasks, in order",
  access: "user",
  request: { params: taskIdParams },
  responses: { 200: jsonContent(z.array(subtaskOutput), "The subtasks"), 404: noTask },
});

const createSubtaskRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/subtasks",
  tags: ["Subtasks"],
  summary: "Add a subtask at the end",
  description: "Adding an open subtask to a task that completed itself reopens it. At most 200 per task.",
  access: "user",
  request: { params: taskIdParams, body: jsonBody(createSubtaskInput) },
  responses: {
    201: jsonContent(subtaskOutput, "The new subtask"),
    403: notAllowed,
    404: noTask,
    409: problemResponse("Too many subtasks"),
  },
});

const reorderSubtasksRoute = apiRoute({
  method: "put",
  path: "/tasks/{id}/subtasks/order",
  tags: ["Subtasks"],
  summary: "Put the subtasks in a new order",
  access: "user",
  request: { params: taskIdParams, body: jsonBody(reorderInput) },
  responses: { 200: jsonContent(z.array(subtaskOutput), "The subtasks in their new order"), 403: notAllowed, 404: noTask },
});

const getSubtaskRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/subtasks/{subtaskId}",
  tags: ["Subtasks"],
  summary: "One subtask",
  access: "user",
  request: { params: subtaskParams },
  responses: { 200: jsonContent(subtaskOutput, "The subtask"), 404: problemResponse("No such task or subtask") },
});

const updateSubtaskRoute = apiRoute({
  method: "patch",
  path: "/tasks/{id}/subtasks/{subtaskId}",
  tags: ["Subtasks"],
  summary: "Rename a subtask or tick it off",
  description:
    "When the last open subtask is done the task completes itself; reopening a subtask of a task that " +
    "completed itself reopens the task (as in_progress). A task completed by hand is left alone.",
  access: "user",
  request: { params: subtaskParams, body: jsonBody(updateSubtaskInput) },
  responses: {
    200: jsonContent(subtaskOutput, "The changed subtask"),
    403: notAllowed,
    404: problemResponse("No such task or subtask"),
  },
});

const deleteSubtaskRoute = apiRoute({
  method: "delete",
  path: "/tasks/{id}/subtasks/{subtaskId}",
  tags: ["Subtasks"],
  summary: "Delete a subtask",
  access: "user",
  request: { params: subtaskParams },
  responses: { 204: { description: "Deleted" }, 403: notAllowed, 404: problemResponse("No such task or subtask") },
});

export const tasksRoutes = createRouter()
  .openapi(listRoute, async (c) => answerMiss(c, taskListAnswers, c.req.valid("query")) as never)
  .openapi(createRoute, async (c) => c.json(await createTask(c.var.actor, c.req.valid("json")), 201))
  .openapi(boardRoute, async (c) => answerMiss(c, boardAnswers, c.req.valid("query")) as never)
  .openapi(workloadRoute, async (c) => c.json(await getWorkload(c.var.actor, c.req.valid("query").completedSince), 200))
  .openapi(viewCountsRoute, async (c) => c.json(await countTaskViews(c.var.actor), 200))
  .openapi(getRoute, async (c) => jsonWithETag(c, await getTask(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    jsonWithETag(c, await updateTask(c.var.actor, c.req.valid("param").id, c.req.valid("json"), ifMatch(c)), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteTask(c.var.actor, c.req.valid("param").id, ifMatch(c));
    return c.body(null, 204);
  })
  .openapi(moveRoute, async (c) => c.json(await moveTask(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(peopleRoute, async (c) => c.json(await getTaskPeople(c.var.actor, c.req.valid("param").id), 200))
  .openapi(listSubtasksRoute, async (c) => c.json(await getSubtasks(c.var.actor, c.req.valid("param").id), 200))
  .openapi(createSubtaskRoute, async (c) =>
    c.json(await addSubtask(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 201),
  )
  .openapi(reorderSubtasksRoute, async (c) =>
    c.json(await reorderSubtasks(c.var.actor, c.req.valid("param").id, c.req.valid("json").ids), 200),
  )
  .openapi(getSubtaskRoute, async (c) => {
    const { id, subtaskId } = c.req.valid("param");
    return c.json(await getSubtask(c.var.actor, id, subtaskId), 200);
  })
  .openapi(updateSubtaskRoute, async (c) => {
    const { id, subtaskId } = c.req.valid("param");
    return c.json(await updateSubtask(c.var.actor, id, subtaskId, c.req.valid("json")), 200);
  })
  .openapi(deleteSubtaskRoute, async (c) => {
    const { id, subtaskId } = c.req.valid("param");
    await removeSubtask(c.var.actor, id, subtaskId);
    return c.body(null, 204);
  });
