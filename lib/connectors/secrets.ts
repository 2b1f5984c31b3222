import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import { config } from "../config";

/*
 * Connector credentials and webhook secrets at rest: AES-256-GCM with a random 96-bit nonce per value, stored as
 * `v1.<nonce>.<tag>.<ciphertext>` (base64url). The key is derived (HKDF-SHA256) from CONNECTOR_SECRET_KEY, else from
 * JWT_SECRET: set CONNECTOR_SECRET_KEY so that rotating the JWT key does not make the stored credentials unreadable.
 * The connection's id is the associated data, so that a ciphertext copied onto another connection does not open.
 */

const VERSION = "v1";

function key(): Buffer {
  const secret = config().CONNECTOR_SECRET_KEY ?? config().JWT_SECRET;
  return Buffer.from(hkdfSync("sha256", secret, "spolu", "connector secrets v1", 32));
}

export function encryptSecret(plain: string, connectionId: string): string {
  const nonce = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key(), nonce);
  cipher.setAAD(Buffer.from(connectionId));
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [VERSION, nonce, cipher.getAuthTag(), body]
    .map((part) => (typeof part === "string" ? part : part.toString("base64url")))
    .join(".");
}

/** Throws when the value was not encrypted for this connection with the current key. */
export function decryptSecret(stored: string, connectionId: string): string {
  const [version, nonce, tag, body] = stored.split(".");
  if (version !== VERSION || !nonce || !tag || body === undefined) throw new Error("Not an encrypted connector secret");
  const decipher = createDecipheriv("aes-256-gcm", key(), Buffer.from(nonce, "base64url"));
  decipher.setAAD(Buffer.from(connectionId));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString("utf8");
}
