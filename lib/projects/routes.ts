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
  createProjectInput,
  listProjectsQuery,
  memberListOutput,
  memberOutput,
  memberParams,
  projectIdParams,
  projectListOutput,
  projectOutput,
  projectWorkloadOutput,
  updateProjectInput,
} from "./schema";
import {
  addProjectMember,
  changeProjectMemberRole,
  createProject,
  deleteProject,
  getProject,
  getProjectWorkload,
  leaveProject,
  listProjectMembers,
  listProjects,
  removeProjectMember,
  updateProject,
} from "./service";

// Projects live under /api/v1 only (no root alias).
const TAGS = ["Projects"];
const ABOUT =
  "A project is a body of work shared by its members: every member sees every task in it (`GET /tasks?projectId=`, " +
  "the board), whoever owns the task. Roles: `owner`, `admin`, `member` (adds and edits the project's tasks), " +
  "`viewer` (reads them). Only members see a project: to anyone else every `/projects/{id}` route answers 404.";
const NOT_FOUND = "No such project, or you are not one of its members (both answer the same)";
const MANAGERS_ONLY = "You are a member or viewer: only owners and admins may do this";
const LAST_OWNER = "The last owner must hand over ownership first (make another member owner)";
const INVITATIONS =
  "A link to hand out yourself (WhatsApp, Telegram, SMS, email) is `POST /invitations` with the `projectId` (owners and admins).";

