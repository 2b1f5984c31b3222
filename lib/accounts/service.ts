import { AppError } from "../api/app-error";
import type { Actor } from "../auth/actor";
import { hashPassword, verifyPassword } from "../auth/passwords";
import { issueSessionToken } from "../auth/tokens";
import { config } from "../config";
import type { UserRow } from "../db/schema/users";
import { limiter } from "../rate-limit/limiter";
import { disconnectUser } from "../realtime/events";
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

async function signIn(user: UserRow): Promise<AuthResultOutput> {
  return { token: await issueSessionToken(user.id, user.tokenVersion), user: toUserOutput(user) };
}

export async function register(input: RegisterInput): Promise<AuthResultOutput> {
  const user = await insertUser({
    email: input.email,
    name: input.name ?? input.email.split("@")[0]!,
    passwordHash: await hashPassword(input.password),
    locale: input.locale,
    timeZone: input.timeZone,
  });
  return signIn(user);
}

const wrongCredentials = () => new AppError("unauthenticated", "Wrong email or password");

/**
 * Password sign-in. Unknown email and wrong password give the same answer in about the same time.
 * Failures also count per account, so that guessing from many addresses is limited too; while an
 * account is limited even the right password is refused.
 */
export async function login(input: LoginInput): Promise<AuthResultOutput> {
  const accountKey = `email:${input.email}`;
  await limiter("login-account").check(accountKey);
  const user = await findUserByEmail(input.email);
  if (!(await verifyPassword(user?.passwordHash, input.password)) || !user) {
    await limiter("login-account").penalise(accountKey);
    throw wrongCredentials();
  }
  await limiter("login-account").reset(accountKey);
  refuseDisabledAccount(user);
  return signIn(user);
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

/** Changes the password and revokes every token issued before; the answer carries a fresh one. */
export async function changePassword(actor: Actor, input: ChangePasswordInput): Promise<AuthResultOutput> {
  const user = await getUserOrThrow(actor);
  if (!(await verifyPassword(user.passwordHash, input.currentPassword))) throw wrongCurrentPassword();
  const updated = await updateUser(user.id, { passwordHash: await hashPassword(input.newPassword) }, true);
  // Open sockets were authenticated with the old tokens: close them (clients reconnect with the new one).
  disconnectUser(user.id);
  return signIn(updated!);
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
  const updated = await updateUser(user.id, patch);
  return toUserOutput(updated!);
}

/** Ends every session of the user: all tokens issued so far stop working. */
export async function signOutEverywhere(actor: Actor): Promise<void> {
  await updateUser(actor.userId, {}, true);
  disconnectUser(actor.userId);
}
