import { createHash, randomBytes } from "node:crypto";
import { refuseDisabledAccount, toUserOutput } from "../accounts/service";
import { insertUser } from "../accounts/repo";
import { timeZoneInput } from "../accounts/schema";
import { AppError, invalidField } from "../api/app-error";
import { startSession, type ClientInfo } from "../auth/sessions/service";
import { nowDate } from "../clock";
import { config } from "../config";
import { db } from "../db/client";
import { withoutDisguise } from "../display-text";
import type { UserRow } from "../db/schema/users";
import { localeFromAcceptLanguage } from "../i18n/locales";
import type { Actor } from "../auth/actor";
import { deleteSignInMethodKeepingAWayIn } from "../auth/repo";
import type { UserIdentityRow } from "../db/schema/auth";
import { configuredProviders, lookupProvider, providerLabel, type ExternalProfile, type SignInProvider } from "./providers";
import {
  consumeOAuthState,
  deleteSpentOAuthStates,
  listUserIdentities,
  userHasPassword,
  findUserByEmail,
  findUserByIdentity,
  insertIdentity,
  insertOAuthState,
  touchIdentity,
  type OAuthStateRow,
} from "./repo";
import type {
  CallbackQuery,
  IdentityListOutput,
  IdentityOutput,
  LinkInput,
  LinkStartOutput,
  OAuthResultOutput,
  ProviderListOutput,
  StartQuery,
} from "./schema";

/** How long a sign-in attempt may take between leaving for the provider and coming back. */
export const STATE_TTL_MS = 10 * 60 * 1000;
/** `oauth_states.return_to` for an API client: answer JSON instead of redirecting. */
const JSON_MODE = "json";

export function listProviders(): ProviderListOutput {
  return { items: configuredProviders().map((provider) => ({ ...provider, startUrl: `/auth/${provider.name}` })) };
}

/** The provider, or the problem: unknown or unconfigured 404, Apple (a placeholder) 501. */
function requireProvider(name: string): SignInProvider {
  const found = lookupProvider(name);
  switch (found.status) {
    case "configured":
      return found.provider;
    case "unconfigured":
      throw new AppError("not_found", `Sign-in with ${found.label} is not available here: provider not configured`);
    case "placeholder":
      throw new AppError("not_implemented", `Sign in with ${found.label} is not available yet`);
    case "unknown":
      throw new AppError("not_found", `No sign-in provider named "${name}": provider not configured`);
  }
}

/**
 * The callback address registered at the provider: `<APP_URL or the request's origin>/auth/<provider>/callback`.
 * Both legs of a sign-in compute it the same way; the provider compares it with the registered one.
 */
export function redirectUriFor(provider: string, requestOrigin: string): string {
  return new URL(`/auth/${provider}/callback`, config().APP_URL ?? requestOrigin).href;
}

const isSitePath = (path: string) => path.startsWith("/") && !path.startsWith("//") && !path.startsWith("/\\");

/**
 * Where to land after signing in: a path on this site. Anything that a browser could read as another site
 * (`//evil.com`, `/\evil.com`, `https://evil.com`, control characters) becomes "/". The fragment is dropped (the
 * token goes there).
 */
export function safeReturnTo(value: string | undefined): string {
  // eslint-disable-next-line no-control-regex
  if (!value || !isSitePath(value) || /[\u0000-\u001f\u007f]/.test(value)) return "/";
  const base = new URL("http://spolu.invalid");
  const parsed = new URL(value, base);
  const path = parsed.pathname + parsed.search;
  // Checked again after normalising: `/.//evil.com` and `/a/..//evil.com` become `//evil.com`.
  return parsed.origin === base.origin && isSitePath(path) ? path : "/";
}

const hashBinding = (binding: string) => createHash("sha256").update(binding, "utf8").digest("hex");

