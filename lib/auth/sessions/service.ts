import Bowser from "bowser";
import { AppError } from "../../api/app-error";
import { nowDate } from "../../clock";
import { config } from "../../config";
import type { Executor } from "../../db/client";
import type { SessionRow } from "../../db/schema/sessions";
import type { SessionListOutput, SessionOutput } from "./schema";
import {
  deleteOldSessions,
  endSessionRow,
  endUserSessionRows,
  findSessionState,
  forgetSessionStates,
  insertSession,
  listLiveSessions,
} from "./repo";
import { issueSessionToken, type SessionClaims } from "../tokens";

/*
 * Sessions: every sign-in (password, registration, passkey, external account, accepting an invitation, a password
 * change's fresh token) starts one, and its token carries the session's id. A token works while its session has
 * not ended and not expired; ending a session (signing out, the security settings, a password change, an
 * administrator disabling the account) stops its token at once on every process (repo.ts).
 */

/** Where a sign-in came from, as the security settings show it. */
export interface ClientInfo {
  userAgent?: string;
  ipAddress?: string;
}

export type SignInMethod =
  "password" | "registration" | "passkey" | `oauth:${string}` | "invitation" | "password-change" | "password-reset";

const USER_AGENT_MAX = 500;
/** Ended and expired sessions are kept this long (to show nothing: only for the record), then deleted at a sign-in. */
const KEEP_ENDED_MS = 30 * 24 * 3600 * 1000;

/**
 * Starts a session for the user and answers its token. The token's times are the machine's (what its signature
 * check compares with); when the user signed in is lib/clock's (what "a recent sign-in" is measured on).
 */
export async function startSession(
  user: { id: string; tokenVersion: number },
  method: SignInMethod,
  client: ClientInfo,
  executor?: Executor,
): Promise<string> {
  const signedInAt = nowDate();
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + config().JWT_TTL_SECONDS * 1000);
  await deleteOldSessions(user.id, new Date(Math.min(signedInAt.getTime(), issuedAt.getTime()) - KEEP_ENDED_MS));
  const session = await insertSession(
    {
      userId: user.id,
      method,
      userAgent: client.userAgent?.slice(0, USER_AGENT_MAX) ?? null,
      ipAddress: client.ipAddress ?? null,
      createdAt: signedInAt,
      expiresAt,
    },
    executor,
  );
  return issueSessionToken({ userId: user.id, tokenVersion: user.tokenVersion, sessionId: session.id, issuedAt, expiresAt });
}

/** What a live credential tells about the request: when its user signed in with it. */
export interface LiveCredential {
  signedInAt: Date;
  sessionId: string;
}

/**
 * The credential behind verified claims, if it still works; null if not. Each kind of token has its own record: a
 * session token its session (not ended, not expired, the same user). Another kind (personal access tokens) adds
 * its case here.
 */
export async function liveCredential(claims: SessionClaims): Promise<LiveCredential | null> {
  switch (claims.kind) {
    case "session": {
      const state = await findSessionState(claims.sid);
      const live = state !== null && !state.ended && state.userId === claims.sub && state.expiresAtMs > Date.now();
      return live ? { signedInAt: new Date(state.createdAtMs), sessionId: claims.sid } : null;
    }
  }
}

function describeDevice(userAgent: string | null): Pick<SessionOutput, "browser" | "os" | "deviceType"> {
  if (!userAgent) return { browser: null, os: null, deviceType: null };
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name ? `${parsed.browser.name} ${parsed.browser.version?.split(".")[0] ?? ""}`.trim() : null;
  const os = parsed.os.name ? `${parsed.os.name} ${parsed.os.versionName ?? parsed.os.version ?? ""}`.trim() : null;
  const type = parsed.platform.type;
  return {
    browser,
    os,
    deviceType: type === "desktop" || type === "mobile" || type === "tablet" || type === "tv" || type === "bot" ? type : null,
  };
}

function toSessionOutput(row: SessionRow, currentId: string | undefined): SessionOutput {
  return {
    id: row.id,
    current: row.id === currentId,
    method: row.method,
    ...describeDevice(row.userAgent),
    userAgent: row.userAgent,
    ipAddress: row.ipAddress,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
  };
}

/** Who asks about their sessions: the user, and the session the request is made with. */
export interface SessionOwner {
  userId: string;
  sessionId?: string;
}

/** The actor's sessions that still work, the most recently used first; the one making the request is `current`. */
export async function listSessions(actor: SessionOwner): Promise<SessionListOutput> {
  const rows = await listLiveSessions(actor.userId, nowDate());
  return { items: rows.map((row) => toSessionOutput(row, actor.sessionId)) };
}

/** Ends one of the actor's sessions (404 for any other id); answers whether it was the one making the request. */
export async function endSession(actor: SessionOwner, id: string): Promise<{ current: boolean }> {
  if (!(await endSessionRow(actor.userId, id, nowDate()))) throw new AppError("not_found", "No such session of yours");
  await forgetSessionStates([id]);
  return { current: id === actor.sessionId };
}

/** Ends every session of the user, but `except` (a password change keeps none: it starts a new one). */
export async function endAllSessions(userId: string, except?: string): Promise<void> {
  await forgetSessionStates(await endUserSessionRows(userId, nowDate(), except));
}
