import { apiRoute, jsonBody, jsonContent, problemResponse } from "../../api/route";
import { createRouter } from "../../api/router";
import { accessTokenIdParams, accessTokenListOutput, createAccessTokenInput, createdAccessTokenOutput } from "./schema";
import { createAccessToken, deleteAccessToken, listAccessTokens, MAX_ACCESS_TOKENS } from "./service";

const TAGS = ["Account"];
const ABOUT =
  "A personal access token is a long-lived credential for a script or an integration: send it as " +
  "`Authorization: Bearer spolu_pat_…` wherever a session token works (the API, the socket). A `read` token may only " +
  "GET (anything else is a 403 `insufficient_scope`); a `write` token may do what the user may, except what needs a " +
  "sign-in (making or revoking tokens, changing the password, signing out: 403 `session_required`). It works until it " +
  "expires or is deleted (then 401); signing out everywhere or a new password does not end it.";

const createRoute = apiRoute({
  method: "post",
  path: "/tokens",
  tags: TAGS,
  summary: "Make a personal access token",
  description:
    `${ABOUT} The answer is the only time the secret is shown: only its SHA-256 is kept. At most ${MAX_ACCESS_TOKENS} ` +
    "tokens per user (409). Needs a sign-in: a personal access token cannot make another. Ignores `Idempotency-Key` " +
    "(the secret is never stored, so it cannot be answered again).",
  access: "user",
  sessionOnly: true,
  // The answer carries the secret, which is never stored: a repeat makes another token.
  idempotent: false,
  request: { body: jsonBody(createAccessTokenInput) },
  responses: {
    201: {
      ...jsonContent(createdAccessTokenOutput, "The token, with its secret (shown this once)"),
      content: {
        "application/json": {
          schema: createdAccessTokenOutput,
          example: {
            id: "0b7f6c1e-3f0e-4f55-9a57-8d3d2f1c9a10",
            name: "Backup script",
            scopes: ["read"],
            prefix: "spolu_pat_Xk3q",
            createdAt: "2026-11-27T10:00:00.000Z",
            lastUsedAt: null,
            expiresAt: "2027-06-30T00:00:00.000Z",
            expired: false,
            token: "spolu_pat_Xk3qJ9v0a7bZ2m1pQe8rT5yU4iO6wLcNdHfGsVxKzA",
          },
        },
      },
    },
    409: problemResponse(`You have ${MAX_ACCESS_TOKENS} tokens already`),
  },
});

const listRoute = apiRoute({
  method: "get",
  path: "/tokens",
  tags: TAGS,
  summary: "Your personal access tokens",
  description: `${ABOUT} Lists them newest first, expired ones included (\`expired\`), without their secrets.`,
  access: "user",
  responses: { 200: jsonContent(accessTokenListOutput, "Your tokens") },
});

const deleteRoute = apiRoute({
  method: "delete",
  path: "/tokens/{id}",
  tags: TAGS,
  summary: "Revoke a personal access token",
  description: `${ABOUT} Deleting it stops it at once, on every server process. Another user's token: 404. Needs a sign-in.`,
  access: "user",
  sessionOnly: true,
  request: { params: accessTokenIdParams },
  responses: { 204: { description: "Revoked" }, 404: problemResponse("No token of yours has this id") },
});

export const accessTokensRoutes = createRouter()
  .openapi(createRoute, async (c) => c.json(await createAccessToken(c.var.actor, c.req.valid("json")), 201))
  .openapi(listRoute, async (c) => c.json(await listAccessTokens(c.var.actor), 200))
  .openapi(deleteRoute, async (c) => {
    await deleteAccessToken(c.var.actor, c.req.valid("param").id);
    return c.body(null, 204);
  });
