import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { taskIdParams } from "../tasks/schema";
import {
  commentIdParams,
  commentListOutput,
  commentOutput,
  COMMENT_BODY_MAX,
  createCommentInput,
  listCommentsQuery,
  MENTIONS_MAX,
  mentioneeListOutput,
  updateCommentInput,
} from "./schema";
import { createComment, deleteComment, listComments, listMentionees, updateComment } from "./service";

const noTask = problemResponse("No such task, or not one you can see");
const noComment = problemResponse("No such comment, or one on a task you cannot see");
const notAllowed = problemResponse(
  "You can see the comment but may not do this: only its author edits it; its author or the task's owner deletes it",
);
const NOTIFIED =
  'Each person newly mentioned is notified ("mentioned you"), and on a new comment the task\'s owner and assignees ' +
  '("commented"), in their language, on the channels their notification preferences for the task choose (in the ' +
  "app, push, email: a link to the task under the comment's start); nobody of their own comment.";

const listRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/comments",
  tags: ["Comments"],
  summary: "A task's comments, oldest first",
  description: "Anyone who can see the task reads its comments (404 otherwise). Paged: pass `nextCursor` as `cursor`.",
  access: "user",
  request: { params: taskIdParams, query: listCommentsQuery },
  responses: { 200: jsonContent(commentListOutput, "A page of comments"), 404: noTask },
});

const mentioneesRoute = apiRoute({
  method: "get",
  path: "/tasks/{id}/mentionees",
  tags: ["Comments"],
  summary: "Whom a comment on a task may mention",
  description:
    "Everyone who can see the task apart from you, by name: its owner, assignees and collaborators and the members " +
    "of its team, project and family; the same rule `mentions` is checked against, so each of them can be " +
    "mentioned. For the @ autocomplete of the comment box. Anyone who cannot see the task gets 404.",
  access: "user",
  request: { params: taskIdParams },
  responses: { 200: jsonContent(mentioneeListOutput, "The people who may be mentioned"), 404: noTask },
});

const createRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/comments",
  tags: ["Comments"],
  summary: "Comment on a task",
  description:
    `Anyone who can see the task may comment (404 otherwise). \`body\` is Markdown of at most ${COMMENT_BODY_MAX} ` +
    `characters, shown without raw HTML; \`mentions\` (at most ${MENTIONS_MAX}) must be people who can see the task. ` +
    `${NOTIFIED} Publishes \`comment.created\` (socket, webhooks) to everyone who sees the task.`,
  access: "user",
  request: { params: taskIdParams, body: jsonBody(createCommentInput) },
  responses: { 201: jsonContent(commentOutput, "The comment"), 404: noTask },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/comments/{id}",
  tags: ["Comments"],
  summary: "Edit your comment",
  description:
    "Only its author edits a comment (403 for others who see it, 404 for anyone who cannot see its task). " +
    `People the edit newly mentions are notified. Publishes \`comment.updated\`.`,
  access: "user",
  request: { params: commentIdParams, body: jsonBody(updateCommentInput) },
  responses: { 200: jsonContent(commentOutput, "The comment as it now is"), 403: notAllowed, 404: noComment },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/comments/{id}",
  tags: ["Comments"],
  summary: "Delete a comment",
  description:
    "Its author deletes a comment, and so may the task's owner (who may delete the task itself); others who see it " +
    "get 403, anyone else 404. Publishes `comment.deleted` (the comment's id and the task's).",
  access: "user",
  request: { params: commentIdParams },
  responses: { 204: { description: "Deleted" }, 403: notAllowed, 404: noComment },
});

export const commentsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listComments(c.var.actor, c.req.valid("param").id, c.req.valid("query")), 200))
  .openapi(mentioneesRoute, async (c) => c.json(await listMentionees(c.var.actor, c.req.valid("param").id), 200))
  .openapi(createRoute, async (c) => c.json(await createComment(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 201))
  .openapi(updateRoute, async (c) => c.json(await updateComment(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => {
    await deleteComment(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
