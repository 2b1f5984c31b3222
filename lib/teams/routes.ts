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
import { createdInvitationOutput } from "../invitations/schema";
import {
  addMemberInput,
  changeRoleInput,
  createUserGroupInput,
  memberListOutput,
  memberOutput,
  memberParams,
  teamWorkloadOutput,
  updateUserGroupInput,
  userGroupIdParams,
  userGroupListOutput,
  userGroupOutput,
} from "./schema";
import {
  addUserGroupMember,
  changeUserGroupMemberRole,
  createUserGroup,
  deleteUserGroup,
  getTeamWorkload,
  getUserGroup,
  leaveUserGroup,
  listUserGroupMembers,
  listUserGroups,
  removeUserGroupMember,
  updateUserGroup,
} from "./service";

// The interface specification names no paths for user groups: they live under /api/v1/user-groups only
// (no root alias), apart from `/groups`, which are each user's own task groups.
const TAGS = ["User groups"];
const ABOUT =
  "User groups (teams) are people working together, unlike `/groups` (your own task groups). Roles: `owner`, " +
  "`admin`, `member`. Only members see a group: to anyone else every `/user-groups/{id}` route answers 404.";
const NOT_FOUND = "No such group, or you are not one of its members (both answer the same)";
const MANAGERS_ONLY = "You are a plain member: only owners and admins may do this";
const LAST_OWNER = "The last owner must hand over ownership first (make another member owner)";

