import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { createdInvitationOutput } from "../invitations/schema";
import { taskIdParams } from "../tasks/schema";
import {
  claimOutput,
  collaborationRequestDetailOutput,
  collaborationRequestListOutput,
  collaborationRequestOutput,
  collaboratorParams,
  createRequestInput,
  listRequestsQuery,
  REQUEST_TTL_DAYS,
  requestIdParams,
} from "./schema";
import {
  acceptCollaborationRequest,
  claimTask,
  createCollaborationRequest,
  getCollaborationRequest,
  listCollaborationRequests,
  rejectCollaborationRequest,
  removeCollaborator,
  withdrawCollaborationRequest,
} from "./service";

const TAGS = ["Collaboration"];
const ABOUT =
  "A collaboration request asks another user to take part in a task: `assign` (become an assignee), " +
  "`collaborate` (work on it with its owner) or `transfer` (become its owner). It stays `pending` until the " +
  `recipient accepts or rejects it, the requester withdraws it, or it expires ${REQUEST_TTL_DAYS} days after it ` +
  "was made. Only its requester and its recipient see a request; to anyone else it does not exist (404). Every " +
  "change of state is recorded in its history and published as a `collaboration.*` event.";
const NO_TASK = "No such task, or not one you can see (both answer the same)";
const NO_REQUEST = "No such request, or you are not the party who may do this (both answer the same)";
const NOT_PENDING = "The request is no longer pending (accepted, rejected, withdrawn or expired; `detail` says which)";

const claimRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/claim",
  tags: TAGS,
  summary: "Claim a task nobody is assigned to",
  description:
    "Someone with the `claim` right (docs/permissions.md: a collaborator, or a member of the task's user group, " +
    "project or family workspace) takes a task that has no assignee: they become its assignee at once, with no " +
    "approval. The claim is recorded as a request of kind `claim`, `accepted`, with the claimer as requester and " +
    "recipient (it appears in their outgoing list) and a `claimed` history entry. Rights add up: an owner who " +
    "also belongs to the task's user group may claim as a member. Claims are taken one at a time with the task " +
    "locked: of two people claiming at once, one gets it and the other a 409. No body.",
  access: "user",
  request: { params: taskIdParams },
  responses: {
    200: jsonContent(claimOutput, "The claim and the task, now assigned to you"),
    403: problemResponse("You see the task but may not claim it (for example its owner, an assignee or a project viewer)"),
    404: problemResponse(NO_TASK),
    409: problemResponse("Someone is already assigned to the task"),
  },
});

const createRequestRoute = apiRoute({
  method: "post",
  path: "/tasks/{id}/collaboration-requests",
  tags: TAGS,
  summary: "Ask someone to take part in a task",
  description:
    `${ABOUT} \`assign\` and \`collaborate\` need the \`share\` right on the task (its owner, assignees and ` +
    "collaborators), `transfer` the `transfer` right (its owner); anyone else who sees the task gets 403. The " +
    "recipient is named by `userId` or `email` (exactly one), and is not yourself (400). By `userId` (an unknown one " +
    "is a 400): a request they decide (201); they may not see the task yet: the request shows them its title, " +
    "status and due date and who asked. 409 when they already have what is asked (assign: already an assignee; " +
    "collaborate: already its owner, an assignee or a collaborator; transfer: already its owner) or already have " +
    `the same pending request. The request expires ${REQUEST_TTL_DAYS} days after it is made. By \`email\` ` +
    "(`assign` and `collaborate`): an invitation addressed to that email (202; see `POST /invitations`), the same " +
    "answer whether the address has an account or not; it shows in that account's app, and its link (with share " +
    "links for messengers and email) works with an account or without. A `transfer` names its recipient by `userId`.",
  access: "user",
  request: { params: taskIdParams, body: jsonBody(createRequestInput) },
  responses: {
    201: jsonContent(collaborationRequestOutput, "The pending request (recipient named by userId)"),
    202: jsonContent(createdInvitationOutput, "An invitation to the email (recipient named by email)"),
    403: problemResponse("You see the task but may not share it (assign, collaborate) or hand it over (transfer)"),
    404: problemResponse(NO_TASK),
    409: problemResponse("The recipient already has what is asked, or an identical request is pending"),
  },
});