/** A sign-in on its way to the provider: where to send the browser, and the value the browser keeps meanwhile. */
export interface StartedSignIn {
  url: URL;
  /**
   * A random value for a short-lived httpOnly cookie on the browser that starts the sign-in (lib/oauth/routes.ts);
   * only its hash is stored with the attempt, and the callback completes only where the cookie comes back.
   */
  browserBinding: string;
}

/**
 * Starts a sign-in: remembers the attempt (state, PKCE verifier, nonce, where to go, the hash of the browser's
 * binding) and answers the provider's URL.
 */
export async function startSignIn(name: string, query: StartQuery, requestOrigin: string): Promise<StartedSignIn> {
  const provider = requireProvider(name);
  const authorization = await provider.authorize(redirectUriFor(name, requestOrigin));
  const browserBinding = randomBytes(32).toString("base64url");
  await insertOAuthState({
    state: authorization.state,
    provider: name,
    codeVerifier: authorization.codeVerifier,
    nonce: authorization.nonce,
    returnTo: query.mode === "json" ? JSON_MODE : safeReturnTo(query.returnTo),
    timeZone: timeZoneInput.safeParse(query.timeZone).data ?? null,
    browserHash: hashBinding(browserBinding),
    expiresAt: new Date(nowDate().getTime() + STATE_TTL_MS),
  });
  return { url: authorization.url, browserBinding };
}

export interface CallbackInput {
  query: CallbackQuery;
  /** The request's query string as the provider sent it (with `iss`, `scope`... besides code and state). */
  search: string;
  requestOrigin: string;
  acceptLanguage: string | undefined;
  /** The binding cookie the browser sent back (absent: it did not start this sign-in). */
  browserBinding: string | undefined;
  client: ClientInfo;
}

/**
 * A completed sign-in: the JSON answer, and where a browser goes (null for an API client); or a completed link
 * (nobody is signed in anew): where the browser goes back to.
 */
export type SignInOutcome =
  { linked?: undefined; result: OAuthResultOutput; redirectTo: string | null } | { linked: string; redirectTo: string };

/** `path` (a path on this site, possibly with a query) with `name=value` added to its query. */
export function withQuery(path: string, name: string, value: string): string {
  const url = new URL(path, "http://spolu.invalid");
  url.searchParams.set(name, value);
  return url.pathname + url.search;
}

/**
 * Completes a sign-in. The state is used up first (whatever follows), so that a callback works once, and only in
 * the browser that started it (its binding cookie): a callback URL taken from someone else's sign-in signs nobody
 * in (login CSRF). Then the code is exchanged and the account found, linked or created (see `accountFor`).
 */
export async function completeSignIn(name: string, input: CallbackInput): Promise<SignInOutcome> {
  const provider = requireProvider(name);
  const attempt = input.browserBinding
    ? await consumeOAuthState(input.query.state, name, hashBinding(input.browserBinding), nowDate())
    : null;
  if (!attempt) {
    throw new AppError(
      "bad_request",
      "Invalid or expired sign-in attempt: it was used already, is older than 10 minutes, or was not started in this " +
        "browser. Start again.",
    );
  }
  if (!attempt.linkUserId) return signInWith(provider, attempt, input);
  const linkUserId = attempt.linkUserId;
  try {
    const profile = await profileFromCallback(provider, attempt, input);
    await linkIdentity(linkUserId, provider, profile);
    return { linked: provider.name, redirectTo: withQuery(attempt.returnTo, "linked", provider.name) };
  } catch (error) {
    if (error instanceof AppError) throw new LinkFailure(error, attempt.returnTo);
    throw error;
  }
}

/** A link that failed after its attempt was found: the problem, and the page its browser goes back to. */
export class LinkFailure extends Error {
  constructor(
    readonly problem: AppError,
    readonly returnTo: string,
  ) {
    super(problem.message);
  }
}

