import { config } from "../config";
import type { ModuleId } from "./ids";

/*
 * The switchable feature modules (issue 9). Each is on unless the operator lists it in MODULES_DISABLED, and an
 * administrator can switch it at run time (lib/modules/service.ts keeps every process's `overrides` up to date).
 * A disabled module's routes answer 404 `module_disabled` (`apiRoute({ module })`), its jobs and event handlers
 * do not run (`Job.module`, `onEvent(..., { module })`), its pages answer 404 and its menu entries disappear
 * (`isModuleEnabled`). Its data stays, and is there again when it is enabled.
 */

export { MODULE_IDS, isModuleId, type ModuleId } from "./ids";

const OVERRIDES = Symbol.for("spolu.moduleOverrides");
type Holder = { [OVERRIDES]?: Map<ModuleId, boolean> };

/** An administrator's choices, read from the database by lib/modules/service.ts; they beat the configuration. */
export function moduleOverrides(): Map<ModuleId, boolean> {
  return ((globalThis as Holder)[OVERRIDES] ??= new Map());
}

/** Whether a module is on in this process now: the administrator's choice, else MODULES_DISABLED. */
export function isModuleEnabled(id: ModuleId): boolean {
  return moduleOverrides().get(id) ?? !config().MODULES_DISABLED.includes(id);
}
