import { z } from "@hono/zod-openapi";

export const sessionIdParams = z.object({ id: z.uuid("must be a session id") });

export const sessionOutput = z
  .object({
    id: z.uuid(),
    current: z.boolean().openapi({ description: "The session this request is made with" }),
    method: z.string().openapi({
      description: "How it began: `password`, `registration`, `passkey`, `oauth:<provider>`, `invitation`, `password-change`",
    }),
    browser: z
      .string()
      .nullable()
      .openapi({ description: "The browser and its major version, from the User-Agent", example: "Chrome 131" }),
    os: z.string().nullable().openapi({ description: "The operating system, from the User-Agent", example: "macOS Sonoma" }),
    deviceType: z.enum(["desktop", "mobile", "tablet", "tv", "bot"]).nullable(),
    userAgent: z.string().nullable().openapi({ description: "The User-Agent it signed in with (at most 500 characters)" }),
    ipAddress: z.string().nullable().openapi({ description: "The client address it signed in from (see TRUST_PROXY)" }),
    createdAt: z.iso.datetime().openapi({ description: "When it signed in" }),
    lastUsedAt: z.iso.datetime().openapi({ description: "When a request last used it, to within 5 minutes" }),
    expiresAt: z.iso.datetime().openapi({ description: "When its token stops working (JWT_TTL_SECONDS after signing in)" }),
  })
  .openapi("Session");
export type SessionOutput = z.infer<typeof sessionOutput>;

export const sessionListOutput = z.object({ items: z.array(sessionOutput) }).openapi("SessionList");
export type SessionListOutput = z.infer<typeof sessionListOutput>;