const listRoute = apiRoute({
  method: "get",
  path: "/projects",
  tags: TAGS,
  summary: "The projects you belong to",
  description:
    `${ABOUT} Oldest project first, each with your role, its member count and its task counts (total, and open: ` +
    "todo or in_progress). Archived projects are left out unless `archived=true`.",
  access: "user",
  module: "projects",
  request: { query: listProjectsQuery },
  responses: { 200: jsonContent(projectListOutput, "Your projects") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/projects",
  tags: TAGS,
  summary: "Create a project",
  description: `${ABOUT} You become its owner, and its only member until you add others. ${INVITATIONS}`,
  access: "user",
  module: "projects",
  request: { body: jsonBody(createProjectInput) },
  responses: { 201: jsonContent(projectOutput, "The new project") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/projects/{id}",
  tags: TAGS,
  summary: "One of your projects",
  description: "Any member (viewers too) sees the project, archived or not, with their own role in it.",
  access: "user",
  module: "projects",
  request: { params: projectIdParams, headers: ifNoneMatchHeader },
  responses: { 200: withETag(jsonContent(projectOutput, "The project")), 304: notModified, 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/projects/{id}",
  tags: TAGS,
  summary: "Edit, archive or restore a project",
  description:
    "Owners and admins; members and viewers get 403. The fields given change, the others stay; give at least one. " +
    "`color: null` removes the colour. `archived: true` archives the project: it leaves `GET /projects` (unless " +
    "`archived=true`) but keeps its members and tasks, which they still see; `archived: false` restores it.",
  access: "user",
  module: "projects",
  request: { params: projectIdParams, headers: ifMatchHeader, body: jsonBody(updateProjectInput) },
  responses: {
    200: withETag(jsonContent(projectOutput, "The updated project")),
    403: problemResponse(MANAGERS_ONLY),
    404: problemResponse(NOT_FOUND),
    412: stale,
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/projects/{id}",
  tags: TAGS,
  summary: "Delete a project",
  description:
    "Owners only (admins, members and viewers get 403). Every membership goes with the project. Its tasks stay " +
    "with their owners, in no project (`projectId` null): members who saw them only through the project no longer do.",
  access: "user",
  module: "projects",
  request: { params: projectIdParams, headers: ifMatchHeader },
  responses: {
    204: { description: "Deleted" },
    403: problemResponse("You are not an owner of the project"),
    404: problemResponse(NOT_FOUND),
    412: stale,
  },
});

const listMembersRoute = apiRoute({
  method: "get",
  path: "/projects/{id}/members",
  tags: TAGS,
  summary: "A project's members",
  description: "Any member (viewers too) sees every member with their role, in the order they joined.",
  access: "user",
  module: "projects",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(memberListOutput, "The members"), 404: problemResponse(NOT_FOUND) },
});

const workloadRoute = apiRoute({
  method: "get",
  path: "/projects/{id}/workload",
  tags: TAGS,
  summary: "The project's workload: per member, active, pending, completed and overdue tasks",
  description:
    "Any member (viewers too) sees it. For every member (those without tasks with zeros), counts over the project's " +
    "tasks assigned to the member, whoever owns them: `active` = in_progress, `pending` = todo, `completed` = done, " +
    "`overdue` = active or pending with a due time in the past; cancelled tasks count nowhere, and a member's tasks " +
    "outside the project are not counted (nor shown).",
  access: "user",
  module: "projects",
  request: { params: projectIdParams },
  responses: { 200: jsonContent(projectWorkloadOutput, "The counts per member"), 404: problemResponse(NOT_FOUND) },
});

const addMemberRoute = apiRoute({
  method: "post",
  path: "/projects/{id}/members",
  tags: TAGS,
  summary: "Add a member, or invite them",
  description:
    "Owners and admins add someone, by `userId` or by `email` (exactly one), as `member` unless `role` says " +
    "otherwise; only an owner may add someone as `owner` (an admin gets 403). Someone who already works with you " +
    "(you share a team, a project or a family workspace) is added at once (201) and sees the project's tasks from " +
    "now on. Anyone else joins only by accepting: the answer (202) is an invitation addressed to them, the same " +
    "whether the email has an account or not; it shows in their app when they have one, and its link works with " +
    `an account or without (an invitation never grants \`owner\`: 400 naming \`/role\`). ${INVITATIONS} Someone ` +
    "already in the project is a 409; an unknown `userId` a 400.",
  access: "user",
  module: "projects",
  request: { params: projectIdParams, body: jsonBody(addMemberInput) },
  responses: {
    201: jsonContent(memberOutput, "Added at once: they already work with you"),
    202: jsonContent(createdInvitationOutput, "Invited: they become a member when they accept"),
    403: problemResponse(`${MANAGERS_ONLY}; or an admin tried to add an owner`),
    404: problemResponse(NOT_FOUND),
    409: problemResponse("Already a member of the project"),
  },
});

const changeRoleRoute = apiRoute({
  method: "patch",
  path: "/projects/{id}/members/{userId}",
  tags: TAGS,
  summary: "Change a member's role",
  description:
    "Owners and admins. Only an owner grants or takes the owner role: an admin cannot make someone owner or " +
    "change an owner's role (403). A project keeps at least one owner: demoting the last one is a 409. Setting " +
    "the role a member already has changes nothing. A viewer made member may edit the project's tasks, and back.",
  access: "user",
  module: "projects",
  request: { params: memberParams, body: jsonBody(changeRoleInput) },
  responses: {
    200: jsonContent(memberOutput, "The member with the new role"),
    403: problemResponse(`${MANAGERS_ONLY}; or an admin tried to grant or take the owner role`),
    404: problemResponse(`${NOT_FOUND}; or the user is not a member of the project`),
    409: problemResponse(LAST_OWNER),
  },
});

const removeMemberRoute = apiRoute({
  method: "delete",
  path: "/projects/{id}/members/{userId}",
  tags: TAGS,
  summary: "Remove a member",
  description:
    "Owners and admins remove admins, members and viewers; only an owner removes an owner (an admin gets 403). " +
    "Your own user id is the same as `POST /projects/{id}/leave`: allowed for anyone, except the last owner (409). " +
    "The removed member no longer sees the tasks they saw only through the project; their own tasks stay theirs.",
  access: "user",
  module: "projects",
  request: { params: memberParams },
  responses: {
    204: { description: "Removed" },
    403: problemResponse(`${MANAGERS_ONLY}; or an admin tried to remove an owner`),
    404: problemResponse(`${NOT_FOUND}; or the user is not a member of the project`),
    409: problemResponse(LAST_OWNER),
  },
});

const leaveRoute = apiRoute({
  method: "post",
  path: "/projects/{id}/leave",
  tags: TAGS,
  summary: "Leave a project",
  description:
    "Any member may leave, except the project's last owner (409): they make another member owner first, or delete " +
    "the project. You no longer see the tasks you saw only through the project; your own tasks in it stay yours.",
  access: "user",
  module: "projects",
  request: { params: projectIdParams },
  responses: { 204: { description: "You left the project" }, 404: problemResponse(NOT_FOUND), 409: problemResponse(LAST_OWNER) },
});

export const projectsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listProjects(c.var.actor, c.req.valid("query").archived === "true"), 200))
  .openapi(createRoute, async (c) => c.json(await createProject(c.var.actor, c.req.valid("json")), 201))
  .openapi(getRoute, async (c) => jsonWithETag(c, await getProject(c.var.actor, c.req.valid("param").id), 200))
  .openapi(updateRoute, async (c) =>
    jsonWithETag(c, await updateProject(c.var.actor, c.req.valid("param").id, c.req.valid("json"), ifMatch(c)), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteProject(c.var.actor, c.req.valid("param").id, ifMatch(c));
    return c.body(null, 204);
  })
  .openapi(listMembersRoute, async (c) => c.json(await listProjectMembers(c.var.actor, c.req.valid("param").id), 200))
  .openapi(workloadRoute, async (c) => c.json(await getProjectWorkload(c.var.actor, c.req.valid("param").id), 200))
  .openapi(addMemberRoute, async (c) => {
    const added = await addProjectMember(c.var.actor, c.req.valid("param").id, c.req.valid("json"), new URL(c.req.url).origin);
    return "member" in added ? c.json(added.member, 201) : c.json(added.invitation, 202);
  })
  .openapi(changeRoleRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    return c.json(await changeProjectMemberRole(c.var.actor, id, userId, c.req.valid("json")), 200);
  })
  .openapi(removeMemberRoute, async (c) => {
    const { id, userId } = c.req.valid("param");
    await removeProjectMember(c.var.actor, id, userId);
    return c.body(null, 204);
  })
  .openapi(leaveRoute, async (c) => {
    await leaveProject(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
