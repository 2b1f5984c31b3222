import { z } from "@hono/zod-openapi";
import { AppError } from "../api/app-error";
import { apiRoute, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { openDatabase } from "../db/client";

const healthOutput = z.object({ status: z.enum(["ok", "ready"]) }).openapi("Health");

const livenessRoute = apiRoute({
  method: "get",
  path: "/healthz",
  tags: ["Health"],
  summary: "The process is alive",
  description: "Not rate limited; for load balancers and process managers.",
  access: "public",
  responses: { 200: jsonContent(healthOutput, "Alive") },
});

const readinessRoute = apiRoute({
  method: "get",
  path: "/readyz",
  tags: ["Health"],
  summary: "The database answers and every migration is applied",
  access: "public",
  responses: {
    200: jsonContent(healthOutput, "Ready to serve"),
    503: problemResponse("The database is unreachable or migrations are pending"),
  },
});

export const healthRoutes = createRouter()
  .openapi(livenessRoute, (c) => c.json({ status: "ok" as const }, 200))
  .openapi(readinessRoute, async (c) => {
    try {
      await (await openDatabase()).check();
    } catch {
      throw new AppError("unavailable", "The database is not ready", { retryAfterSeconds: 5 });
    }
    return c.json({ status: "ready" as const }, 200);
  });
