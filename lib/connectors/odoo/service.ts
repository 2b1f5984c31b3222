import { AppError } from "../../api/app-error";
import type { Actor } from "../../auth/actor";
import { ConnectorError } from "../http";
import { checkVisible, connectionOfKind, driverContext, type Visible } from "../service";
import { OdooClient, OdooError } from "./client";
import type { ErpModuleOutput, ErpStatusOutput, InstallModuleOutput, OdooCredentials, OdooSettings } from "./schema";
import { MODULE_STATES } from "./schema";
import type { SyncContext } from "../driver";

/*
 * The ERP routes (GET /erp/status, GET /erp/modules, POST /erp/modules/install) on one of the caller's `erp`
 * connections. Odoo's refusals become problems: AccessDenied/AccessError 403 with Odoo's message, a UserError
 * (say "a cron job holds the lock") 409, Odoo unreachable or failing 503.
 */

/** How long a module install may take: Odoo installs synchronously and reloads its registry. */
export const INSTALL_TIMEOUT_MS = 10 * 60_000;

type ModuleState = (typeof MODULE_STATES)[number];

interface ModuleRecord {
  id: number;
  name: string;
  shortdesc: string | false;
  state: ModuleState;
  latest_version: string | false;
  installed_version: string | false;
}

const MODULE_FIELDS = ["name", "shortdesc", "state", "latest_version", "installed_version"];

async function clientFor(visible: Visible): Promise<OdooClient> {
  return new OdooClient((await driverContext(visible)) as SyncContext<OdooCredentials, OdooSettings>);
}

/** Turns what Odoo (or the way to it) answered into the problem the caller gets. */
function asProblem(error: unknown): never {
  if (error instanceof OdooError && error.denied) throw new AppError("forbidden", error.message);
  if (error instanceof OdooError && error.refused) throw new AppError("conflict", error.message);
  if (error instanceof ConnectorError) throw new AppError("unavailable", error.message);
  throw error;
}

export async function erpStatus(actor: Actor, connectionId?: string): Promise<ErpStatusOutput> {
  const status = await checkVisible(await connectionOfKind(actor, "erp", connectionId));
  const flavour = status.details.apiFlavour;
  return { ...status, apiFlavour: flavour === "jsonrpc" || flavour === "json2" ? flavour : null };
}

export async function listErpModules(
  actor: Actor,
  query: { connectionId?: string; state?: ModuleState; all: boolean },
): Promise<{ items: ErpModuleOutput[] }> {
  const client = await clientFor(await connectionOfKind(actor, "erp", query.connectionId));
  const domain = [...(query.all ? [] : [["application", "=", true]]), ...(query.state ? [["state", "=", query.state]] : [])];
  try {
    const records = await client.searchRead<ModuleRecord>("ir.module.module", domain, MODULE_FIELDS, { order: "name" });
    return {
      items: records.map((record) => ({
        name: record.name,
        shortdesc: record.shortdesc || record.name,
        state: record.state,
        latestVersion: record.latest_version || null,
        installedVersion: record.installed_version || null,
      })),
    };
  } catch (error) {
    asProblem(error);
  }
}

/**
 * Installs a module now (`button_immediate_install`). Spolu administrators only (the route's access), on a
 * connection they manage; Odoo also checks its user (administrators only: AccessDenied otherwise).
 */
export async function installErpModule(
  actor: Actor,
  input: { connectionId?: string; name: string },
): Promise<InstallModuleOutput> {
  const client = await clientFor(await connectionOfKind(actor, "erp", input.connectionId, true));
  try {
    const find = () =>
      client.searchRead<ModuleRecord>("ir.module.module", [["name", "=", input.name]], ["id", "state"], { limit: 1 });
    const [found] = await find();
    if (!found) throw new AppError("not_found", `Odoo has no module named ${input.name} (refresh its app list?)`);
    if (found.state === "installed") return { name: input.name, previousState: found.state, state: found.state, changed: false };
    await client.call(
      { model: "ir.module.module", method: "button_immediate_install", ids: [found.id] },
      { timeoutMs: INSTALL_TIMEOUT_MS },
    );
    const [after] = await find();
    return { name: input.name, previousState: found.state, state: after?.state ?? found.state, changed: true };
  } catch (error) {
    if (error instanceof AppError) throw error;
    asProblem(error);
  }
}
