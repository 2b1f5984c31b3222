import { authResultOutput } from "../accounts/schema";
import { requestHeader } from "../api/request-header";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { clientInfo } from "../api/client-info";
import { createRouter } from "../api/router";
import { setSessionCookie } from "../api/session-cookie";
import {
  authOptionsInput,
  authOptionsOutput,
  authVerifyInput,
  deviceIdParams,
  deviceListOutput,
  deviceOutput,
  registerVerifyInput,
  registrationOptionsInput,
  registrationOptionsOutput,
  renameDeviceInput,
} from "./schema";
import {
  finishRegistration,
  listDevices,
  removeDevice,
  renameDevice,
  signInWithPasskey,
  startRegistration,
  startSignIn,
} from "./service";

// Every path also answers at the site root (`/webauthn/...`).
const TAGS = ["Passkeys (WebAuthn)"];
const RELYING_PARTY =
  "The relying party is WEBAUTHN_RP_ID (else APP_URL's host name, else `localhost`), named WEBAUTHN_RP_NAME; answers " +
  "are accepted only from the origins in WEBAUTHN_ORIGINS (else APP_URL's origin, else http://localhost:PORT), never " +
  "from whatever origin a request comes from.";
const CHALLENGE = "The challenge works once and for 5 minutes; a failed attempt uses it up too.";
const LABELS =
  "The device's `label` is detected when it is registered, from the authenticator model (AAGUID) where it is known " +
  "(Windows Hello → `windows_hello`; iCloud Keychain → `touch` on a Mac itself, else `face`; Google Password Manager " +
  "and Samsung Pass → `android_fingerprint`; password managers → `generic`), else for a platform authenticator from " +
  "the browser's platform (User-Agent / Sec-CH-UA-Platform: iPhone or iPad → `face`, Mac → `touch`, Android → " +
  "`android_fingerprint`, Windows → `windows_hello`), else `generic`. WebAuthn cannot tell face from fingerprint " +
  "from PIN, so this is a guess; `labelText` is its English text.";
const NOT_FOUND = "No such device among yours (another user's answers the same)";

const registerOptionsRoute = apiRoute({
  method: "post",
  path: "/webauthn/register/options",
  tags: TAGS,
  summary: "Start registering a passkey",
  description:
    "PublicKeyCredentialCreationOptionsJSON for `navigator.credentials.create()` (@simplewebauthn/browser's " +
    "`startRegistration({ optionsJSON })`): user id = your stable opaque handle, name = your email, displayName = " +
    "your name; `excludeCredentials` = your devices already registered; attestation `none`; residentKey and " +
    `userVerification \`preferred\`. ${RELYING_PARTY} ${CHALLENGE} The body may be left out or be \`{}\`.`,
  access: "user",
  request: { body: { required: false, content: { "application/json": { schema: registrationOptionsInput } } } },
  responses: { 200: jsonContent(registrationOptionsOutput, "The creation options") },
});

const registerVerifyRoute = apiRoute({
  method: "post",
  path: "/webauthn/register/verify",
  tags: TAGS,
  summary: "Finish registering a passkey",
  description:
    "Send the browser's RegistrationResponseJSON as `response` (and optionally a `name`, else the label's text). " +
    "It must answer a registration challenge you asked for (unknown, used or expired: 400), come from an accepted " +
    "origin for the RP id, with user presence (user verification is preferred, not required). Stored: the " +
    "credential id and public key, counter, transports, attachment, AAGUID, backup flags. " +
    `${LABELS} ${CHALLENGE} Counted against the strict rate limit.`,
  access: "user",
  limit: "strict",
  request: { body: jsonBody(registerVerifyInput) },
  responses: {
    201: jsonContent(deviceOutput, "The new device"),
    409: problemResponse("This passkey is registered already"),
  },
});

const authOptionsRoute = apiRoute({
  method: "post",
  path: "/webauthn/auth/options",
  tags: TAGS,
  summary: "Start signing in with a passkey",
  description:
    "No sign-in needed. PublicKeyCredentialRequestOptionsJSON for `navigator.credentials.get()` " +
    "(`startAuthentication({ optionsJSON })`), with `allowCredentials` = the passkeys of the account with this " +
    "email. An email with no account (or no passkeys) gets the same answer, with stand-in credentials that stay " +
    `the same on every call, so the answer does not tell whether an account exists. ${CHALLENGE} The challenge is ` +
    "bound to the email. Counted against the strict rate limit.",
  access: "public",
  limit: "strict",
  request: { body: jsonBody(authOptionsInput) },
  responses: { 200: jsonContent(authOptionsOutput, "The request options") },
});

