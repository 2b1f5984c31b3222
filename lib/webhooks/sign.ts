import { createHmac, randomBytes } from "node:crypto";

/*
 * Standard Webhooks v1.0.0, symmetric scheme. A secret is `whsec_` + base64 of 32 random bytes (the spec asks for
 * 24 to 64); the HMAC key is the decoded part. The signed content is `{webhook-id}.{webhook-timestamp}.{body}` over
 * the exact bytes sent, and `webhook-signature` lists `v1,<base64 HMAC-SHA256>` entries separated by spaces: one
 * per secret in use (two during a rotation's grace period).
 */

export const SECRET_PREFIX = "whsec_";
const SECRET_BYTES = 32;

export function generateSecret(): string {
  return SECRET_PREFIX + randomBytes(SECRET_BYTES).toString("base64");
}

/** A message id for the `webhook-id` header: random, without `.` (it is part of the signed content). */
export function generateMessageId(): string {
  return `msg_${randomBytes(16).toString("base64url")}`;
}

function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

/** One `v1,<base64>` signature of a message. */
export function sign(secret: string, messageId: string, timestamp: number, body: string): string {
  const mac = createHmac("sha256", secretKey(secret)).update(`${messageId}.${timestamp}.${body}`, "utf8").digest("base64");
  return `v1,${mac}`;
}

/** The `webhook-signature` header: a signature per secret, space-separated, the current secret's first. */
export function signatureHeader(secrets: readonly string[], messageId: string, timestamp: number, body: string): string {
  return secrets.map((secret) => sign(secret, messageId, timestamp, body)).join(" ");
}
