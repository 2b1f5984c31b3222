import { z } from "@hono/zod-openapi";

/** What a client sends when it reports one of its own errors. The whole body is capped at 16 KiB. */
export const errorReportInput = z
  .strictObject({
    message: z.string().trim().min(1, "is required").max(2000),
    stack: z.string().max(8000).optional(),
    url: z.string().max(2048).optional().openapi({ description: "The page or screen the error happened on" }),
    component: z.string().max(200).optional(),
    context: z
      .record(z.string().max(100), z.union([z.string().max(500), z.number(), z.boolean(), z.null()]))
      .refine((value) => Object.keys(value).length <= 20, "must have at most 20 entries")
      .optional()
      .openapi({ description: "Up to 20 flat key/value pairs (app version, device...)" }),
  })
  .openapi("ErrorReportInput");
export type ErrorReportInput = z.infer<typeof errorReportInput>;
export const ERROR_REPORT_MAX_BYTES = 16 * 1024;

export const errorLogOutput = z
  .object({
    id: z.uuid(),
    createdAt: z.iso.datetime(),
    source: z.enum(["server", "client"]),
    status: z.number().int().nullable(),
    method: z.string().nullable(),
    route: z.string().nullable(),
    requestId: z.string().nullable(),
    userId: z.uuid().nullable(),
    message: z.string(),
    stack: z.string().nullable(),
    userAgent: z.string().nullable(),
    context: z.record(z.string(), z.unknown()).nullable(),
  })
  .openapi("ErrorLog");
export type ErrorLogOutput = z.infer<typeof errorLogOutput>;

export const recentErrorsQuery = z.strictObject({
  limit: z.coerce.number().int().min(1).max(200).default(50).openapi({ description: "At most 200" }),
  source: z
    .enum(["server", "client"])
    .optional()
    .openapi({ description: "Only the server's errors, or only the browsers' reports" }),
});
export type RecentErrorsQuery = z.infer<typeof recentErrorsQuery>;

export const errorStatsQuery = z.strictObject({
  days: z.coerce.number().int().min(1).max(90).default(7).openapi({ description: "How many days back (1-90)" }),
});

const count = z.number().int();
export const errorStatsOutput = z
  .object({
    since: z.iso.datetime(),
    total: count,
    byRoute: z.array(z.object({ route: z.string().nullable(), count })),
    byStatus: z.array(z.object({ status: z.number().int().nullable(), count })),
    byDay: z.array(z.object({ day: z.iso.date(), count })),
  })
  .openapi("ErrorStats");
export type ErrorStatsOutput = z.infer<typeof errorStatsOutput>;
