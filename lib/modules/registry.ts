import { config } from "../config";
import type { ModuleId } from "./ids";

/*
 * The switchable feature modules (issue 9). Each is on unless the operator lists it in MODULES_DISABLED, and an
 * administrator can switch it at run time (lib/modules/service.ts keeps every process's `adminSwitches` up to date
 * from the module_settings table, within MODULE_REFRESH_MS, at once with Redis).
 * A disabled module's routes answer 404 `module_disabled` (`apiRoute({ module })`), its jobs and event handlers
 * do not run (`Job.module`, `onEvent(..., { module })`), its pages answer 404 (`requirePageModule`) and its menu
 * entries disappear (`isModuleEnabled`). Its data stays, and is there again when it is enabled.
 */

export { MODULE_IDS, isModuleId, type ModuleId } from "./ids";

const OVERRIDES = Symbol.for("spolu.moduleOverrides");
const SWITCHES = Symbol.for("spolu.moduleAdminSwitches");
type Holder = { [OVERRIDES]?: Map<ModuleId, boolean>; [SWITCHES]?: Map<ModuleId, boolean> };

/**
 * This process's own overrides, above everything else and never written by the database sync: for tests that
 * switch a module without going through the admin API (set it, and delete it afterwards).
 */
export function moduleOverrides(): Map<ModuleId, boolean> {
  return ((globalThis as Holder)[OVERRIDES] ??= new Map());
}

/** The administrators' switches as last read from module_settings (lib/modules/service.ts writes it). */
export function adminSwitches(): Map<ModuleId, boolean> {
  return ((globalThis as Holder)[SWITCHES] ??= new Map());
}

/** Whether a module is on in this process now: a test override, else the administrator's switch, else MODULES_DISABLED. */
export function isModuleEnabled(id: ModuleId): boolean {
  return moduleOverrides().get(id) ?? adminSwitches().get(id) ?? !config().MODULES_DISABLED.includes(id);
}