const authVerifyRoute = apiRoute({
  method: "post",
  path: "/webauthn/auth/verify",
  tags: TAGS,
  summary: "Sign in with a passkey",
  description:
    "No sign-in needed. Send the email the options were asked for and the browser's AuthenticationResponseJSON. " +
    "Checked: the challenge was handed out for this email and is unused and unexpired (it is used up now, whatever " +
    "the outcome); the credential belongs to this email's account; the signature, origin, RP id and user presence; " +
    "the signature counter went up (or stays 0 for authenticators that do not count; a counter that went back " +
    "suggests a cloned authenticator and is refused). Then the counter and last use are recorded and the answer is " +
    "as `POST /auth/login`: a JWT and the user, and the session cookie is set. Every refusal is the same 401 with no " +
    "token, and counts against the account like a wrong password (while limited, 429). Malformed input is a 400. " +
    "An account an administrator disabled answers 403 `account_disabled`, and only to a passkey that passed. " +
    RELYING_PARTY,
  access: "public",
  limit: "strict",
  request: { body: jsonBody(authVerifyInput) },
  responses: {
    200: jsonContent(authResultOutput, "Signed in"),
    401: problemResponse("The passkey could not sign you in (any reason: ask for new options and try again)"),
    403: problemResponse("`account_disabled`: an administrator disabled the account"),
  },
});

const listDevicesRoute = apiRoute({
  method: "get",
  path: "/webauthn/devices",
  tags: TAGS,
  summary: "Your passkeys",
  description: `Your registered devices, oldest first (never their public keys). ${LABELS}`,
  access: "user",
  responses: { 200: jsonContent(deviceListOutput, "Your devices") },
});

const renameDeviceRoute = apiRoute({
  method: "patch",
  path: "/webauthn/devices/{id}",
  tags: TAGS,
  summary: "Rename a passkey",
  description: "Gives one of your devices a name (1-100 characters, trimmed); its detected label stays.",
  access: "user",
  request: { params: deviceIdParams, body: jsonBody(renameDeviceInput) },
  responses: { 200: jsonContent(deviceOutput, "The renamed device"), 404: problemResponse(NOT_FOUND) },
});

const removeDeviceRoute = apiRoute({
  method: "delete",
  path: "/webauthn/devices/{id}",
  tags: TAGS,
  summary: "Remove a passkey",
  description:
    "Deletes one of your devices: it no longer signs in. Your password and other devices keep working. The passkey " +
    "stays on the device itself until removed there. Refused with 409 while it is your only way to sign in: no " +
    "password, no other passkey and no linked account (the rule of `DELETE /auth/identities/{id}`).",
  access: "user",
  request: { params: deviceIdParams },
  responses: {
    204: { description: "Removed" },
    404: problemResponse(NOT_FOUND),
    409: problemResponse("It is your only way to sign in: set a password or add another passkey or a linked account first"),
  },
});

export const webauthnRoutes = createRouter()
  .openapi(registerOptionsRoute, async (c) => c.json(await startRegistration(c.var.actor), 200))
  .openapi(registerVerifyRoute, async (c) => {
    const client = { userAgent: requestHeader(c, "user-agent"), platformHint: requestHeader(c, "sec-ch-ua-platform") };
    return c.json(await finishRegistration(c.var.actor, c.req.valid("json"), client), 201);
  })
  .openapi(authOptionsRoute, async (c) => c.json(await startSignIn(c.req.valid("json")), 200))
  .openapi(authVerifyRoute, async (c) => {
    const result = await signInWithPasskey(c.req.valid("json"), clientInfo(c));
    setSessionCookie(c, result);
    return c.json(result, 200);
  })
  .openapi(listDevicesRoute, async (c) => c.json(await listDevices(c.var.actor), 200))
  .openapi(renameDeviceRoute, async (c) =>
    c.json(await renameDevice(c.var.actor, c.req.valid("param").id, c.req.valid("json")), 200),
  )
  .openapi(removeDeviceRoute, async (c) => {
    await removeDevice(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
