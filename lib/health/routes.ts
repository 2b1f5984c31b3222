import { z } from "@hono/zod-openapi";
import { AppError } from "../api/app-error";
import { apiRoute, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { config } from "../config";
import { openDatabase } from "../db/client";
import { errorText } from "../log";
import { redisHealth } from "../redis/client";

/** Each dependency is asked with its own limit, all at once: /readyz answers within about this long. */
const CHECK_TIMEOUT_MS = 2000;

const healthOutput = z
  .object({
    status: z.enum(["ok", "ready"]),
    checks: z
      .record(z.string(), z.literal("ok"))
      .optional()
      .openapi({ description: "On /readyz: each dependency this process needs (`database`, and `redis` when REDIS_URL is set)" }),
  })
  .openapi("Health");

const livenessRoute = apiRoute({
  method: "get",
  path: "/healthz",
  tags: ["Health"],
  summary: "The process is alive",
  description: "Answers without asking any dependency: for restarting a process that stopped answering. Not rate limited.",
  access: "public",
  limit: "none",
  responses: { 200: jsonContent(healthOutput, "Alive") },
});

const readinessRoute = apiRoute({
  method: "get",
  path: "/readyz",
  tags: ["Health"],
  summary: "Every dependency answers: the database (with every migration applied) and Redis when configured",
  description:
    "Each dependency is asked at once with its own 2-second limit, so the answer comes within about 2 s even when one " +
    'is silent. While Redis is down the process keeps serving without it (docs/operations.md, "When Redis or PostgreSQL is ' +
    'down"), but answers 503 here so that operators and balancers see the degraded state. Not rate limited.',
  access: "public",
  limit: "none",
  responses: {
    200: jsonContent(healthOutput, "Ready to serve"),
    503: problemResponse("A dependency is unreachable, silent, or migrations are pending: the detail names which"),
  },
});

function withinLimit<T>(work: Promise<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>(
      (_, reject) =>
        (timer = setTimeout(() => reject(new Error(`${what} did not answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS)),
    ),
  ]).finally(() => clearTimeout(timer));
}

/** What is wrong with each dependency, empty when everything answers. */
async function dependencyProblems(): Promise<{ checked: string[]; problems: string[] }> {
  const [database, redis] = await Promise.all([
    withinLimit(
      openDatabase().then((opened) => opened.check()),
      "The database",
    ).then(
      () => null,
      (error: unknown) => `The database is not ready: ${errorText(error)}`,
    ),
    withinLimit(redisHealth(CHECK_TIMEOUT_MS), "Redis").then(
      (health) => (health === null || health.ok ? null : `Redis is not ready: ${health.detail}`),
      (error: unknown) => `Redis is not ready: ${errorText(error)}`,
    ),
  ]);
  const checked = ["database", ...(config().REDIS_URL ? ["redis"] : [])];
  return { checked, problems: [database, redis].filter((problem): problem is string => problem !== null) };
}

export const healthRoutes = createRouter()
  .openapi(livenessRoute, (c) => c.json({ status: "ok" as const }, 200))
  .openapi(readinessRoute, async (c) => {
    const { checked, problems } = await dependencyProblems();
    if (problems.length) throw new AppError("unavailable", problems.join("; "), { retryAfterSeconds: 5 });
    return c.json({ status: "ready" as const, checks: Object.fromEntries(checked.map((name) => [name, "ok" as const])) }, 200);
  });
