import { z } from "@hono/zod-openapi";
import { goalOutput } from "../goals/schema";
import { groupOutput } from "../groups/schema";
import { projectOutput } from "../projects/schema";
import { taskOutput } from "../tasks/schema";
import { userGroupOutput } from "../teams/schema";

/** The kinds of item a sync carries, in the order a sync sends them. */
export const SYNC_TYPES = ["task", "group", "project", "userGroup", "goal"] as const;
export type SyncType = (typeof SYNC_TYPES)[number];

export const SYNC_LIMIT_MAX = 500;

export const syncQuery = z
  .strictObject({
    cursor: z
      .string()
      .max(500)
      .optional()
      .openapi({
        description:
          "Leave out for a sync from scratch. Else the `cursor` of your last complete sync (what changed since), or " +
          "the `next` of the page before (the rest of this sync).",
        example: "eyJ2IjoxLCJzIjoiNGQ3Zj…",
      }),
    limit: z.coerce
      .number({ message: `must be a whole number from 1 to ${SYNC_LIMIT_MAX}` })
      .int(`must be a whole number from 1 to ${SYNC_LIMIT_MAX}`)
      .min(1, `must be a whole number from 1 to ${SYNC_LIMIT_MAX}`)
      .max(SYNC_LIMIT_MAX, `must be a whole number from 1 to ${SYNC_LIMIT_MAX}`)
      .default(100)
      .openapi({ type: "integer", description: `Items per page (default 100, at most ${SYNC_LIMIT_MAX})`, example: 100 }),
  })
  .openapi("SyncQuery");
export type SyncQuery = z.infer<typeof syncQuery>;

function changed<T extends string, S extends z.ZodType>(type: T, data: S, what: string) {
  return z.object({
    type: z.literal(type),
    id: z.uuid(),
    deleted: z.literal(false),
    etag: z.string().openapi({ description: `The ETag \`GET\` of the ${what} answers now (send it as \`If-Match\`)` }),
    data: data.openapi({ description: `The ${what} as its own \`GET\` answers it` }),
  });
}

const tombstone = z
  .object({
    type: z.enum(SYNC_TYPES),
    id: z.uuid(),
    deleted: z.literal(true),
  })
  .openapi("SyncTombstone", {
    description:
      "An item you held is gone for you: deleted, or no longer shared with you (you left or were removed from its " +
      "project, team or family workspace, or were unassigned). Drop it. It may name an item you never received.",
  });

export const syncItem = z
  .union([
    changed("task", taskOutput, "task"),
    changed("group", groupOutput, "group"),
    changed("project", projectOutput, "project"),
    changed("userGroup", userGroupOutput, "user group (team)"),
    changed("goal", goalOutput, "goal"),
    tombstone,
  ])
  .openapi("SyncItem", { description: "A new or changed item (`deleted: false`, with `data`), or a tombstone" });
export type SyncItem = z.infer<typeof syncItem>;

export const syncOutput = z
  .object({
    items: z.array(syncItem),
    next: z.string().nullable().openapi({
      description: "More items of this sync: send it as `cursor` at once to get them. Null on the sync's last page.",
    }),
    cursor: z
      .string()
      .nullable()
      .openapi({
        description:
          "On the sync's last page: keep it, and send it as `cursor` next time to get what changed since. Null while " +
          "`next` is not.",
      }),
  })
  .openapi("Sync");
export type SyncOutput = z.infer<typeof syncOutput>;
