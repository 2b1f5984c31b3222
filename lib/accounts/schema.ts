import { z } from "@hono/zod-openapi";
import { TOKEN_PATTERN } from "../account-tokens/schema";
import { isCommonPassword, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from "../auth/passwords";
import { refuseDisguise } from "../display-text";
import { LOCALES } from "../i18n/locales";

/** Emails are compared trimmed and lower-cased. */
export const emailInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(254)
  .pipe(z.email({ message: "must be an email address" }))
  .openapi({ type: "string", format: "email", example: "jana@example.com" });

/**
 * Someone with an account, named by `userId` or by `email` (exactly one: see `exactlyOneAccount`), as adding a
 * member or asking someone to collaborate does. `who` and `whose` word the OpenAPI descriptions.
 */
export function accountRefFields(who = "The user to add", whose = "The email of the account to add") {
  return {
    userId: z
      .uuid("must be a user id")
      .optional()
      .openapi({ description: `${who}; or give \`email\`` }),
    email: emailInput.optional().openapi({ description: `${whose}; or give \`userId\`` }),
  };
}

/** The refinement that goes with `accountRefFields`: exactly one of the two, the problem naming the field. */
export function exactlyOneAccount(input: { userId?: string; email?: string }, context: z.RefinementCtx): void {
  if (input.userId === undefined && input.email === undefined) {
    context.addIssue({ code: "custom", message: "give userId or email", path: ["userId"] });
  } else if (input.userId !== undefined && input.email !== undefined) {
    context.addIssue({ code: "custom", message: "give either userId or email, not both", path: ["email"] });
  }
}

const newPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`)
  .refine((password) => !isCommonPassword(password), "is one of the most common passwords; choose another")
  .openapi({
    example: "correct horse battery staple",
    description: `${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters, not one of the most common passwords`,
  });

/** Any password a user might type, checked only for size: its strength is checked on the way in. */
const givenPassword = z
  .string()
  .min(1, "is required")
  .max(PASSWORD_MAX_LENGTH, `must be at most ${PASSWORD_MAX_LENGTH} characters`);

const name = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(100, "must be at most 100 characters")
  .superRefine(refuseDisguise)
  .openapi({ example: "Jana Nováková" });

export const localeInput = z.enum(LOCALES).openapi({ description: "Interface language" });

export const timeZoneInput = z
  .string()
  .max(64)
  .refine(isTimeZone, "must be an IANA time zone such as Europe/Prague")
  .openapi({ example: "Europe/Prague" });

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export const registerInput = z
  .strictObject({
    email: emailInput,
    password: newPassword,
    name: name.optional().openapi({ description: "Defaults to the part of the email before the @" }),
    locale: localeInput.optional(),
    timeZone: timeZoneInput.optional(),
  })
  .openapi("RegisterInput");
export type RegisterInput = z.infer<typeof registerInput>;

export const loginInput = z
  .strictObject({
    email: z.string().trim().toLowerCase().min(1, "is required").max(254).openapi({ format: "email" }),
    password: givenPassword,
  })
  .openapi("LoginInput");
export type LoginInput = z.infer<typeof loginInput>;

export const changePasswordInput = z.strictObject({ currentPassword: givenPassword, newPassword }).openapi("ChangePasswordInput");
export type ChangePasswordInput = z.infer<typeof changePasswordInput>;

export const updateProfileInput = z
  .strictObject({
    name: name.optional(),
    locale: localeInput.optional(),
    timeZone: timeZoneInput.optional(),
    avatarUrl: z
      .url({ protocol: /^https?$/, message: "must be an http(s) URL" })
      .max(2048)
      .nullable()
      .optional(),
    email: emailInput.optional().openapi({ description: "Changing it needs currentPassword" }),
    currentPassword: givenPassword.optional(),
  })
  .openapi("UpdateProfileInput");
export type UpdateProfileInput = z.infer<typeof updateProfileInput>;

export const userOutput = z
  .object({
    id: z.uuid(),
    email: z.string().openapi({ example: "jana@example.com" }),
    name: z.string().openapi({ example: "Jana Nováková" }),
    locale: localeInput,
    timeZone: z.string(),
    avatarUrl: z.string().nullable(),
    isAdmin: z.boolean(),
    emailVerified: z.boolean().openapi({
      description:
        "Whether the person proved that `email` is theirs (a verification link, a password reset, or a provider that " +
        "verified it). Unverified accounts work normally; linking an external account by email needs it.",
    }),
    emailVerifiedAt: z.iso.datetime().nullable().openapi({ description: "When it was verified; null while not" }),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi("User");
export type UserOutput = z.infer<typeof userOutput>;

export const authResultOutput = z
  .object({
    token: z.string().openapi({ description: "JWT (HS256); send it as `Authorization: Bearer <token>`" }),
    user: userOutput,
  })
  .openapi("AuthResult");
export type AuthResultOutput = z.infer<typeof authResultOutput>;

/** A token from an emailed link (43 base64url characters); its form is checked before anything is looked up. */
const emailedToken = z
  .string()
  .regex(TOKEN_PATTERN, "is not a link we sent: copy the whole link from the email")
  .openapi({ description: "The `token` of the link in the email", example: "Xo3sQ2b8cKZ1vLr9TgJ4pW7mNd0aEyHu5iFq6tBjR2s" });

export const passwordResetRequestInput = z
  .strictObject({ email: emailInput.openapi({ description: "The address of the account" }) })
  .openapi("PasswordResetRequestInput");
export type PasswordResetRequestInput = z.infer<typeof passwordResetRequestInput>;

export const passwordResetConfirmInput = z
  .strictObject({ token: emailedToken, password: newPassword })
  .openapi("PasswordResetConfirmInput");
export type PasswordResetConfirmInput = z.infer<typeof passwordResetConfirmInput>;

export const verifyEmailInput = z.strictObject({ token: emailedToken }).openapi("VerifyEmailInput");
export type VerifyEmailInput = z.infer<typeof verifyEmailInput>;

export const emailSentOutput = z
  .object({
    message: z.string().openapi({ example: "If an account uses this address, an email with a link is on its way." }),
  })
  .openapi("EmailSent");
export type EmailSentOutput = z.infer<typeof emailSentOutput>;

export const emailVerifiedOutput = z
  .object({
    email: z.string().openapi({ example: "jana@example.com" }),
    emailVerified: z.literal(true),
    emailVerifiedAt: z.iso.datetime(),
  })
  .openapi("EmailVerified");
export type EmailVerifiedOutput = z.infer<typeof emailVerifiedOutput>;
