import { createHmac } from "node:crypto";
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  VerifiedAuthenticationResponse,
  VerifiedRegistrationResponse,
} from "@simplewebauthn/server";
import { AppError, invalidField } from "../api/app-error";
import { findUserById } from "../accounts/repo";
import type { AuthResultOutput } from "../accounts/schema";
import { refuseDisabledAccount, toUserOutput } from "../accounts/service";
import type { Actor } from "../auth/actor";
import { deleteSignInMethodKeepingAWayIn } from "../auth/repo";
import { startSession, type ClientInfo } from "../auth/sessions/service";
import { now } from "../clock";
import { config } from "../config";
import type { WebauthnCredentialRow } from "../db/schema/auth";
import { log } from "../log";
import { limiter } from "../rate-limit/limiter";
import { detectLabel, LABEL_TEXT, type DeviceLabel } from "./labels";
import {
  consumeChallenge,
  findCredentialForSignIn,
  insertChallenge,
  insertCredential,
  listCredentialsByEmail,
  listUserCredentials,
  recordCredentialUse,
  renameCredential,
} from "./repo";
import type {
  AuthOptionsInput,
  AuthVerifyInput,
  DeviceListOutput,
  DeviceOutput,
  RegisterVerifyInput,
  RenameDeviceInput,
} from "./schema";

/*
 * The rules. Registration is for a signed-in user: options hand out a challenge bound to them, verify checks the
 * browser's answer against it (challenge, origin, RP id, user presence) and stores the credential with a detected
 * label (labels.ts). Sign-in needs no session: options are asked for an email and look the same whether or not an
 * account (with passkeys) has it; verify checks the assertion (challenge bound to that email, credential of that
 * email's account, signature, origin, RP id, user presence, counter) and answers a session token. A challenge works
 * once and for 5 minutes; it is used up before the answer is checked, so a failed attempt burns it too. Challenges
 * are deleted an hour after they were handed out (whenever a new one is).
 */

const CHALLENGE_TTL_MS = 5 * 60 * 1000;
const CHALLENGE_KEEP_MS = 60 * 60 * 1000;

export interface RelyingParty {
  id: string;
  name: string;
  origins: string[];
}

/** @simplewebauthn/server costs about 20 MB of memory once loaded: it is loaded at the first passkey ceremony. */
const simpleWebAuthn = () => import("@simplewebauthn/server");
/**
 * The relying party from the configuration: the id is WEBAUTHN_RP_ID, else APP_URL's host name, else `localhost`;
 * the accepted origins are WEBAUTHN_ORIGINS, else APP_URL's origin, else http://localhost:PORT. A request's own
 * origin is never trusted.
 */
export function relyingParty(): RelyingParty {
  const c = config();
  const appUrl = c.APP_URL ? new URL(c.APP_URL) : undefined;
  return {
    id: c.WEBAUTHN_RP_ID ?? appUrl?.hostname ?? "localhost",
    name: c.WEBAUTHN_RP_NAME,
    origins: c.WEBAUTHN_ORIGINS.length ? c.WEBAUTHN_ORIGINS : [appUrl?.origin ?? `http://localhost:${c.PORT}`],
  };
}

/** The user handle authenticators keep for a user: the 16 bytes of their uuid (stable, reveals nothing else). */
function userHandleBytes(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId.replaceAll("-", ""), "hex"));
}

function userHandle(userId: string): string {
  return Buffer.from(userHandleBytes(userId)).toString("base64url");
}

/** Where a new challenge expires, and the creation time before which old ones are deleted. */
function challengeTimes() {
  const at = now();
  return {
    createdAt: new Date(at),
    expiresAt: new Date(at + CHALLENGE_TTL_MS),
    staleBefore: new Date(at - CHALLENGE_KEEP_MS + CHALLENGE_TTL_MS),
  };
}

/** The challenge inside the browser's clientDataJSON; 400 naming the field when it is not client data. */
function challengeOf(clientDataJSON: string, pointer: string): string {
  try {
    const clientData: unknown = JSON.parse(Buffer.from(clientDataJSON, "base64url").toString("utf8"));
    const challenge = (clientData as { challenge?: unknown } | null)?.challenge;
    if (typeof challenge === "string" && challenge.length > 0 && challenge.length <= 1024) return challenge;
  } catch {
    // Not JSON: answered below.
  }
  throw invalidField("body", pointer, "is not WebAuthn client data with a challenge");
}

/** `platform` or `cross-platform`; anything else counts as not said. */
function attachmentOf(value: string | null | undefined): "platform" | "cross-platform" | null {
  return value === "platform" || value === "cross-platform" ? value : null;
}

