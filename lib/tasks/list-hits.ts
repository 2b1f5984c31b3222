import type { IncomingMessage, ServerResponse } from "node:http";
import { JSON_UTF8, rateLimitHeaders, requestIdFor, SECURITY_HEADERS } from "../api/middleware";
import { actorFromClaims, tokenFromRequest } from "../auth/actor";
import { verifySessionToken } from "../auth/tokens";
import { limiter } from "../rate-limit/limiter";
import { cachedTaskList } from "./service";

/*
 * `GET /api/v1/tasks` cache hits, answered by server.ts before the request reaches Hono. A hit needs only the
 * session check, the cache lookup and the rate-limit count; Hono's routing, context and middleware chain were
 * most of the rest of its cost (docs/performance.md). The answer is the one the route gives (same headers, same
 * bytes). Anything that is not a plain hit (no or a bad token, a miss, the rate limit passed, an error) is left
 * to the API, which answers it as usual.
 */

/** What the cache said for requests that missed here, so that the route does not ask the cache again. */
const missed = new WeakMap<IncomingMessage, number>();

/** The cache generation this request's lookup saw on the fast path, if it missed there. */
export function generationSeenBefore(request: IncomingMessage | undefined): number | undefined {
  return request ? missed.get(request) : undefined;
}

/** Answers a cache hit of the task list; false when the request must go to the API instead. */
export async function answerTaskListHit(request: IncomingMessage, response: ServerResponse, queryString: string): Promise<boolean> {
  try {
    const token = tokenFromRequest(request.headers.authorization, request.headers.cookie);
    if (!token) return false;
    const actor = await actorFromClaims(await verifySessionToken(token));
    if (!actor) return false;
    const cached = await cachedTaskList(actor, queryString);
    if (!cached.hit) {
      missed.set(request, cached.generation);
      return false;
    }
    // The API keys the general limit by the token's user, as here; over the limit, it answers the 429.
    const limit = await limiter("general").consume(`user:${actor.userId}`);
    const given = request.headers["x-request-id"];
    const headers: [string, string][] = [
      ["X-Request-Id", requestIdFor(Array.isArray(given) ? given.join(", ") : given)],
      ...SECURITY_HEADERS,
      ...rateLimitHeaders(limit),
      ["Content-Type", JSON_UTF8],
      ["X-Cache", "HIT"],
      ["Content-Length", String(cached.body.length)],
    ];
    response.writeHead(200, headers.flat());
    response.end(cached.body);
    return true;
  } catch {
    return false;
  }
}
