import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import { config } from "../config";
import { errorText, log } from "../log";
import { redis, redisChannel, subscriberConnection } from "../redis/client";
import { MODULE_CATALOG } from "./catalog";
import { MODULE_IDS } from "./ids";
import { adminSwitches, isModuleEnabled, isModuleId, type ModuleId } from "./registry";
import { deleteModuleSetting, listModuleSettingDetails, listModuleSwitches, upsertModuleSetting } from "./repo";
import type { ModuleListOutput, ModuleOutput } from "./schema";

/*
 * Run-time switching of the feature modules. Administrators write module_settings (PUT/DELETE /admin/modules/{id});
 * every process reads it at start and every MODULE_REFRESH_MS after (one query of a few rows), and with Redis a
 * message on `<REDIS_PREFIX>modules` makes the other processes read it at once. The process that made the change
 * reads it before answering, so the administrator's next request sees it whichever way it goes.
 */

const channel = () => redisChannel("modules");

/** Reads the administrators' switches into this process's registry (adminSwitches). */
export async function refreshModuleSwitches(): Promise<void> {
  const rows = await listModuleSwitches();
  const next = new Map<ModuleId, boolean>();
  for (const row of rows) if (isModuleId(row.moduleId)) next.set(row.moduleId, row.enabled);
  const switches = adminSwitches();
  for (const id of switches.keys()) if (!next.has(id)) switches.delete(id);
  for (const [id, enabled] of next) switches.set(id, enabled);
}

export interface ModuleSync {
  stop(): Promise<void>;
}

/** Keeps this process's switches current: read now, then every `intervalMs`, and at once when Redis says so. */
export async function startModuleSync(intervalMs = config().MODULE_REFRESH_MS): Promise<ModuleSync> {
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  // One read at a time; asked again while one runs (it may have begun before the change committed), one more follows.
  const refresh = (): Promise<void> => {
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = refreshModuleSwitches()
      .catch((error: unknown) =>
        log.warn("Could not read the module switches", { error: error instanceof Error ? error.message : String(error) }),
      )
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          void refresh();
        }
      });
    return running;
  };
  await refresh();
  const timer = setInterval(() => void refresh(), intervalMs);
  timer.unref();

  // Not awaited: while Redis is down the subscription waits for it (and the timer above keeps the switches current).
  const subscriber = subscriberConnection("module switches");
  if (subscriber) {
    subscriber.on("message", () => void refresh());
    subscriber
      .subscribe(channel())
      .catch((error: unknown) => log.warn("Could not subscribe to module switches", { error: errorText(error) }));
  }
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      subscriber?.disconnect();
      await running;
    },
  };
}

/** Tells the other processes to read the switches now (they would within MODULE_REFRESH_MS anyway). */
async function announce(id: ModuleId): Promise<void> {
  await redis()
    ?.publish(channel(), id)
    .catch((error: unknown) => log.warn("Could not announce a module switch", { module: id, error: String(error) }));
}

function moduleIdOrThrow(id: string): ModuleId {
  if (!isModuleId(id)) throw new AppError("not_found", `No module ${id}: the modules are ${MODULE_IDS.join(", ")}`);
  return id;
}

async function moduleList(): Promise<ModuleOutput[]> {
  const details = new Map((await listModuleSettingDetails()).map((row) => [row.moduleId, row]));
  return MODULE_IDS.map((id) => {
    const row = details.get(id);
    return {
      id,
      ...MODULE_CATALOG[id],
      enabled: isModuleEnabled(id),
      source: row ? "administrator" : "configuration",
      configured: !config().MODULES_DISABLED.includes(id),
      updatedAt: row?.updatedAt.toISOString() ?? null,
      updatedBy: row?.updatedBy ?? null,
    };
  });
}

export async function listModules(): Promise<ModuleListOutput> {
  await refreshModuleSwitches();
  return { items: await moduleList() };
}

async function changed(id: ModuleId): Promise<ModuleOutput> {
  await refreshModuleSwitches();
  await announce(id);
  return (await moduleList()).find((module) => module.id === id)!;
}

/** An administrator switches a module on or off for the whole deployment, beating MODULES_DISABLED. */
export async function setModule(actor: Actor, id: string, enabled: boolean): Promise<ModuleOutput> {
  const moduleId = moduleIdOrThrow(id);
  await upsertModuleSetting(moduleId, enabled, actor.userId, nowDate());
  log.info("Module switched", { module: moduleId, enabled, by: actor.userId });
  return changed(moduleId);
}

/** Forgets the administrator's switch: MODULES_DISABLED decides again. */
export async function resetModule(actor: Actor, id: string): Promise<ModuleOutput> {
  const moduleId = moduleIdOrThrow(id);
  await deleteModuleSetting(moduleId);
  log.info("Module switch reset to the configuration", { module: moduleId, by: actor.userId });
  return changed(moduleId);
}
