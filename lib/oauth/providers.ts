/**
 * The external sign-in providers and the protocol work with them, all through openid-client (OpenID Connect
 * for Google and Microsoft, its plain OAuth 2 configuration for GitHub): authorization URLs with state, PKCE
 * (S256) and, for OpenID Connect, a nonce; the code exchange; the ID Token's checks; the user's profile.
 * Library and network failures leave this file as AppErrors with a clear message.
 */
import * as client from "openid-client";
import { AppError } from "../api/app-error";
import { config } from "../config";
import { log } from "../log";
import type { ProviderName } from "./schema";

export type RealProviderName = Exclude<ProviderName, "apple">;

/** Who the provider says signed in. `emailVerified` follows each provider's own rule (see `emailVerified`). */
export interface ExternalProfile {
  /** The provider's stable id for the account: the ID Token's `sub`, GitHub's numeric user id. */
  subject: string;
  email: string | null;
  emailVerified: boolean;
  name: string | null;
}

/** What one authorization request needs remembered until its callback. */
export interface Authorization {
  url: URL;
  state: string;
  codeVerifier: string;
  /** OpenID Connect only. */
  nonce: string | null;
}

export interface SignInProvider {
  name: RealProviderName;
  label: string;
  kind: "oidc" | "oauth2";
  /** A fresh state, PKCE verifier (and nonce) and the provider's authorization URL carrying them. */
  authorize(redirectUri: string): Promise<Authorization>;
  /**
   * Exchanges the code in `callbackUrl` (the redirect URI with every parameter the provider sent) with the PKCE
   * verifier, checks the answer (the ID Token's signature source, issuer, audience, nonce for OpenID Connect) and
   * reads the profile.
   */
  finish(callbackUrl: URL, checks: { state: string; codeVerifier: string; nonce: string | null }): Promise<ExternalProfile>;
}

export type ProviderLookup =
  | { status: "configured"; provider: SignInProvider }
  | { status: "unconfigured"; label: string }
  | { status: "placeholder"; label: string }
  | { status: "unknown" };

const LABELS: Record<ProviderName, string> = { google: "Google", github: "GitHub", microsoft: "Microsoft", apple: "Apple" };

/** Each real provider's credentials, or null when its client id or secret is unset. */
function credentials(name: RealProviderName): { clientId: string; clientSecret: string } | null {
  const settings = config();
  const pair = {
    google: [settings.GOOGLE_CLIENT_ID, settings.GOOGLE_CLIENT_SECRET],
    microsoft: [settings.MICROSOFT_CLIENT_ID, settings.MICROSOFT_CLIENT_SECRET],
    github: [settings.GITHUB_CLIENT_ID, settings.GITHUB_CLIENT_SECRET],
  }[name];
  const [clientId, clientSecret] = pair;
  return clientId && clientSecret ? { clientId, clientSecret } : null;
}

/** Microsoft's issuer: MICROSOFT_ISSUER, else the v2.0 endpoint of MICROSOFT_TENANT (`common` by default). */
export function microsoftIssuer(): string {
  return config().MICROSOFT_ISSUER ?? `https://login.microsoftonline.com/${encodeURIComponent(config().MICROSOFT_TENANT)}/v2.0`;
}

/** A provider's name as people know it (`Google`), or the name itself for one this server does not know. */
export function providerLabel(name: string): string {
  return (LABELS as Record<string, string | undefined>)[name] ?? name;
}

export function lookupProvider(name: string): ProviderLookup {
  if (name === "apple") return { status: "placeholder", label: LABELS.apple };
  if (name !== "google" && name !== "github" && name !== "microsoft") return { status: "unknown" };
  const pair = credentials(name);
  if (!pair) return { status: "unconfigured", label: LABELS[name] };
  if (name === "github") return { status: "configured", provider: githubProvider(pair.clientId, pair.clientSecret) };
  const issuer = name === "google" ? config().GOOGLE_ISSUER : microsoftIssuer();
  return { status: "configured", provider: oidcProvider(name, issuer, pair.clientId, pair.clientSecret) };
}

/** The real providers whose client id and secret are set, in a fixed order. */
export function configuredProviders(): { name: RealProviderName; label: string; kind: "oidc" | "oauth2" }[] {
  return (["google", "microsoft", "github"] as const)
    .filter((name) => credentials(name) !== null)
    .map((name) => ({ name, label: LABELS[name], kind: name === "github" ? "oauth2" : "oidc" }));
}

// ---------------------------------------------------------------------------------------------------------------
// Transport rules and errors

const LOOPBACK_HOSTS = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\])$/;

/**
 * openid-client talks HTTPS only. Plain HTTP is allowed for a loopback address (a provider on this machine: a
 * development identity provider, or the tests' stand-in), never otherwise.
 */
function allowsPlainHttp(...urls: URL[]): boolean {
  if (!urls.some((url) => url.protocol === "http:")) return false;
  return urls.every((url) => url.protocol === "https:" || LOOPBACK_HOSTS.test(url.hostname));
}

function isNetworkFailure(error: unknown): boolean {
  if (error instanceof client.ClientError) return error.code === "OAUTH_TIMEOUT" || error.code === "OAUTH_ABORT";
  return error instanceof TypeError && error.message === "fetch failed";
}