/** The provider's answer turned into the external account's profile (the code exchanged, the checks made). */
async function profileFromCallback(provider: SignInProvider, attempt: OAuthStateRow, input: CallbackInput) {
  if (input.query.error) {
    const description = input.query.error_description ? `: ${input.query.error_description}` : "";
    throw new AppError("bad_request", `${provider.label} did not sign you in (${input.query.error}${description})`);
  }
  if (!input.query.code) throw invalidField("query", "/code", "is required (or error, from the provider)");

  const callbackUrl = new URL(redirectUriFor(provider.name, input.requestOrigin));
  callbackUrl.search = input.search;
  return provider.finish(callbackUrl, {
    state: attempt.state,
    codeVerifier: attempt.codeVerifier,
    nonce: attempt.nonce,
  });
}

async function signInWith(provider: SignInProvider, attempt: OAuthStateRow, input: CallbackInput): Promise<SignInOutcome> {
  const profile = await profileFromCallback(provider, attempt, input);
  const user = await accountFor(provider, profile, {
    locale: localeFromAcceptLanguage(input.acceptLanguage),
    ...(attempt.timeZone ? { timeZone: attempt.timeZone } : {}),
  });
  refuseDisabledAccount(user);
  return {
    result: {
      token: await startSession(user, `oauth:${provider.name}`, input.client),
      user: toUserOutput(user),
      provider: provider.name,
    },
    redirectTo: attempt.returnTo === JSON_MODE ? null : attempt.returnTo,
  };
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

function profileName(profile: ExternalProfile, email: string): string {
  // The provider's profile name is shown to other people: without characters that could disguise it.
  const name = withoutDisguise(profile.name ?? email.split("@")[0] ?? "")
    .trim()
    .slice(0, 100)
    .trim();
  return name || "Spolu user";
}

/**
 * The account an external sign-in belongs to, in one transaction:
 * 1. the account this (provider, subject) is linked to, whatever the email says now;
 * 2. else the account with the same email, linked now, but only when the provider verified the email (otherwise
 *    409: anyone can type someone else's address at some providers) and the account's owner verified it too
 *    (otherwise 409: anyone can register with someone else's address here);
 * 3. else a new account (no password; name and locale from the profile and Accept-Language, the time zone the
 *    browser gave when it started the sign-in; its address verified, as the provider verified it), linked; an
 *    email the provider did not verify is refused (403) rather than creating an account on it.
 */
async function accountFor(
  provider: SignInProvider,
  profile: ExternalProfile,
  settings: Pick<UserRow, "locale"> & Partial<Pick<UserRow, "timeZone">>,
): Promise<UserRow> {
  const now = nowDate();
  return db().transaction(async (tx) => {
    const linked = await findUserByIdentity(provider.name, profile.subject, tx);
    if (linked) {
      await touchIdentity(linked.identity.id, profile.email, now, tx);
      return linked.user;
    }
    const email = profile.email ? normaliseEmail(profile.email) : null;
    if (!email || !profile.emailVerified) {
      if (email && (await findUserByEmail(email, tx))) {
        throw new AppError(
          "conflict",
          `An account with ${email} exists already, but ${provider.label} has not verified that this address is yours, so the accounts were not linked. Sign in with your password and link ${provider.label} under Settings → Security (/settings/security).`,
        );
      }
      throw new AppError(
        "forbidden",
        email
          ? `${provider.label} has not verified your email address ${email}. Verify it with ${provider.label} and sign in again.`
          : `${provider.label} did not share a verified email address. Add one to your ${provider.label} account and sign in again.`,
      );
    }
    const identity = { provider: provider.name, subject: profile.subject, email, lastUsedAt: now };
    const existing = await findUserByEmail(email, tx);
    if (existing) {
      // Whoever registered an address they do not own must not get the provider's sign-in linked to it: only an
      // account that proved the address (docs/password-reset.md) is linked by email.
      if (!existing.emailVerifiedAt) {
        throw new AppError(
          "conflict",
          `An account with ${email} exists already, but its owner has not confirmed the address yet, so the accounts were not linked. Sign in with your password, confirm your email address with the link we sent (or ask for a new one), then sign in with ${provider.label} again.`,
        );
      }
      await insertIdentity({ ...identity, userId: existing.id }, tx);
      return existing;
    }
    // The provider verified the address: so does the new account.
    const user = await insertUser(
      { email, name: profileName(profile, email), passwordHash: null, ...settings, emailVerifiedAt: now },
      tx,
    );
    await insertIdentity({ ...identity, userId: user.id }, tx);
    return user;
  });
}

// Linked external accounts (Settings → Security)

/** Where the security settings page is, for a link started without `returnTo`. */
const SECURITY_SETTINGS = "/settings/security";

/**
 * Starts linking another external account to the signed-in user's: an attempt like a sign-in's (state, PKCE,
 * nonce, the browser binding cookie against login CSRF) that also carries the user's id, so that its callback links
 * the identity to this account and to no other, and signs nobody in.
 */
export async function startLink(
  actor: Actor,
  name: string,
  input: LinkInput,
  requestOrigin: string,
): Promise<LinkStartOutput & { browserBinding: string }> {
  const provider = requireProvider(name);
  const authorization = await provider.authorize(redirectUriFor(name, requestOrigin));
  const browserBinding = randomBytes(32).toString("base64url");
  await insertOAuthState({
    state: authorization.state,
    provider: name,
    codeVerifier: authorization.codeVerifier,
    nonce: authorization.nonce,
    returnTo: safeReturnTo(input.returnTo ?? SECURITY_SETTINGS),
    timeZone: null,
    browserHash: hashBinding(browserBinding),
    linkUserId: actor.userId,
    expiresAt: new Date(nowDate().getTime() + STATE_TTL_MS),
  });
  return { url: authorization.url.href, browserBinding };
}

/**
 * Links the external account to `userId`: once linked to them already, it is only noted as used; linked to another
 * account, 409 (one external account signs in to one account). The provider's email plays no part: the person
 * proved both accounts are theirs by being signed in here and at the provider.
 */
async function linkIdentity(userId: string, provider: SignInProvider, profile: ExternalProfile): Promise<void> {
  const now = nowDate();
  await db().transaction(async (tx) => {
    const linked = await findUserByIdentity(provider.name, profile.subject, tx);
    if (linked && linked.user.id !== userId) {
      throw new AppError(
        "conflict",
        `This ${provider.label} account is linked to another Spolu account already. Unlink it there first.`,
      );
    }
    const email = profile.email ? normaliseEmail(profile.email) : null;
    if (linked) return touchIdentity(linked.identity.id, email, now, tx);
    await insertIdentity({ userId, provider: provider.name, subject: profile.subject, email, lastUsedAt: now }, tx);
  });
}

function toIdentityOutput(row: UserIdentityRow): IdentityOutput {
  return {
    id: row.id,
    provider: row.provider,
    label: providerLabel(row.provider),
    email: row.email,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

export async function listIdentities(actor: Actor): Promise<IdentityListOutput> {
  const [rows, hasPassword] = await Promise.all([listUserIdentities(actor.userId), userHasPassword(actor.userId)]);
  return { items: rows.map(toIdentityOutput), hasPassword };
}

/** Unlinks one of the actor's external accounts while another way to sign in remains (409 otherwise). */
export async function unlinkIdentity(actor: Actor, id: string): Promise<void> {
  const result = await deleteSignInMethodKeepingAWayIn(actor.userId, "identity", id);
  if (result === "not_found") throw new AppError("not_found", "No such linked account");
  if (result === "last_method") {
    throw new AppError(
      "conflict",
      "This linked account is your only way to sign in: set a password (Forgot password on the sign-in page) or add " +
        "a passkey or another linked account under Settings → Security first, then unlink it.",
    );
  }
}

/** The background job: forgets sign-in attempts that can no longer complete (used, or older than 10 minutes). */
export function purgeOAuthStates(): Promise<number> {
  return deleteSpentOAuthStates(nowDate());
}
