/**
 * The task vocabulary shared by the API's schemas and the pages (plain constants: safe to import in the
 * browser bundle, unlike schema.ts which pulls in zod).
 */
export const TASK_STATUSES = ["todo", "in_progress", "done", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Sorted low < normal < high < urgent. */
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];
