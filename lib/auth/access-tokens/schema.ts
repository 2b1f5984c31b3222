import { z } from "@hono/zod-openapi";

/** What a personal access token may do: `read` only reads (GET, HEAD); `write` may also change things (every method). */
export const TOKEN_SCOPES = ["read", "write"] as const;
export type TokenScope = (typeof TOKEN_SCOPES)[number];

/** Every secret starts with this, so that secret scanners and people recognise one. */
export const ACCESS_TOKEN_PREFIX = "spolu_pat_";

export const accessTokenIdParams = z.object({ id: z.uuid("must be a token id") });

export const createAccessTokenInput = z
  .strictObject({
    name: z
      .string()
      .trim()
      .min(1, "must not be empty")
      .max(100, "must be at most 100 characters")
      .openapi({ description: "What the token is for, as the security settings list it", example: "Backup script" }),
    scopes: z
      .array(z.enum(TOKEN_SCOPES))
      .min(1, "name at least one scope")
      .refine((scopes) => new Set(scopes).size === scopes.length, "must not repeat a scope")
      .openapi({
        description: "`read`: GET and HEAD only (anything else is a 403 `insufficient_scope`); `write`: every method",
        example: ["read", "write"],
      }),
    expiresAt: z.iso
      .datetime({ offset: true, message: "must be an ISO 8601 date-time" })
      .nullable()
      .optional()
      .openapi({ description: "When it stops working; absent or null: never", example: "2027-06-30T00:00:00Z" }),
  })
  .openapi("CreateAccessToken", { example: { name: "Backup script", scopes: ["read"], expiresAt: "2027-06-30T00:00:00Z" } });
export type CreateAccessTokenInput = z.infer<typeof createAccessTokenInput>;

export const accessTokenOutput = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ example: "Backup script" }),
    scopes: z.array(z.enum(TOKEN_SCOPES)).openapi({ example: ["read"] }),
    prefix: z.string().openapi({ description: "The secret's first characters, to tell tokens apart", example: "spolu_pat_Xk3q" }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().openapi({ description: "When a request last used it, to within 5 minutes" }),
    expiresAt: z.iso.datetime().nullable().openapi({ description: "When it stops working; null: never" }),
    expired: z.boolean().openapi({ description: "Whether it has expired (it then answers 401)" }),
  })
  .openapi("AccessToken");
export type AccessTokenOutput = z.infer<typeof accessTokenOutput>;

export const createdAccessTokenOutput = accessTokenOutput
  .extend({
    token: z.string().openapi({
      description: "The secret: send it as `Authorization: Bearer <token>`. Shown only in this answer; only its hash is kept.",
      example: "spolu_pat_Xk3qJ9v0a7bZ2m1pQe8rT5yU4iO6wLcNdHfGsVxKzA",
    }),
  })
  .openapi("CreatedAccessToken");
export type CreatedAccessTokenOutput = z.infer<typeof createdAccessTokenOutput>;

export const accessTokenListOutput = z.object({ items: z.array(accessTokenOutput) }).openapi("AccessTokenList");
export type AccessTokenListOutput = z.infer<typeof accessTokenListOutput>;
