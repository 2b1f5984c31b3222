import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { MODULE_IDS } from "./ids";
import { moduleIdParams, moduleListOutput, moduleOutput, setModuleInput } from "./schema";
import { listModules, resetModule, setModule } from "./service";

const TAGS = ["Admin"];
const ADMINS_ONLY = "Administrators only (ADMIN_EMAILS): anyone else signed in gets 403.";
const EVERYWHERE =
  "The switch holds for the whole deployment: this process answers with it at once, the others follow within " +
  "MODULE_REFRESH_MS (2 s by default), and at once when they share Redis. A switched-off module's routes answer 404 " +
  "`module_disabled` naming it, its background jobs and event handlers pause, its pages answer 404 and its menu " +
  "entries disappear. Its data stays untouched and is there again when it is switched back on.";
const NO_MODULE = `No such module (the modules are ${MODULE_IDS.join(", ")})`;

const listRoute = apiRoute({
  method: "get",
  path: "/admin/modules",
  tags: TAGS,
  summary: "The feature modules and whether each is on (admins)",
  description:
    `${ADMINS_ONLY} Every module with its English name and description, whether it is on, and why: \`source\` ` +
    "`administrator` when an administrator switched it (with when and by whom; that beats MODULES_DISABLED), else " +
    "`configuration` (on unless MODULES_DISABLED lists it; `configured` says what the configuration alone would do).",
  access: "admin",
  responses: { 200: jsonContent(moduleListOutput, "Every module") },
});

const setRoute = apiRoute({
  method: "put",
  path: "/admin/modules/{id}",
  tags: TAGS,
  summary: "Switch a module on or off (admins)",
  description: `${ADMINS_ONLY} Overrides MODULES_DISABLED for this module until \`DELETE\` resets it. ${EVERYWHERE}`,
  access: "admin",
  request: { params: moduleIdParams, body: jsonBody(setModuleInput) },
  responses: { 200: jsonContent(moduleOutput, "The module, switched"), 404: problemResponse(NO_MODULE) },
});

const resetRoute = apiRoute({
  method: "delete",
  path: "/admin/modules/{id}",
  tags: TAGS,
  summary: "Reset a module to the configuration (admins)",
  description:
    `${ADMINS_ONLY} Forgets the administrators' switch: the module is on unless MODULES_DISABLED lists it. ` +
    `Resetting a module nobody switched changes nothing. ${EVERYWHERE}`,
  access: "admin",
  request: { params: moduleIdParams },
  responses: { 200: jsonContent(moduleOutput, "The module, as the configuration has it"), 404: problemResponse(NO_MODULE) },
});

export const modulesRoutes = createRouter()
  .openapi(listRoute, async (c) => c.json(await listModules(), 200))
  .openapi(setRoute, async (c) => c.json(await setModule(c.var.actor, c.req.valid("param").id, c.req.valid("json").enabled), 200))
  .openapi(resetRoute, async (c) => c.json(await resetModule(c.var.actor, c.req.valid("param").id), 200));
