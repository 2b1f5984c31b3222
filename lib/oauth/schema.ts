import { z } from "@hono/zod-openapi";
import { userOutput } from "../accounts/schema";

/** Every provider name the API knows: three real ones and Apple, a placeholder that answers 501. */
export const PROVIDER_NAMES = ["google", "github", "microsoft", "apple"] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];

/** Any name is accepted here: the service answers 404 for one it does not know (like any unknown path). */
export const providerParams = z.strictObject({
  provider: z
    .string()
    .max(40)
    .openapi({
      param: { name: "provider", in: "path" },
      example: "google",
      description: "`google`, `github`, `microsoft` or `apple`",
    }),
});

export const startQuery = z.strictObject({
  returnTo: z
    .string()
    .max(2000, "must be at most 2000 characters")
    .optional()
    .openapi({
      example: "/en/tasks",
      description:
        'Redirect mode: the path on this site to land on afterwards. Only a path starting with a single "/" is ' +
        "kept, checked again once normalised; anything else (`//evil.com`, `https://evil.com`, `/\\evil.com`, " +
        '`/.//evil.com`) falls back to "/". Default "/". Ignored with `mode=json`.',
    }),
  mode: z
    .enum(["redirect", "json"])
    .default("redirect")
    .openapi({ description: "How the callback answers: `redirect` (browsers, the default) or `json` (API clients)" }),
  timeZone: z
    .string()
    .max(64, "must be at most 64 characters")
    .optional()
    .openapi({
      example: "Europe/Prague",
      description:
        "The browser's IANA time zone (`Intl.DateTimeFormat().resolvedOptions().timeZone`), for an account this " +
        "sign-in creates, as `timeZone` of `POST /auth/register`. An existing account keeps its own; a zone the " +
        "server does not know is ignored (the new account then has the default zone) rather than failing the sign-in.",
    }),
});
export type StartQuery = z.infer<typeof startQuery>;

/**
 * What the provider sends back (RFC 6749 §4.1.2): `code` and `state`, or `error` and `state`. Other parameters
 * the provider adds (`iss`, `scope`, `session_state`...) are passed on to the OAuth library as they came.
 */
export const callbackQuery = z
  .object({
    state: z.string().min(1, "is required").max(512).openapi({ description: "The state this server handed out" }),
    code: z.string().min(1).max(4096).optional().openapi({ description: "The authorization code" }),
    error: z.string().max(200).optional().openapi({ description: "The provider's error code (`access_denied`...)" }),
    error_description: z.string().max(2000).optional().openapi({ description: "The provider's explanation of `error`" }),
    iss: z.string().max(2000).optional().openapi({ description: "The issuer (RFC 9207), checked when the provider sends it" }),
  })
  .openapi({ description: "Unknown parameters are ignored here and handed to the OAuth library" });
export type CallbackQuery = z.infer<typeof callbackQuery>;

export const oauthResultOutput = z
  .object({
    token: z.string().openapi({ description: "JWT (HS256); send it as `Authorization: Bearer <token>`" }),
    user: userOutput,
    provider: z.enum(PROVIDER_NAMES),
  })
  .openapi("OAuthResult");
export type OAuthResultOutput = z.infer<typeof oauthResultOutput>;

export const providerOutput = z
  .object({
    name: z.enum(PROVIDER_NAMES),
    label: z.string().openapi({ example: "Google" }),
    kind: z.enum(["oidc", "oauth2"]).openapi({ description: "OpenID Connect, or plain OAuth 2 (GitHub)" }),
    startUrl: z.string().openapi({ example: "/auth/google", description: "Where the sign-in button sends the browser" }),
  })
  .openapi("SignInProvider");
export type ProviderOutput = z.infer<typeof providerOutput>;

export const providerListOutput = z.object({ items: z.array(providerOutput) }).openapi("SignInProviderList");
export type ProviderListOutput = z.infer<typeof providerListOutput>;

// Linked external accounts (Settings → Security)

export const identityIdParams = z.object({ id: z.uuid("must be a linked account id") });

export const linkInput = z
  .strictObject({
    returnTo: z
      .string()
      .max(2000, "must be at most 2000 characters")
      .optional()
      .openapi({
        example: "/en/settings/security",
        description:
          "The path on this site the browser comes back to once the provider answers (checked as `returnTo` of " +
          '`GET /auth/{provider}`; anything else falls back to "/"), with `?linked=<provider>` added, or ' +
          "`?linkError=exists|expired|cancelled|failed` when linking failed. Default `/settings/security`.",
      }),
  })
  .openapi("LinkIdentityInput");
export type LinkInput = z.infer<typeof linkInput>;

export const linkStartOutput = z
  .object({
    url: z.string().openapi({ description: "The provider's authorization URL: send this browser there" }),
  })
  .openapi("LinkIdentityStart");
export type LinkStartOutput = z.infer<typeof linkStartOutput>;

export const identityOutput = z
  .object({
    id: z.uuid(),
    provider: z.string().openapi({ example: "google", description: "`google`, `github` or `microsoft`" }),
    label: z.string().openapi({ example: "Google" }),
    email: z.string().nullable().openapi({ description: "The address the provider gave the last time it was used" }),
    createdAt: z.iso.datetime().openapi({ description: "When it was linked" }),
    lastUsedAt: z.iso.datetime().nullable().openapi({ description: "When it last signed you in (or was linked)" }),
  })
  .openapi("LinkedIdentity");
export type IdentityOutput = z.infer<typeof identityOutput>;

export const identityListOutput = z
  .object({
    items: z.array(identityOutput).openapi({ description: "Oldest link first" }),
    hasPassword: z.boolean().openapi({ description: "Whether the account has a password too" }),
  })
  .openapi("LinkedIdentityList");
export type IdentityListOutput = z.infer<typeof identityListOutput>;
