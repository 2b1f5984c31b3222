import type { IncomingMessage, ServerResponse } from "node:http";
import type { z } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import { getQueryParams } from "hono/utils/url";
import { actorFromClaims, claimsOfToken, tokenFromRequest, type Actor } from "../auth/actor";
import { errorText, log } from "../log";
import { limiter, type LimitState } from "../rate-limit/limiter";
import { chooseEncoding, COMPRESS_MIN_BYTES, compressBody, type Encoding } from "./compression";
import type { ApiEnv } from "./env";
import { handoffOf, noteHandoff } from "./handoff";
import { queryProblems } from "./input-guard";
import { JSON_UTF8, rateLimitHeaders, requestIdFor, securityHeaders } from "./middleware";
import { API_PREFIX } from "./paths";
import { requestQueryString } from "./request-header";

/*
 * Cacheable GET routes: a route declares `cached: <CachedGet>` (lib/api/route.ts), and its answers are kept per
 * user and query string, under the generation every change the user could see raises (lib/tasks/list-cache.ts).
 * server.ts answers a plain request of such a route before routing (`answerBeforeRouting`): a hit, or a miss whose
 * query string the route would accept, needs only the session check, the cache, the rate-limit count and (on a
 * miss) the read; Hono's routing, context and middleware chain were most of a hit's cost (docs/performance.md).
 * Whatever it does not answer goes on to the API, which answers as usual, with what the fast path learnt: the cache
 * generation it saw, the error its read ran into, the rate-limit count it took. A request is counted once, and an
 * error reaches the API's error handler (logged, a 500 problem) rather than being retried or lost.
 */

export type CacheLookup = { hit: true; body: Buffer } | { hit: false; generation: number };

/** Where the answers live: per user, each stored with the generation its lookup saw (a newer one kills it). */
export interface AnswerCache {
  get(userId: string, key: string): Promise<CacheLookup>;
  set(userId: string, key: string, generation: number, body: Buffer): Promise<void>;
}

