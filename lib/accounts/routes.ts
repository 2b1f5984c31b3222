import { z } from "@hono/zod-openapi";
import { apiRoute, jsonBody, jsonContent, problemResponse } from "../api/route";
import { clientInfo } from "../api/client-info";
import { createRouter } from "../api/router";
import { clearSessionCookie, setLocaleCookie, setSessionCookie } from "../api/session-cookie";
import { resendVerificationEmail, verifyEmail } from "./email-verification";
import { confirmPasswordReset, requestPasswordReset } from "./password-reset";
import {
  authResultOutput,
  changePasswordInput,
  emailSentOutput,
  emailVerifiedOutput,
  loginInput,
  passwordResetConfirmInput,
  passwordResetRequestInput,
  registerInput,
  updateProfileInput,
  userOutput,
  verifyEmailInput,
} from "./schema";
import { changePassword, getMe, login, register, signOut, signOutEverywhere, updateProfile } from "./service";

const registerRoute = apiRoute({
  method: "post",
  path: "/auth/register",
  tags: ["Account"],
  summary: "Create an account with a password",
  description:
    "Also sets the session cookie and the language cookie (`NEXT_LOCALE`) for the web pages. Emails are trimmed " +
    "and lower-cased.",
  access: "public",
  limit: "strict",
  request: { body: jsonBody(registerInput) },
  responses: {
    201: jsonContent(authResultOutput, "Signed up and signed in"),
    409: problemResponse("An account with this email already exists"),
  },
});

const loginRoute = apiRoute({
  method: "post",
  path: "/auth/login",
  tags: ["Account"],
  summary: "Sign in with email and password",
  description:
    "A wrong email and a wrong password get the same 401. Only failures are counted (a busy office signing in from " +
    "one address is never held up): 5 failures per 15 minutes to one account from one address lock that pair out " +
    "for the rest of the 15 minutes, 20 in a day for the rest of the day; 100 failures per hour from one address " +
    "and 50 per hour to one account from any addresses are limits too (LOGIN_* settings). While any is used up, " +
    "even the right password is refused with 429 and Retry-After. An account an administrator disabled answers 403 " +
    "`account_disabled`, and only to the right password.",
  access: "public",
  request: { body: jsonBody(loginInput) },
  responses: {
    200: jsonContent(authResultOutput, "Signed in"),
    401: problemResponse("Wrong email or password"),
    403: problemResponse("`account_disabled`: an administrator disabled the account"),
  },
});

const meRoute = apiRoute({
  method: "get",
  path: "/auth/me",
  tags: ["Account"],
  summary: "The signed-in user",
  access: "user",
  responses: { 200: jsonContent(userOutput, "The current user") },
});

const changePasswordRoute = apiRoute({
  method: "post",
  path: "/auth/change-password",
  tags: ["Account"],
  summary: "Change the password",
  description:
    "Every session ends (every token issued before stops working); the answer carries a new one. Personal access " +
    "tokens go on working. Needs a sign-in: with a personal access token, 403 `session_required`. Ignores " +
    "`Idempotency-Key` (the answer's new session token is never stored, so it cannot be answered again).",
  access: "user",
  sessionOnly: true,
  idempotent: false,
  limit: "strict",
  request: { body: jsonBody(changePasswordInput) },
  responses: { 200: jsonContent(authResultOutput, "Password changed") },
});

const updateProfileRoute = apiRoute({
  method: "patch",
  path: "/auth/profile",
  tags: ["Account"],
  summary: "Update the profile",
  description:
    "Send only the fields to change. Changing the email needs `currentPassword`. A new `locale` also sets the " +
    "language cookie (`NEXT_LOCALE`) of the web pages.",
  access: "user",
  request: { body: jsonBody(updateProfileInput) },
  responses: {
    200: jsonContent(userOutput, "The updated user"),
    409: problemResponse("Another account uses this email"),
  },
});

const logoutRoute = apiRoute({
  method: "post",
  path: "/auth/logout",
  tags: ["Account"],
  summary: "Sign out",
  description:
    "Ends this session: its token stops working at once, on every server process, and the session cookie is " +
    "cleared. With `everywhere=true` every session of the user ends (all devices). Personal access tokens go on " +
    "working (revoke them with `DELETE /tokens/{id}`); sent with one, 403 `session_required`.",
  access: "user",
  sessionOnly: true,
  request: {
    query: z.strictObject({
      everywhere: z.stringbool().optional().openapi({ type: "boolean", description: "Also revoke every other token" }),
    }),
  },
  responses: { 204: { description: "Signed out" } },
});

