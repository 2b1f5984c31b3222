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
const NOT_FOUND = "No such group of yours or of your family workspace (another user's group answers the same)";
const SHARED =
  "A group shared with your family workspace (`PUT /family/groups/{groupId}`) is seen by every member: listed " +
  "with `own: false`, its `ownerId` and `familyId`.";
const OWNER_ONLY = "The group is shared with your family by another member: only its owner may do this";

const listRoute = apiRoute({
  method: "get",
  path: "/groups",
  tags: ["Groups"],
  summary: "Your task groups, by position, then those shared with your family",
  description:
    "Every user starts with eight default groups (personal, work, family, home, shopping, health, study, " +
    `finance). Archived groups are left out unless \`includeArchived=true\`. With \`counts=true\` each group ` +
    "also says how many open tasks it holds (`openTasks`), all counted in one query. Your own groups come first, by " +
    "position (`own: true`); then the groups other members share with your family workspace (`own: false`), by " +
    `owner (in the order they joined the family), each in its owner's order. ${NAME_RULES}`,
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
    "else is a 400 naming `ids`. Groups shared with you by other family members are not yours to order: leave " +
    "them out. Answers all your groups in the new order.",
  access: "user",
  request: { query: langOnlyQuery, body: jsonBody(reorderGroupsInput) },
  responses: { 200: jsonContent(groupListOutput, "All your groups (archived too), in the new order") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/groups/{id}",
  tags: ["Groups"],
  summary: "One of your groups, or one shared with your family",
  description: `Archived groups too. ${SHARED} ${NAME_RULES}`,
  access: "user",
  request: { params: groupIdParams, query: langOnlyQuery, headers: ifNoneMatchHeader },
  responses: { 200: withETag(jsonContent(groupOutput, "The group")), 304: notModified, 404: problemResponse(NOT_FOUND) },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/groups/{id}",
  tags: ["Groups"],
  summary: "Rename, archive or unarchive a group",
  description:
    "`names` merges per language: a language given is set, one given as null is removed, the others stay; " +
    "removing the last name is a 400. `archived: true` archives the group (it leaves `GET /groups`), `false` " +
    "brings it back. Default groups can be renamed too. Only the owner renames or archives a group: another " +
    `member of the family it is shared with gets 403. ${NAME_RULES}`,
  access: "user",
  request: { params: groupIdParams, query: langOnlyQuery, headers: ifMatchHeader, body: jsonBody(updateGroupInput) },
  responses: {
    200: withETag(jsonContent(groupOutput, "The updated group")),
    403: problemResponse(OWNER_ONLY),
    404: problemResponse(NOT_FOUND),
    412: stale,
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/groups/{id}",
  tags: ["Groups"],
  summary: "Delete a group",
  description:
    "Your own group, or one shared with your family workspace if you are a parent there; a child gets 403 " +
    "for a shared group they do not own (children cannot delete shared groups). An empty group is simply " +
    "deleted. A group that holds tasks needs one of: `moveTo=<id>`, another group you can use (yours, archived " +
    "ones allowed, or one shared with your family; not this one), where its tasks move; or `deleteTasks=true`, " +
    "which deletes your own tasks in it. Without either the answer is 409, saying how many tasks the group " +
    "holds. Nothing of anyone else is lost: another member's task that `moveTo` would hide from them, and with " +
    "`deleteTasks=true` every task you do not own, goes back to its owner's first active group. A `moveTo` " +
    "that is not a group you can use is a 404, like the group itself. Everything happens in one transaction.",
  access: "user",
  request: { params: groupIdParams, query: deleteGroupQuery, headers: ifMatchHeader },
  responses: {
    204: { description: "Deleted (and its tasks moved or deleted)" },
    403: problemResponse("The group is shared with your family by another member, and you are a child there"),
    404: problemResponse(`${NOT_FOUND}; or \`moveTo\` is not a group you can use`),
    409: problemResponse("The group holds tasks: pass moveTo or deleteTasks=true"),
    412: stale,
  },
});

const getScheduleRoute = apiRoute({
  method: "get",
  path: "/groups/{id}/schedule",
  tags: ["Groups"],
  summary: "A group's time zones and locations",
  description: "Your own group's, or those of a group shared with your family workspace.",
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
    "-90..90, longitude -180..180, radiusMeters 1..100000). A bad value is a 400 naming it, e.g. `/locations/0/latitude`. " +
    "Only the group's owner: another member of the family it is shared with gets 403.",
  access: "user",
  request: { params: groupIdParams, body: jsonBody(groupScheduleInput) },
  responses: {
    200: jsonContent(groupScheduleOutput, "The new schedule settings"),
    403: problemResponse(OWNER_ONLY),
    404: problemResponse(NOT_FOUND),
  },
});

export const groupsRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listGroups(c.var.actor, c.req.valid("query")), 200))
  .openapi(createRoute, async (c) => c.json(await createGroup(c.var.actor, c.req.valid("json"), c.req.valid("query").lang), 201))
  .openapi(reorderRoute, async (c) =>
    c.json(await reorderGroups(c.var.actor, c.req.valid("json"), c.req.valid("query").lang), 200),
  )
  .openapi(getRoute, async (c) =>
    jsonWithETag(c, await getGroup(c.var.actor, c.req.valid("param").id, c.req.valid("query").lang), 200),
  )
  .openapi(updateRoute, async (c) =>
    jsonWithETag(
      c,
      await updateGroup(c.var.actor, c.req.valid("param").id, c.req.valid("json"), c.req.valid("query").lang, ifMatch(c)),
      200,
    ),
  )
  .openapi(deleteRoute, async (c) => {
    await deleteGroup(c.var.actor, c.req.valid("param").id, c.req.valid("query"), ifMatch(c));
    return c.body(null, 204);
  })
  .openapi(getScheduleRoute, async (c) => c.json(await getGroupSchedule(c.var.actor, c.req.valid("param").id), 200))
  .openapi(replaceScheduleRoute, async (c) =>
    c.json(await replaceGroupSchedule(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  );
