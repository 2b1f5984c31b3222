import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { endAllSessions, endSession, startSession, type ClientInfo, type SignInMethod } from "../auth/sessions/service";
import { config } from "../config";
import type { UserRow } from "../db/schema/users";
import { limiter } from "../rate-limit/limiter";
import { disconnectUser } from "../realtime/events";
import { sendVerificationEmail } from "./email-verification";
import { findUserByEmail, findUserById, insertUser, updateUser } from "./repo";
import type { AuthResultOutput, ChangePasswordInput, LoginInput, RegisterInput, UpdateProfileInput, UserOutput } from "./schema";

export function toUserOutput(user: UserRow): UserOutput {
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    locale: user.locale as UserOutput["locale"],
    timeZone: user.timeZone,
    avatarUrl: user.avatarUrl,
    isAdmin: config().ADMIN_EMAILS.includes(user.email),
    emailVerified: user.emailVerifiedAt !== null,
    emailVerifiedAt: user.emailVerifiedAt?.toISOString() ?? null,
    createdAt: user.createdAt.toISOString(),
    updatedAt: user.updatedAt.toISOString(),
  };
}

/**
 * Every way of signing in (password, passkey, external account) asks this once the credentials were checked, so
 * that only someone who could otherwise sign in learns that the account is disabled.
 */
export function refuseDisabledAccount(user: UserRow): void {
  if (user.disabledAt) {
    throw new AppError("account_disabled", "This account has been disabled by an administrator: it cannot sign in");
  }
}

/** Starts a session for a user whose credentials were checked; the answer of every way of signing in. */
export async function signIn(user: UserRow, method: SignInMethod, client: ClientInfo): Promise<AuthResultOutput> {
  return { token: await startSession(user, method, client), user: toUserOutput(user) };
}

export async function register(input: RegisterInput, client: ClientInfo): Promise<AuthResultOutput> {
  const user = await insertUser({
    email: input.email,
    name: input.name ?? input.email.split("@")[0]!,
    passwordHash: await hashPassword(input.password),
    locale: input.locale,
    timeZone: input.timeZone,
  });
  // Sent after the answer: a slow or silent mail server must not hold up a sign-up (SMTP waits up to 30 s). A failure
  // is logged, never fails the sign-up: the banner offers to send it again.
  void sendVerificationEmail(user);
  return signIn(user, "registration", client);
}

const wrongCredentials = () => new AppError("unauthenticated", "Wrong email or password");

/**
 * The failure counts a password sign-in is held to (docs/security.md, "Guessing passwords"): only failures count,
 * so that a busy office signing in from one address is never slowed down, and each account is guarded per address.
 */
function loginLimits(email: string, address: string) {
  const pair = `${email}|${address}`;
  return [
    // 5 failures per 15 minutes to one account from one address: that pair waits out the 15 minutes.
    { limiter: limiter("login-account-address"), key: pair, resetOnSuccess: true },
    // 20 failures per day to one account from one address: the longer lockout, until the day is over.
    { limiter: limiter("login-account-address-day"), key: pair, resetOnSuccess: true },
    // 100 failures per hour from one address, to any accounts: a password sprayer.
    { limiter: limiter("login-address"), key: address, resetOnSuccess: false },
    // 50 failures per hour to one account from any addresses: a guess spread over many addresses.
    { limiter: limiter("login-account"), key: email, resetOnSuccess: false },
  ];
}

/**
 * Password sign-in. Unknown email and wrong password give the same answer in about the same time. While any of the
 * failure limits is used up, even the right password is refused (429), so that guessing cannot go on.
 */
export async function login(input: LoginInput, client: ClientInfo): Promise<AuthResultOutput> {
  const limits = loginLimits(input.email, client.ipAddress ?? "unknown");
  // Every limit is asked; the answer tells the longest wait (a short lockout may end before the day's does).
  const refusals = await Promise.all(
    limits.map(({ limiter: counter, key }) =>
      counter.check(key).then(
        () => null,
        (error: unknown) => {
          if (error instanceof AppError) return error;
          throw error;
        },
      ),
    ),
  );
  const longest = refusals
    .filter((refusal) => refusal !== null)
    .sort((a, b) => (b.extra.retryAfterSeconds ?? 0) - (a.extra.retryAfterSeconds ?? 0))[0];
  if (longest) throw longest;
  const user = await findUserByEmail(input.email);
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
    await Promise.all(limits.map(({ limiter: counter, key }) => counter.penalise(key)));
    throw wrongCredentials();
  }
  await Promise.all(limits.filter((limit) => limit.resetOnSuccess).map(({ limiter: counter, key }) => counter.reset(key)));
  refuseDisabledAccount(user);
  return signIn(user, "password", client);
}

async function getUserOrThrow(actor: Actor): Promise<UserRow> {
  const user = await findUserById(actor.userId);
  if (!user) throw new AppError("unauthenticated", "This account no longer exists");
  return user;
}

export async function getMe(actor: Actor): Promise<UserOutput> {
  return toUserOutput(await getUserOrThrow(actor));
}

const wrongCurrentPassword = () =>
  new AppError("validation_failed", "currentPassword: is not your current password", {
    errors: [{ in: "body", pointer: "/currentPassword", detail: "is not your current password" }],
  });

/** Changes the password and ends every session (every token issued before); the answer carries a fresh one. */
export async function changePassword(actor: Actor, input: ChangePasswordInput, client: ClientInfo): Promise<AuthResultOutput> {
  const user = await getUserOrThrow(actor);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw wrongCurrentPassword();
  const updated = await updateUser(user.id, { passwordHash: await hashPassword(input.newPassword) }, true);
  await endAllSessions(user.id);
  // Open sockets were authenticated with the old tokens: close them (clients reconnect with the new one).
  disconnectUser(user.id);
  return signIn(updated!, "password-change", client);
}

/** Updates profile fields; a new email needs the current password. */
export async function updateProfile(actor: Actor, input: UpdateProfileInput): Promise<UserOutput> {
  const user = await getUserOrThrow(actor);
  const { currentPassword, ...patch } = input;
  if (patch.email !== undefined && patch.email !== user.email) {
    if (currentPassword === undefined) {
      throw new AppError("validation_failed", "currentPassword: is required to change the email", {
        errors: [{ in: "body", pointer: "/currentPassword", detail: "is required to change the email" }],
      });
    }
    if (!(await verifyPassword(user.passwordHash, currentPassword))) throw wrongCurrentPassword();
  }
  const emailChanged = patch.email !== undefined && patch.email !== user.email;
  // A new address is not verified until its owner follows the link sent to it.
  const updated = await updateUser(user.id, { ...patch, ...(emailChanged && { emailVerifiedAt: null }) });
  if (emailChanged) void sendVerificationEmail(updated!); // after the answer, as at registration
  return toUserOutput(updated!);
}

/** Ends the session the request is made with: its token stops working at once, on every process. */
export async function signOut(actor: Actor): Promise<void> {
  if (actor.sessionId) await endSession(actor, actor.sessionId);
}

/** Ends every session of the user: all tokens issued so far stop working. */
export async function signOutEverywhere(actor: Actor): Promise<void> {
  await updateUser(actor.userId, {}, true);
  await endAllSessions(actor.userId);
  disconnectUser(actor.userId);
}