function toDeviceOutput(row: WebauthnCredentialRow): DeviceOutput {
  const label = row.label as DeviceLabel;
  return {
    id: row.id,
    name: row.name,
    label,
    labelText: LABEL_TEXT[label] ?? LABEL_TEXT.generic,
    attachment: attachmentOf(row.attachment),
    transports: row.transports,
    aaguid: row.aaguid,
    backedUp: row.backedUp,
    deviceType: row.deviceType === "multiDevice" ? "multiDevice" : "singleDevice",
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Options for `navigator.credentials.create()`, with a challenge for the signed-in user (5 minutes, once). */
export async function startRegistration(actor: Actor) {
  const user = await findUserById(actor.userId);
  if (!user) throw new AppError("unauthenticated", "This account no longer exists");
  const rp = relyingParty();
  const existing = await listUserCredentials(user.id);
  const { generateRegistrationOptions } = await simpleWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userID: userHandleBytes(user.id),
    userName: user.email,
    userDisplayName: user.name,
    timeout: CHALLENGE_TTL_MS,
    attestationType: "none",
    excludeCredentials: existing.map((credential) => ({ id: credential.credentialId, transports: credential.transports })),
    authenticatorSelection: { residentKey: "preferred", userVerification: "preferred" },
  });
  const { staleBefore, ...times } = challengeTimes();
  await insertChallenge({ purpose: "webauthn.register", challenge: options.challenge, userId: user.id, ...times }, staleBefore);
  return options;
}

export interface ClientHints {
  userAgent?: string;
  /** The Sec-CH-UA-Platform request header. */
  platformHint?: string;
}

/** Checks the browser's answer to the registration options and stores the new device. */
export async function finishRegistration(actor: Actor, input: RegisterVerifyInput, client: ClientHints): Promise<DeviceOutput> {
  const response = input.response;
  const challenge = challengeOf(response.response.clientDataJSON, "/response/response/clientDataJSON");
  const at = now();
  const stored = await consumeChallenge({ challenge, purpose: "webauthn.register", userId: actor.userId }, new Date(at));
  if (!stored) {
    throw invalidField(
      "body",
      "/response/response/clientDataJSON",
      "answers a challenge that is unknown, used already or expired: ask for new registration options",
    );
  }
  const attachment = attachmentOf(response.authenticatorAttachment);
  const rp = relyingParty();
  let verification: VerifiedRegistrationResponse;
  try {
    const { verifyRegistrationResponse } = await simpleWebAuthn();
    verification = await verifyRegistrationResponse({
      response: {
        ...response,
        authenticatorAttachment: attachment ?? undefined,
        clientExtensionResults: response.clientExtensionResults ?? {},
      } as RegistrationResponseJSON,
      expectedChallenge: stored.challenge,
      expectedOrigin: rp.origins,
      expectedRPID: rp.id,
      requireUserPresence: true,
      requireUserVerification: false,
    });
  } catch (error) {
    throw invalidField("body", "/response", `could not be verified: ${(error as Error).message}`);
  }
  if (!verification.verified) throw invalidField("body", "/response", "could not be verified");
  const info = verification.registrationInfo;
  const transports = [...new Set(response.response.transports ?? info.credential.transports ?? [])];
  const label = detectLabel({ aaguid: info.aaguid, attachment, transports, ...client });
  const row = await insertCredential({
    userId: actor.userId,
    credentialId: info.credential.id,
    publicKey: Buffer.from(info.credential.publicKey).toString("base64url"),
    counter: info.credential.counter,
    transports,
    attachment,
    aaguid: info.aaguid,
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
    label,
    name: input.name ?? LABEL_TEXT[label],
    createdAt: new Date(at),
  });
  return toDeviceOutput(row);
}

/**
 * Stand-ins for the credentials of an email without passkeys (no account, or an account without any): derived from
 * the email with the server's secret, so that they are the same on every call and look like real ones.
 */
function decoyCredentials(email: string) {
  const id = createHmac("sha256", config().JWT_SECRET).update(`webauthn-decoy:${email}`).digest("base64url");
  return [{ id, transports: ["internal", "hybrid"] }];
}

/** Options for `navigator.credentials.get()` for an email, the same in shape whether or not the account exists. */
export async function startSignIn(input: AuthOptionsInput) {
  const credentials = await listCredentialsByEmail(input.email);
  const allowCredentials = credentials.length
    ? credentials.map((credential) => ({ id: credential.credentialId, transports: credential.transports }))
    : decoyCredentials(input.email);
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  const options = await generateAuthenticationOptions({
    rpID: relyingParty().id,
    allowCredentials,
    userVerification: "preferred",
    timeout: CHALLENGE_TTL_MS,
  });
  const { staleBefore, ...times } = challengeTimes();
  await insertChallenge(
    { purpose: "webauthn.authenticate", challenge: options.challenge, email: input.email, ...times },
    staleBefore,
  );
  return options;
}