const listRoute = apiRoute({
  method: "get",
  path: "/user-groups",
  tags: TAGS,
  summary: "The user groups you belong to",
  description: `${ABOUT} Oldest group first, each with your role and its member count.`,
  access: "user",
  responses: { 200: jsonContent(userGroupListOutput, "Your groups") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/user-groups",
  tags: TAGS,
  summary: "Create a user group",
  description: `${ABOUT} You become its owner, and its only member until you add others.`,
  access: "user",
  request: { body: jsonBody(createUserGroupInput) },
  responses: { 201: jsonContent(userGroupOutput, "The new group") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/user-groups/{id}",
  tags: TAGS,
  summary: "One of your user groups",
  description: "Any member sees the group, with their own role in it.",
  access: "user",
  request: { params: userGroupIdParams, headers: ifNoneMatchHeader },
  responses: { 200: withETag(jsonContent(userGroupOutput, "The group")), 304: notModified, 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/user-groups/{id}",
  tags: TAGS,
  summary: "Rename a user group or change its description",
  description: "Owners and admins; a plain member gets 403. The fields given change, the others stay; give at least one.",
  access: "user",
  request: { params: userGroupIdParams, headers: ifMatchHeader, body: jsonBody(updateUserGroupInput) },
  responses: {
    200: withETag(jsonContent(userGroupOutput, "The updated group")),
    403: problemResponse(MANAGERS_ONLY),
    404: problemResponse(NOT_FOUND),
    412: stale,
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/user-groups/{id}",
  tags: TAGS,
  summary: "Delete a user group",
  description: "Owners only (admins and members get 403). Every membership goes with the group.",
  access: "user",
  request: { params: userGroupIdParams, headers: ifMatchHeader },
  responses: {
    204: { description: "Deleted" },
    403: problemResponse("You are not an owner of the group"),
    404: problemResponse(NOT_FOUND),
    412: stale,
  },
});

const listMembersRoute = apiRoute({
  method: "get",
  path: "/user-groups/{id}/members",
  tags: TAGS,
  summary: "A user group's members",
  description: "Any member sees every member with their role, in the order they joined.",
  access: "user",
  request: { params: userGroupIdParams },
  responses: { 200: jsonContent(memberListOutput, "The members"), 404: problemResponse(NOT_FOUND) },
});

const addMemberRoute = apiRoute({
  method: "post",
  path: "/user-groups/{id}/members",
  tags: TAGS,
  summary: "Add a member, or invite them",
  description:
    "Owners and admins add someone, by `userId` or by `email` (exactly one), as `member` unless `role` says " +
    "otherwise; only an owner may add someone as `owner` (an admin gets 403). Someone who already works with you " +
    "(you share a team, a project or a family workspace) is added at once (201). Anyone else joins only by " +
    "accepting: the answer (202) is an invitation addressed to them, the same whether the email has an account or " +
    "not; it shows in their app when they have one, and its link works with an account or without (an invitation " +
    "grants `admin` or `member`, never `owner`: 400 naming `/role`). Someone already in the group is a 409; an " +
    "unknown `userId` a 400.",
  access: "user",
  request: { params: userGroupIdParams, body: jsonBody(addMemberInput) },
  responses: {
    201: jsonContent(memberOutput, "Added at once: they already work with you"),
    202: jsonContent(createdInvitationOutput, "Invited: they become a member when they accept"),
    403: problemResponse(`${MANAGERS_ONLY}; or an admin tried to add an owner`),
    400: problemResponse("Invalid input; or no account has this id; or an invitation cannot grant `owner`"),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("Already a member of the group"),
  },
});

const changeRoleRoute = apiRoute({
  method: "patch",
  path: "/user-groups/{id}/members/{userId}",
  tags: TAGS,
  summary: "Change a member's role",
  description:
    "Owners and admins. Only an owner grants or takes the owner role: an admin cannot make someone owner or " +
    "change an owner's role (403). A group keeps at least one owner: demoting the last one is a 409. Setting the " +
    "role a member already has changes nothing.",
  access: "user",
  request: { params: memberParams, body: jsonBody(changeRoleInput) },
  responses: {
    200: jsonContent(memberOutput, "The member with the new role"),
    403: problemResponse(`${MANAGERS_ONLY}; or an admin tried to grant or take the owner role`),
    404: problemResponse(`${NOT_FOUND}; or the user is not a member of the group`),
    409: problemResponse(LAST_OWNER),
  },
});

const removeMemberRoute = apiRoute({
  method: "delete",
  path: "/user-groups/{id}/members/{userId}",
  tags: TAGS,
  summary: "Remove a member",
  description:
    "Owners and admins remove members and admins; only an owner removes an owner (an admin gets 403). Your own " +
    "user id is the same as `POST /user-groups/{id}/leave`: allowed for anyone, except the last owner (409).",
  access: "user",
  request: { params: memberParams },
  responses: {
    204: { description: "Removed" },
    403: problemResponse(`${MANAGERS_ONLY}; or an admin tried to remove an owner`),
    404: problemResponse(`${NOT_FOUND}; or the user is not a member of the group`),
    409: problemResponse(LAST_OWNER),
  },
});

const leaveRoute = apiRoute({
  method: "post",
  path: "/user-groups/{id}/leave",
  tags: TAGS,
  summary: "Leave a user group",
  description:
    "Any member may leave, except the group's last owner (409): they make another member owner first, or " + "delete the group.",
  access: "user",
  request: { params: userGroupIdParams },
  responses: { 204: { description: "You left the group" }, 404: problemResponse(NOT_FOUND), 409: problemResponse(LAST_OWNER) },
});

const workloadRoute = apiRoute({
  method: "get",
  path: "/user-groups/{id}/workload",
  tags: TAGS,
  summary: "The team's workload: per member, active, pending and completed tasks",
  description:
    "Any member sees it. For every member (those without tasks with zeros), counts over the group's tasks " +
    "(those assigned to the group as a whole) that are assigned to the member, whoever owns them: `active` = " +
    "in_progress, `pending` = todo, `completed` = done; cancelled tasks count nowhere, and a member's tasks " +
    "outside the group are not counted (nor shown).",
  access: "user",
  request: { params: userGroupIdParams },
  responses: { 200: jsonContent(teamWorkloadOutput, "The counts per member"), 404: problemResponse(NOT_FOUND) },
});

export const teamsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listUserGroups(c.var.actor), 200))
  .openapi(createRoute, async (c) => c.json(await createUserGroup(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => jsonWithETag(c, await getUserGroup(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    jsonWithETag(c, await updateUserGroup(c.var.actor, c.req.valid("param").id, c.req.valid("json"), ifMatch(c)), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteUserGroup(c.var.actor, c.req.valid("param").id, ifMatch(c));
    return c.body(null, 204);
  })
  .openapi(listMembersRoute, async (c) => c.json(await listUserGroupMembers(c.var.actor, c.req.valid("param").id), 200))
  .openapi(addMemberRoute, async (c) => {
    const added = await addUserGroupMember(c.var.actor, c.req.valid("param").id, c.req.valid("json"), new URL(c.req.url).origin);
    return "member" in added ? c.json(added.member, 201) : c.json(added.invitation, 202);
  })
  .openapi(changeRoleRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    return c.json(await changeUserGroupMemberRole(c.var.actor, id, userId, c.req.valid("json")), 200);
  })
  .openapi(removeMemberRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    await removeUserGroupMember(c.var.actor, id, userId);
    return c.body(null, 204);
  })
  .openapi(leaveRoute, async (c) => {
    await leaveUserGroup(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(workloadRoute, async (c) => c.json(await getTeamWorkload(c.var.actor, c.req.valid("param").id), 200));
