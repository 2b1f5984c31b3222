import { OpenAPIHono } from "@hono/zod-openapi";
import { accountDataRoutes } from "../lib/account-data/routes";
import { accountingRoutes } from "../lib/accounting/routes";
import { accountsRoutes } from "../lib/accounts/routes";
import { activityRoutes } from "../lib/activity/routes";
import { adminRoutes } from "../lib/admin/routes";
import { assistantRoutes } from "../lib/assistant/routes";
import { accessTokensRoutes } from "../lib/auth/access-tokens/routes";
import { sessionsRoutes } from "../lib/auth/sessions/routes";
import { calendarFeedsRoutes } from "../lib/calendar-feeds/routes";
import { collaborationRoutes } from "../lib/collaboration/routes";
import { commentsRoutes } from "../lib/comments/routes";
import { config } from "../lib/config";
import { log } from "../lib/log";
import { learningRoutes } from "../lib/connectors/moodle/routes";
import { erpRoutes } from "../lib/connectors/odoo/routes";
import { connectorsRoutes } from "../lib/connectors/routes";
import { openDatabase } from "../lib/db/client";
import { deployRoutes } from "../lib/deploy/routes";
import { emailRoutes } from "../lib/email/routes";
import { errorsRoutes } from "../lib/errors/routes";
import { recordServerError } from "../lib/errors/service";
import { familyRoutes } from "../lib/family/routes";
import { gamificationRoutes } from "../lib/gamification/routes";
import { goalsRoutes } from "../lib/goals/routes";
import { groupsRoutes } from "../lib/groups/routes";
import { healthRoutes } from "../lib/health/routes";
import { invitationsRoutes } from "../lib/invitations/routes";
import { modulesRoutes } from "../lib/modules/routes";
import { mediaRoutes } from "../lib/media/routes";
import { notificationsRoutes } from "../lib/notifications/routes";
import { oauthRoutes } from "../lib/oauth/routes";
import { projectsRoutes } from "../lib/projects/routes";
import { pushRoutes } from "../lib/push/routes";
import { queueRoutes } from "../lib/queue/routes";
import { reviewsRoutes } from "../lib/reviews/routes";
import { quickAddRoutes } from "../lib/quick-add/routes";
import { tasksRoutes } from "../lib/tasks/routes";
import { syncRoutes } from "../lib/sync/routes";
import { taskHistoryRoutes } from "../lib/task-history/routes";
import { teamsRoutes } from "../lib/teams/routes";
import { templatesRoutes } from "../lib/templates/routes";
import { timeTrackingRoutes } from "../lib/time-tracking/routes";
import { webauthnRoutes } from "../lib/webauthn/routes";
import { webhooksRoutes } from "../lib/webhooks/routes";
import { savedFiltersRoutes } from "../lib/saved-filters/routes";
import { projectBoardColumnsRoutes, teamBoardColumnsRoutes } from "../lib/board-columns/routes";
import { noteRoutePattern } from "../lib/api/access-log";
import { compressAnswers, PrecompressedBody } from "../lib/api/compression";
import { AppError } from "../lib/api/app-error";
import type { ApiEnv } from "../lib/api/env";
import { jsonBodyOnly, rateLimit, responseHeaders } from "../lib/api/middleware";
import { API_PREFIX } from "../lib/api/paths";
import { sameOriginOnly } from "../lib/api/same-origin";
import { completeDocument } from "../lib/api/openapi-document";
import { problemResponse, toAppError } from "../lib/api/problem";

