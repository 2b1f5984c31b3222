import type { IncomingMessage } from "node:http";

/*
 * What server.ts's fast path (lib/api/cached-get.ts) learnt about a request it handed on to the API, so that the API
 * neither repeats its work nor counts the request twice.
 */

export interface Handoff {
  /** The cache generation its lookup saw (a miss). */
  generation?: number;
  /** What its read of a miss threw: the route throws it again, so that the API's error handler answers it. */
  error?: unknown;
  /** What its rate-limit count threw (over the limit): the API's general limit throws it again instead of counting. */
  limited?: unknown;
}

const handoffs = new WeakMap<IncomingMessage, Handoff>();

export function noteHandoff(request: IncomingMessage, handoff: Handoff): void {
  handoffs.set(request, handoff);
}

/** What the fast path learnt about this request, if it saw it. */
export function handoffOf(request: IncomingMessage | undefined): Handoff | undefined {
  return request ? handoffs.get(request) : undefined;
}
