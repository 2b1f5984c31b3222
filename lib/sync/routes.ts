import { apiRoute, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { syncOutput, syncQuery } from "./schema";
import { sync } from "./service";

const TASK_EXAMPLE = {
  id: "7c1f6a52-3a64-4c43-9d4e-0c8a8b4f1e21",
  ownerId: "0b9d3c1e-5f6a-4b7c-8d9e-0f1a2b3c4d5e",
  groupId: "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d",
  projectId: null,
  userGroupId: null,
  title: "Buy paint",
  description: "",
  status: "todo",
  priority: "normal",
  dueAt: "2026-12-01T09:00:00.000Z",
  startDate: null,
  tags: [],
  assigneeIds: [],
  collaboratorIds: [],
  position: "a0",
  recurrence: null,
  seriesId: null,
  occurrence: 0,
  subtasks: { total: 0, done: 0 },
  completedAt: null,
  createdAt: "2026-11-27T08:00:00.000Z",
  updatedAt: "2026-11-27T08:00:00.000Z",
};

const syncRoute = apiRoute({
  method: "get",
  path: "/sync",
  tags: ["Sync"],
  summary: "Everything you can see, or what changed since your last sync (for mobile and offline clients)",
  description:
    "Without `cursor`: a sync from scratch, everything you can see: your tasks and those shared with you, your " +
    "groups and those of your family workspace (archived too), your projects (archived too), your user groups " +
    "(teams) and your goals, each item whole, as its own `GET` answers it, with its `etag` (send it as `If-Match` " +
    "to change it). Tasks come first; a task may name a group or project that comes on a later page. " +
    "With `cursor` (the one your last complete sync answered): what changed since, with tombstones " +
    "(`{ type, id, deleted: true }`) for what was deleted or is no longer shared with you; nothing changed is an " +
    "empty `items` and the same `cursor`. Paged: while `next` is not null, call again at once with " +
    "`cursor=<next>` for the rest of this sync; on its last page `next` is null and `cursor` is what to keep for " +
    "next time. Apply items by `type` and `id` (an item may come again; a tombstone may name an item you never " +
    "received). Nothing is skipped whatever order concurrent changes commit in: the server keeps what each cursor " +
    "was sent and compares. A cursor unused for 30 days (or replaced by newer syncs of the same client) expires: " +
    "410, sync again from scratch. Example session in docs/integrations.md.",
  access: "user",
  request: { query: syncQuery },
  responses: {
    200: {
      description: "A page of the sync",
      content: {
        "application/json": {
          schema: syncOutput,
          examples: {
            fromScratch: {
              summary: "First page of a sync from scratch (limit=2): more to come",
              value: {
                items: [
                  { type: "task", id: TASK_EXAMPLE.id, deleted: false, etag: '"Vq3X0dJx1mS9kQe5b7wYtA"', data: TASK_EXAMPLE },
                ],
                next: "eyJ2IjoxLCJzIjoiOWYzYi4uLiIsImIiOm51bGwsIm8iOjJ9",
                cursor: null,
              },
            },
            changesSince: {
              summary: "What changed since a cursor: a task changed, a project unshared",
              value: {
                items: [
                  {
                    type: "task",
                    id: TASK_EXAMPLE.id,
                    deleted: false,
                    etag: '"c2VlbiB0aGUgY2hhbmdlZA"',
                    data: { ...TASK_EXAMPLE, status: "done", completedAt: "2026-11-28T10:00:00.000Z" },
                  },
                  { type: "project", id: "3e2d1c0b-9a8f-4e7d-8c6b-5a4f3e2d1c0b", deleted: true },
                ],
                next: null,
                cursor: "eyJ2IjoxLCJzIjoiYjI0Yy4uLiJ9",
              },
            },
          },
        },
      },
    },
    400: problemResponse("`cursor` is not one GET /sync answered, or `limit` is out of range (the problem names the field)"),
    410: problemResponse("The cursor expired (unused for 30 days, or replaced by newer syncs): sync again without a cursor"),
  },
});

export const syncRoutes = createRouter().openapi(syncRoute, async (c) =>
  c.json(await sync(c.var.actor, c.req.valid("query")), 200),
);
