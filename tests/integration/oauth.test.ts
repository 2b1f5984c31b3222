/**
 * Sign-in with external accounts, end to end: a real OpenID Provider on loopback (oidc-provider) stands in for
 * Google and Microsoft, a local server speaking GitHub's OAuth web flow for GitHub. The browser is played by fetch
 * with manual redirects: start → provider (login, consent) → callback.
 */
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, test } from "vitest";
import { userOutput } from "../../lib/accounts/schema";
import { advanceClock, resetClock } from "../../lib/clock";
import { identityListOutput, linkStartOutput, oauthResultOutput, providerListOutput } from "../../lib/oauth/schema";
import { purgeOAuthStates } from "../../lib/oauth/service";
import { startGithubStub, type GithubStub, type GithubUser } from "./github-stub";
import {
  CookieJar,
  expectProblem,
  expectShape,
  registerUser,
  startTestServer,
  type ApiResponse,
  type TestServer,
} from "./harness";
import { startOidcServer, type OidcServer, type TestAccount } from "./oidc-server";

const CLIENTS = {
  google: { clientId: "spolu-google", clientSecret: `google-secret-${randomUUID()}` },
  microsoft: { clientId: "spolu-microsoft", clientSecret: `microsoft-secret-${randomUUID()}` },
  github: { clientId: "spolu-github", clientSecret: `github-secret-${randomUUID()}` },
};

let server: TestServer;
let oidc: OidcServer;
let github: GithubStub;

beforeAll(async () => {
  oidc = await startOidcServer();
  github = await startGithubStub();
  server = await startTestServer({
    GOOGLE_CLIENT_ID: CLIENTS.google.clientId,
    GOOGLE_CLIENT_SECRET: CLIENTS.google.clientSecret,
    GOOGLE_ISSUER: oidc.issuer,
    MICROSOFT_CLIENT_ID: CLIENTS.microsoft.clientId,
    MICROSOFT_CLIENT_SECRET: CLIENTS.microsoft.clientSecret,
    MICROSOFT_ISSUER: oidc.issuer,
    GITHUB_CLIENT_ID: CLIENTS.github.clientId,
    GITHUB_CLIENT_SECRET: CLIENTS.github.clientSecret,
    GITHUB_BASE_URL: github.url,
    GITHUB_API_URL: github.apiUrl,
  });
  for (const name of ["google", "microsoft"] as const) {
    oidc.addClient({ ...CLIENTS[name], redirectUri: `${server.url}/auth/${name}/callback` });
  }
  github.addClient({ ...CLIENTS.github, redirectUri: `${server.url}/auth/github/callback` });
});
afterAll(async () => {
  await server?.close();
  await oidc?.close();
  await github?.close();
});
afterEach(() => resetClock());

type Provider = "google" | "microsoft" | "github";

/**
 * The browser that signs in: its cookies for Spolu (the sign-in's binding cookie among them) go back to Spolu.
 * Each test file run is one browser; `asAnotherBrowser` plays someone else's.
 */
let browser: CookieJar;
beforeAll(() => {
  browser = new CookieJar(server.url);
});

/** A GET that does not follow redirects, from `jar`'s browser (the test's own by default); JSON bodies parsed. */
async function get(url: string | URL, headers: Record<string, string> = {}, jar = browser): Promise<ApiResponse> {
  const response = await jar.fetch(url, { headers });
  const text = await response.text();
  const type = response.headers.get("content-type") ?? "";
  return { status: response.status, headers: response.headers, body: type.includes("json") ? JSON.parse(text) : text };
}

