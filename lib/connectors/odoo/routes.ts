import { apiRoute, jsonBody, jsonContent, problemResponse } from "../../api/route";
import { createRouter } from "../../api/router";
import {
  erpModuleListOutput,
  erpModulesQuery,
  erpStatusOutput,
  erpStatusQuery,
  installModuleInput,
  installModuleOutput,
} from "./schema";
import { erpStatus, installErpModule, listErpModules } from "./service";

const TAGS = ["ERP"];
const ABOUT =
  "Acts on one of your `erp` (Odoo) connections: `connectionId`, or your only one. The API flavour is the " +
  "connection's `apiFlavour` setting; `auto` uses JSON-2 (`/json/2/...`, bearer API key) on Odoo 19 and later and " +
  "JSON-RPC (`/jsonrpc`, `execute_kw`) before. A connection you cannot see is a 404.";
const PROBLEMS = {
  404: problemResponse("No such `erp` connection among yours, or you have none; or the `erp` module is off"),
  503: problemResponse("Odoo did not answer, timed out, or failed (its message in `detail`)"),
};

const statusRoute = apiRoute({
  method: "get",
  path: "/erp/status",
  tags: TAGS,
  summary: "Whether Odoo answers, its version, and whether it accepts the credentials",
  description:
    `${ABOUT} Reads the version without signing in (\`/web/webclient/version_info\`, else \`common.version\`), then ` +
    "signs in (JSON-RPC `authenticate`: `false` means a wrong login, key or database; JSON-2 `res.users/context_get`: " +
    "401 means a wrong key). Never fails for Odoo's sake: `reachable`, `authenticated` and `error` say what happened, " +
    "and the connection's status follows. Anyone who sees the connection may check it.",
  access: "user",
  module: "erp",
  request: { query: erpStatusQuery },
  responses: { 200: jsonContent(erpStatusOutput, "What Odoo answered"), 404: PROBLEMS[404] },
});

const modulesRoute = apiRoute({
  method: "get",
  path: "/erp/modules",
  tags: TAGS,
  summary: "Odoo's modules and their state",
  description:
    `${ABOUT} From \`ir.module.module\` (search_read, sorted by name): applications only unless \`all=true\`; ` +
    "`state` filters (`installed`, `uninstalled`...). Odoo's list is as fresh as its last app-list update. Odoo " +
    "refusing the login's access is a 403 with Odoo's message.",
  access: "user",
  module: "erp",
  request: { query: erpModulesQuery },
  responses: {
    200: jsonContent(erpModuleListOutput, "The modules"),
    403: problemResponse("Odoo refused the login (AccessDenied / AccessError; its message in `detail`)"),
    ...PROBLEMS,
  },
});

const installRoute = apiRoute({
  method: "post",
  path: "/erp/modules/install",
  tags: TAGS,
  summary: "Install an Odoo module (administrators only)",
  description:
    `${ABOUT} Spolu administrators only, on a connection they may manage; Odoo also requires its user to be an ` +
    "administrator (otherwise 403 with Odoo's AccessDenied message). Finds the module by technical name and calls " +
    "`button_immediate_install`, which installs it with its dependencies before answering (up to 10 minutes), then " +
    "answers its new state. Already installed: 200 with `changed: false`, nothing called. Odoo refusing for a " +
    "business reason (a UserError such as a scheduled job holding the lock): 409 with Odoo's message.",
  access: "admin",
  module: "erp",
  request: { body: jsonBody(installModuleInput) },
  responses: {
    200: jsonContent(installModuleOutput, "The module's state after the install"),
    403: problemResponse("Not a Spolu administrator, not a manager of the connection, or Odoo refused (its message)"),
    404: problemResponse("Odoo has no module of this name; or no such connection; or the `erp` module is off"),
    409: problemResponse("Odoo refused to install now (a UserError: its message in `detail`)"),
    503: PROBLEMS[503],
  },
});

export const erpRoutes = createRouter()
  .openapi(statusRoute, async (c) => c.json(await erpStatus(c.var.actor, c.req.valid("query").connectionId), 200))
  .openapi(modulesRoute, async (c) => c.json(await listErpModules(c.var.actor, c.req.valid("query")), 200))
  .openapi(installRoute, async (c) => c.json(await installErpModule(c.var.actor, c.req.valid("json")), 200));
