import type { ServerResponse } from "node:http";
import { requestIdFor, securityHeaders } from "./middleware";

/*
 * A page path whose percent-encoding does not decode (`/%`, `/%E0%A4%A`) cannot name any page: Next.js throws on it
 * and answers a plain-text 500. server.ts asks this first and answers a 400 problem instead, like the API does for
 * any other request it cannot read.
 */

/** Whether the path (without the query) is not valid percent-encoded UTF-8. */
export function isMalformedPath(path: string): boolean {
  try {
    decodeURIComponent(path);
    return false;
  } catch {
    return true;
  }
}

/** Answers the 400 for a malformed path. */
export function answerMalformedPath(path: string, response: ServerResponse): void {
  const requestId = requestIdFor(undefined);
  const body = JSON.stringify({
    type: "urn:spolu:problem:bad_request",
    title: "Bad request",
    status: 400,
    detail: "The address is not valid: a % in it must start a percent-encoded UTF-8 character (%25 for % itself)",
    instance: path.replace(/[^\x21-\x7e]/g, ""),
    code: "bad_request",
    requestId,
  });
  response.writeHead(
    400,
    [["Content-Type", "application/problem+json; charset=utf-8"], ["X-Request-Id", requestId], ...securityHeaders()].flat(),
  );
  response.end(body);
}
