import { createSecretKey, type KeyObject } from "node:crypto";
import { jwtVerify, SignJWT, errors as joseErrors } from "jose";
import { config } from "../config";
import { MemoryCache } from "../memory-cache";
import type { TokenScope } from "./access-tokens/schema";

const ISSUER = "spolu";
/** Sign-in tokens only; other tokens (invitations, challenges) use their own audience. */
const AUDIENCE = "spolu:session";
const ALGORITHM = "HS256";

/**
 * The claims of a verified token. `kind` says which record stands behind it and decides how revocation is checked
 * (lib/auth/actor.ts): `session`, a sign-in (lib/auth/sessions), or `access-token`, a personal access token
 * (lib/auth/access-tokens: an opaque secret looked up by its hash, not a JWT).
 */
export type TokenClaims = SessionClaims | AccessTokenClaims;

/** A personal access token's record, found by the hash of its secret. */
export interface AccessTokenClaims {
  kind: "access-token";
  /** The user id. */
  sub: string;
  /** The token's id (`personal_access_tokens.id`). */
  tid: string;
  scopes: TokenScope[];
  /** Null: never expires. */
  expiresAtMs: number | null;
}

/** A session token's claims (a signed JWT). */
export interface SessionClaims {
  kind: "session";
  /** The user id. */
  sub: string;
  /** The user's token version when the token was issued (raised by a password change, signing out everywhere, disabling). */
  ver: number;
  /** The session's id (`sessions.id`). */
  sid: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

let key: { secret: string; object: KeyObject } | undefined;
/** The signing key, made into a KeyObject once (jose would import raw bytes again on every call). */
function signingKey(): KeyObject {
  const secret = config().JWT_SECRET;
  if (key?.secret !== secret) key = { secret, object: createSecretKey(Buffer.from(secret, "utf8")) };
  return key.object;
}

/**
 * The token of a session (lib/auth/sessions/service.ts starts the session first): issued now and valid until
 * `expiresAt`, both on the machine's clock (the times jose checks it against).
 */
export async function issueSessionToken(session: {
  userId: string;
  tokenVersion: number;
  sessionId: string;
  issuedAt: Date;
  expiresAt: Date;
}): Promise<string> {
  return new SignJWT({ ver: session.tokenVersion, sid: session.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(session.userId)
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt(Math.floor(session.issuedAt.getTime() / 1000))
    .setExpirationTime(Math.floor(session.expiresAt.getTime() / 1000))
    .sign(signingKey());
}

/**
 * Tokens whose signature was checked already, until they expire: jose verifies through WebCrypto, which
 * costs tens of microseconds a call, and a client sends the same token with every request. Revocation is
 * not decided here: lib/auth/actor.ts checks the token version and the session on every request, through their
 * short caches that are dropped the moment either changes. Bounded by bytes (a token of about 300 characters and
 * its claims take about 1 KB with the map's overhead): 8 MB keep some 8,000 tokens.
 */
const VERIFIED_MAX_BYTES = 8 * 1024 * 1024;
const ENTRY_OVERHEAD_BYTES = 600;
const verified = new MemoryCache<{ claims: SessionClaims; expiresAtMs: number; key: KeyObject }>(
  VERIFIED_MAX_BYTES,
  (token, entry) => token.length + entry.claims.sub.length + entry.claims.sid.length + ENTRY_OVERHEAD_BYTES,
);

/** The claims of a valid session token, or null for anything else (bad signature, expired, wrong kind). */
export async function verifySessionToken(token: string): Promise<SessionClaims | null> {
  const known = verified.get(token);
  if (known && known.key === signingKey() && known.expiresAtMs > Date.now()) return known.claims;
  const checked = await checkSessionToken(token);
  if (!checked) return null;
  const claims: SessionClaims = { kind: "session", sub: checked.sub, ver: checked.ver, sid: checked.sid };
  verified.set(token, { claims, expiresAtMs: checked.exp * 1000, key: signingKey() });
  return claims;
}

/**
 * The signature, issuer, audience and times, and a lifetime (`exp - iat`) no longer than JWT_TTL_SECONDS: a token
 * that would live longer was not issued by this configuration (a leaked key, or a longer setting since shortened),
 * whatever its signature says.
 */
async function checkSessionToken(token: string): Promise<(Omit<SessionClaims, "kind"> & { exp: number; iat: number }) | null> {
  try {
    const { payload } = await jwtVerify(token, signingKey(), {
      algorithms: [ALGORITHM],
      issuer: ISSUER,
      audience: AUDIENCE,
      requiredClaims: ["sub", "exp", "iat"],
    });
    const { sub, ver, sid, exp, iat } = payload;
    if (typeof sub !== "string" || typeof ver !== "number" || typeof sid !== "string" || !UUID.test(sid)) return null;
    if (exp! - iat! > config().JWT_TTL_SECONDS) return null;
    return { sub, ver, sid, exp: exp!, iat: iat! };
  } catch (error) {
    if (error instanceof joseErrors.JOSEError || error instanceof TypeError) return null;
    throw error;
  }
}