/** The provider's side of the browser: follows redirects with its own cookies until it is sent back to us. */
async function throughProvider(authorizeUrl: URL): Promise<URL> {
  const cookies = new Map<string, string>();
  let location = authorizeUrl;
  for (let hop = 0; hop < 10; hop++) {
    if (location.href.startsWith(`${server.url}/`)) return location;
    const response = await fetch(location, {
      redirect: "manual",
      headers: { Cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join("; ") },
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ""] = header.split(";");
      const at = pair.indexOf("=");
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    expect([302, 303], `${location.href} answered ${response.status}: ${await response.text()}`).toContain(response.status);
    location = new URL(response.headers.get("location")!, location);
  }
  throw new Error("too many redirects at the provider");
}

/** `GET /auth/{provider}`: answers the provider's authorization URL. */
async function start(provider: Provider, query = ""): Promise<URL> {
  const response = await get(`${server.url}/auth/${provider}${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(302);
  return new URL(response.headers.get("location")!);
}

/** Start → provider → the callback URL the provider sends the browser to (not yet visited). */
async function toCallback(provider: Provider, query = ""): Promise<URL> {
  return throughProvider(await start(provider, query));
}

async function signIn(provider: Provider, query = "?mode=json", headers: Record<string, string> = {}) {
  return get(await toCallback(provider, query), headers);
}

function googleAccount(overrides: Partial<TestAccount> = {}): { subject: string; account: TestAccount } {
  return {
    subject: `google-${randomUUID()}`,
    account: { email: `g-${randomUUID()}@gmail.test`, emailVerified: true, name: "Gina Google", ...overrides },
  };
}

function useGoogle(overrides: Partial<TestAccount> = {}) {
  const { subject, account } = googleAccount(overrides);
  oidc.signInAs(subject, account);
  return { subject, ...account };
}

async function me(token: string) {
  const response = await server.request("/auth/me", { token });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return expectShape(userOutput, response.body);
}

const identities = (userId: string) =>
  server.sql<{ provider: string; subject: string; email: string }>(
    "select provider, subject, email from user_identities where user_id = $1 order by created_at",
    [userId],
  );
const usersWithEmail = async (email: string) =>
  (await server.sql<{ count: number }>("select count(*)::int as count from users where email = $1", [email]))[0]!.count;

describe("GET /auth/providers", () => {
  test("lists the configured providers for the sign-in buttons, never the Apple placeholder", async () => {
    const response = await server.request("/api/v1/auth/providers");
    expect(response.status).toBe(200);
    const list = expectShape(providerListOutput, response.body);
    expect(list.items).toEqual([
      { name: "google", label: "Google", kind: "oidc", startUrl: "/auth/google" },
      { name: "microsoft", label: "Microsoft", kind: "oidc", startUrl: "/auth/microsoft" },
      { name: "github", label: "GitHub", kind: "oauth2", startUrl: "/auth/github" },
    ]);
  });
});

describe("GET /auth/{provider}", () => {
  test("redirects to the provider with state, PKCE (S256), a nonce and our callback as redirect_uri", async () => {
    const url = await start("google");
    expect(url.origin).toBe(oidc.issuer);
    const params = url.searchParams;
    expect(params.get("client_id")).toBe(CLIENTS.google.clientId);
    expect(params.get("response_type")).toBe("code");
    expect(params.get("redirect_uri")).toBe(`${server.url}/auth/google/callback`);
    expect(params.get("scope")!.split(" ").sort()).toEqual(["email", "openid", "profile"]);
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(params.get("nonce")).toMatch(/^[\w-]{20,}$/);
    // Each attempt gets its own values.
    const again = (await start("google")).searchParams;
    expect(again.get("state")).not.toBe(params.get("state"));
    expect(again.get("code_challenge")).not.toBe(params.get("code_challenge"));
    expect(again.get("nonce")).not.toBe(params.get("nonce"));
  });

  test("also answers under /api/v1; GitHub gets PKCE but no nonce (plain OAuth 2)", async () => {
    const response = await get(`${server.url}/api/v1/auth/github?returnTo=/en`);
    expect(response.status).toBe(302);
    const url = new URL(response.headers.get("location")!);
    expect(`${url.origin}${url.pathname}`).toBe(`${github.url}/login/oauth/authorize`);
    expect(url.searchParams.get("redirect_uri")).toBe(`${server.url}/auth/github/callback`);
    expect(url.searchParams.get("code_challenge_method")).toBe("S256");
    expect(url.searchParams.get("state")).toBeTruthy();
    expect(url.searchParams.has("nonce")).toBe(false);
  });

  test("404 for a provider without settings and for an unknown one; 501 for Apple", async () => {
    expect(expectProblem(await get(`${server.url}/auth/twitter`), 404, "not_found").detail).toMatch(/provider not configured/);
    expectProblem(await get(`${server.url}/auth/twitter/callback?state=x&code=y`), 404, "not_found");
    expect(expectProblem(await get(`${server.url}/auth/apple`), 501, "not_implemented").detail).toMatch(
      /Sign in with Apple is not available/,
    );
    expectProblem(await get(`${server.url}/auth/apple/callback?state=x&code=y`), 501, "not_implemented");
  });

  test("400 for an unknown mode, naming the field", async () => {
    const problem = expectProblem(await get(`${server.url}/auth/google?mode=popup`), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/mode" })]);
  });
});

describe("GET /auth/{provider}/callback – Google (OpenID Connect)", () => {
  test("redirect mode: creates the account, sets the session cookie and hands the JWT over in the fragment", async () => {
    const person = useGoogle({ name: "Gina Google" });
    const callback = await toCallback("google", `?returnTo=${encodeURIComponent("/cs/tasks?view=board")}`);
    expect(callback.pathname).toBe("/auth/google/callback");
    const response = await get(callback, { "Accept-Language": "cs-CZ,cs;q=0.9,en;q=0.5" });

    expect(response.status, JSON.stringify(response.body)).toBe(302);
    const location = response.headers.get("location")!;
    expect(location).toMatch(/^\/cs\/tasks\?view=board#token=[\w-]+\.[\w-]+\.[\w-]+$/);
    const token = location.split("#token=")[1]!;
    const cookie = response.headers.getSetCookie().find((header) => header.startsWith("spolu_session="));
    expect(cookie).toContain(`spolu_session=${token}`);
    expect(cookie).toMatch(/HttpOnly/i);
    expect(response.headers.get("cache-control")).toBe("no-store");

    const user = await me(token);
    // Google verified the address: so does the new account.
    expect(user).toMatchObject({ email: person.email, name: "Gina Google", locale: "cs", emailVerified: true });
    // The cookie alone signs the browser in too.
    const byCookie = await server.request("/auth/me", { headers: { Cookie: cookie!.split(";")[0]! } });
    expect(byCookie.body.id).toBe(user.id);
    // A real account: default task groups, no password, linked to the Google subject.
    const groups = await server.request("/groups", { token });
    expect(groups.body.items.length).toBeGreaterThan(0);
    expect(await server.sql("select password_hash from users where id = $1", [user.id])).toEqual([{ password_hash: null }]);
    expect(await identities(user.id)).toEqual([{ provider: "google", subject: person.subject, email: person.email }]);
    expectProblem(
      await server.request("/auth/login", { json: { email: person.email, password: "anything at all" } }),
      401,
      "unauthenticated",
    );
  });

  test("json mode: 200 { token, user, provider } and no session cookie; the same Google account signs in to the same user", async () => {
    const person = useGoogle();
    const first = await signIn("google");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    const result = expectShape(oauthResultOutput, first.body);
    expect(result).toMatchObject({ provider: "google", user: { email: person.email } });
    // The sign-in's binding cookie is dropped; no session cookie is set.
    expect(first.headers.getSetCookie().map((cookie) => cookie.split("=")[0])).toEqual(["spolu_oauth"]);
    expect(first.headers.getSetCookie()[0]).toMatch(/Max-Age=0/i);
    expect((await me(result.token)).id).toBe(result.user.id);

    // Next time (a new provider session), even after the address changed at Google: the link decides.
    oidc.signInAs(person.subject, { ...person, email: `renamed-${randomUUID()}@gmail.test` });
    const second = await signIn("google");
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body.user.id).toBe(result.user.id);
    expect(second.body.user.email).toBe(person.email);
    expect(await identities(result.user.id)).toHaveLength(1);
  });

  test("a first sign-in creates the account in the browser's time zone; a later one leaves the account's zone alone", async () => {
    const person = useGoogle();
    const first = await signIn("google", "?mode=json&timeZone=America/New_York");
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.user.timeZone).toBe("America/New_York");
    // Signing in again from a browser in another zone: the account keeps its own.
    oidc.signInAs(person.subject, person);
    const again = await signIn("google", "?mode=json&timeZone=Asia/Tokyo");
    expect(again.body.user).toMatchObject({ id: first.body.user.id, timeZone: "America/New_York" });
    // A zone the server does not know does not fail the sign-in: the new account has the default.
    useGoogle();
    const unknown = await signIn("google", "?mode=json&timeZone=Mars/Olympus_Mons");
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(200);
    expect(unknown.body.user.timeZone).toBe("UTC");
  });

  test("links an existing password account when Google verified the same email and so did its owner", async () => {
    const existing = await registerUser(server, { name: "Pat Password" });
    // As following the emailed link does (tests/integration/email-verification.test.ts).
    await server.sql("update users set email_verified_at = now() where id = $1", [existing.user.id]);
    const subject = `google-${randomUUID()}`;
    oidc.signInAs(subject, { email: existing.email.toUpperCase(), emailVerified: true, name: "Patricia G." });
    const response = await signIn("google");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.user).toMatchObject({ id: existing.user.id, name: "Pat Password" });
    expect(await identities(existing.user.id)).toEqual([{ provider: "google", subject, email: existing.email }]);
    // The password still works.
    expect((await server.request("/auth/login", { json: { email: existing.email, password: existing.password } })).status).toBe(
      200,
    );
  });

  test("409 for an existing account whose owner has not verified its email, even when Google has: nothing is linked", async () => {
    // Someone registered with an address they do not own; its owner signs in with Google.
    const squatter = await registerUser(server, { name: "Squatter" });
    oidc.signInAs(`google-${randomUUID()}`, { email: squatter.email, emailVerified: true, name: "The real owner" });
    const response = await signIn("google", "?returnTo=/en");
    const problem = expectProblem(response, 409, "conflict");
    expect(problem.detail).toMatch(/has not confirmed the address yet/);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await identities(squatter.user.id)).toEqual([]);
  });

  test("409 for an existing account when Google has not verified the email: nothing is linked", async () => {
    const existing = await registerUser(server);
    oidc.signInAs(`google-${randomUUID()}`, { email: existing.email, emailVerified: false, name: "Mallory" });
    const response = await signIn("google", "?returnTo=/en");
    const problem = expectProblem(response, 409, "conflict");
    expect(problem.detail).toMatch(
      /sign in with your password and link Google under Settings → Security \(\/settings\/security\)/i,
    );
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(await identities(existing.user.id)).toEqual([]);
  });

  test("403 for an unverified email nobody uses: no account is created", async () => {
    const person = useGoogle({ emailVerified: false });
    const response = await signIn("google");
    expect(expectProblem(response, 403, "forbidden").detail).toMatch(/has not verified your email address/);
    expect(await usersWithEmail(person.email)).toBe(0);
    expect(await server.sql("select 1 from user_identities where subject = $1", [person.subject])).toEqual([]);
  });

  test("a forged state is refused (400) and creates nothing; the genuine callback still works", async () => {
    const person = useGoogle();
    const callback = await toCallback("google", "?mode=json");
    const forged = new URL(callback);
    forged.searchParams.set("state", "forged-state-the-server-never-issued");
    const response = await get(forged);
    expect(expectProblem(response, 400, "bad_request").detail).toMatch(/invalid or expired sign-in attempt/i);
    expect(response.headers.getSetCookie()).toEqual([]);
    expect(JSON.stringify(response.body)).not.toMatch(/token/);
    expect(await usersWithEmail(person.email)).toBe(0);

    const genuine = await get(callback);
    expect(genuine.status, JSON.stringify(genuine.body)).toBe(200);
    expect(genuine.body.user.email).toBe(person.email);
  });

  test("a browser whose sign-in fails goes back to the sign-in page in its language, with the reason", async () => {
    const person = useGoogle({ emailVerified: false });
    const browser = { Accept: "text/html,application/xhtml+xml,*/*;q=0.8", "Accept-Language": "cs-CZ,cs;q=0.9" };
    const unverified = await get(await toCallback("google"), browser);
    expect(unverified.status).toBe(302);
    expect(unverified.headers.get("location")).toBe("/cs/sign-in?oauthError=unverified");
    expect(unverified.headers.getSetCookie()).toEqual([]);
    expect(await usersWithEmail(person.email)).toBe(0);

    const forged = new URL(await toCallback("google"));
    forged.searchParams.set("state", "forged-state-the-server-never-issued");
    const expired = await get(forged, { Accept: "text/html" });
    expect(expired.headers.get("location")).toBe("/en/sign-in?oauthError=expired");
  });

  test("a replayed callback is refused, and so is the used code under a fresh state (by the provider)", async () => {
    useGoogle();
    const callback = await toCallback("google", "?mode=json");
    expect((await get(callback)).status).toBe(200);

    const replay = await get(callback);
    expect(expectProblem(replay, 400, "bad_request").detail).toMatch(/invalid or expired sign-in attempt/i);

    // The same code carried by a state this server did hand out: the provider refuses the exchange.
    const fresh = await start("google", "?mode=json");
    const smuggled = new URL(callback);
    smuggled.searchParams.set("state", fresh.searchParams.get("state")!);
    const errorsBefore = oidc.grantErrors.length;
    const refused = await get(smuggled);
    expect(expectProblem(refused, 400, "bad_request").detail).toMatch(/Google refused the sign-in code \(invalid_grant\)/);
    expect(JSON.stringify(refused.body)).not.toMatch(/"token"/);
    expect(oidc.grantErrors.slice(errorsBefore)).toEqual(["invalid_grant"]);
  });

  test("a sign-in attempt expires after 10 minutes", async () => {
    useGoogle();
    const late = await toCallback("google", "?mode=json");
    const inTime = await toCallback("google", "?mode=json");
    advanceClock(9 * 60 * 1000);
    expect((await get(inTime)).status).toBe(200);
    advanceClock(2 * 60 * 1000);
    expect(expectProblem(await get(late), 400, "bad_request").detail).toMatch(/invalid or expired sign-in attempt/i);
  });

  test("an error from the provider (the user cancelled) is a 400 naming it, and uses up the attempt", async () => {
    const url = await start("google");
    const state = url.searchParams.get("state")!;
    const cancelled = await get(
      `${server.url}/auth/google/callback?error=access_denied&error_description=End-User+aborted&state=${state}`,
    );
    expect(expectProblem(cancelled, 400, "bad_request").detail).toMatch(
      /Google did not sign you in \(access_denied: End-User aborted\)/,
    );
    const again = await get(`${server.url}/auth/google/callback?code=whatever&state=${state}`);
    expect(expectProblem(again, 400, "bad_request").detail).toMatch(/invalid or expired/i);
  });

  test("400 naming the field for a callback without state", async () => {
    const problem = expectProblem(await get(`${server.url}/auth/google/callback?code=abc`), 400, "validation_failed");
    expect(problem.errors).toEqual([expect.objectContaining({ in: "query", pointer: "/state" })]);
  });

  test("a state handed out for GitHub does not complete a Google sign-in", async () => {
    const githubState = (await start("github")).searchParams.get("state")!;
    const response = await get(`${server.url}/auth/google/callback?code=abc&state=${githubState}`);
    expectProblem(response, 400, "bad_request");
  });

  test.each([
    "//evil.com",
    "https://evil.com/steal",
    "/\\evil.com",
    "/.//evil.com",
    "/a/..//evil.com",
    "/\t/evil.com",
    "javascript:alert(1)",
    "evil.com",
  ])("returnTo=%s cannot send the browser to another site: it lands on /", async (returnTo) => {
    useGoogle();
    const response = await get(await toCallback("google", `?returnTo=${encodeURIComponent(returnTo)}`));
    expect(response.status, JSON.stringify(response.body)).toBe(302);
    expect(response.headers.get("location")).toMatch(/^\/#token=[\w.-]+$/);
  });
});

describe("login CSRF: a callback URL from someone else's sign-in", () => {
  /**
   * The attack: Mallory starts a sign-in to her own Google account in her browser, stops at the redirect back to
   * Spolu and sends that callback URL to Alice. Alice's browser opening it must not be signed in to Mallory's account.
   */
  async function mallorysCallback(query = ""): Promise<{ url: URL; mallory: CookieJar }> {
    useGoogle({ name: "Mallory" });
    const mallory = new CookieJar(server.url);
    const started = await get(`${server.url}/auth/google${query}`, {}, mallory);
    expect(started.status).toBe(302);
    return { url: await throughProvider(new URL(started.headers.get("location")!)), mallory };
  }

  test("a browser without the sign-in's cookie gets no session, whatever it accepts", async () => {
    const alice = new CookieJar(server.url);
    const { url } = await mallorysCallback();
    const asBrowser = await get(url, { Accept: "text/html" }, alice);
    expect(asBrowser.status).toBe(302);
    expect(asBrowser.headers.get("location")).toBe("/en/sign-in?oauthError=expired");
    expect(alice.get("spolu_session")).toBeUndefined();

    const { url: json } = await mallorysCallback("?mode=json");
    expectProblem(await get(json, {}, alice), 400, "bad_request");
    expect(alice.get("spolu_session")).toBeUndefined();
  });

  test("a browser with a sign-in of its own in flight does not complete Mallory's either", async () => {
    const alice = new CookieJar(server.url);
    expect((await get(`${server.url}/auth/google`, {}, alice)).status).toBe(302);
    expect(alice.get("spolu_oauth")).toBeTruthy();
    const { url } = await mallorysCallback();
    const response = await get(url, {}, alice);
    expectProblem(response, 400, "bad_request");
    expect(alice.get("spolu_session")).toBeUndefined();
  });

  test("the browser that started the sign-in completes it (the cookie is hashed server-side, used once)", async () => {
    const { url, mallory } = await mallorysCallback();
    expect(mallory.get("spolu_oauth")).toMatch(/^[\w-]{43}$/);
    const started = await get(`${server.url}/auth/google`, {}, new CookieJar(server.url));
    expect(started.headers.getSetCookie().join("\n")).toMatch(
      /^spolu_oauth=[\w-]{43}; Max-Age=600; Path=\/; HttpOnly; SameSite=Lax$/m,
    );
    const stored = await server.sql<{ browser_hash: string }>("select browser_hash from oauth_states where state = $1", [
      url.searchParams.get("state"),
    ]);
    expect(stored[0]!.browser_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(stored[0]!.browser_hash).not.toContain(mallory.get("spolu_oauth"));
    const response = await get(url, {}, mallory);
    expect(response.status, JSON.stringify(response.body)).toBe(302);
    expect(mallory.get("spolu_session")).toBeTruthy();
    expect(mallory.get("spolu_oauth")).toBeUndefined();
  });
});

describe("GET /auth/{provider}/callback – Microsoft", () => {
  test("signs in when the xms_edov claim vouches for the email", async () => {
    const email = `m-${randomUUID()}@contoso.test`;
    oidc.signInAs(`ms-${randomUUID()}`, { email, emailVerified: false, xmsEdov: true, name: "Mia Microsoft" });
    const response = await signIn("microsoft");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ provider: "microsoft", user: { email, name: "Mia Microsoft" } });
  });

  test("refuses an email without xms_edov: Microsoft's email claim alone is not proof", async () => {
    const email = `m-${randomUUID()}@contoso.test`;
    oidc.signInAs(`ms-${randomUUID()}`, { email, emailVerified: true, name: "Typed-in Address" });
    expectProblem(await signIn("microsoft"), 403, "forbidden");
    expect(await usersWithEmail(email)).toBe(0);
  });
});

describe("GET /auth/{provider}/callback – GitHub", () => {
  const githubUser = (emails: GithubUser["emails"]): GithubUser => ({
    id: Math.floor(Math.random() * 1e9),
    login: `octo-${randomUUID().slice(0, 8)}`,
    name: "Octo Cat",
    emails,
  });

  test("uses the verified primary email, exchanging the code with the PKCE verifier", async () => {
    const primary = `primary-${randomUUID()}@github.test`;
    const user = githubUser([
      { email: `old-${randomUUID()}@github.test`, primary: false, verified: false },
      { email: `second-${randomUUID()}@github.test`, primary: false, verified: true },
      { email: primary, primary: true, verified: true },
    ]);
    github.signInAs(user);
    const authorize = await start("github", "?returnTo=/en/today");
    const callback = await throughProvider(authorize);
    const response = await get(callback);
    expect(response.status, JSON.stringify(response.body)).toBe(302);
    const token = response.headers.get("location")!.match(/^\/en\/today#token=(.+)$/)![1]!;
    const signedIn = await me(token);
    expect(signedIn).toMatchObject({ email: primary, name: "Octo Cat" });
    expect(await identities(signedIn.id)).toEqual([{ provider: "github", subject: String(user.id), email: primary }]);
    const tokenRequest = github.tokenRequests.at(-1)!;
    expect(tokenRequest.get("code_verifier")).toMatch(/^[\w-]{43,128}$/);
    expect(tokenRequest.get("redirect_uri")).toBe(`${server.url}/auth/github/callback`);

    // Again: the same GitHub account, the same user.
    github.signInAs(user);
    const again = await signIn("github");
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toMatchObject({ provider: "github", user: { id: signedIn.id } });
  });

  test("a verified address that is not the primary one still counts; the unverified primary does not", async () => {
    const verified = `verified-${randomUUID()}@github.test`;
    github.signInAs(
      githubUser([
        { email: `unverified-${randomUUID()}@github.test`, primary: true, verified: false },
        { email: verified, primary: false, verified: true },
      ]),
    );
    const response = await signIn("github");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body.user.email).toBe(verified);
  });

  test("only unverified emails: refused, no account", async () => {
    const unverified = `unverified-${randomUUID()}@github.test`;
    github.signInAs(githubUser([{ email: unverified, primary: true, verified: false }]));
    expect(expectProblem(await signIn("github"), 403, "forbidden").detail).toMatch(/GitHub has not verified/);
    expect(await usersWithEmail(unverified)).toBe(0);
  });

  test("a replayed code is refused by GitHub (200 with an error body there) as a 400", async () => {
    github.signInAs(githubUser([{ email: `r-${randomUUID()}@github.test`, primary: true, verified: true }]));
    const callback = await toCallback("github", "?mode=json");
    expect((await get(callback)).status).toBe(200);
    const fresh = await start("github", "?mode=json");
    const smuggled = new URL(callback);
    smuggled.searchParams.set("state", fresh.searchParams.get("state")!);
    const refused = await get(smuggled);
    expect(expectProblem(refused, 400, "bad_request").detail).toMatch(
      /GitHub refused the sign-in code \(bad_verification_code\)/,
    );
  });
});

describe("the oauth-states job", () => {
  test("forgets used and expired sign-in attempts, keeps the ones in progress", async () => {
    useGoogle();
    const used = await toCallback("google", "?mode=json");
    expect((await get(used)).status).toBe(200);
    const pending = await start("google", "?mode=json");
    const stale = await start("google", "?mode=json");
    await server.sql("update oauth_states set expires_at = now() - interval '1 minute' where state = $1", [
      stale.searchParams.get("state"),
    ]);

    expect(await purgeOAuthStates()).toBeGreaterThanOrEqual(2);
    const left = (await server.sql<{ state: string }>("select state from oauth_states")).map((row) => row.state);
    expect(left).toContain(pending.searchParams.get("state"));
    expect(left).not.toContain(stale.searchParams.get("state"));
    expect(left).not.toContain(used.searchParams.get("state"));
  });
});

describe("linked sign-in methods: GET /auth/identities, POST /auth/{provider}/link, DELETE /auth/identities/{id}", () => {
  const html = { Accept: "text/html,application/xhtml+xml,*/*;q=0.8" };

  /** `POST /auth/{provider}/link` from `jar`'s browser (the test's own by default), signed in with `token`. */
  async function startLinking(provider: Provider, token: string, returnTo?: string, jar = browser) {
    const response = await jar.fetch(`${server.url}/api/v1/auth/${provider}/link`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(returnTo === undefined ? {} : { returnTo }),
    });
    const body = (await response.json()) as { url: string };
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(expectShape(linkStartOutput, body)).toEqual({ url: expect.any(String) });
    return new URL(body.url);
  }

  async function listed(token: string) {
    const response = await server.request("/api/v1/auth/identities", { token });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return expectShape(identityListOutput, response.body);
  }

  /** A passwordless account made by signing in with a fresh Google account. */
  async function googleOnlyAccount() {
    const person = useGoogle();
    const response = await signIn("google");
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return { ...person, token: response.body.token as string, userId: response.body.user.id as string };
  }

  test("links Google to the signed-in account (no new session), which then signs in with it; listed with its address", async () => {
    const me = await registerUser(server);
    expect(await listed(me.token)).toEqual({ items: [], hasPassword: true });
    const google = useGoogle({ email: `other-${randomUUID()}@gmail.test` });
    const callback = await throughProvider(await startLinking("google", me.token, "/cs/settings/security"));
    const response = await get(callback, html);
    expect(response.status, JSON.stringify(response.body)).toBe(302);
    expect(response.headers.get("location")).toBe("/cs/settings/security?linked=google");
    // Nobody is signed in anew: no session cookie, no token.
    expect(response.headers.getSetCookie().filter((cookie) => cookie.startsWith("spolu_session="))).toEqual([]);

    const list = await listed(me.token);
    expect(list.items).toEqual([
      expect.objectContaining({ provider: "google", label: "Google", email: google.email.toLowerCase() }),
    ]);
    expect(await identities(me.user.id)).toEqual([{ provider: "google", subject: google.subject, email: google.email }]);

    // Signing in with that Google account now signs in to this account, though the addresses differ.
    oidc.signInAs(google.subject, { email: google.email, emailVerified: true, name: "Gina Google" });
    const signedIn = await signIn("google");
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    expect(signedIn.body.user.id).toBe(me.user.id);
  });

  test("the link is bound to the account that started it and to its browser: another browser's callback links nothing", async () => {
    const me = await registerUser(server);
    useGoogle();
    const callback = await throughProvider(await startLinking("google", me.token));
    // Someone else's browser (no binding cookie) following the same callback: refused, nothing linked.
    const stranger = new CookieJar(server.url);
    const refused = await get(callback, {}, stranger);
    expectProblem(refused, 400, "bad_request");
    expect(await identities(me.user.id)).toEqual([]);
  });

  test("an external account linked to another Spolu account already is refused (409; a browser goes back with linkError=exists)", async () => {
    const owner = await googleOnlyAccount();
    const me = await registerUser(server);
    oidc.signInAs(owner.subject, { email: owner.email, emailVerified: true, name: "Gina Google" });
    const refused = await get(await throughProvider(await startLinking("google", me.token)));
    expect(expectProblem(refused, 409, "conflict").detail).toMatch(/linked to another Spolu account/);

    oidc.signInAs(owner.subject, { email: owner.email, emailVerified: true, name: "Gina Google" });
    const browserAnswer = await get(await throughProvider(await startLinking("google", me.token, "/he/settings/security")), html);
    expect(browserAnswer.status).toBe(302);
    expect(browserAnswer.headers.get("location")).toBe("/he/settings/security?linkError=exists");
    expect(await identities(me.user.id)).toEqual([]);
    expect((await listed(owner.token)).items).toHaveLength(1);
  });

  test("POST /auth/{provider}/link – 401 signed out, 404 for a provider not configured, 501 for Apple, 400 naming an unknown field", async () => {
    const me = await registerUser(server);
    const post = (provider: string, json: unknown, token?: string) =>
      server.request(`/api/v1/auth/${provider}/link`, { method: "POST", json, ...(token ? { token } : {}) });
    expectProblem(await post("google", {}), 401, "unauthenticated");
    expectProblem(await post("myspace", {}, me.token), 404, "not_found");
    expectProblem(await post("apple", {}, me.token), 501, "not_implemented");
    const invalid = expectProblem(await post("google", { returnTo: "/en", extra: 1 }, me.token), 400, "validation_failed");
    expect(invalid.errors).toEqual([expect.objectContaining({ in: "body" })]);
  });

  test("DELETE /auth/identities/{id} – 404 for another user's link (which stays) and for none; unlinks while a password remains", async () => {
    const owner = await googleOnlyAccount();
    const [ownersLink] = (await listed(owner.token)).items;
    const me = await registerUser(server);
    expectProblem(
      await server.request(`/api/v1/auth/identities/${ownersLink!.id}`, { method: "DELETE", token: me.token }),
      404,
      "not_found",
    );
    expectProblem(
      await server.request(`/api/v1/auth/identities/${randomUUID()}`, { method: "DELETE", token: me.token }),
      404,
      "not_found",
    );
    expect((await listed(owner.token)).items).toHaveLength(1);
    expect(await listed(me.token)).toEqual({ items: [], hasPassword: true });

    useGoogle();
    await get(await throughProvider(await startLinking("google", me.token)), html);
    const [mine] = (await listed(me.token)).items;
    const unlinked = await server.request(`/api/v1/auth/identities/${mine!.id}`, { method: "DELETE", token: me.token });
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(204);
    expect((await listed(me.token)).items).toEqual([]);
  });

  test("DELETE /auth/identities/{id} – 409 for the only way to sign in; once GitHub is linked too, Google can go", async () => {
    const person = await googleOnlyAccount();
    const list = await listed(person.token);
    expect(list.hasPassword).toBe(false);
    const google = list.items[0]!;
    const refused = await server.request(`/api/v1/auth/identities/${google.id}`, { method: "DELETE", token: person.token });
    expect(expectProblem(refused, 409, "conflict").detail).toMatch(/only way to sign in/);
    expect((await listed(person.token)).items).toHaveLength(1);

    github.signInAs({
      id: Math.floor(Math.random() * 1e9),
      login: `octo-${randomUUID().slice(0, 8)}`,
      name: "Octo Cat",
      emails: [{ email: `gh-${randomUUID()}@github.test`, primary: true, verified: true }],
    });
    const linked = await get(await throughProvider(await startLinking("github", person.token)), html);
    expect(linked.headers.get("location")).toBe("/settings/security?linked=github");
    expect((await listed(person.token)).items.map((item) => item.provider)).toEqual(["google", "github"]);

    const unlinked = await server.request(`/api/v1/auth/identities/${google.id}`, { method: "DELETE", token: person.token });
    expect(unlinked.status, JSON.stringify(unlinked.body)).toBe(204);
    const [githubLink] = (await listed(person.token)).items;
    expect(githubLink).toMatchObject({ provider: "github" });
    // GitHub is now the last way in.
    expectProblem(
      await server.request(`/api/v1/auth/identities/${githubLink!.id}`, { method: "DELETE", token: person.token }),
      409,
      "conflict",
    );
  });
});

// Last: it loads another configuration into this process (GitHub set up, Microsoft unreachable, Google unset).
describe("a server where Google is not configured and Microsoft does not answer", () => {
  let bare: TestServer;
  beforeAll(async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadIssuer = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    await server.close();
    bare = await startTestServer({
      GITHUB_CLIENT_ID: "id",
      GITHUB_CLIENT_SECRET: "secret",
      GITHUB_BASE_URL: github.url,
      MICROSOFT_CLIENT_ID: "id",
      MICROSOFT_CLIENT_SECRET: "secret",
      MICROSOFT_ISSUER: deadIssuer,
    });
    server = bare;
  });

  test("GET /auth/google answers 404 provider not configured; the providers list leaves Google out", async () => {
    expect(expectProblem(await get(`${bare.url}/auth/google`), 404, "not_found").detail).toMatch(
      /Google.*provider not configured/,
    );
    expectProblem(await get(`${bare.url}/auth/google/callback?state=x&code=y`), 404, "not_found");
    const list = expectShape(providerListOutput, (await bare.request("/api/v1/auth/providers")).body);
    expect(list.items.map((item) => item.name)).toEqual(["microsoft", "github"]);
  });

  test("GET /auth/microsoft answers 503 while the provider's discovery document cannot be fetched", async () => {
    const response = await get(`${bare.url}/auth/microsoft`);
    expect(expectProblem(response, 503, "unavailable").detail).toMatch(/Sign-in with Microsoft is unavailable/);
    expect(response.headers.get("retry-after")).toBe("30");
    expect(await bare.sql("select 1 from oauth_states where provider = 'microsoft'")).toEqual([]);
  });
});
