import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { groupOutput } from "../groups/schema";
import { createdInvitationOutput } from "../invitations/schema";
import {
  addFamilyMemberInput,
  changeFamilyRoleInput,
  createFamilyInput,
  familyGroupParams,
  familyLangQuery,
  familyMemberOutput,
  familyMemberParams,
  familyOutput,
  updateFamilyInput,
} from "./schema";
import {
  addFamilyMember,
  changeFamilyMemberRole,
  createFamily,
  deleteFamily,
  getFamily,
  leaveFamily,
  removeFamilyMember,
  shareGroup,
  unshareGroup,
  updateFamily,
} from "./service";

// The interface specification names no paths for the family workspace: it lives under /api/v1/family only.
const TAGS = ["Family"];
const ABOUT =
  "A family workspace is a household sharing task groups: every member sees the groups shared with it and their " +
  "tasks, may change and claim those tasks and add tasks to those groups. A user belongs to at most one. Roles: " +
  "`parent`, `child`.";
const NO_FAMILY = "You belong to no family workspace (every `/family` route answers so to anyone outside one)";
const PARENTS_ONLY = "You are a child in the workspace: only parents may do this";
const LAST_PARENT = "You are (or the member is) the last parent while other members remain: make another member a parent first";
const NOTHING_LOST =
  "Nothing is lost: tasks that other people own in a group that stops being shared go back to their owners' " +
  "first active group.";

const getRoute = apiRoute({
  method: "get",
  path: "/family",
  tags: TAGS,
  summary: "Your family workspace",
  description:
    `${ABOUT} Any member sees its name, their own role, every member with their role and name (in the order they ` +
    "joined) and the task groups shared with it, each `name` in `lang`.",
  access: "user",
  module: "family",
  request: { query: familyLangQuery },
  responses: { 200: jsonContent(familyOutput, "Your family workspace"), 404: problemResponse(NO_FAMILY) },
});