const passwordResetRoute = apiRoute({
  method: "post",
  path: "/auth/password-reset",
  tags: ["Account"],
  summary: "Ask for a password-reset link by email",
  description:
    "Always answers the same 202 at once, whether or not an account uses the address (the email is prepared and sent " +
    "after the answer, so that its timing tells nothing either). The account's address gets a link to " +
    "`/<locale>/reset-password#token=…` that works once, within an hour; only the token's SHA-256 is stored. Limited " +
    "per client address (PASSWORD_RESET_ADDRESS_PER_HOUR, 20 an hour) and per email address " +
    "(PASSWORD_RESET_EMAIL_PER_HOUR, 3 an hour, counted alike for addresses with and without an account): 429 with " +
    "Retry-After past either.",
  access: "public",
  request: {
    body: {
      required: true,
      content: { "application/json": { schema: passwordResetRequestInput, example: { email: "jana@example.com" } } },
    },
  },
  responses: { 202: jsonContent(emailSentOutput, "Accepted: if an account uses the address, a link is on its way") },
});

const passwordResetConfirmRoute = apiRoute({
  method: "post",
  path: "/auth/password-reset/confirm",
  tags: ["Account"],
  summary: "Set a new password with the emailed link",
  description:
    "Uses up the link's `token` and sets `password` (the registration's policy: 8 to 256 characters, not one of the " +
    "most common passwords; a weak one is a 400 naming `password` and leaves the link usable). Every session of the " +
    "account ends (every token issued before stops working, open sockets close), and the answer signs the person in " +
    "like POST /auth/login does (session cookie included). Following the link also verifies the address. A used, " +
    "expired or unknown token is a 400 naming `token`.",
  access: "public",
  limit: "strict",
  request: {
    body: {
      required: true,
      content: {
        "application/json": {
          schema: passwordResetConfirmInput,
          example: { token: "Xo3sQ2b8cKZ1vLr9TgJ4pW7mNd0aEyHu5iFq6tBjR2s", password: "correct horse battery staple" },
        },
      },
    },
  },
  responses: {
    200: jsonContent(authResultOutput, "Password set; signed in"),
    403: problemResponse("`account_disabled`: an administrator disabled the account"),
  },
});

const verifyEmailRoute = apiRoute({
  method: "post",
  path: "/auth/verify-email",
  tags: ["Account"],
  summary: "Confirm the account's email address with the emailed link",
  description:
    "Uses up the link's `token` (sent at registration and when the address changes; it works once, within 48 hours) " +
    "and marks the address verified, if the account still has the address the link went to. No sign-in needed: the " +
    "link may be opened on another device. A used, expired or unknown token is a 400 naming `token`.",
  access: "public",
  limit: "strict",
  request: {
    body: {
      required: true,
      content: {
        "application/json": { schema: verifyEmailInput, example: { token: "Xo3sQ2b8cKZ1vLr9TgJ4pW7mNd0aEyHu5iFq6tBjR2s" } },
      },
    },
  },
  responses: { 200: jsonContent(emailVerifiedOutput, "The address is verified") },
});

const resendVerificationRoute = apiRoute({
  method: "post",
  path: "/auth/verify-email/resend",
  tags: ["Account"],
  summary: "Send the verification link again",
  description:
    "A new link to the signed-in user's address (earlier ones keep working until they expire). " +
    "VERIFY_EMAIL_RESEND_PER_HOUR (3) an hour per account; 409 when the address is verified already; 503 when the " +
    "email could not be handed to the mail server.",
  access: "user",
  responses: {
    202: jsonContent(emailSentOutput, "The email is on its way"),
    409: problemResponse("The address is verified already"),
    503: problemResponse("The email could not be sent; try again later"),
  },
});

export const accountsRoutes = createRouter()
  .openapi(registerRoute, async (c) => {
    const result = await register(c.req.valid("json"), clientInfo(c));
    setSessionCookie(c, result);
    return c.json(result, 201);
  })
  .openapi(loginRoute, async (c) => {
    const result = await login(c.req.valid("json"), clientInfo(c));
    setSessionCookie(c, result);
    return c.json(result, 200);
  })
  .openapi(passwordResetRoute, async (c) => c.json(await requestPasswordReset(c.req.valid("json"), clientInfo(c)), 202))
  .openapi(passwordResetConfirmRoute, async (c) => {
    const result = await confirmPasswordReset(c.req.valid("json"), clientInfo(c));
    setSessionCookie(c, result);
    return c.json(result, 200);
  })
  .openapi(verifyEmailRoute, async (c) => c.json(await verifyEmail(c.req.valid("json")), 200))
  .openapi(resendVerificationRoute, async (c) => c.json(await resendVerificationEmail(c.var.actor), 202))
  .openapi(meRoute, async (c) => c.json(await getMe(c.var.actor), 200))
  .openapi(changePasswordRoute, async (c) => {
    const result = await changePassword(c.var.actor, c.req.valid("json"), clientInfo(c));
    setSessionCookie(c, result);
    return c.json(result, 200);
  })
  .openapi(updateProfileRoute, async (c) => {
    const input = c.req.valid("json");
    const user = await updateProfile(c.var.actor, input);
    // Only a new language moves the browser's: saving a name keeps a language picked with the switcher.
    if (input.locale) setLocaleCookie(c, user.locale);
    return c.json(user, 200);
  })
  .openapi(logoutRoute, async (c) => {
    if (c.req.valid("query").everywhere) await signOutEverywhere(c.var.actor);
    else await signOut(c.var.actor);
    clearSessionCookie(c);
    return c.body(null, 204);
  });