/** A cacheable GET route: where it is, where its answers are kept, its query schema, and how a miss is read. */
export interface CachedGet<Q> {
  /** The route's path under the API prefix (`/tasks`): a fixed path, no parameters. */
  path: string;
  cache: AnswerCache;
  /** The route's query schema: a miss is read before routing only for a query string it accepts. */
  query: z.ZodType<Q>;
  /** The answer of a miss, as the JSON bytes sent. */
  read(actor: Actor, query: Q): Promise<Buffer>;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a registry of routes with different query types
type AnyCachedGet = CachedGet<any>;

/** The cacheable routes by their full path (`/api/v1/tasks`), filled as their routes are declared. */
const routes = new Map<string, AnyCachedGet>();

/** Declares a route cacheable (apiRoute does, for `cached`): server.ts then answers it before routing when it can. */
export function registerCachedGet(route: AnyCachedGet): void {
  routes.set(`${API_PREFIX}${route.path}`, route);
}

/** The cacheable route at this full path, if there is one. */
export function cachedGetAt(path: string): AnyCachedGet | undefined {
  return routes.get(path);
}

/** A route's cache key: its path and the query string as sent (answers are stored only under validated ones). */
const keyOf = (route: AnyCachedGet, queryString: string) => `${route.path}?${queryString}`;

/** Between a key and an encoding in the key of a compressed answer (never in a query string). */
const ENCODED_KEY_SEPARATOR = "\u0000";

/**
 * The query string as the route's validator sees it: Hono's own parsing of the query (`c.req.queries()`, a name
 * given once is a string, given more often an array), the rules of every request (lib/api/input-guard.ts), then the
 * route's schema. Undefined when the route would answer 400.
 */
async function validQuery<Q>(route: CachedGet<Q>, queryString: string): Promise<Q | undefined> {
  const params = getQueryParams(`http://localhost/?${queryString}`) as Record<string, string[]>;
  if (queryProblems(params).length > 0) return undefined;
  const value = Object.fromEntries(
    Object.entries(params).map(([name, values]) => [name, values.length === 1 ? values[0] : values]),
  );
  const result = await route.query.safeParseAsync(value);
  return result.success ? result.data : undefined;
}

/** A miss read and stored under the generation its lookup saw: a change since then makes it dead on arrival. */
async function readAndStore<Q>(route: CachedGet<Q>, actor: Actor, query: Q, key: string, generation: number) {
  const body = await route.read(actor, query);
  await route.cache.set(actor.userId, key, generation, body);
  return body;
}

/**
 * The answer for a page rendered on the server: the same bytes and cache entry as the API's for this query string
 * (which the caller builds, so it is valid; a bad one throws).
 */
export async function cachedAnswer<Q>(route: CachedGet<Q>, actor: Actor, queryString: string): Promise<Buffer> {
  const key = keyOf(route, queryString);
  const cached = await route.cache.get(actor.userId, key);
  if (cached.hit) return cached.body;
  const query = route.query.parse(Object.fromEntries(new URLSearchParams(queryString)));
  return readAndStore(route, actor, query, key, cached.generation);
}

/** A compressed answer as cached: one byte saying whether the rest is compressed (an answer under 1 KB is not). */
function packEncoded(body: Buffer, encoding: Encoding | null): Buffer {
  return Buffer.concat([Buffer.from([encoding ? 1 : 0]), body]);
}

function unpackEncoded(stored: Buffer, encoding: Encoding): { body: Buffer; encoding: Encoding | null } {
  return { body: stored.subarray(1), encoding: stored[0] === 1 ? encoding : null };
}

/** The head of a cached answer, whichever way it is answered. */
function answerHeaders(requestId: string, limit: LimitState, cache: "HIT" | "MISS"): [string, string][] {
  return [
    ["X-Request-Id", requestId],
    ...securityHeaders(),
    ...rateLimitHeaders(limit),
    ["Content-Type", JSON_UTF8],
    ["X-Cache", cache],
  ];
}

/**
 * Answers a GET of a cacheable route before routing: from the cache or, on a miss of a valid query, from the
 * database. False when it handed the request on to the API (no valid session, a query the route would refuse, the
 * rate limit passed, a failed read), with what it learnt noted for the API.
 */
export async function answerBeforeRouting(
  route: AnyCachedGet,
  request: IncomingMessage,
  response: ServerResponse,
  queryString: string,
): Promise<boolean> {
  const token = tokenFromRequest(request.headers.authorization, request.headers.cookie);
  let actor: Actor | null = null;
  try {
    actor = token ? await actorFromClaims(await claimsOfToken(token)) : null;
  } catch {
    // The API checks the session again and answers whatever that runs into.
  }
  // Without a valid session the API answers (a 401).
  if (!actor) return false;
  const key = keyOf(route, queryString);
  // A client that accepts an encoding is sent the compressed answer kept under its own key (same generation rule),
  // so that a hit costs no compression; a miss there falls back to the plain answer, cached or not.
  const wanted = chooseEncoding(request.headers["accept-encoding"]);
  const encodedKey = wanted ? `${key}${ENCODED_KEY_SEPARATOR}${wanted}` : null;
  let answer: { body: Buffer; encoding: Encoding | null; hit: boolean };
  try {
    const encodedLookup = encodedKey ? await route.cache.get(actor.userId, encodedKey) : null;
    if (encodedLookup?.hit) {
      answer = { ...unpackEncoded(encodedLookup.body, wanted!), hit: true };
    } else {
      const cached = await route.cache.get(actor.userId, key);
      // Validated before the rate-limit count; the API validates (and counts) whatever is handed on.
      const query = cached.hit ? undefined : await validQuery(route, queryString);
      if (!cached.hit && query === undefined) {
        noteHandoff(request, { generation: cached.generation });
        return false;
      }
      const plain = cached.hit ? cached.body : await readAndStore(route, actor, query, key, cached.generation);
      // Compressed as the API compresses its answers (lib/api/compression.ts), so that both paths give the same bytes.
      const encoding = plain.length >= COMPRESS_MIN_BYTES ? wanted : null;
      const body = encoding ? await compressBody(plain, encoding) : plain;
      if (encodedKey && encodedLookup) {
        // Kept for the next request without holding this answer back (Redis down is a no-op in the store).
        void route.cache
          .set(actor.userId, encodedKey, encodedLookup.generation, packEncoded(body, encoding))
          .catch((error: unknown) => log.error("Could not keep a compressed answer", { error: errorText(error) }));
      }
      answer = { body, encoding, hit: cached.hit };
    }
  } catch (error) {
    // Not retried: the route throws it again, and the API's error handler logs it and answers the 500.
    noteHandoff(request, { error });
    return false;
  }
  // The API keys the general limit by the token's user, as here. Counted once: over the limit, the API answers the
  // 429 with this count's rejection instead of counting again.
  let limit: LimitState;
  try {
    limit = await limiter("general").consume(`user:${actor.userId}`);
  } catch (limited) {
    noteHandoff(request, { limited });
    return false;
  }
  const given = request.headers["x-request-id"];
  const headers = answerHeaders(
    requestIdFor(Array.isArray(given) ? given.join(", ") : given),
    limit,
    answer.hit ? "HIT" : "MISS",
  );
  headers.push(["Vary", "Accept-Encoding"]);
  if (answer.encoding) headers.push(["Content-Encoding", answer.encoding]);
  headers.push(["Content-Length", String(answer.body.length)]);
  try {
    response.writeHead(200, headers.flat());
    response.end(answer.body);
  } catch (error) {
    // Counted: not handed on. The connection is closed rather than left waiting.
    log.error("A cached GET failed while answering", { path: route.path, error: errorText(error) });
    response.destroy();
  }
  return true;
}

/**
 * The route's side, before its validators (apiRoute adds it for `cached`): what the fast path learnt is used (its
 * generation, or its error thrown again), else the cache is asked here; a hit is answered before the query string is
 * validated (only validated queries are ever stored).
 */
export function answerFromCache(route: AnyCachedGet): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const handoff = handoffOf(c.env?.incoming);
    if (handoff && "error" in handoff) throw handoff.error;
    const key = keyOf(route, requestQueryString(c));
    const lookup: CacheLookup =
      handoff?.generation !== undefined
        ? { hit: false, generation: handoff.generation }
        : await route.cache.get(c.var.actor.userId, key);
    if (lookup.hit) return cachedBody(c, lookup.body, "HIT");
    c.set("cacheGeneration", lookup.generation);
    await next();
  };
}

/** The route's handler on a miss: reads the answer, stores it under the generation the middleware saw, answers it. */
export async function answerMiss<Q>(c: Context<ApiEnv>, route: CachedGet<Q>, query: Q) {
  const key = keyOf(route, requestQueryString(c));
  const body = await readAndStore(route, c.var.actor, query, key, c.var.cacheGeneration!);
  return cachedBody(c, body, "MISS");
}

/** A cached answer through Hono: the JSON bytes as they are (no c.json, which would serialise them again). */
function cachedBody(c: Context<ApiEnv>, body: Buffer, cache: "HIT" | "MISS") {
  return c.body(body as Uint8Array<ArrayBuffer>, 200, { "Content-Type": JSON_UTF8, "X-Cache": cache });
}

/** `X-Cache` in the OpenAPI document. */
export const xCacheHeader = {
  description: "Whether the answer came from the cache",
  schema: { type: "string" as const, enum: ["HIT", "MISS"] },
};