const listRoute = apiRoute({
  method: "get",
  path: "/collaboration-requests",
  tags: TAGS,
  summary: "Your collaboration requests",
  description:
    `${ABOUT} \`box=incoming\` (the default) lists the requests you are to decide; \`box=outgoing\` those you ` +
    "made, and your claims. Newest first, each with its state; `state` keeps one state only. Pages of `limit` " +
    "(1-100, default 50): pass `nextCursor` as `cursor` for the next one. Requests whose time ran out read `expired`.",
  access: "user",
  request: { query: listRequestsQuery },
  responses: { 200: jsonContent(collaborationRequestListOutput, "A page of your requests") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/collaboration-requests/{id}",
  tags: TAGS,
  summary: "One collaboration request with its history",
  description:
    "Its requester and its recipient see it, with its history in order (`requested`, then `accepted`, " +
    "`rejected`, `withdrawn` or `expired` with no actor; a claim has only `claimed`). A pending request whose " +
    "time ran out reads `expired`.",
  access: "user",
  request: { params: requestIdParams },
  responses: {
    200: jsonContent(collaborationRequestDetailOutput, "The request"),
    404: problemResponse("No such request, or you are neither its requester nor its recipient"),
  },
});

const acceptRoute = apiRoute({
  method: "post",
  path: "/collaboration-requests/{id}/accept",
  tags: TAGS,
  summary: "Accept a collaboration request",
  description:
    "Only the recipient decides; to anyone else, the requester included, the request does not exist (404). " +
    "With the task locked, the service checks that the requester still holds the right they asked with (still " +
    "the owner for `transfer`; still `share` for the others): if not, 409 and nothing changes. Then: `assign` " +
    "makes you an assignee; `collaborate` a collaborator; `transfer` makes you the owner, moves the task into " +
    "your first active task group after your last task (409 when you have no active group), and keeps the " +
    "previous owner on it as a collaborator (they still see and edit it, but no longer delete or hand it over); " +
    "its user group and project stay as they were. No body.",
  access: "user",
  request: { params: requestIdParams },
  responses: {
    200: jsonContent(collaborationRequestOutput, "The accepted request"),
    404: problemResponse(NO_REQUEST),
    409: problemResponse(`${NOT_PENDING}; or the requester lost the right they asked with`),
  },
});

const rejectRoute = apiRoute({
  method: "post",
  path: "/collaboration-requests/{id}/reject",
  tags: TAGS,
  summary: "Reject a collaboration request",
  description:
    "Only the recipient decides; to anyone else, the requester included, the request does not exist (404). " +
    "The task stays as it is. No body.",
  access: "user",
  request: { params: requestIdParams },
  responses: {
    200: jsonContent(collaborationRequestOutput, "The rejected request"),
    404: problemResponse(NO_REQUEST),
    409: problemResponse(NOT_PENDING),
  },
});

const withdrawRoute = apiRoute({
  method: "post",
  path: "/collaboration-requests/{id}/withdraw",
  tags: TAGS,
  summary: "Withdraw a collaboration request you made",
  description:
    "Only the requester withdraws, while it is pending; to anyone else, the recipient included, the request " +
    "does not exist (404). No body.",
  access: "user",
  request: { params: requestIdParams },
  responses: {
    200: jsonContent(collaborationRequestOutput, "The withdrawn request"),
    404: problemResponse(NO_REQUEST),
    409: problemResponse(NOT_PENDING),
  },
});

const removeCollaboratorRoute = apiRoute({
  method: "delete",
  path: "/tasks/{id}/collaborators/{userId}",
  tags: TAGS,
  summary: "Remove a collaborator from a task, or leave it",
  description:
    "The task's owner removes any collaborator; a collaborator may remove themself (leave the task). Anyone " +
    "else who sees the task gets 403. A user who is not a collaborator on the task is a 404.",
  access: "user",
  request: { params: collaboratorParams },
  responses: {
    204: { description: "Removed" },
    403: problemResponse("You are neither the task's owner nor the collaborator being removed"),
    404: problemResponse(`${NO_TASK}; or the user is not a collaborator on it`),
  },
});

export const collaborationRoutes = createRouter()
  .openapi(claimRoute, async (c) => c.json(await claimTask(c.var.actor, c.req.valid("param").id), 200))
  .openapi(createRequestRoute, async (c) => {
    const asked = await createCollaborationRequest(
      c.var.actor,
      c.req.valid("param").id,
      c.req.valid("json"),
      new URL(c.req.url).origin,
    );
    return "request" in asked ? c.json(asked.request, 201) : c.json(asked.invitation, 202);
  })
  .openapi(listRoute, async (c) => c.json(await listCollaborationRequests(c.var.actor, c.req.valid("query")), 200))
  .openapi(getRoute, async (c) => c.json(await getCollaborationRequest(c.var.actor, c.req.valid("param").id), 200))
  .openapi(acceptRoute, async (c) => c.json(await acceptCollaborationRequest(c.var.actor, c.req.valid("param").id), 200))
  .openapi(rejectRoute, async (c) => c.json(await rejectCollaborationRequest(c.var.actor, c.req.valid("param").id), 200))
  .openapi(withdrawRoute, async (c) => c.json(await withdrawCollaborationRequest(c.var.actor, c.req.valid("param").id), 200))
  .openapi(removeCollaboratorRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    await removeCollaborator(c.var.actor, id, userId);
    return c.body(null, 204);
  });
