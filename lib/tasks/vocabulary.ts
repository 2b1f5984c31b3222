/**
 * The task vocabulary shared by the API's schemas and the pages (plain constants: safe to import in the
 * browser bundle, unlike schema.ts which pulls in zod).
 */
export const TASK_STATUSES = ["todo", "in_progress", "done", "cancelled"] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** Sorted low < normal < high < urgent. */
export const PRIORITIES = ["low", "normal", "high", "urgent"] as const;
export type Priority = (typeof PRIORITIES)[number];

/**
 * The task list page's URL (`/en/tasks?status=todo&q=milk`): its orders, the first the default, and its views.
 * Saved filters (lib/saved-filters) keep such URLs' query strings and are checked against the same words.
 */
export const LIST_SORTS = ["-createdAt", "dueAt", "-priority", "-updatedAt", "position"] as const;
export const TASK_VIEWS = ["today", "upcoming"] as const;
