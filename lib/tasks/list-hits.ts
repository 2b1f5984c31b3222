import type { IncomingMessage, ServerResponse } from "node:http";
import { getQueryParams } from "hono/utils/url";
import { chooseEncoding, COMPRESS_MIN_BYTES, compressBody, type Encoding } from "../api/compression";
import { queryProblems } from "../api/input-guard";
import { JSON_UTF8, rateLimitHeaders, requestIdFor, securityHeaders } from "../api/middleware";
import { actorFromClaims, claimsOfToken, tokenFromRequest } from "../auth/actor";
import { limiter } from "../rate-limit/limiter";
import { listTasksQuery } from "./schema";
import { cachedTaskList, listTasks, storeEncodedTaskList } from "./service";

/*
 * `GET /api/v1/tasks`, answered by server.ts before the request reaches Hono when it is a plain request of a
 * signed-in user: a cache hit, or a miss whose query string passes the route's own validation. Such a request needs
 * only the session check, the cache, the rate-limit count and (on a miss) the list query; Hono's routing, context and
 * middleware chain were most of the rest of a hit's cost and about 13 % of a miss's (docs/performance.md). The
 * answer is the one the route gives (same headers, same bytes). Anything else (no or a bad token, a query string the
 * route would answer with a 400, the rate limit passed, an error) is left to the API, which answers it as usual.
 */

/** What the cache said for requests that went on to the API after a miss here, so that the route does not ask again. */
const missed = new WeakMap<IncomingMessage, number>();

/** The cache generation this request's lookup saw on the fast path, if it missed there. */
export function generationSeenBefore(request: IncomingMessage | undefined): number | undefined {
  return request ? missed.get(request) : undefined;
}

/**
 * The query string as the route's validator sees it: Hono's own parsing of the query (`c.req.queries()`, a name
 * given once is a string, given more often an array), the rules of every request (lib/api/input-guard.ts), then the
 * route's schema. Undefined when the route would answer 400.
 */
async function validQuery(queryString: string) {
  const params = getQueryParams(`http://localhost/tasks?${queryString}`) as Record<string, string[]>;
  if (queryProblems(params).length > 0) return undefined;
  const value = Object.fromEntries(
    Object.entries(params).map(([name, values]) => [name, values.length === 1 ? values[0] : values]),
  );
  const result = await listTasksQuery.safeParseAsync(value);
  return result.success ? result.data : undefined;
}

/** Between a query string and an encoding in the cache key of a compressed answer (never in a query string). */
const ENCODED_KEY_SEPARATOR = "\u0000";

/** A compressed answer as cached: one byte saying whether the rest is compressed (a list under 1 KB is not). */
function packEncoded(body: Buffer, encoding: Encoding | null): Buffer {
  return Buffer.concat([Buffer.from([encoding ? 1 : 0]), body]);
}

function unpackEncoded(stored: Buffer, encoding: Encoding): { body: Buffer; encoding: Encoding | null } {
  return { body: stored.subarray(1), encoding: stored[0] === 1 ? encoding : null };
}

/** Answers the task list from the cache or, on a valid miss, from the database; false when the API answers. */
export async function answerTaskList(request: IncomingMessage, response: ServerResponse, queryString: string): Promise<boolean> {
  try {
    const token = tokenFromRequest(request.headers.authorization, request.headers.cookie);
    if (!token) return false;
    const actor = await actorFromClaims(await claimsOfToken(token));
    if (!actor) return false;
    // A client that accepts an encoding is sent the compressed answer kept under its own key (same generation rule),
    // so that a hit costs no compression; a miss there falls back to the plain answer, cached or not.
    const wanted = chooseEncoding(request.headers["accept-encoding"]);
    const encodedKey = wanted ? `${queryString}${ENCODED_KEY_SEPARATOR}${wanted}` : null;
    const encodedLookup = encodedKey ? await cachedTaskList(actor, encodedKey) : null;
    let answer: { body: Buffer; encoding: Encoding | null; hit: boolean };
    if (encodedLookup?.hit) {
      answer = { ...unpackEncoded(encodedLookup.body, wanted!), hit: true };
    } else {
      const cached = await cachedTaskList(actor, queryString);
      // Validated before the rate-limit count, which the API takes again for whatever it answers.
      const query = cached.hit ? undefined : await validQuery(queryString);
      if (!cached.hit && !query) {
        missed.set(request, cached.generation);
        return false;
      }
      const plain = cached.hit ? cached.body : await listTasks(actor, query!, queryString, cached.generation);
      // Compressed as the API compresses its answers (lib/api/compression.ts), so that both paths give the same bytes.
      const encoding = plain.length >= COMPRESS_MIN_BYTES ? wanted : null;
      const body = encoding ? await compressBody(plain, encoding) : plain;
      if (encodedKey && encodedLookup) {
        void storeEncodedTaskList(actor, encodedKey, encodedLookup.generation, packEncoded(body, encoding)).catch(() => {});
      }
      answer = { body, encoding, hit: cached.hit };
    }
    // The API keys the general limit by the token's user, as here; over the limit, it answers the 429.
    const limit = await limiter("general").consume(`user:${actor.userId}`);
    const { body, encoding } = answer;
    const given = request.headers["x-request-id"];
    const headers: [string, string][] = [
      ["X-Request-Id", requestIdFor(Array.isArray(given) ? given.join(", ") : given)],
      ...securityHeaders(),
      // A miss carries the route's head byte for byte (@hono/node-server writes the handler's headers in lower case,
      // the type first); a hit keeps the head it has always had here.
      ...(answer.hit
        ? [...rateLimitHeaders(limit), ["Content-Type", JSON_UTF8], ["X-Cache", "HIT"]]
        : [
            ["content-type", JSON_UTF8],
            ...rateLimitHeaders(limit).map(([name, value]) => [name.toLowerCase(), value]),
            ["x-cache", "MISS"],
          ]),
      ["Vary", "Accept-Encoding"],
      ...(encoding ? [["Content-Encoding", encoding]] : []),
      ["Content-Length", String(body.length)],
    ] as [string, string][];
    response.writeHead(200, headers.flat());
    response.end(body);
    return true;
  } catch {
    return false;
  }
}
