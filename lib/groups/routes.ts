import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { MAX_GROUPS } from "./defaults";
import {
  createGroupInput,
  deleteGroupQuery,
  groupIdParams,
  groupListOutput,
  groupOutput,
  groupScheduleInput,
  groupScheduleOutput,
  langOnlyQuery,
  listGroupsQuery,
  reorderGroupsInput,
  updateGroupInput,
} from "./schema";
import {
  createGroup,
  deleteGroup,
  getGroup,
  getGroupSchedule,
  listGroups,
  reorderGroups,
  replaceGroupSchedule,
  updateGroup,
} from "./service";

const NAME_RULES =
  "Each group's `name` is in `lang`, else in your profile locale, else in English; a group without a name in " +
  "that language is named in English, else in the first language it has (en, cs, he, ru, ua). `names` holds all.";
const NOT_FOUND = "No such group of yours (another user's group answers the same)";

const listRoute = apiRoute({
  method: "get",
  path: "/groups",
  tags: ["Groups"],
  summary: "Your task groups, by position",
  description:
    "Every user starts with eight default groups (personal, work, family, home, shopping, health, study, " +
    `finance). Archived groups are left out unless \`includeArchived=true\`. ${NAME_RULES}`,
  access: "user",
  request: { query: listGroupsQuery },
  responses: { 200: jsonContent(groupListOutput, "The groups and the language of their names") },
});

const createRoute = apiRoute({
  method: "post",
  path: "/groups",
  tags: ["Groups"],
  summary: "Create a group",
  description: `Added after your last group. A user holds at most ${MAX_GROUPS} groups, archived ones included. ${NAME_RULES}`,
  access: "user",
  request: { query: langOnlyQuery, body: jsonBody(createGroupInput) },
  responses: {
    201: jsonContent(groupOutput, "The new group"),
    409: problemResponse(`You already hold ${MAX_GROUPS} groups`),
  },
});

const reorderRoute = apiRoute({
  method: "put",
  path: "/groups/order",
  tags: ["Groups"],
  summary: "Reorder your groups",
  description:
    "`ids` lists every one of your group ids exactly once, archived ones included, in the new order; anything " +
    "else is a 400 naming `ids`. Answers all your groups in the new order.",
  access: "user",
  request: { query: langOnlyQuery, body: jsonBody(reorderGroupsInput) },
  responses: { 200: jsonContent(groupListOutput, "All your groups (archived too), in the new order") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/groups/{id}",
  tags: ["Groups"],
  summary: "One of your groups",
  description: `Archived groups too. ${NAME_RULES}`,
  access: "user",
  request: { params: groupIdParams, query: langOnlyQuery },
  responses: { 200: jsonContent(groupOutput, "The group"), 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/groups/{id}",
  tags: ["Groups"],
  summary: "Rename, archive or unarchive a group",
  description:
    "`names` merges per language: a language given is set, one given as null is removed, the others stay; " +
    "removing the last name is a 400. `archived: true` archives the group (it leaves `GET /groups`), `false` " +
    `brings it back. Default groups can be renamed too. ${NAME_RULES}`,
  access: "user",
  request: { params: groupIdParams, query: langOnlyQuery, body: jsonBody(updateGroupInput) },
  responses: { 200: jsonContent(groupOutput, "The updated group"), 404: problemResponse(NOT_FOUND) },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/groups/{id}",
  tags: ["Groups"],
  summary: "Delete a group",
  description:
    "An empty group is simply deleted. A group that holds tasks needs one of: `moveTo=<id>`, another of your " +
    "groups (not this one; archived ones allowed), where its tasks move; or `deleteTasks=true`, which deletes " +
    "its tasks with it. Without either the answer is 409, saying how many tasks the group holds. A `moveTo` " +
    "that is not one of your groups is a 404, like the group itself. Everything happens in one transaction.",
  access: "user",
  request: { params: groupIdParams, query: deleteGroupQuery },
  responses: {
    204: { description: "Deleted (and its tasks moved or deleted)" },
    404: problemResponse(`${NOT_FOUND}; or \`moveTo\` is not one of your groups`),
    409: problemResponse("The group holds tasks: pass moveTo or deleteTasks=true"),
  },
});

const getScheduleRoute = apiRoute({
  method: "get",
  path: "/groups/{id}/schedule",
  tags: ["Groups"],
  summary: "A group's time zones and locations",
  access: "user",
  request: { params: groupIdParams },
  responses: { 200: jsonContent(groupScheduleOutput, "The group's schedule settings"), 404: problemResponse(NOT_FOUND) },
});

const replaceScheduleRoute = apiRoute({
  method: "put",
  path: "/groups/{id}/schedule",
  tags: ["Groups"],
  summary: "Replace a group's time zones and locations",
  description:
    "IANA time zones (at most 10, each once) and GPS locations (at most 20: name 1-100 characters, latitude " +
    "-90..90, longitude -180..180, radiusMeters 1..100000). A bad value is a 400 naming it, e.g. `/locations/0/latitude`.",
  access: "user",
  request: { params: groupIdParams, body: jsonBody(groupScheduleInput) },
  responses: { 200: jsonContent(groupScheduleOutput, "The new schedule settings"), 404: problemResponse(NOT_FOUND) },
});

export const groupsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listGroups(c.var.actor, c.req.valid("query")), 200))
  .openapi(createRoute, async (c) =>
    c.json(await createGroup(c.var.actor, c.req.valid("json"), c.req.valid("query").lang), 201),
  )
  .openapi(reorderRoute, async (c) =>
    c.json(await reorderGroups(c.var.actor, c.req.valid("json"), c.req.valid("query").lang), 200),
  )
  .openapi(getRoute, async (c) =>
    c.json(await getGroup(c.var.actor, c.req.valid("param").id, c.req.valid("query").lang), 200),
  )
  .openapi(updateRoute, async (c) =>
    c.json(await updateGroup(c.var.actor, c.req.valid("param").id, c.req.valid("json"), c.req.valid("query").lang), 200),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteGroup(c.var.actor, c.req.valid("param").id, c.req.valid("query"));
    return c.body(null, 204);
  })
  .openapi(getScheduleRoute, async (c) => c.json(await getGroupSchedule(c.var.actor, c.req.valid("param").id), 200))
  .openapi(replaceScheduleRoute, async (c) =>
    c.json(await replaceGroupSchedule(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  );