const API_DESCRIPTION = `
The JSON API of Spolu. Every path below also answers without the \`/api/v1\` prefix where the interface
specification names it at the site root (\`/auth/login\`, \`/errors/report\`, \`/healthz\`...).

**Authentication.** Sign in with \`POST /api/v1/auth/login\` (or register) and send the returned JWT as
\`Authorization: Bearer <token>\`. Each sign-in is a session (\`GET /auth/sessions\`); its token is HS256, valid for
JWT_TTL_SECONDS (7 days by default), and stops working at once when its session ends: \`POST /auth/logout\`,
\`DELETE /auth/sessions/{id}\`, a password change or \`POST /auth/logout?everywhere=true\` (every session). The web
pages use the same token from an httpOnly cookie. Scripts and integrations use a personal access token instead
(\`POST /api/v1/tokens\` from a signed-in session, or the security settings page): \`Authorization: Bearer spolu_pat_…\`,
scoped \`read\` or \`write\`, working until it expires or is revoked (docs/integrations.md). A request
that changes something with the cookie must come from the app's own pages (\`Origin\`; otherwise 403 \`cross_origin_request\`).

**Errors** are RFC 9457 \`application/problem+json\` with a machine-readable \`code\`; invalid input (400) lists
every bad field in \`errors\` as a JSON Pointer with \`in\` (body, query, path). Request bodies must be
\`application/json\` (otherwise 415) and at most BODY_LIMIT_BYTES (1 MiB by default; otherwise 413), except where a
route says otherwise (media uploads take the base64 of the largest file MEDIA_MAX_*_BYTES allow). Unknown
fields are rejected. Another user's resource answers 404.

**Real-time events.** Connect socket.io to path \`/ws\` with \`auth: { token, cursor? }\` (or the session
cookie). Every committed change you may see arrives as an \`event\` message \`{ id, type, taskId, actorId, data,
createdAt }\` (\`task.created\`, \`task.updated\`, \`task.completed\`, \`task.moved\`, \`task.deleted\`, \`task.unshared\`:
drop the task, you no longer see it; \`comment.created\`, \`comment.updated\` (with \`data.comment\`), \`comment.deleted\`;
\`collaboration.*\`, \`invitation.*\`, \`notification.created\`, \`notification.read\`...); task events
carry the task as \`data.task\`. Keep the highest \`id\` you applied and send it as \`cursor\` when you reconnect: the
events you missed are sent first, then \`caught-up\` \`{ cursor }\`; an event may come twice, so apply each id once.
\`resync\` means reload (more than 1,000 missed, or a bad cursor).

**Rate limits.** Every request counts against the caller's window (keyed by the token's user, else by the
client address): 600 per 60 s by default. Registration, password change and every verify/accept endpoint have a
stricter window each (30 per 300 s by default). Password sign-in counts failures only: per account and address
(5 per 15 minutes, then 20 per day), per address (100 per hour) and per account (50 per hour). Answers, 429s
included, carry \`RateLimit-Limit\`, \`RateLimit-Remaining\` and \`RateLimit-Reset\`; a 429 carries \`Retry-After\`.

**Input.** A NUL, a lone surrogate, an ISO date outside the years 0001-9999 or JSON nested deeper than 32 levels
is a 400 naming the field, in any body, query or path parameter. Bodies may be sent with \`Content-Encoding: gzip\`
(other encodings: 415; a body that is not gzip: 400). A known path asked with another method is a 405 with \`Allow\`.

**Compression.** JSON and text answers of 1 KB or more are sent with brotli or gzip when \`Accept-Encoding\` allows
(brotli first), with \`Vary: Accept-Encoding\`; smaller ones, images and other compressed media go out as they are.

**Retries, conflicts and sync.** A signed-in \`POST\` sent again with the same \`Idempotency-Key\` (and body) within
24 hours gets the first answer again with \`Idempotent-Replayed: true\`; another body is a 422. A task, goal, group,
project or team answers an \`ETag\`: send it as \`If-Match\` on \`PATCH\` or \`DELETE\` and a change made meanwhile
is a 412 instead of being overwritten, or as \`If-None-Match\` for a 304. \`GET /sync\` pages through everything
you see, then what changed since its \`cursor\` (tombstones included); \`POST /calendar-feeds\` answers a secret
iCalendar address of your open dated tasks. Examples in docs/integrations.md.

**Operations.** \`GET /metrics\` (Prometheus text format, \`Authorization: Bearer <METRICS_TOKEN>\`, 404 while
METRICS_TOKEN is unset) is an operational endpoint outside this API: not rate limited, and each process answers with
its own figures. Settings such as METRICS_TOKEN come from the environment or from a \`.env\` file in the server's
working directory (a line \`METRICS_TOKEN=…\`; a variable set in the environment wins), read at start.
`;

/**
 * The methods each path answers, from the app's route table: a known path asked with another method is a 405 with
 * `Allow` (RFC 9110 §15.5.6), not a 404. HEAD goes with GET (Hono answers it with the GET handler).
 */
function methodTable(routes: readonly { method: string; path: string }[]): (path: string) => string[] {
  let table: { pattern: RegExp; methods: Set<string> }[] | undefined;
  return (path) => {
    if (!table) {
      const byPath = new Map<string, Set<string>>();
      for (const route of routes) {
        if (route.method === "ALL") continue;
        const methods = byPath.get(route.path) ?? new Set<string>();
        for (const method of route.method === "GET" ? ["GET", "HEAD"] : [route.method]) methods.add(method);
        byPath.set(route.path, methods);
      }
      table = [...byPath].map(([routePath, methods]) => ({
        pattern: new RegExp(`^${routePath.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/:\w+/g, "[^/]+")}/?$`),
        methods,
      }));
    }
    const methods = new Set(table.filter((entry) => entry.pattern.test(path)).flatMap((entry) => [...entry.methods]));
    return [...methods].sort();
  };
}