class Refusal extends Error {}

const refused = () =>
  new AppError("unauthenticated", "The passkey could not sign you in: ask for new sign-in options and try again");

/**
 * Passkey sign-in. Every refusal is the same 401 (the reason goes to the log): an unknown, used or expired
 * challenge, a credential that is not this email's account's, a bad signature, origin or RP id, no user presence,
 * a counter that did not go up. Refusals count against the account like wrong passwords; while it is limited even
 * a good assertion is refused.
 */
export async function signInWithPasskey(input: AuthVerifyInput, client: ClientInfo): Promise<AuthResultOutput> {
  const response = input.response;
  const challenge = challengeOf(response.response.clientDataJSON, "/response/response/clientDataJSON");
  const accountKey = `webauthn:${input.email}`;
  await limiter("login-account").check(accountKey);
  try {
    const at = now();
    const stored = await consumeChallenge({ challenge, purpose: "webauthn.authenticate", email: input.email }, new Date(at));
    if (!stored) throw new Refusal("unknown, used or expired challenge");
    const found = await findCredentialForSignIn(response.id, input.email);
    if (!found) throw new Refusal("not a credential of this email's account");
    const { credential, user } = found;
    if (response.response.userHandle && response.response.userHandle !== userHandle(user.id)) {
      throw new Refusal("user handle of another account");
    }
    const rp = relyingParty();
    let verification: VerifiedAuthenticationResponse;
    try {
      const { verifyAuthenticationResponse } = await simpleWebAuthn();
      verification = await verifyAuthenticationResponse({
        response: {
          ...response,
          response: { ...response.response, userHandle: response.response.userHandle ?? undefined },
          authenticatorAttachment: attachmentOf(response.authenticatorAttachment) ?? undefined,
          clientExtensionResults: response.clientExtensionResults ?? {},
        } as AuthenticationResponseJSON,
        expectedChallenge: stored.challenge,
        expectedOrigin: rp.origins,
        expectedRPID: rp.id,
        credential: {
          id: credential.credentialId,
          publicKey: new Uint8Array(Buffer.from(credential.publicKey, "base64url")),
          counter: credential.counter,
          transports: credential.transports as never,
        },
        requireUserVerification: false,
      });
    } catch (error) {
      const message = (error as Error).message;
      if (/counter/i.test(message)) {
        log.warn("Passkey signature counter did not go up: possibly a cloned authenticator", { credential: credential.id });
      }
      throw new Refusal(message);
    }
    if (!verification.verified) throw new Refusal("bad signature");
    const info = verification.authenticationInfo;
    const recorded = await recordCredentialUse(credential.id, {
      counter: info.newCounter,
      backedUp: info.credentialBackedUp,
      usedAt: new Date(at),
    });
    if (!recorded) throw new Refusal("counter did not go up (concurrent sign-in)");
    await limiter("login-account").reset(accountKey);
    refuseDisabledAccount(user);
    return { token: await startSession(user, "passkey", client), user: toUserOutput(user) };
  } catch (error) {
    if (!(error instanceof Refusal)) throw error;
    log.info("Passkey sign-in refused", { reason: error.message });
    await limiter("login-account").penalise(accountKey);
    throw refused();
  }
}

export async function listDevices(actor: Actor): Promise<DeviceListOutput> {
  return { items: (await listUserCredentials(actor.userId)).map(toDeviceOutput) };
}

const deviceNotFound = () => new AppError("not_found", "Device not found");

export async function renameDevice(actor: Actor, id: string, input: RenameDeviceInput): Promise<DeviceOutput> {
  const row = await renameCredential(actor.userId, id, input.name);
  if (!row) throw deviceNotFound();
  return toDeviceOutput(row);
}

/** Removes one of the actor's passkeys while another way to sign in remains (409 otherwise). */
export async function removeDevice(actor: Actor, id: string): Promise<void> {
  const result = await deleteSignInMethodKeepingAWayIn(actor.userId, "passkey", id);
  if (result === "not_found") throw deviceNotFound();
  if (result === "last_method") {
    throw new AppError(
      "conflict",
      "This passkey is your only way to sign in: set a password (Forgot password on the sign-in page) or add " +
        "another passkey or a linked account under Settings → Security first, then remove it.",
    );
  }
}
