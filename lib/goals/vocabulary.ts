/**
 * The goal vocabulary shared by the API's schemas and the pages (plain constants: safe to import in the browser
 * bundle, unlike schema.ts which pulls in zod).
 */
export const GOAL_STATUSES = ["active", "achieved", "paused", "abandoned"] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** `manual`: the progress is set by hand; `tasks`: derived from the linked tasks. */
export type ProgressMode = "manual" | "tasks";

export const GOAL_TITLE_MAX = 200;
export const GOAL_DESCRIPTION_MAX = 5000;
export const REPORT_NOTE_MAX = 1000;
