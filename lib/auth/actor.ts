import { config } from "../config";
import type { TokenScope } from "./access-tokens/schema";
import { accessTokenExpired, isAccessTokenSecret, verifyAccessToken } from "./access-tokens/service";
import { findSessionUser } from "./repo";
import { liveCredential } from "./sessions/service";
import { verifySessionToken, type TokenClaims } from "./tokens";

/** Who is making a request: the API middleware, the pages and the socket handshake all use this. */
export interface Actor {
  userId: string;
  email: string;
  locale: string;
  timeZone: string;
  isAdmin: boolean;
  /** When the user signed in with this session, for actions that need a recent sign-in; absent for background work. */
  signedInAt?: Date;
  /** The session the request is made with (signing out ends it); absent for background work. */
  sessionId?: string;
  /**
   * The personal access token the request is made with (lib/auth/access-tokens), instead of a session: its scopes
   * limit what it may do (lib/api/middleware.ts), and some actions need a session (`apiRoute({ sessionOnly })`).
   */
  accessToken?: { id: string; scopes: readonly TokenScope[] };
}

export const SESSION_COOKIE = "spolu_session";

/** The session token from an `Authorization: Bearer` header, else from the session cookie. */
export function tokenFromRequest(authorization: string | undefined, cookieHeader: string | undefined): string | null {
  const bearer = authorization?.match(/^Bearer\s+(\S+)$/i)?.[1];
  if (bearer) return bearer;
  for (const part of cookieHeader?.split(";") ?? []) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE && value.length) return decodeURIComponent(value.join("="));
  }
  return null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The actor for a session token, or null. A token stops working when its session ends (signed out, ended from the
 * security settings), when its user is deleted, has changed the password or signed out everywhere since it was
 * issued, or is disabled by an administrator.
 */
export async function actorFromToken(token: string | null): Promise<Actor | null> {
  return actorFromClaims(token ? await claimsOfToken(token) : null);
}

/** A bearer token's claims: a personal access token's (`spolu_pat_…`) or a session token's; null when neither. */
export function claimsOfToken(token: string): Promise<TokenClaims | null> {
  return isAccessTokenSecret(token) ? verifyAccessToken(token) : verifySessionToken(token);
}

/**
 * The actor for a verified token's claims: checks that the user exists and is not disabled, that the token is not
 * revoked, and that its session (or other credential: `liveCredential`) still works, each from a short cache that
 * is dropped the moment it changes. (Disabling revokes the tokens too; the flag also covers a token issued in the
 * same instant.)
 */
export async function actorFromClaims(claims: TokenClaims | null): Promise<Actor | null> {
  if (!claims || !UUID.test(claims.sub)) return null;
  if (claims.kind === "access-token") {
    // Not bound to the token version: signing out everywhere or a new password leaves personal access tokens be.
    if (accessTokenExpired(claims.expiresAtMs)) return null;
    const owner = await actorForUser(claims.sub);
    return owner && { ...owner, accessToken: { id: claims.tid, scopes: claims.scopes } };
  }
  // Both looked up at once (one round trip to Redis, not two): neither needs the other, and both must hold.
  const [user, credential] = await Promise.all([findSessionUser(claims.sub), liveCredential(claims)]);
  if (!user || user.disabled || user.tokenVersion !== claims.ver || !credential) return null;
  return {
    userId: user.id,
    email: user.email,
    locale: user.locale,
    timeZone: user.timeZone,
    isAdmin: config().ADMIN_EMAILS.includes(user.email),
    signedInAt: credential.signedInAt,
    sessionId: credential.sessionId,
  };
}

/**
 * The actor a background operation acts as (a connector's owner, a job): the user as a session would see them,
 * or null when the account is gone or disabled.
 */
export async function actorForUser(userId: string): Promise<Actor | null> {
  const user = await findSessionUser(userId);
  if (!user || user.disabled) return null;
  return {
    userId: user.id,
    email: user.email,
    locale: user.locale,
    timeZone: user.timeZone,
    isAdmin: config().ADMIN_EMAILS.includes(user.email),
  };
}