/** Errors the grant itself may meet: the code was used already, has expired, or was issued for another verifier. */
const REFUSED_CODE = new Set(["invalid_grant", "bad_verification_code"]);

/** A library or network failure while talking to `label`, as the problem the user gets. */
function providerFailure(label: string, error: unknown): AppError {
  if (error instanceof AppError) return error;
  if (isNetworkFailure(error)) {
    log.warn("OAuth provider unreachable", { provider: label, error: String(error) });
    return new AppError("unavailable", `${label} did not answer; try again in a moment`, { retryAfterSeconds: 30 });
  }
  if (error instanceof client.ResponseBodyError) {
    if (REFUSED_CODE.has(error.error)) {
      return new AppError(
        "bad_request",
        `${label} refused the sign-in code (${error.error}): it was used already, has expired or belongs to another sign-in attempt. Start again.`,
      );
    }
    log.warn("OAuth provider refused the token request", {
      provider: label,
      error: error.error,
      description: error.error_description,
    });
    return new AppError(
      "unauthenticated",
      `${label} refused the sign-in (${error.error}${error.error_description ? `: ${error.error_description}` : ""})`,
    );
  }
  if (error instanceof client.AuthorizationResponseError) {
    return new AppError(
      "bad_request",
      `${label} did not sign you in (${error.error}${error.error_description ? `: ${error.error_description}` : ""})`,
    );
  }
  if (error instanceof client.WWWAuthenticateChallengeError) {
    return new AppError("unauthenticated", `${label} did not accept its own access token; start again`);
  }
  if (error instanceof client.ClientError) {
    log.warn("OAuth provider answer failed its checks", { provider: label, error: error.message, code: error.code });
    return new AppError("unauthenticated", `${label}'s answer could not be verified (${error.message}); start again`);
  }
  throw error;
}

async function withProvider<T>(label: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw providerFailure(label, error);
  }
}

// ---------------------------------------------------------------------------------------------------------------
// OpenID Connect: Google and Microsoft

/** Discovery results, per process: one request to the provider's metadata, kept while it worked. */
const discovered = new Map<string, Promise<client.Configuration>>();

function discover(issuer: string, clientId: string, clientSecret: string): Promise<client.Configuration> {
  const key = JSON.stringify([issuer, clientId, clientSecret]);
  let configuration = discovered.get(key);
  if (!configuration) {
    const url = new URL(issuer);
    configuration = client.discovery(url, clientId, { client_secret: clientSecret }, client.ClientSecretPost(clientSecret), {
      execute: allowsPlainHttp(url) ? [client.allowInsecureRequests] : [],
      timeout: 10,
    });
    discovered.set(key, configuration);
    // A failed discovery is tried again on the next sign-in.
    configuration.catch(() => discovered.delete(key));
  }
  return configuration;
}

function isTrue(value: unknown): boolean {
  return value === true || value === "true";
}

/**
 * Whether the provider vouches for the email address. Google: the standard `email_verified` claim. Microsoft
 * (Entra ID) sends no `email_verified`, and its `email` claim may be any address an administrator typed in: it
 * counts as verified only with the optional claim `xms_edov` ("email domain owner verified") true. Add the
 * optional claims `email` and `xms_edov` to the ID token in the app registration, or every Microsoft sign-in
 * without a linked account is refused.
 */
function emailVerified(name: "google" | "microsoft", claims: Record<string, unknown>): boolean {
  return name === "microsoft" ? isTrue(claims.xms_edov) : isTrue(claims.email_verified);
}

const stringOrNull = (value: unknown): string | null => (typeof value === "string" && value.trim() ? value.trim() : null);

function oidcProvider(name: "google" | "microsoft", issuer: string, clientId: string, clientSecret: string): SignInProvider {
  const label = LABELS[name];
  return {
    name,
    label,
    kind: "oidc",
    async authorize(redirectUri) {
      const configuration = await discover(issuer, clientId, clientSecret).catch((error: unknown) => {
        log.warn("OpenID Connect discovery failed", { provider: label, issuer, error: String(error) });
        throw new AppError("unavailable", `Sign-in with ${label} is unavailable right now: its configuration could not be read`, {
          retryAfterSeconds: 30,
        });
      });
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: "openid email profile",
        state,
        nonce,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      });
      return { url, state, codeVerifier, nonce };
    },
    finish(callbackUrl, checks) {
      return withProvider(label, async () => {
        const configuration = await discover(issuer, clientId, clientSecret);
        // Checks state, the `iss` response parameter (RFC 9207) when the provider sends it, and the ID Token: issuer
        // (for Microsoft's multi-tenant `{tenantid}` issuer, the template filled with the token's own `tid`),
        // audience, expiry and nonce. The token comes straight from the token endpoint over TLS, which OpenID
        // Connect Core §3.1.3.7 accepts in place of checking its signature.
        const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
          expectedNonce: checks.nonce ?? undefined,
          idTokenExpected: true,
        });
        const idToken = tokens.claims()!;
        let claims: Record<string, unknown> = idToken;
        // Providers may keep profile claims out of the ID Token (OpenID Connect Core §5.4): ask UserInfo then.
        if (typeof idToken.email !== "string" && configuration.serverMetadata().userinfo_endpoint) {
          claims = { ...(await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)), ...idToken };
        }
        return {
          subject: idToken.sub,
          email: stringOrNull(claims.email),
          emailVerified: emailVerified(name, claims),
          name:
            stringOrNull(claims.name) ??
            stringOrNull([claims.given_name, claims.family_name].filter((part) => typeof part === "string").join(" ")),
        };
      });
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// GitHub: plain OAuth 2 (no ID Token); the profile and the verified emails come from its REST API.

