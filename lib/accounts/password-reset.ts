import { endAccountTokens, issueAccountToken, redeemAccountToken } from "../account-tokens/service";
import { invalidField } from "../api/app-error";
import { hashPassword } from "../auth/passwords";
import { endAllSessions, type ClientInfo } from "../auth/sessions/service";
import { nowDate } from "../clock";
import { sendEmailToUser } from "../email/service";
import { log } from "../log";
import { limiter } from "../rate-limit/limiter";
import { disconnectUser } from "../realtime/events";
import { findUserByEmail, findUserById, updateUser } from "./repo";
import type { AuthResultOutput, EmailSentOutput, PasswordResetConfirmInput, PasswordResetRequestInput } from "./schema";
import { refuseDisabledAccount, signIn } from "./service";

/*
 * Password reset (docs/password-reset.md). Asking for it answers the same 202 at once whatever the address: whether
 * an account uses it, the link is made and sent after the answer, so that neither the answer nor its timing tells.
 * The link works once, within an hour; only its hash is stored (lib/account-tokens). Following it with a new password
 * (the registration policy) sets it, ends every session of the account, and signs the person in.
 */

const REQUESTED: EmailSentOutput = { message: "If an account uses this address, an email with a link is on its way." };

/** POST /auth/password-reset: limited per client address and per email address (known or not: the same limit). */
export async function requestPasswordReset(input: PasswordResetRequestInput, client: ClientInfo): Promise<EmailSentOutput> {
  await limiter("password-reset-address").consume(client.ipAddress ?? "unknown");
  await limiter("password-reset-email").consume(input.email);
  void sendPasswordResetEmail(input.email);
  return REQUESTED;
}

async function sendPasswordResetEmail(email: string): Promise<void> {
  try {
    const user = await findUserByEmail(email);
    // A disabled account could not use the link: nothing is sent (the answer was the same).
    if (!user || user.disabledAt) return;
    const token = await issueAccountToken(user, "password_reset");
    await sendEmailToUser(user.id, { template: "password_reset", params: { token, email: user.email } });
  } catch (error) {
    log.error("Could not send a password-reset email", { error: error instanceof Error ? error.message : String(error) });
  }
}

const invalidLink = () =>
  invalidField(
    "body",
    "/token",
    "is not a valid link: it was used already, has expired (links work for one hour), or the account's address changed since; ask for a new one",
  );

/**
 * POST /auth/password-reset/confirm: uses up the link, sets the password, ends every session (tokens, sockets) and
 * starts a new one. Following the link also proves the address, so an unverified one becomes verified.
 */
export async function confirmPasswordReset(input: PasswordResetConfirmInput, client: ClientInfo): Promise<AuthResultOutput> {
  const redeemed = await redeemAccountToken(input.token, "password_reset");
  if (!redeemed) throw invalidLink();
  const user = await findUserById(redeemed.userId);
  if (!user || user.email !== redeemed.email) throw invalidLink();
  refuseDisabledAccount(user);
  const updated = await updateUser(
    user.id,
    { passwordHash: await hashPassword(input.password), emailVerifiedAt: user.emailVerifiedAt ?? nowDate() },
    true,
  );
  await endAllSessions(user.id);
  // Other reset links sent meanwhile stop working: this one did the job.
  await endAccountTokens(user.id, "password_reset");
  disconnectUser(user.id);
  return signIn(updated!, "password-reset", client);
}
