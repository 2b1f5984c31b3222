import { AppError } from "../api/app-error";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { createRouter } from "../api/router";
import { clientInfo } from "../api/client-info";
import { clearOAuthBindingCookie, oauthBindingCookie, setOAuthBindingCookie, setSessionCookie } from "../api/session-cookie";
import { localeFromAcceptLanguage } from "../i18n/locales";
import {
  callbackQuery,
  identityIdParams,
  identityListOutput,
  linkInput,
  linkStartOutput,
  oauthResultOutput,
  providerListOutput,
  providerParams,
  startQuery,
} from "./schema";
import {
  completeSignIn,
  LinkFailure,
  listIdentities,
  listProviders,
  startLink,
  startSignIn,
  unlinkIdentity,
  withQuery,
} from "./service";

// Mounted last in server/api.ts: `/auth/{provider}` must not catch the fixed `/auth/...` paths. Every path also
// answers at the site root (`/auth/google`, `/auth/google/callback`).
const TAGS = ["Sign-in with other accounts"];
const PROVIDERS =
  "Providers: `google` and `microsoft` (OpenID Connect), `github` (OAuth 2). Each is offered when its client id and " +
  "secret are set (GOOGLE_CLIENT_ID/SECRET, MICROSOFT_CLIENT_ID/SECRET, GITHUB_CLIENT_ID/SECRET). `apple` is a " +
  "placeholder that answers 501.";
const REDIRECT_URI =
  "The redirect URI sent to the provider is `<APP_URL>/auth/<provider>/callback` (the request's own origin when " +
  "APP_URL is unset): register exactly that address with the provider.";
const UNAVAILABLE = "No such provider, or it is not configured on this server (both: `provider not configured`)";
const APPLE = "Sign in with Apple is not available yet (`not_implemented`)";

const providersRoute = apiRoute({
  method: "get",
  path: "/auth/providers",
  tags: TAGS,
  summary: "The external sign-in providers offered here",
  description: `For the sign-in page's buttons: each configured provider with the URL to send the browser to. ${PROVIDERS}`,
  access: "public",
  responses: { 200: jsonContent(providerListOutput, "The configured providers (possibly none)") },
});

const LINKED_TAGS = ["Linked sign-in methods"];

const identitiesRoute = apiRoute({
  method: "get",
  path: "/auth/identities",
  tags: LINKED_TAGS,
  summary: "The external accounts linked to yours",
  description:
    "Each Google, Microsoft or GitHub account that signs in to yours, oldest link first, with the address the " +
    "provider gave; `hasPassword` says whether you have a password too (with a passkey, the other ways in that " +
    "`DELETE /auth/identities/{id}` counts).",
  access: "user",
  responses: { 200: jsonContent(identityListOutput, "Your linked accounts (possibly none)") },
});

const unlinkRoute = apiRoute({
  method: "delete",
  path: "/auth/identities/{id}",
  tags: LINKED_TAGS,
  summary: "Unlink an external account",
  description:
    "The external account no longer signs in to yours (signing in with it later makes or finds an account by its " +
    "email, as for anyone). Refused with 409 while it is your only way to sign in: no password, no passkey and no " +
    "other linked account. Anyone else's link, or no such link: 404.",
  access: "user",
  sessionOnly: true,
  request: { params: identityIdParams },
  responses: {
    204: { description: "Unlinked" },
    404: problemResponse("No such linked account, or it is not yours"),
    409: problemResponse("It is your only way to sign in: set a password or add a passkey or another linked account first"),
  },
});

const linkRoute = apiRoute({
  method: "post",
  path: "/auth/{provider}/link",
  tags: LINKED_TAGS,
  summary: "Start linking another external account to yours",
  description:
    "Answers the provider's URL to send this browser to; coming back (`GET /auth/{provider}/callback`), the external " +
    "account is linked to the account signed in here when this was called, and nobody is signed in anew. As a " +
    "sign-in, the attempt is bound to this browser (the `spolu_oauth` cookie set here must come back), works once and " +
    "for 10 minutes. The browser then lands on `returnTo` with `?linked=<provider>`; an external account linked to " +
    "another Spolu account already is refused (`?linkError=exists`, or 409 to a client that does not ask for HTML), " +
    `and so are a cancelled or failed attempt (\`linkError=cancelled|failed|expired\`). Ignores \`Idempotency-Key\` ` +
    `(each call starts a new attempt with its own \`spolu_oauth\` cookie, which a replayed answer could not set). ` +
    `${PROVIDERS} ${REDIRECT_URI}`,
  access: "user",
  sessionOnly: true,
  idempotent: false,
  request: { params: providerParams, body: jsonBody(linkInput) },
  responses: {
    200: jsonContent(linkStartOutput, "Where to send the browser"),
    404: problemResponse(UNAVAILABLE),
    501: problemResponse(APPLE),
    503: problemResponse("The provider's discovery document could not be fetched"),
  },
});

