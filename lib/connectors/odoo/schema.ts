import { z } from "@hono/zod-openapi";
import { statusOutput } from "../schema";

/** An `erp` connection's credentials: the Odoo login and its password or (better) an API key. */
export const odooCredentials = z.strictObject({
  login: z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters"),
  apiKey: z.string().min(1, "must not be empty").max(500, "must be at most 500 characters").openapi({
    description: "An API key (Preferences → Account Security → New API Key), or the password; JSON-2 needs an API key",
  }),
});
export type OdooCredentials = z.infer<typeof odooCredentials>;

export const ODOO_FLAVOURS = ["auto", "jsonrpc", "json2"] as const;

export const odooSettings = z.strictObject({
  database: z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters"),
  apiFlavour: z
    .enum(ODOO_FLAVOURS, { message: `must be one of ${ODOO_FLAVOURS.join(", ")}` })
    .optional()
    .openapi({
      description: "`auto` (default): JSON-2 on Odoo 19 and later, JSON-RPC before; or force one",
    }),
  projectId: z.number().int("must be a whole number").positive("must be an Odoo project id").optional().openapi({
    description: "The Odoo project (project.project id) to import tasks from and create exported tasks in",
  }),
});
export type OdooSettings = z.infer<typeof odooSettings>;

const connectionId = z.uuid("must be a connection id").optional().openapi({
  description: "Your `erp` connection to use; may be left out when you have exactly one",
});

export const erpStatusQuery = z.strictObject({ connectionId }).openapi("ErpStatusQuery");

export const erpStatusOutput = statusOutput
  .extend({
    apiFlavour: z.enum(["jsonrpc", "json2"]).nullable().openapi({ description: "The API used; null when Odoo did not answer" }),
  })
  .openapi("ErpStatus");
export type ErpStatusOutput = z.infer<typeof erpStatusOutput>;

export const MODULE_STATES = ["uninstallable", "uninstalled", "installed", "to upgrade", "to remove", "to install"] as const;

export const erpModulesQuery = z
  .strictObject({
    connectionId,
    state: z
      .enum(MODULE_STATES, { message: `must be one of ${MODULE_STATES.join(", ")}` })
      .optional()
      .openapi({ description: "Only the modules in this state" }),
    all: z
      .enum(["true", "false"], { message: "must be true or false" })
      .optional()
      .transform((value) => value === "true")
      .openapi({ type: "boolean", description: "`true`: every module; default: applications only" }),
  })
  .openapi("ErpModulesQuery");

const moduleOutput = z
  .object({
    name: z.string().openapi({ description: "Technical name (`project`)" }),
    shortdesc: z.string().openapi({ description: "Display name (`Project`)" }),
    state: z.enum(MODULE_STATES),
    latestVersion: z.string().nullable(),
    installedVersion: z.string().nullable(),
  })
  .openapi("ErpModule");
export type ErpModuleOutput = z.infer<typeof moduleOutput>;

export const erpModuleListOutput = z.object({ items: z.array(moduleOutput) }).openapi("ErpModuleList");

export const installModuleInput = z
  .strictObject({
    connectionId,
    name: z
      .string()
      .trim()
      .regex(/^[a-z0-9_]{1,100}$/, "must be a module's technical name (lower-case letters, digits, _)")
      .openapi({ example: "project_timesheet" }),
  })
  .openapi("InstallErpModuleInput");

export const installModuleOutput = z
  .object({
    name: z.string(),
    previousState: z.enum(MODULE_STATES),
    state: z.enum(MODULE_STATES),
    changed: z.boolean().openapi({ description: "false: it was installed already, nothing was called" }),
  })
  .openapi("ErpModuleInstall");
export type InstallModuleOutput = z.infer<typeof installModuleOutput>;
