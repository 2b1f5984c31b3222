import { z } from "@hono/zod-openapi";
import { refuseDisguise } from "../display-text";
import { emailInput } from "../accounts/schema";
import { DEVICE_LABELS } from "./labels";

export const DEVICE_NAME_MAX = 100;
/** Generous bounds for the browser's base64url fields (an attestation object with certificates stays far below). */
const FIELD_MAX = 64 * 1024;

const base64url = (description: string, max = FIELD_MAX) =>
  z
    .string()
    .min(1, "must not be empty")
    .max(max, `must be at most ${max} characters`)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/, "must be base64url")
    .openapi({ description, example: "AWXUrDdpFeRf2xZvc7F_qQ" });

const deviceName = z
  .string()
  .trim()
  .min(1, "must not be empty")
  .max(DEVICE_NAME_MAX, `must be at most ${DEVICE_NAME_MAX} characters`)
  .superRefine(refuseDisguise)
  .openapi({ description: `1-${DEVICE_NAME_MAX} characters (trimmed)`, example: "Work laptop" });

const transports = z
  .array(z.string().max(32, "must be at most 32 characters"))
  .max(10, "must list at most 10 transports")
  .openapi({ description: "As the browser reported them: `usb`, `nfc`, `ble`, `smart-card`, `hybrid`, `internal`" });

/**
 * `authenticatorAttachment` as the browser sent it. Anything but `platform` and `cross-platform` counts as not said
 * (WebAuthn §5.1: unknown values are ignored).
 */
const attachmentInput = z
  .string()
  .max(32)
  .nullable()
  .optional()
  .openapi({ description: "`platform` or `cross-platform`; other values count as not given" });

const clientExtensionResults = z
  .record(z.string(), z.unknown())
  .optional()
  .openapi({ description: "The browser's extension outputs (ignored)" });

/** `PublicKeyCredential.toJSON()` of `navigator.credentials.create()` (@simplewebauthn/browser's `startRegistration`). */
export const registrationResponseInput = z
  .object({
    id: base64url("The credential id", 1024),
    rawId: base64url("The same credential id", 1024),
    type: z.literal("public-key", { message: "must be public-key" }),
    response: z.object({
      clientDataJSON: base64url("The client data (JSON)", 8 * 1024),
      attestationObject: base64url("The attestation object (CBOR)"),
      authenticatorData: base64url("The authenticator data").optional(),
      transports: transports.optional(),
      publicKeyAlgorithm: z.number().int().optional(),
      publicKey: base64url("The public key (SPKI)").optional(),
    }),
    authenticatorAttachment: attachmentInput,
    clientExtensionResults,
  })
  .openapi("RegistrationResponseJSON", { description: "RegistrationResponseJSON (WebAuthn L3); unknown fields are ignored" });
export type RegistrationResponseInput = z.infer<typeof registrationResponseInput>;

/** `PublicKeyCredential.toJSON()` of `navigator.credentials.get()` (@simplewebauthn/browser's `startAuthentication`). */
export const authenticationResponseInput = z
  .object({
    id: base64url("The credential id", 1024),
    rawId: base64url("The same credential id", 1024),
    type: z.literal("public-key", { message: "must be public-key" }),
    response: z.object({
      clientDataJSON: base64url("The client data (JSON)", 8 * 1024),
      authenticatorData: base64url("The authenticator data", 8 * 1024),
      signature: base64url("The signature", 8 * 1024),
      userHandle: base64url("The user handle", 1024).nullable().optional(),
    }),
    authenticatorAttachment: attachmentInput,
    clientExtensionResults,
  })
  .openapi("AuthenticationResponseJSON", { description: "AuthenticationResponseJSON (WebAuthn L3); unknown fields are ignored" });
export type AuthenticationResponseInput = z.infer<typeof authenticationResponseInput>;

export const registrationOptionsInput = z.strictObject({}).openapi("WebauthnRegistrationOptionsInput");

export const registerVerifyInput = z
  .strictObject({
    response: registrationResponseInput,
    name: deviceName.optional().openapi({ description: "The device's name; by default the detected label's text" }),
  })
  .openapi("WebauthnRegisterVerifyInput");
export type RegisterVerifyInput = z.infer<typeof registerVerifyInput>;

export const authOptionsInput = z.strictObject({ email: emailInput }).openapi("WebauthnAuthOptionsInput");
export type AuthOptionsInput = z.infer<typeof authOptionsInput>;

