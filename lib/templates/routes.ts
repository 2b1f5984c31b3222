import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import {
  appliedTemplateOutput,
  applyTemplateInput,
  createTemplateInput,
  fromSourceInput,
  groupIdParams,
  langQuery,
  projectIdParams,
  templateIdParams,
  templateListOutput,
  templateOutput,
  updateTemplateInput,
} from "./schema";
import {
  applyTemplate,
  createTemplate,
  deleteTemplate,
  getTemplate,
  listTemplates,
  templateFromGroup,
  templateFromProject,
  updateTemplate,
} from "./service";

// Templates live under /api/v1 only.
const TAGS = ["Templates"];
const module = "templates" as const;
const ABOUT =
  "Everyone sees the three built-in templates (Moving house, Weekly review, Onboarding a new teammate), their texts " +
  "in `lang`, else your profile locale, else English; nobody may change them (403). Your own templates are private: " +
  "to anyone else they answer 404.";
const NOT_FOUND = "No such template, or not yours (both answer the same)";
const READ_ONLY = "A built-in template: read-only";
const optionalBody = <T extends typeof fromSourceInput | typeof applyTemplateInput>(schema: T) => ({
  required: false,
  content: { "application/json": { schema } },
});

const listRoute = apiRoute({
  method: "get",
  path: "/templates",
  tags: TAGS,
  summary: "The templates you can apply",
  description: `${ABOUT} The built-in ones first, then yours, oldest first.`,
  access: "user",
  module,
  request: { query: langQuery },
  responses: { 200: jsonContent(templateListOutput, "The templates and the language of the built-in ones' texts") },
});

const getRoute = apiRoute({
  method: "get",
  path: "/templates/{id}",
  tags: TAGS,
  summary: "One template, to preview",
  description: ABOUT,
  access: "user",
  module,
  request: { params: templateIdParams, query: langQuery },
  responses: { 200: jsonContent(templateOutput, "The template"), 404: problemResponse(NOT_FOUND) },
});

const createRoute = apiRoute({
  method: "post",
  path: "/templates",
  tags: TAGS,
  summary: "Create a template from scratch",
  description:
    "A name, a description and 1-100 tasks, each with a title, description, priority, `dueAfter` (days after the " +
    "apply date at a wall-clock time; null for no due date) and up to 50 subtask titles. At most 100 templates " +
    "per user (409 beyond).",
  access: "user",
  module,
  request: { body: jsonBody(createTemplateInput) },
  responses: { 201: jsonContent(templateOutput, "The new template"), 409: problemResponse("You have 100 templates already") },
});

const fromGroupRoute = apiRoute({
  method: "post",
  path: "/templates/from-group/{id}",
  tags: TAGS,
  summary: "Save a task group as a template",
  description:
    "From a group you can see (yours, or one shared with your family): its open tasks you can see (`todo` and " +
    "`in_progress`, in board order, at most 100) with their subtasks (as open ones). Due dates become offsets from " +
    "the earliest one's local date (in your time zone), at the same wall-clock time; tasks without one stay without. " +
    "Named after the group unless `name` is given. A group without open tasks is a 409.",
  access: "user",
  module,
  request: { params: groupIdParams, body: optionalBody(fromSourceInput) },
  responses: {
    201: jsonContent(templateOutput, "The new template"),
    404: problemResponse("No such group that you can see"),
    409: problemResponse("No open tasks to copy, more than 100 of them, or you have 100 templates already"),
  },
});

const fromProjectRoute = apiRoute({
  method: "post",
  path: "/templates/from-project/{id}",
  tags: TAGS,
  summary: "Save a project as a template",
  description:
    "From a project you are a member of (any role): its open tasks, as for a group. Named after the project unless " +
    "`name` is given.",
  access: "user",
  module,
  request: { params: projectIdParams, body: optionalBody(fromSourceInput) },
  responses: {
    201: jsonContent(templateOutput, "The new template"),
    404: problemResponse("No such project of yours"),
    409: problemResponse("No open tasks to copy, more than 100 of them, or you have 100 templates already"),
  },
});

const updateRoute = apiRoute({
  method: "patch",
  path: "/templates/{id}",
  tags: TAGS,
  summary: "Rename or edit one of your templates",
  description: "The fields given change; `tasks` replaces the whole task set. Tasks made from it earlier stay as they are.",
  access: "user",
  module,
  request: { params: templateIdParams, body: jsonBody(updateTemplateInput) },
  responses: {
    200: jsonContent(templateOutput, "The template"),
    403: problemResponse(READ_ONLY),
    404: problemResponse(NOT_FOUND),
  },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/templates/{id}",
  tags: TAGS,
  summary: "Delete one of your templates",
  description: "Tasks made from it stay.",
  access: "user",
  module,
  request: { params: templateIdParams },
  responses: { 204: { description: "Deleted" }, 403: problemResponse(READ_ONLY), 404: problemResponse(NOT_FOUND) },
});

const applyRoute = apiRoute({
  method: "post",
  path: "/templates/{id}/apply",
  tags: TAGS,
  summary: "Create a template's tasks",
  description:
    "All the template's tasks with their subtasks, in ONE transaction: any failure (a group or project you may not " +
    "use, a database error) creates none. Each task is due `dueAfter.days` after `startDate` (default: today in your " +
    "time zone) at `dueAfter.hours`:`dueAfter.minutes` in your time zone (18:00 stays 18:00 across a daylight-saving " +
    "change). They go into `groupId` (your group or your family's; default your first active group) and `projectId` " +
    "if given, exactly as `POST /tasks` would put them (400 naming the field otherwise); everyone who sees them gets " +
    "`task.created`. A built-in template's texts are in `lang`, else your profile locale.",
  access: "user",
  module,
  request: { params: templateIdParams, query: langQuery, body: optionalBody(applyTemplateInput) },
  responses: { 201: jsonContent(appliedTemplateOutput, "The new tasks"), 404: problemResponse(NOT_FOUND) },
});

export const templatesRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listTemplates(c.var.actor, c.req.valid("query").lang), 200))
  .openapi(createRoute, async (c) => c.json(await createTemplate(c.var.actor, c.req.valid("json")), 201))
  .openapi(fromGroupRoute, async (c) =>
    c.json(await templateFromGroup(c.var.actor, c.req.valid("param").id, c.req.valid("json") ?? {}), 201),
  )
  .openapi(fromProjectRoute, async (c) =>
    c.json(await templateFromProject(c.var.actor, c.req.valid("param").id, c.req.valid("json") ?? {}), 201),
  )
  .openapi(getRoute, async (c) => c.json(await getTemplate(c.var.actor, c.req.valid("param").id, c.req.valid("query").lang), 200))
  .openapi(updateRoute, async (c) => c.json(await updateTemplate(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200))
  .openapi(deleteRoute, async (c) => {
    await deleteTemplate(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(applyRoute, async (c) =>
    c.json(await applyTemplate(c.var.actor, c.req.valid("param").id, c.req.valid("json") ?? {}, c.req.valid("query").lang), 201),
  );
