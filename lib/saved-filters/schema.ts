import { z } from "@hono/zod-openapi";
import { LIST_SORTS, TASK_STATUSES, TASK_VIEWS } from "../tasks/vocabulary";

/** The most saved filters one person keeps. */
export const SAVED_FILTERS_MAX = 50;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const isDay = (value: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(value) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/**
 * The task list page's query parameters (components/tasks/list/filters.ts reads them), each with its check: what
 * a saved filter may hold. `status` may repeat; the others come once.
 */
const LIST_PARAMETERS: Record<string, { check: (value: string) => boolean; expected: string; repeats?: boolean }> = {
  view: { check: (value) => (TASK_VIEWS as readonly string[]).includes(value), expected: TASK_VIEWS.join(" or ") },
  status: {
    check: (value) => value.split(",").every((status) => (TASK_STATUSES as readonly string[]).includes(status)),
    expected: `statuses among ${TASK_STATUSES.join(", ")}`,
    repeats: true,
  },
  group: { check: (value) => UUID.test(value), expected: "a group id" },
  assignee: { check: (value) => value === "me", expected: "me" },
  from: { check: isDay, expected: "a date such as 2026-12-01" },
  until: { check: isDay, expected: "a date such as 2026-12-01" },
  tag: { check: (value) => value.trim().length > 0 && value.length <= 50 && !value.includes(","), expected: "a tag" },
  q: { check: (value) => value.trim().length > 0 && value.length <= 200, expected: "1 to 200 characters" },
  sort: { check: (value) => (LIST_SORTS as readonly string[]).includes(value), expected: LIST_SORTS.join(", ") },
};

/** What is wrong with a list query string, or null when the task list takes it. */
function listQueryProblem(query: string): string | null {
  const search = new URLSearchParams(query);
  for (const name of new Set(search.keys())) {
    const parameter = LIST_PARAMETERS[name];
    if (!parameter) return `has an unknown filter "${name}" (known: ${Object.keys(LIST_PARAMETERS).join(", ")})`;
    const values = search.getAll(name);
    if (values.length > 1 && !parameter.repeats) return `has "${name}" more than once`;
    if (!values.every(parameter.check)) return `has a bad "${name}": expected ${parameter.expected}`;
  }
  return null;
}

const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .openapi({ description: "What you call it", example: "Home this week" });

const query = z
  .string()
  .max(2000, "must be at most 2000 characters")
  .transform((text) => text.replace(/^\?/, ""))
  .superRefine((text, context) => {
    const problem = listQueryProblem(text);
    if (problem) context.addIssue({ code: "custom", message: problem });
  })
  .openapi({
    description:
      "The task list page's query string (`/{locale}/tasks?<query>`), with or without the `?`: `view` (today, " +
      "upcoming), `status` (comma-separated or repeated), `group` (a group id), `assignee` (me), `from` and `until` " +
      "(due dates, YYYY-MM-DD), `tag`, `q` (words) and `sort`. Empty: all tasks.",
    example: "status=todo&tag=home&sort=dueAt",
  });

export const createSavedFilterInput = z.strictObject({ name, query }).openapi("CreateSavedFilter");
export type CreateSavedFilterInput = z.infer<typeof createSavedFilterInput>;

export const updateSavedFilterInput = z
  .strictObject({ name: name.optional(), query: query.optional() })
  .openapi("UpdateSavedFilter");
export type UpdateSavedFilterInput = z.infer<typeof updateSavedFilterInput>;

export const savedFilterIdParams = z.object({
  id: z.uuid("must be a saved filter id").openapi({ example: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b" }),
});

export const savedFilterOutput = z
  .object({
    id: z.uuid(),
    name: z.string(),
    query: z.string().openapi({ description: "The task list page's query string, without the `?`" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("SavedFilter", {
    example: {
      id: "6f1c2a8e-3b7d-4e5f-9a0b-1c2d3e4f5a6b",
      name: "Home this week",
      query: "status=todo&tag=home&sort=dueAt",
      createdAt: "2026-11-27T10:00:00.000Z",
      updatedAt: "2026-11-27T10:00:00.000Z",
    },
  });
export type SavedFilterOutput = z.infer<typeof savedFilterOutput>;

export const savedFilterListOutput = z.object({ items: z.array(savedFilterOutput) }).openapi("SavedFilterList");
export type SavedFilterListOutput = z.infer<typeof savedFilterListOutput>;