export const authVerifyInput = z
  .strictObject({
    email: emailInput.openapi({ description: "The email the options were asked for" }),
    response: authenticationResponseInput,
  })
  .openapi("WebauthnAuthVerifyInput");
export type AuthVerifyInput = z.infer<typeof authVerifyInput>;

export const renameDeviceInput = z.strictObject({ name: deviceName }).openapi("RenameWebauthnDeviceInput");
export type RenameDeviceInput = z.infer<typeof renameDeviceInput>;

export const deviceIdParams = z.object({ id: z.uuid("must be a device id") });

const credentialDescriptor = z.object({
  id: z.string().openapi({ description: "A credential id (base64url)" }),
  type: z.string().openapi({ description: "`public-key`" }),
  transports: z.array(z.string()).optional(),
});

/** PublicKeyCredentialCreationOptionsJSON: hand it to `startRegistration({ optionsJSON })`. */
export const registrationOptionsOutput = z
  .object({
    challenge: z.string().openapi({ description: "base64url; valid for 5 minutes, once" }),
    rp: z.object({ id: z.string().optional(), name: z.string() }),
    user: z.object({
      id: z.string().openapi({ description: "Your stable opaque user handle (base64url)" }),
      name: z.string().openapi({ description: "Your email" }),
      displayName: z.string().openapi({ description: "Your name" }),
    }),
    pubKeyCredParams: z.array(z.object({ type: z.string().openapi({ description: "`public-key`" }), alg: z.number().int() })),
    timeout: z.number().int().optional(),
    excludeCredentials: z.array(credentialDescriptor).optional().openapi({ description: "Your devices already registered" }),
    authenticatorSelection: z
      .object({
        authenticatorAttachment: z.enum(["platform", "cross-platform"]).optional(),
        residentKey: z.enum(["discouraged", "preferred", "required"]).optional(),
        requireResidentKey: z.boolean().optional(),
        userVerification: z.enum(["discouraged", "preferred", "required"]).optional(),
      })
      .optional(),
    hints: z.array(z.string()).optional(),
    attestation: z.enum(["none", "indirect", "direct", "enterprise"]).optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("PublicKeyCredentialCreationOptionsJSON");

/** PublicKeyCredentialRequestOptionsJSON: hand it to `startAuthentication({ optionsJSON })`. */
export const authOptionsOutput = z
  .object({
    challenge: z.string().openapi({ description: "base64url; valid for 5 minutes, once, for this email only" }),
    rpId: z.string().optional(),
    allowCredentials: z.array(credentialDescriptor).optional(),
    timeout: z.number().int().optional(),
    userVerification: z.enum(["discouraged", "preferred", "required"]).optional(),
    hints: z.array(z.string()).optional(),
    extensions: z.record(z.string(), z.unknown()).optional(),
  })
  .openapi("PublicKeyCredentialRequestOptionsJSON");

export const deviceOutput = z
  .object({
    id: z.uuid(),
    name: z.string().openapi({ description: "The name you gave it, or the detected label's text" }),
    label: z.enum(DEVICE_LABELS).openapi({
      description:
        "The detected kind of device: `face` (face recognition, e.g. an iPhone), `touch` (touch recognition, e.g. a " +
        "Mac), `android_fingerprint`, `windows_hello`, or `generic` (a security key, a password manager, unknown)",
    }),
    labelText: z.string().openapi({ description: "The label in English (pages translate by `label`)", example: "Windows Hello" }),
    attachment: z.enum(["platform", "cross-platform"]).nullable().openapi({
      description: "`platform` (built into the device it was made on), `cross-platform` (a security key or a phone), or null",
    }),
    transports: z.array(z.string()),
    aaguid: z.string().openapi({ description: "The authenticator model (all zeros when it did not say); not proof of anything" }),
    backedUp: z.boolean().openapi({ description: "Whether the passkey is synced (backed up) to other devices" }),
    deviceType: z.enum(["singleDevice", "multiDevice"]).openapi({ description: "`multiDevice`: a passkey that can be synced" }),
    createdAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable().openapi({ description: "Its last sign-in, or null" }),
  })
  .openapi("WebauthnDevice");
export type DeviceOutput = z.infer<typeof deviceOutput>;

export const deviceListOutput = z
  .object({ items: z.array(deviceOutput).openapi({ description: "Oldest first" }) })
  .openapi("WebauthnDeviceList");
export type DeviceListOutput = z.infer<typeof deviceListOutput>;