const callbackRoute = apiRoute({
  method: "get",
  path: "/auth/{provider}/callback",
  tags: TAGS,
  summary: "Complete a sign-in with an external account (the provider redirects here)",
  description: [
    "The provider sends the browser here with `code` and `state` (or `error`). The state is used up first, whatever " +
      "follows: an unknown, used or expired one (10 minutes), or one started in another browser (the short-lived " +
      "binding cookie `GET /auth/{provider}` set does not come back with it), answers 400 `invalid or expired sign-in " +
      "attempt`, and nothing is created: a callback URL taken from someone else's sign-in signs nobody in. The code is exchanged with the PKCE verifier (a code used before is refused by the " +
      "provider: 400); for OpenID Connect the ID Token's issuer, audience and nonce are checked (401 otherwise).",
    "**Which account.** (1) the account this external account (provider + subject) is linked to; else (2) the " +
      "account with the same email, linked now, only when the provider verified the email and the account's owner " +
      "verified it too (`emailVerified`, docs/password-reset.md; otherwise 409 and nothing is linked); else (3) a " +
      "new account without a password (name from the profile, locale from Accept-Language, the default task " +
      "groups, its address verified), linked. An email " +
      "the provider did not verify never creates an account (403). An account an administrator disabled is " +
      "refused with 403 `account_disabled` (to a browser: `oauthError=disabled`). Verified means: Google `email_verified: true`; " +
      "Microsoft the optional claim `xms_edov: true` (add the optional claims `email` and `xms_edov`); GitHub an " +
      "address its emails API lists as `verified` (the primary one first). With Microsoft's multi-tenant issuers " +
      "(`common`, `organizations`, `consumers`) the ID Token's issuer must be the `{tenantid}` template filled with " +
      "the token's own `tid`.",
    "**Answer.** Started with `mode=json` (API clients): 200 `{ token, user, provider }`, no session cookie. Started with " +
      "`mode=redirect` (the default, browsers): the session cookie is set and the answer is a 302 to `returnTo` with " +
      "the JWT in the fragment (`/path#token=<jwt>`), which a mobile app's web view can read; the fragment never " +
      "reaches a server. Failures answer a problem, except to a browser (a request that accepts `text/html`), " +
      "which is sent back to `/<locale>/sign-in?oauthError=expired|cancelled|exists|unverified|disabled|failed`.",
    "**Linking.** An attempt started with `POST /auth/{provider}/link` links the external account to the account " +
      "that started it instead (see there) and answers a 302 to its `returnTo` with `?linked=<provider>`.",
  ].join("\n\n"),
  access: "public",
  limit: "strict",
  request: { params: providerParams, query: callbackQuery },
  responses: {
    200: jsonContent(oauthResultOutput, "Signed in (mode=json)"),
    302: {
      description: "Signed in (mode=redirect): the session cookie is set; Location is `returnTo#token=<jwt>`",
      headers: { Location: { schema: { type: "string" }, description: "`returnTo` with `#token=<jwt>`" } },
    },
    401: problemResponse("The provider refused the sign-in, or its answer failed the checks (issuer, audience, nonce)"),
    403: problemResponse(
      "The provider has not verified the email address: no account is created; or `account_disabled`: an administrator disabled the account",
    ),
    404: problemResponse(UNAVAILABLE),
    409: problemResponse(
      "An account with this email exists, and the provider did not verify the email or the account's owner has not: nothing linked",
    ),
    501: problemResponse(APPLE),
    503: problemResponse("The provider did not answer"),
  },
});