interface GithubUser {
  id: number;
  login: string;
  name?: string | null;
}

interface GithubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/** A base URL as a directory, so that relative paths resolve below it (`…/api/v3` + `user`). */
const directory = (url: string) => new URL(url.endsWith("/") ? url : `${url}/`);

/**
 * GitHub answers token errors with HTTP 200 and `{ "error": … }`; as a 400 the library reports them as what they
 * are (an OAuth error response) instead of a malformed token response.
 */
function githubTokenErrors(tokenEndpoint: string): client.CustomFetch {
  return async (url, options) => {
    const response = await fetch(url, options as RequestInit);
    if (url !== tokenEndpoint || response.status !== 200) return response;
    const body = (await response
      .clone()
      .json()
      .catch(() => null)) as { error?: unknown } | null;
    if (typeof body?.error !== "string") return response;
    return new Response(JSON.stringify(body), { status: 400, headers: { "content-type": "application/json" } });
  };
}

const githubConfigurations = new Map<string, client.Configuration>();

function githubConfiguration(clientId: string, clientSecret: string): client.Configuration {
  const base = directory(config().GITHUB_BASE_URL);
  const api = directory(config().GITHUB_API_URL);
  const key = JSON.stringify([base.href, api.href, clientId, clientSecret]);
  let configuration = githubConfigurations.get(key);
  if (!configuration) {
    const tokenEndpoint = new URL("login/oauth/access_token", base).href;
    configuration = new client.Configuration(
      {
        issuer: base.href,
        authorization_endpoint: new URL("login/oauth/authorize", base).href,
        token_endpoint: tokenEndpoint,
        code_challenge_methods_supported: ["S256"],
      },
      clientId,
      { client_secret: clientSecret },
      client.ClientSecretPost(clientSecret),
    );
    if (allowsPlainHttp(base, api)) client.allowInsecureRequests(configuration);
    configuration[client.customFetch] = githubTokenErrors(tokenEndpoint);
    configuration.timeout = 10;
    githubConfigurations.set(key, configuration);
  }
  return configuration;
}

async function githubApi<T>(configuration: client.Configuration, accessToken: string, path: string): Promise<T> {
  const url = new URL(path, directory(config().GITHUB_API_URL));
  const headers = new Headers({ Accept: "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28" });
  const response = await client.fetchProtectedResource(configuration, accessToken, url, "GET", undefined, headers);
  if (!response.ok) {
    log.warn("GitHub API refused a sign-in request", { path, status: response.status });
    throw new AppError("unauthenticated", `GitHub did not share your profile (${path} answered ${response.status}); start again`);
  }
  return (await response.json()) as T;
}

/** Only an address GitHub lists as verified counts, the primary one first. */
function pickGithubEmail(emails: GithubEmail[]): { email: string | null; verified: boolean } {
  const verified = emails.filter((entry) => entry.verified === true);
  const chosen = verified.find((entry) => entry.primary) ?? verified[0];
  if (chosen) return { email: chosen.email, verified: true };
  return { email: emails.find((entry) => entry.primary)?.email ?? emails[0]?.email ?? null, verified: false };
}

function githubProvider(clientId: string, clientSecret: string): SignInProvider {
  const label = LABELS.github;
  return {
    name: "github",
    label,
    kind: "oauth2",
    async authorize(redirectUri) {
      const configuration = githubConfiguration(clientId, clientSecret);
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(configuration, {
        redirect_uri: redirectUri,
        scope: "read:user user:email",
        state,
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
      });
      return { url, state, codeVerifier, nonce: null };
    },
    finish(callbackUrl, checks) {
      return withProvider(label, async () => {
        const configuration = githubConfiguration(clientId, clientSecret);
        const tokens = await client.authorizationCodeGrant(configuration, callbackUrl, {
          pkceCodeVerifier: checks.codeVerifier,
          expectedState: checks.state,
        });
        const user = await githubApi<GithubUser>(configuration, tokens.access_token, "user");
        const emails = await githubApi<GithubEmail[]>(configuration, tokens.access_token, "user/emails");
        if (typeof user.id !== "number" || !Array.isArray(emails)) {
          throw new AppError("unauthenticated", "GitHub's profile answer could not be read; start again");
        }
        const { email, verified } = pickGithubEmail(emails);
        return {
          subject: String(user.id),
          email,
          emailVerified: verified,
          name: stringOrNull(user.name) ?? stringOrNull(user.login),
        };
      });
    },
  };
}
