import { endAccountTokens, issueAccountToken, redeemAccountToken } from "../account-tokens/service";
import { AppError, invalidField } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { nowDate } from "../clock";
import type { UserRow } from "../db/schema/users";
import { sendEmailToUser } from "../email/service";
import { log } from "../log";
import { limiter } from "../rate-limit/limiter";
import { findUserById, updateUser } from "./repo";
import type { EmailSentOutput, EmailVerifiedOutput, VerifyEmailInput } from "./schema";

/*
 * Email verification (docs/password-reset.md). A new account, and an account whose address changed, gets a link
 * (single-use, 48 hours) to the address; following it marks the address verified. An unverified account works
 * normally: the pages tell the person and offer to send the link again. What needs a verified address: linking an
 * external account (Google...) to this one by its email (lib/oauth/service.ts).
 */

/**
 * Sends a fresh verification link to the user's current address. Never throws: a failure is logged (the person can
 * ask again from the banner). Answers whether the email went out.
 */
export async function sendVerificationEmail(user: Pick<UserRow, "id" | "email">): Promise<boolean> {
  try {
    const token = await issueAccountToken(user, "email_verification");
    const result = await sendEmailToUser(user.id, { template: "email_verification", params: { token, email: user.email } });
    return result.status === "sent";
  } catch (error) {
    log.error("Could not send a verification email", {
      userId: user.id,
      error: error instanceof Error ? error.message : String(error),
    });
    return false;
  }
}

const invalidLink = () =>
  invalidField(
    "body",
    "/token",
    "is not a valid link: it was used already, has expired (links work for 48 hours), or the account's address changed since; ask for a new one",
  );

/** POST /auth/verify-email: uses up the link and marks the address it was sent to verified, if the account still has it. */
export async function verifyEmail(input: VerifyEmailInput): Promise<EmailVerifiedOutput> {
  const redeemed = await redeemAccountToken(input.token, "email_verification");
  if (!redeemed) throw invalidLink();
  const user = await findUserById(redeemed.userId);
  if (!user || user.email !== redeemed.email) throw invalidLink();
  const verified = user.emailVerifiedAt ? user : await updateUser(user.id, { emailVerifiedAt: nowDate() });
  // Any other link sent to the address has nothing left to do.
  await endAccountTokens(user.id, "email_verification");
  return { email: verified!.email, emailVerified: true, emailVerifiedAt: verified!.emailVerifiedAt!.toISOString() };
}

/** POST /auth/verify-email/resend: a new link to the signed-in user's address (a few an hour). */
export async function resendVerificationEmail(actor: Actor): Promise<EmailSentOutput> {
  const user = await findUserById(actor.userId);
  if (!user) throw new AppError("unauthenticated", "This account no longer exists");
  if (user.emailVerifiedAt) throw new AppError("conflict", `${user.email} is verified already: there is nothing to confirm`);
  await limiter("verify-email-resend").consume(user.id);
  if (!(await sendVerificationEmail(user))) {
    throw new AppError("unavailable", "The email could not be sent just now; try again in a few minutes");
  }
  return { message: `A new link is on its way to ${user.email}.` };
}
