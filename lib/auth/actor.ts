import { config } from "../config";
import { findSessionUser } from "./repo";
import { sessionIssuedAt, verifySessionToken, type SessionClaims } from "./tokens";

/** Who is making a request: the API middleware, the pages and the socket handshake all use this. */
export interface Actor {
  userId: string;
  email: string;
  locale: string;
  timeZone: string;
  isAdmin: boolean;
  /** When the session token was issued (its `iat`), for actions that need a recent sign-in; absent when unknown. */
  signedInAt?: Date;
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
 * The actor for a session token, or null. A token stops working when its user is deleted, has changed the
 * password or signed out everywhere since it was issued, or is disabled by an administrator.
 */
export async function actorFromToken(token: string | null): Promise<Actor | null> {
  return actorFromClaims(token ? await verifySessionToken(token) : null);
}

function signedIn(claims: SessionClaims): Pick<Actor, "signedInAt"> {
  const at = sessionIssuedAt(claims);
  return at ? { signedInAt: at } : {};
}

/**
 * The actor for a verified token's claims: checks that the user exists and is not disabled, and that the token
 * is not revoked. (Disabling revokes the tokens too; the flag also covers a token issued in the same instant.)
 */
export async function actorFromClaims(claims: SessionClaims | null): Promise<Actor | null> {
  if (!claims || !UUID.test(claims.sub)) return null;
  const user = await findSessionUser(claims.sub);
  if (!user || user.disabled || user.tokenVersion !== claims.ver) return null;
  return {
    userId: user.id,
    email: user.email,
    locale: user.locale,
    timeZone: user.timeZone,
    isAdmin: config().ADMIN_EMAILS.includes(user.email),
    ...signedIn(claims),
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