const createRoute = apiRoute({
  method: "post",
  path: "/family",
  tags: TAGS,
  summary: "Create a family workspace",
  description: `${ABOUT} You become its first parent and only member. Someone who already belongs to one gets 409.`,
  access: "user",
  module: "family",
  request: { query: familyLangQuery, body: jsonBody(createFamilyInput) },
  responses: {
    201: jsonContent(familyOutput, "The new workspace"),
    409: problemResponse("You already belong to a family workspace: leave it first"),
  },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/family",
  tags: TAGS,
  summary: "Rename your family workspace",
  description: "Parents only; a child gets 403.",
  access: "user",
  module: "family",
  request: { query: familyLangQuery, body: jsonBody(updateFamilyInput) },
  responses: {
    200: jsonContent(familyOutput, "The renamed workspace"),
    403: problemResponse(PARENTS_ONLY),
    404: problemResponse(NO_FAMILY),
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/family",
  tags: TAGS,
  summary: "Delete your family workspace",
  description:
    "Parents only; a child gets 403. Its groups stop being shared and every membership ends; no group and no " +
    `task is deleted. ${NOTHING_LOST}`,
  access: "user",
  module: "family",
  responses: { 204: { description: "Deleted" }, 403: problemResponse(PARENTS_ONLY), 404: problemResponse(NO_FAMILY) },
});

const addMemberRoute = apiRoute({
  method: "post",
  path: "/family/members",
  tags: TAGS,
  summary: "Invite a member",
  description:
    "Parents only (a child gets 403) invite someone, by `userId` or by `email` (exactly one), as `parent` or " +
    "`child`. Nobody becomes a member without accepting: the answer (202) is an invitation addressed to them, the " +
    "same whether the email has an account or not. It shows in their app (`GET /invitations/received`) when they " +
    "have an account, and its link (`url`, with share links for messengers and email) lets them accept with an " +
    "account or create one (`/invite/{token}`). A user belongs to at most one family workspace: someone in another " +
    "must leave it before accepting. A current member of this one is a 409; an unknown `userId` a 400.",
  access: "user",
  module: "family",
  request: { body: jsonBody(addFamilyMemberInput) },
  responses: {
    202: jsonContent(createdInvitationOutput, "The invitation: they become a member when they accept it"),
    403: problemResponse(PARENTS_ONLY),
    404: problemResponse(NO_FAMILY),
    409: problemResponse("The person is already a member of your family workspace"),
  },
});

const changeRoleRoute = apiRoute({
  method: "patch",
  path: "/family/members/{userId}",
  tags: TAGS,
  summary: "Change a member's role",
  description:
    "Parents only; a child gets 403. A workspace keeps a parent: making its last parent a child is a 409. " +
    "Setting the role a member already has changes nothing.",
  access: "user",
  module: "family",
  request: { params: familyMemberParams, body: jsonBody(changeFamilyRoleInput) },
  responses: {
    200: jsonContent(familyMemberOutput, "The member with the new role"),
    403: problemResponse(PARENTS_ONLY),
    404: problemResponse(`${NO_FAMILY}; or the user is not a member of it`),
    409: problemResponse(LAST_PARENT),
  },
});

const removeMemberRoute = apiRoute({
  method: "delete",
  path: "/family/members/{userId}",
  tags: TAGS,
  summary: "Remove a member",
  description:
    "Parents only: children cannot remove others (403). Your own user id is the same as `POST /family/leave`. " +
    "The member's shared groups stop being shared, and their tasks in the groups others share go back to their " +
    `own first active group. ${NOTHING_LOST}`,
  access: "user",
  module: "family",
  request: { params: familyMemberParams },
  responses: {
    204: { description: "Removed" },
    403: problemResponse(PARENTS_ONLY),
    404: problemResponse(`${NO_FAMILY}; or the user is not a member of it`),
    409: problemResponse(LAST_PARENT),
  },
});

const leaveRoute = apiRoute({
  method: "post",
  path: "/family/leave",
  tags: TAGS,
  summary: "Leave your family workspace",
  description:
    "Any member may leave, except the last parent while other members remain (409). The last member leaving " +
    "deletes the workspace. Your shared groups stop being shared, and your tasks in the groups others share go " +
    `back to your first active group. ${NOTHING_LOST}`,
  access: "user",
  module: "family",
  responses: { 204: { description: "You left" }, 404: problemResponse(NO_FAMILY), 409: problemResponse(LAST_PARENT) },
});

const shareGroupRoute = apiRoute({
  method: "put",
  path: "/family/groups/{groupId}",
  tags: TAGS,
  summary: "Share one of your task groups with your family",
  description:
    "Any member shares one of their own groups (archived ones too): every member then sees it in `GET /groups` " +
    "and sees, changes and claims its tasks. Another user's group, even one shared with you, is a 404. Sharing " +
    "a group already shared changes nothing.",
  access: "user",
  module: "family",
  request: { params: familyGroupParams, query: familyLangQuery },
  responses: {
    200: jsonContent(groupOutput, "The shared group"),
    404: problemResponse(`${NO_FAMILY}; or no group of yours has this id`),
  },
});

const unshareGroupRoute = apiRoute({
  method: "delete",
  path: "/family/groups/{groupId}",
  tags: TAGS,
  summary: "Stop sharing a task group with your family",
  description:
    "The group's owner or a parent; a child who does not own it gets 403. The group stays its owner's. " + NOTHING_LOST,
  access: "user",
  module: "family",
  request: { params: familyGroupParams },
  responses: {
    204: { description: "No longer shared" },
    403: problemResponse("You are a child in the workspace and do not own the group"),
    404: problemResponse(`${NO_FAMILY}; or no group with this id is shared with it`),
  },
});

export const familyRoutes = createRouter()
  .openapi(getRoute, async (c) => c.json(await getFamily(c.var.actor, c.req.valid("query").lang), 200))
  .openapi(createRoute, async (c) => c.json(await createFamily(c.var.actor, c.req.valid("json"), c.req.valid("query").lang), 201))
  .openapi(updateRoute, async (c) => c.json(await updateFamily(c.var.actor, c.req.valid("json"), c.req.valid("query").lang), 200))
  .openapi(deleteRoute, async (c) => {
    await deleteFamily(c.var.actor);
    return c.body(null, 204);
  })
  .openapi(addMemberRoute, async (c) =>
    c.json(await addFamilyMember(c.var.actor, c.req.valid("json"), new URL(c.req.url).origin), 202),
  )
  .openapi(changeRoleRoute, async (c) =>
    c.json(await changeFamilyMemberRole(c.var.actor, c.req.valid("param").userId, c.req.valid("json")), 200),
  )
  .openapi(removeMemberRoute, async (c) => {
    await removeFamilyMember(c.var.actor, c.req.valid("param").userId);
    return c.body(null, 204);
  })
  .openapi(leaveRoute, async (c) => {
    await leaveFamily(c.var.actor);
    return c.body(null, 204);
  })
  .openapi(shareGroupRoute, async (c) =>
    c.json(await shareGroup(c.var.actor, c.req.valid("param").groupId, c.req.valid("query").lang), 200),
  )
  .openapi(unshareGroupRoute, async (c) => {
    await unshareGroup(c.var.actor, c.req.valid("param").groupId);
    return c.body(null, 204);
  });
