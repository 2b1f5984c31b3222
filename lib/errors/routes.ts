import { bodyLimit } from "hono/body-limit";
import { AppError } from "../api/app-error";
import { apiRoute, jsonBody, jsonContent } from "../api/route";
import { createRouter } from "../api/router";
import { z } from "@hono/zod-openapi";
import {
  ERROR_REPORT_MAX_BYTES,
  errorLogOutput,
  errorReportInput,
  errorStatsOutput,
  errorStatsQuery,
  recentErrorsQuery,
} from "./schema";
import { errorStats, recentErrors, reportClientError } from "./service";
import { requestHeader } from "../api/request-header";

const reportRoute = apiRoute({
  method: "post",
  path: "/errors/report",
  tags: ["Errors"],
  summary: "Report a client-side error",
  description:
    `Works without sign-in (a valid token links the report to the user). Body at most ${ERROR_REPORT_MAX_BYTES} bytes ` +
    "(413 beyond). Limited per client address, signed in or not: ERROR_REPORT_LIMIT_POINTS reports per " +
    "ERROR_REPORT_LIMIT_WINDOW_SECONDS (10 per 10 minutes by default), then 429.",
  access: "optional",
  limit: "error-report",
  middleware: [
    bodyLimit({
      maxSize: ERROR_REPORT_MAX_BYTES,
      onError: () => {
        throw new AppError("payload_too_large", `An error report is at most ${ERROR_REPORT_MAX_BYTES} bytes`);
      },
    }),
  ],
  request: { body: jsonBody(errorReportInput) },
  responses: { 202: { description: "Recorded" } },
});

const recentRoute = apiRoute({
  method: "get",
  path: "/errors/recent",
  tags: ["Errors"],
  summary: "Recent errors, newest first (admins)",
  access: "admin",
  request: { query: recentErrorsQuery },
  responses: { 200: jsonContent(z.array(errorLogOutput), "Recent server and client errors") },
});

const statsRoute = apiRoute({
  method: "get",
  path: "/errors/stats",
  tags: ["Errors"],
  summary: "Error counts by route, status and UTC day (admins)",
  access: "admin",
  request: { query: errorStatsQuery },
  responses: { 200: jsonContent(errorStatsOutput, "Counts over the last `days` days") },
});

export const errorsRoutes = createRouter()
  .openapi(reportRoute, async (c) => {
    const meta = { requestId: c.var.requestId, userAgent: requestHeader(c, "user-agent") };
    await reportClientError(c.get("actor"), c.req.valid("json"), meta);
    return c.body(null, 202);
  })
  .openapi(recentRoute, async (c) => c.json(await recentErrors(c.req.valid("query")), 200))
  .openapi(statsRoute, async (c) => c.json(await errorStats(c.req.valid("query").days), 200));
