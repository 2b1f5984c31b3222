import { createHash, randomBytes } from "node:crypto";
import { AppError, invalidField } from "../../api/app-error";
import { now } from "../../clock";
import type { AccessTokenRow } from "../../db/schema/access-tokens";
import type { AccessTokenClaims } from "../tokens";
import {
  countAccessTokens,
  deleteAccessTokenRow,
  findAccessTokenState,
  forgetAccessTokenStates,
  insertAccessToken,
  listAccessTokenRows,
} from "./repo";
import {
  ACCESS_TOKEN_PREFIX,
  type AccessTokenListOutput,
  type AccessTokenOutput,
  type CreateAccessTokenInput,
  type CreatedAccessTokenOutput,
  type TokenScope,
} from "./schema";

/*
 * Personal access tokens: long-lived credentials for scripts and integrations, made and revoked by the user from a
 * signed-in session (a token cannot make another token). The secret is `spolu_pat_` and 43 base64url characters
 * (256 random bits); only its SHA-256 is stored, so a leaked database does not leak working tokens, and a plain hash
 * suffices (the secret is random, not a password to guess). A token works as a bearer token wherever a session token
 * does (the API, the socket), within its scopes, until it expires or is deleted; signing out or changing the
 * password does not end it (it is listed, and revoked, on the security settings page). Deleting the account deletes
 * its tokens.
 */

const SECRET = new RegExp(`^${ACCESS_TOKEN_PREFIX}[A-Za-z0-9_-]{43}$`);
/** How many tokens one user may have. */
export const MAX_ACCESS_TOKENS = 50;
/** How much of the secret the list shows. */
const SHOWN_PREFIX_LENGTH = ACCESS_TOKEN_PREFIX.length + 4;

const hashSecret = (secret: string) => createHash("sha256").update(secret).digest("hex");

/** Whether a bearer token looks like a personal access token (then it is never tried as a session token). */
export function isAccessTokenSecret(token: string): boolean {
  return token.startsWith(ACCESS_TOKEN_PREFIX);
}

/** The claims of a personal access token that exists (expiry is judged by the caller), or null. */
export async function verifyAccessToken(secret: string): Promise<AccessTokenClaims | null> {
  if (!SECRET.test(secret)) return null;
  const state = await findAccessTokenState(hashSecret(secret));
  if (!state) return null;
  return { kind: "access-token", sub: state.userId, tid: state.id, scopes: state.scopes, expiresAtMs: state.expiresAtMs };
}

/** Whether the token has expired (lib/clock's time, as the list shows it). */
export function accessTokenExpired(expiresAtMs: number | null): boolean {
  return expiresAtMs !== null && expiresAtMs <= now();
}

/** Who manages their tokens: the user, and the personal access token the request is made with, if any. */
export interface AccessTokenOwner {
  userId: string;
  accessToken?: { id: string; scopes: readonly TokenScope[] };
}

function toOutput(row: AccessTokenRow): AccessTokenOutput {
  return {
    id: row.id,
    name: row.name,
    scopes: row.scopes as TokenScope[],
    prefix: row.prefix,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    expired: accessTokenExpired(row.expiresAt?.getTime() ?? null),
  };
}

export async function createAccessToken(
  actor: AccessTokenOwner,
  input: CreateAccessTokenInput,
): Promise<CreatedAccessTokenOutput> {
  if (actor.accessToken) throw new AppError("forbidden", "A personal access token cannot make another: sign in to make one");
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= now()) throw invalidField("body", "/expiresAt", "must be in the future");
  if ((await countAccessTokens(actor.userId)) >= MAX_ACCESS_TOKENS) {
    throw new AppError("conflict", `You have ${MAX_ACCESS_TOKENS} tokens already: delete one first`);
  }
  const secret = ACCESS_TOKEN_PREFIX + randomBytes(32).toString("base64url");
  const row = await insertAccessToken({
    userId: actor.userId,
    name: input.name,
    scopes: input.scopes,
    tokenHash: hashSecret(secret),
    prefix: secret.slice(0, SHOWN_PREFIX_LENGTH),
    expiresAt,
  });
  return { ...toOutput(row), token: secret };
}

export async function listAccessTokens(actor: AccessTokenOwner): Promise<AccessTokenListOutput> {
  return { items: (await listAccessTokenRows(actor.userId)).map(toOutput) };
}

/** Deletes one of the actor's tokens (404 for any other id): it stops working at once, on every process. */
export async function deleteAccessToken(actor: AccessTokenOwner, id: string): Promise<void> {
  if (actor.accessToken) throw new AppError("forbidden", "A personal access token cannot revoke tokens: sign in to revoke one");
  const hash = await deleteAccessTokenRow(actor.userId, id);
  if (!hash) throw new AppError("not_found", "No token of yours has this id");
  await forgetAccessTokenStates([hash]);
}
