import type { Context } from "hono";
import { AppError } from "./app-error";
import type { ApiEnv } from "./env";
import { etagOf, listedTags } from "./etag";
import { requestHeader } from "./request-header";

/*
 * Conditional requests on single resources (RFC 9110 §13):
 * - every answer that shows one carries its `ETag` (lib/api/etag.ts: a hash of what the answer shows);
 * - GET with `If-None-Match` naming the current tag (or `*`): 304 Not Modified, no body;
 * - PATCH, PUT and DELETE with `If-Match`: the change is made only if the resource is still as the client saw it (one
 *   of the listed tags is the current one, or `*`); otherwise nothing changes and the answer is 412
 *   `precondition_failed`. The service checks this inside its transaction, after locking the row, so that two
 *   clients sending the same tag at once cannot both win. Without `If-Match` the change is made as before.
 */

/** What a service calls, inside its transaction, with the resource as it now is: throws 412 when it changed. */
export type Precondition = (current: unknown) => Promise<void>;

/** The request's `If-Match` as a check for the service, or undefined when it sent none. */
export function ifMatch(c: Context<ApiEnv>): Precondition | undefined {
  const header = requestHeader(c, "if-match");
  if (header === undefined) return undefined;
  const tags = listedTags(header);
  return async (current) => {
    if (tags.includes("*")) return;
    const tag = await etagOf(current);
    if (!tags.includes(tag)) {
      throw new AppError(
        "precondition_failed",
        "The resource changed since you read it (If-Match names an older ETag): read it again, then send your change",
        { etag: tag },
      );
    }
  };
}

/**
 * Answers one resource with its ETag; a GET whose `If-None-Match` names it gets 304 and no body (with the ETag, as
 * RFC 9110 §15.4.5 asks).
 */
export async function jsonWithETag<T extends object, S extends 200 | 201>(c: Context<ApiEnv>, value: T, status: S) {
  const tag = await etagOf(value);
  c.header("ETag", tag);
  const ifNoneMatch = requestHeader(c, "if-none-match");
  if (ifNoneMatch !== undefined && (c.req.method === "GET" || c.req.method === "HEAD")) {
    const tags = listedTags(ifNoneMatch);
    if (tags.includes("*") || tags.includes(tag)) return c.body(null, 304) as never as ReturnType<typeof c.json<T, S>>;
  }
  return c.json(value, status);
}
