import { config } from "../config";
import { findSessionUser } from "./repo";
import { liveCredential } from "./sessions/service";
import { verifySessionToken, type SessionClaims } from "./tokens";

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
  return actorFromClaims(token ? await verifySessionToken(token) : null);
}

/**
 * The actor for a verified token's claims: checks that the user exists and is not disabled, that the token is not
 * revoked, and that its session (or other credential: `liveCredential`) still works, each from a short cache that
 * is dropped the moment it changes. (Disabling revokes the tokens too; the flag also covers a token issued in the
 * same instant.)
 */
export async function actorFromClaims(claims: SessionClaims | null): Promise<Actor | null> {
  if (!claims || !UUID.test(claims.sub)) return null;
  const user = await findSessionUser(claims.sub);
  if (!user || user.disabled || user.tokenVersion !== claims.ver) return null;
  const credential = await liveCredential(claims);
  if (!credential) return null;
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