/**
 * The document /openapi.json serves, built from the app's routes without a request or a database (scripts/api-types.ts
 * generates the web app's typed client from it).
 */
export function openApiDocument(app: OpenAPIHono<ApiEnv>) {
  return completeDocument(
    app.getOpenAPI31Document({
      openapi: "3.1.0",
      info: { title: "Spolu API", version: "1.0.0", description: API_DESCRIPTION.trim() },
      servers: [{ url: "/", description: "This server" }],
    }),
  );
}

/** Builds the API: shared middleware, every domain's routes under /api/v1, the OpenAPI document. */
export function createApiApp() {
  const app = new OpenAPIHono<ApiEnv>();

  app.use("*", noteRoutePattern, responseHeaders, compressAnswers);
  // Liveness and readiness answer before the database and the rate limiter.
  app.route(API_PREFIX, healthRoutes);
  app.use("*", async (_c, next) => {
    await openDatabase();
    await next();
  });
  app.use(`${API_PREFIX}/*`, sameOriginOnly, jsonBodyOnly(config().BODY_LIMIT_BYTES), rateLimit("general"));

  app.route(API_PREFIX, accountsRoutes);
  app.route(API_PREFIX, sessionsRoutes);
  app.route(API_PREFIX, accessTokensRoutes);
  app.route(API_PREFIX, accountDataRoutes);
  app.route(API_PREFIX, webauthnRoutes);
  app.route(API_PREFIX, errorsRoutes);
  app.route(API_PREFIX, groupsRoutes);
  app.route(API_PREFIX, teamsRoutes);
  app.route(API_PREFIX, quickAddRoutes);
  app.route(API_PREFIX, tasksRoutes);
  app.route(API_PREFIX, collaborationRoutes);
  app.route(API_PREFIX, commentsRoutes);
  app.route(API_PREFIX, taskHistoryRoutes);
  app.route(API_PREFIX, projectsRoutes);
  app.route(API_PREFIX, familyRoutes);
  app.route(API_PREFIX, invitationsRoutes);
  app.route(API_PREFIX, notificationsRoutes);
  app.route(API_PREFIX, pushRoutes);
  app.route(API_PREFIX, emailRoutes);
  app.route(API_PREFIX, webhooksRoutes);
  app.route(API_PREFIX, goalsRoutes);
  app.route(API_PREFIX, mediaRoutes);
  app.route(API_PREFIX, assistantRoutes);
  app.route(API_PREFIX, activityRoutes);
  app.route(API_PREFIX, connectorsRoutes);
  app.route(API_PREFIX, reviewsRoutes);
  app.route(API_PREFIX, erpRoutes);
  app.route(API_PREFIX, learningRoutes);
  app.route(API_PREFIX, templatesRoutes);
  app.route(API_PREFIX, timeTrackingRoutes);
  app.route(API_PREFIX, calendarFeedsRoutes);
  app.route(API_PREFIX, savedFiltersRoutes);
  app.route(API_PREFIX, projectBoardColumnsRoutes);
  app.route(API_PREFIX, teamBoardColumnsRoutes);
  app.route(API_PREFIX, syncRoutes);
  app.route(API_PREFIX, gamificationRoutes);
  app.route(API_PREFIX, accountingRoutes);
  app.route(API_PREFIX, queueRoutes);
  app.route(API_PREFIX, deployRoutes);
  app.route(API_PREFIX, adminRoutes);
  app.route(API_PREFIX, modulesRoutes);
  // Last: `/auth/{provider}` must not catch the fixed `/auth/...` paths above.
  app.route(API_PREFIX, oauthRoutes);

  app.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
  });
  app.openAPIRegistry.registerComponent("parameters", "IdempotencyKey", {
    name: "Idempotency-Key",
    in: "header",
    required: false,
    description:
      "Any unique string (a UUID), at most 255 visible ASCII characters. Sent again with the same body within 24 hours, " +
      "the first answer comes back (with `Idempotent-Replayed: true`) and nothing is done twice; with another body, a 422 " +
      "`idempotency_key_reused`; while the first is still running, the repeat waits for its answer (up to 10 s, then " +
      "409 `idempotency_in_progress`). Per user. See docs/integrations.md.",
    schema: { type: "string", minLength: 1, maxLength: 255 },
    example: "5f0c7a8e-2b0d-4d5e-9a5b-3f3c1e2d4b6a",
  });
  app.openAPIRegistry.registerComponent("headers", "IdempotentReplayed", {
    description: "`true` when this is the kept answer of an earlier request with the same Idempotency-Key",
    schema: { type: "string", enum: ["true"] },
  });
  app.openAPIRegistry.registerComponent("headers", "ETag", {
    description:
      "The resource's entity tag (a hash of what the answer shows): send it back as `If-Match` to change the resource " +
      "only if nobody changed it meanwhile (else 412), or as `If-None-Match` to read it only if it changed (else 304)",
    schema: { type: "string" },
    example: '"q1w2e3r4t5y6u7i8o9p0aZ"',
  });
  const integer = (description: string, example: number) => ({
    description,
    schema: { type: "integer" as const, minimum: 0 },
    example,
  });
  app.openAPIRegistry.registerComponent(
    "headers",
    "RateLimitLimit",
    integer("How many requests the caller's current window allows (RATE_LIMIT_POINTS, 600 by default)", 600),
  );
  app.openAPIRegistry.registerComponent("headers", "RateLimitRemaining", integer("How many are left in the window", 599));
  app.openAPIRegistry.registerComponent("headers", "RateLimitReset", integer("Seconds until the window starts again", 60));
  app.openAPIRegistry.registerComponent(
    "headers",
    "RetryAfter",
    integer("Seconds to wait before trying again (RFC 9110 §10.2.3): on a 429, a 503 and a 409 `idempotency_in_progress`", 30),
  );
  app.openAPIRegistry.registerComponent("headers", "XRequestId", {
    description:
      "The request's id: the caller's own `X-Request-Id` when it is 1-128 letters, digits or `_.:-`, else a new UUID. " +
      "Every answer carries it (problem answers also as `requestId`), and the server's logs name it.",
    schema: { type: "string" },
    example: "3f1c2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f",
  });
  // The document (637 KB) is built once, and each compressed form of it is made once (lib/api/compression.ts).
  let document: PrecompressedBody | undefined;
  app.get(`${API_PREFIX}/openapi.json`, async (c) => {
    document ??= new PrecompressedBody(Buffer.from(JSON.stringify(openApiDocument(app))));
    const sent = await document.for(c.req.header("accept-encoding"));
    const headers: Record<string, string> = {
      "Content-Type": "application/json; charset=utf-8",
      ETag: sent.etag,
      Vary: "Accept-Encoding",
      "Cache-Control": "no-cache",
    };
    const match = c.req.header("if-none-match");
    if (match && (match.trim() === "*" || match.split(",").some((tag) => tag.trim().replace(/^W\//, "") === sent.etag))) {
      return c.body(null, 304, headers);
    }
    if (sent.encoding) headers["Content-Encoding"] = sent.encoding;
    headers["Content-Length"] = String(sent.body.byteLength);
    return c.body(new Uint8Array(sent.body), 200, headers);
  });

  const allowedMethods = methodTable(app.routes);
  app.notFound((c) => {
    const allow = allowedMethods(c.req.path);
    if (allow.length > 0) {
      return problemResponse(
        c,
        new AppError("method_not_allowed", `${c.req.path} does not answer ${c.req.method}: use ${allow.join(", ")}`, { allow }),
      );
    }
    return problemResponse(c, new AppError("not_found", `No API route ${c.req.method} ${c.req.path}`));
  });
  app.onError(async (error, c) => {
    const appError = toAppError(error);
    if (appError.code === "unavailable" && !(error instanceof AppError)) {
      // A dependency is down: the error log lives in the database, which may be the one that is down.
      log.warn("Answered 503: a dependency is unavailable", {
        route: c.req.routePath || c.req.path,
        requestId: c.get("requestId"),
        detail: appError.message,
      });
      // Only the unexpected is a server error to record: a designed answer (501 for a placeholder, 503 while a
      // dependency is away) is thrown as an AppError on purpose.
    } else if (appError.status >= 500 && !(error instanceof AppError)) {
      await recordServerError(error, {
        method: c.req.method,
        route: c.req.routePath || c.req.path,
        status: appError.status,
        requestId: c.get("requestId"),
        userId: c.get("actor")?.userId,
      });
    }
    return problemResponse(c, appError);
  });
  return app;
}

const APP = Symbol.for("spolu.api-app");
type Holder = { [APP]?: ReturnType<typeof createApiApp> };

/** The process's API app (built on first use, after the configuration is loaded). */
export function apiApp() {
  return ((globalThis as Holder)[APP] ??= createApiApp());
}
