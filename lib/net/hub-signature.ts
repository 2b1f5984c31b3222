import { createHmac, timingSafeEqual } from "node:crypto";

/*
 * GitHub's webhook signature: `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the shared
 * secret>`. Checked over the exact bytes received (never re-serialized JSON), compared in constant time. Used by
 * the connectors' incoming webhook and the deploy webhook.
 */

const HEADER = /^sha256=([0-9a-f]{64})$/i;

/** The header value for a body (what the sender computes). */
export function hubSignature(secret: string, rawBody: string | Buffer): string {
  return `sha256=${createHmac("sha256", secret).update(rawBody).digest("hex")}`;
}

/** Whether the header is a well-formed signature of exactly these bytes with this secret. */
export function hubSignatureMatches(secret: string, rawBody: string | Buffer, header: string | undefined): boolean {
  const given = header?.match(HEADER)?.[1];
  if (!given) return false;
  const expected = createHmac("sha256", secret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(given, "hex"));
}
