import { notFound } from "next/navigation";
import { isModuleEnabled, type ModuleId } from "@/lib/modules/registry";

/**
 * For the page of a feature module (lib/modules/registry.ts): the ordinary 404 page while the module is switched
 * off, for everyone, signed in or not. Call it first thing in the page (after the locale check), before anything
 * that redirects or reads data.
 */
export function requirePageModule(id: ModuleId): void {
  if (!isModuleEnabled(id)) notFound();
}
