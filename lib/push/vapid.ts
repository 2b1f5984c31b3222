import { createECDH } from "node:crypto";
import webpush from "web-push";
import { config } from "../config";
import { db } from "../db/client";
import { findSetting, insertSettingIfAbsent } from "./repo";

/**
 * The VAPID key pair that signs every push request (RFC 8292), and the contact the push services see.
 *
 * - Keys: `VAPID_PUBLIC_KEY` and `VAPID_PRIVATE_KEY` when set (both base64url, as `web-push generate-vapid-keys`
 *   prints them). Otherwise a pair is generated on first use and kept in `app_settings` under the key `vapid`: the
 *   first process to store one wins (insert ... on conflict do nothing, then read back), so processes starting
 *   together all end up signing with the same pair, and it survives restarts. The pair is cached per database.
 *   Browsers subscribe with the public key: changing it leaves every existing subscription unusable (push services
 *   answer 401/403) until its browser subscribes again.
 * - Subject: `VAPID_SUBJECT` when set; else `mailto:` and the first of `ADMIN_EMAILS`; else from `APP_URL` (its origin
 *   when it is https, `mailto:admin@<its host>` when it is http); else `mailto:admin@localhost`.
 */

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export interface VapidDetails extends VapidKeys {
  subject: string;
}

const SETTING = "vapid";

/** Generated pairs by database (a test process opens several databases one after another). */
const stored = new WeakMap<object, Promise<VapidKeys>>();

/** The public key (base64url, 65 bytes) of a P-256 private key (base64url, 32 bytes); null when it is not one. */
function publicKeyOf(privateKey: string): string | null {
  const bytes = Buffer.from(privateKey, "base64url");
  if (bytes.length !== 32) return null;
  try {
    const curve = createECDH("prime256v1");
    curve.setPrivateKey(bytes);
    return curve.getPublicKey().toString("base64url");
  } catch {
    return null;
  }
}

/** Checks that the two keys are a pair, so that a mistake shows at once and not as every push service's 403. */
function checkedPair(keys: VapidKeys, source: string): VapidKeys {
  if (publicKeyOf(keys.privateKey) !== keys.publicKey.replace(/=+$/, "")) {
    throw new Error(`${source}: the VAPID public and private keys are not a P-256 key pair (base64url, 65 and 32 bytes)`);
  }
  return { publicKey: keys.publicKey.replace(/=+$/, ""), privateKey: keys.privateKey.replace(/=+$/, "") };
}

function isKeys(value: unknown): value is VapidKeys {
  const keys = value as Partial<VapidKeys> | null;
  return typeof keys?.publicKey === "string" && typeof keys.privateKey === "string";
}

async function storedKeys(): Promise<VapidKeys> {
  await insertSettingIfAbsent(SETTING, webpush.generateVAPIDKeys());
  const value = await findSetting(SETTING);
  if (!isKeys(value)) throw new Error("app_settings 'vapid' does not hold a VAPID key pair ({ publicKey, privateKey })");
  return checkedPair(value, "app_settings 'vapid'");
}

/** The configured pair, else the one kept in the database (generated on first use). */
export async function vapidKeys(): Promise<VapidKeys> {
  const { VAPID_PUBLIC_KEY, VAPID_PRIVATE_KEY } = config();
  if (VAPID_PUBLIC_KEY && VAPID_PRIVATE_KEY) {
    return checkedPair({ publicKey: VAPID_PUBLIC_KEY, privateKey: VAPID_PRIVATE_KEY }, "VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY");
  }
  const database = db();
  let keys = stored.get(database);
  if (!keys) {
    keys = storedKeys();
    stored.set(database, keys);
    // A failure (the database was busy...) is not kept: the next push tries again.
    keys.catch(() => stored.delete(database));
  }
  return keys;
}

/** The contact push services see in the VAPID token (`sub`). */
export function vapidSubject(): string {
  const { VAPID_SUBJECT, ADMIN_EMAILS, APP_URL } = config();
  if (VAPID_SUBJECT) return VAPID_SUBJECT;
  if (ADMIN_EMAILS[0]) return `mailto:${ADMIN_EMAILS[0]}`;
  if (APP_URL) {
    const url = new URL(APP_URL);
    return url.protocol === "https:" ? url.origin : `mailto:admin@${url.hostname}`;
  }
  return "mailto:admin@localhost";
}

export async function vapidDetails(): Promise<VapidDetails> {
  return { ...(await vapidKeys()), subject: vapidSubject() };
}
