import { z } from "@hono/zod-openapi";
import { QUEUE_STATES } from "../db/schema/queue";

export const QUEUE_PAGE_MAX = 100;

export const listQueueItemsQuery = z
  .strictObject({
    kind: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .optional()
      .openapi({ description: "Only items of this kind (`webhook.delivery`, `connector.run`...)", example: "webhook.delivery" }),
    state: z
      .enum(QUEUE_STATES, { message: `must be one of ${QUEUE_STATES.join(", ")}` })
      .optional()
      .openapi({ description: "Only items in this state" }),
    limit: z.coerce
      .number({ message: "must be a number" })
      .int("must be a whole number")
      .min(1, "must be at least 1")
      .max(QUEUE_PAGE_MAX, `must be at most ${QUEUE_PAGE_MAX}`)
      .default(50)
      .openapi({ description: `Items per page, 1-${QUEUE_PAGE_MAX}; 50 by default` }),
    cursor: z.string().max(200).optional().openapi({ description: "`nextCursor` of the previous page" }),
  })
  .openapi("ListQueueItemsQuery");
export type ListQueueItemsQuery = z.infer<typeof listQueueItemsQuery>;

export const queueItemParams = z.object({ id: z.uuid("must be a queue item id") });

export const queueItemOutput = z
  .object({
    id: z.uuid(),
    kind: z.string().openapi({ description: "The kind of work", example: "webhook.delivery" }),
    key: z.string().openapi({ description: "The record the work is for, in its domain (a delivery id, a run id...)" }),
    state: z.enum(QUEUE_STATES).openapi({
      description:
        "`pending` until due, `running` while a process holds it, then `done`, `dead` (its last attempt failed, or it " +
        "failed for good) or `cancelled`",
    }),
    attempts: z.number().int().openapi({ description: "Attempts started so far" }),
    maxAttempts: z.number().int().openapi({ description: "After this many attempts a failure is final (dead)" }),
    runAt: z.iso.datetime().nullable().openapi({ description: "When a pending item is due; null otherwise" }),
    leaseUntil: z.iso.datetime().nullable().openapi({
      description: "Until when the process working on a running item holds it; after that another process takes it",
    }),
    lockedBy: z.string().nullable().openapi({ description: "The process holding a running item (host:pid)" }),
    lastError: z.string().nullable().openapi({ description: "Why the last attempt failed (or why it was cancelled)" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    finishedAt: z.iso.datetime().nullable(),
  })
  .openapi("QueueItem");
export type QueueItemOutput = z.infer<typeof queueItemOutput>;

export const queueItemListOutput = z
  .object({
    items: z.array(queueItemOutput).openapi({ description: "Newest first" }),
    nextCursor: z.string().nullable().openapi({ description: "Pass as `cursor` for the next page; null on the last" }),
  })
  .openapi("QueueItemList");
export type QueueItemListOutput = z.infer<typeof queueItemListOutput>;

const stateCount = z.number().int();

export const queueSummaryOutput = z
  .object({
    backoffMs: z.array(z.number().int()).openapi({
      description: "The one back-off table: the n-th failed attempt is retried this long after it (the last repeats)",
    }),
    kinds: z.array(
      z.object({
        kind: z.string(),
        maxAttempts: z.number().int().nullable().openapi({ description: "null for a kind this server's code no longer has" }),
        pending: stateCount,
        running: stateCount,
        done: stateCount,
        dead: stateCount,
        cancelled: stateCount,
      }),
    ),
  })
  .openapi("QueueSummary");
export type QueueSummaryOutput = z.infer<typeof queueSummaryOutput>;
