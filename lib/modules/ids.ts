/** The switchable feature modules (lib/modules/registry.ts); no imports, so that lib/config.ts can use them. */
export const MODULE_IDS = [
  "gamification",
  "templates",
  "media",
  "projects",
  "family",
  "spaced-repetition",
  "time-tracking",
  "activity",
  "ai",
  "erp",
  "learning",
  "accounting",
  "deploy",
] as const;

export type ModuleId = (typeof MODULE_IDS)[number];

export function isModuleId(value: string): value is ModuleId {
  return (MODULE_IDS as readonly string[]).includes(value);
}
