import type { HttpBindings } from "@hono/node-server";
import type { Actor } from "../auth/actor";
import type { TokenClaims } from "../auth/tokens";

/** What every API handler can read from its context. */
export interface ApiEnv {
  /** Present when @hono/node-server serves the request (the fast path); absent under Next. */
  Bindings: Partial<HttpBindings>;
  Variables: {
    requestId: string;
    /** Set by the `user` and `admin` access levels; `optional` routes may leave it unset. */
    actor: Actor;
    /** The bearer token's verified claims (a session's or a personal access token's), checked once per request. */
    sessionClaims?: Promise<TokenClaims | null>;
    /**
     * A cacheable GET on a cache miss: the user's cache generation, noted by the route's cache middleware before the
     * database is read (lib/api/cached-get.ts), so that the handler need not look again.
     */
    cacheGeneration?: number;
  };
}
