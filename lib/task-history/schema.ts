import { z } from "@hono/zod-openapi";

export const HISTORY_PAGE_MAX = 100;

export const HISTORY_FIELDS = [
  "title",
  "description",
  "status",
  "priority",
  "dueAt",
  "startDate",
  "tags",
  "assignees",
  "collaborators",
  "groupId",
  "projectId",
  "userGroupId",
  "recurrence",
] as const;
export type HistoryField = (typeof HISTORY_FIELDS)[number];

const person = z.object({ id: z.uuid(), name: z.string() });

export const HISTORY_KINDS = [
  "created",
  "updated",
  "completed",
  "moved",
  "commented",
  "commentEdited",
  "commentDeleted",
] as const;

export const historyEntry = z
  .object({
    id: z.string().openapi({ description: "The event's id in the log" }),
    kind: z.enum(HISTORY_KINDS).openapi({
      description:
        "`created`; `updated` (fields changed); `completed` (an update that set the status to done); `moved` (on the " +
        "board, maybe into another column); `commented`, `commentEdited`, `commentDeleted`",
    }),
    at: z.iso.datetime(),
    actor: person.nullable().openapi({ description: "Who did it; null for the service itself or a deleted account" }),
    changes: z
      .array(
        z.object({
          field: z.enum(HISTORY_FIELDS),
          from: z.unknown().openapi({ description: "The value before (assignees and collaborators: people by name)" }),
          to: z.unknown().openapi({ description: "The value after" }),
        }),
      )
      .openapi({ description: "What an update or move changed, from what to what (empty for other kinds)" }),
    commentId: z.uuid().nullable().openapi({ description: "The comment a comment entry is about" }),
  })
  .openapi("TaskHistoryEntry");
export type HistoryEntry = z.infer<typeof historyEntry>;

export const historyOutput = z
  .object({
    items: z.array(historyEntry),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for older entries; null on the last page" }),
  })
  .openapi("TaskHistory", {
    example: {
      items: [
        {
          id: "4812",
          kind: "updated",
          at: "2026-11-27T09:30:00.000Z",
          actor: { id: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f", name: "Jana Nováková" },
          changes: [{ field: "dueAt", from: "2026-11-28T17:00:00.000Z", to: "2026-11-30T17:00:00.000Z" }],
          commentId: null,
        },
        {
          id: "4790",
          kind: "created",
          at: "2026-11-26T15:02:00.000Z",
          actor: { id: "6f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f", name: "Jana Nováková" },
          changes: [],
          commentId: null,
        },
      ],
      nextCursor: null,
    },
  });
export type HistoryOutput = z.infer<typeof historyOutput>;

export const historyQuery = z.object({
  cursor: z.string().max(100).optional().openapi({ description: "`nextCursor` of the previous page" }),
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(HISTORY_PAGE_MAX)
    .default(50)
    .openapi({ description: `Entries per page, 1-${HISTORY_PAGE_MAX} (default 50)` }),
});
export type HistoryQuery = z.infer<typeof historyQuery>;
