import { createSecretKey, type KeyObject } from "node:crypto";
import { jwtVerify, SignJWT, errors as joseErrors } from "jose";
import { now } from "../clock";
import { config } from "../config";

const ISSUER = "spolu";
/** Sign-in tokens only; other tokens (invitations, challenges) use their own audience. */
const AUDIENCE = "spolu:session";
const ALGORITHM = "HS256";

export interface SessionClaims {
  /** The user id. */
  sub: string;
  /** The user's token version when the token was issued (raised by a password change). */
  ver: number;
}

let key: { secret: string; object: KeyObject } | undefined;
/** The signing key, made into a KeyObject once (jose would import raw bytes again on every call). */
function signingKey(): KeyObject {
  const secret = config().JWT_SECRET;
  if (key?.secret !== secret) key = { secret, object: createSecretKey(Buffer.from(secret, "utf8")) };
  return key.object;
}

export async function issueSessionToken(userId: string, tokenVersion: number): Promise<string> {
  return new SignJWT({ ver: tokenVersion })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(now() / 1000))
    .setExpirationTime(Math.floor(Date.now() / 1000) + config().JWT_TTL_SECONDS)
    .sign(signingKey());
}

/**
 * Tokens whose signature was checked already, until they expire: jose verifies through WebCrypto, which
 * costs tens of microseconds a call, and a client sends the same token with every request. Revocation is
 * not decided here (the token version is checked against the user on every request).
 */
const VERIFIED_MAX = 10_000;
const verified = new Map<string, { claims: SessionClaims; expiresAtMs: number; key: KeyObject }>();

/** When the token behind verified claims was issued (ms since the epoch), kept beside the claims' object. */
const issuedAt = new WeakMap<SessionClaims, number>();

/** The claims of a valid session token, or null for anything else (bad signature, expired, wrong kind). */
export async function verifySessionToken(token: string): Promise<SessionClaims | null> {
  const known = verified.get(token);
  if (known && known.key === signingKey() && known.expiresAtMs > Date.now()) return known.claims;
  const checked = await checkSessionToken(token);
  if (!checked) return null;
  const claims: SessionClaims = { sub: checked.sub, ver: checked.ver };
  issuedAt.set(claims, checked.iat * 1000);
  if (verified.size >= VERIFIED_MAX) verified.delete(verified.keys().next().value!);
  verified.set(token, { claims, expiresAtMs: checked.exp * 1000, key: signingKey() });
  return claims;
}

/**
 * When the session token whose claims `verifySessionToken` answered was issued (its `iat`, set by lib/clock), for
 * actions that need a recent sign-in (deleting the account); null for claims that did not come from there.
 */
export function sessionIssuedAt(claims: SessionClaims): Date | null {
  const ms = issuedAt.get(claims);
  return ms === undefined ? null : new Date(ms);
}

async function checkSessionToken(token: string): Promise<(SessionClaims & { exp: number; iat: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "exp", "iat"],
    });
    if (typeof payload.sub !== "string" || typeof payload.ver !== "number") return null;
    return { sub: payload.sub, ver: payload.ver, exp: payload.exp!, iat: payload.iat! };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