const startRoute = apiRoute({
  method: "get",
  path: "/auth/{provider}",
  tags: TAGS,
  summary: "Start a sign-in with an external account",
  description:
    `Redirects the browser to the provider with a fresh \`state\`, a PKCE challenge (S256) and, for OpenID Connect, ` +
    `a \`nonce\`; the attempt is remembered for 10 minutes and works once, and only in this browser: the answer sets ` +
    "a short-lived httpOnly, SameSite=Lax cookie (`spolu_oauth`) whose hash is kept with the attempt, and the callback " +
    "must bring it back. API clients (`mode=json`) therefore open this address in the same user agent (browser or web " +
    `view) that will follow the provider back to the callback. ${REDIRECT_URI} ` +
    "`mode` picks how the callback answers (`redirect`: cookie + 302 to `returnTo#token=<jwt>`; `json`: " +
    `\`{ token, user, provider }\`). ${PROVIDERS}`,
  access: "public",
  limit: "strict",
  request: { params: providerParams, query: startQuery },
  responses: {
    302: {
      description: "To the provider's authorization page",
      headers: { Location: { schema: { type: "string" }, description: "The provider's authorization URL" } },
    },
    404: problemResponse(UNAVAILABLE),
    501: problemResponse(APPLE),
    503: problemResponse("The provider's discovery document could not be fetched"),
  },
});

/** What the sign-in page tells a browser whose external sign-in failed (messages: SignIn.oauthErrors). */
function browserReason(error: AppError): "expired" | "cancelled" | "exists" | "unverified" | "disabled" | "failed" {
  if (error.code === "conflict") return "exists";
  if (error.code === "account_disabled") return "disabled";
  if (error.code === "forbidden") return "unverified";
  if (error.code === "bad_request") return error.message.startsWith("Invalid or expired") ? "expired" : "cancelled";
  return "failed";
}

export const oauthRoutes = createRouter()
  .openapi(providersRoute, (c) => c.json(listProviders(), 200))
  .openapi(identitiesRoute, async (c) => c.json(await listIdentities(c.var.actor), 200))
  .openapi(unlinkRoute, async (c) => {
    await unlinkIdentity(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  })
  .openapi(linkRoute, async (c) => {
    const { browserBinding, url } = await startLink(
      c.var.actor,
      c.req.valid("param").provider,
      c.req.valid("json"),
      new URL(c.req.url).origin,
    );
    setOAuthBindingCookie(c, browserBinding);
    c.header("Cache-Control", "no-store");
    return c.json({ url }, 200);
  })
  .openapi(callbackRoute, async (c) => {
    const requestUrl = new URL(c.req.url);
    c.header("Cache-Control", "no-store");
    let outcome: Awaited<ReturnType<typeof completeSignIn>>;
    try {
      outcome = await completeSignIn(c.req.valid("param").provider, {
        query: c.req.valid("query"),
        search: requestUrl.search,
        requestOrigin: requestUrl.origin,
        acceptLanguage: c.req.header("accept-language"),
        browserBinding: oauthBindingCookie(c),
        client: clientInfo(c),
      });
    } catch (error) {
      if (error instanceof LinkFailure) {
        if (!/\btext\/html\b/.test(c.req.header("accept") ?? "")) throw error.problem;
        return c.redirect(withQuery(error.returnTo, "linkError", browserReason(error.problem)), 302);
      }
      // A browser (it asks for HTML) goes back to the sign-in page, which says what happened in its language;
      // API clients get the problem.
      if (!(error instanceof AppError) || !/\btext\/html\b/.test(c.req.header("accept") ?? "")) throw error;
      const locale = localeFromAcceptLanguage(c.req.header("accept-language"));
      return c.redirect(`/${locale}/sign-in?oauthError=${browserReason(error)}`, 302);
    }
    clearOAuthBindingCookie(c);
    if (outcome.linked !== undefined) return c.redirect(outcome.redirectTo, 302);
    if (outcome.redirectTo === null) return c.json(outcome.result, 200);
    setSessionCookie(c, outcome.result);
    return c.redirect(`${outcome.redirectTo}#token=${outcome.result.token}`, 302);
  })
  .openapi(startRoute, async (c) => {
    const started = await startSignIn(c.req.valid("param").provider, c.req.valid("query"), new URL(c.req.url).origin);
    setOAuthBindingCookie(c, started.browserBinding);
    c.header("Cache-Control", "no-store");
    return c.redirect(started.url.href, 302);
  });
