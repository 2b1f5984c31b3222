/**
 * A software WebAuthn authenticator for tests: a P-256 key pair (ES256) that answers registration and sign-in
 * options the way a browser hands an authenticator's answer to a page (RegistrationResponseJSON and
 * AuthenticationResponseJSON, WebAuthn L3 §5.1). Attestation is "none"; the authenticator data carries the flags,
 * AAGUID, credential id, COSE public key and signature counter as configured.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from "node:crypto";

// --- A minimal CBOR encoder (RFC 8949): unsigned and negative integers, byte and text strings, maps. ---

type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;

function cborHead(major: number, length: number): Buffer {
  if (length < 24) return Buffer.from([(major << 5) | length]);
  if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
  if (length < 0x10000) {
    const head = Buffer.alloc(3);
    head[0] = (major << 5) | 25;
    head.writeUInt16BE(length, 1);
    return head;
  }
  const head = Buffer.alloc(5);
  head[0] = (major << 5) | 26;
  head.writeUInt32BE(length, 1);
  return head;
}

export function cbor(value: CborValue): Buffer {
  if (typeof value === "number") {
    if (!Number.isInteger(value)) throw new Error("cbor: integers only");
    return value >= 0 ? cborHead(0, value) : cborHead(1, -1 - value);
  }
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([cborHead(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([cborHead(2, value.length), value]);
  const parts = [cborHead(5, value.size)];
  for (const [key, item] of value) parts.push(cbor(key), cbor(item));
  return Buffer.concat(parts);
}

// --- The authenticator. ---

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

export const ZERO_AAGUID = "00000000-0000-0000-0000-000000000000";

export interface SoftAuthenticatorOptions {
  /** The model's AAGUID (default all zeros: unknown). */
  aaguid?: string;
  /** `platform` (the default), `cross-platform`, or null for a browser that does not say. */
  attachment?: "platform" | "cross-platform" | null;
  transports?: string[];
  /** BE: the passkey may be synced (default false). */
  backupEligible?: boolean;
  /** BS: the passkey is synced (default false; needs backupEligible). */
  backedUp?: boolean;
  /** UV: the user was verified (default true). */
  userVerified?: boolean;
  /** UP: the user was present (default true). */
  userPresent?: boolean;
  /** The signature counter's start (default 0: each use adds 1 unless `countsUses` is false). */
  counter?: number;
  /** Whether each assertion raises the counter (default true; synced passkeys keep it at 0). */
  countsUses?: boolean;
}

/** What the browser adds to the authenticator's answer; each can be overridden to play a misbehaving party. */
export interface CeremonyOptions {
  /** The page's origin as the browser reports it in clientDataJSON. */
  origin: string;
  /** The RP id the authenticator hashes into the authenticator data (default: the options' own). */
  rpId?: string;
  /** Sign with this challenge instead of the options' one. */
  challenge?: string;
  /** Sign with this counter instead of the next one. */
  counter?: number;
}

const b64url = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

export class SoftAuthenticator {
  readonly credentialId: Buffer<ArrayBuffer>;
  readonly aaguid: string;
  readonly attachment: "platform" | "cross-platform" | null;
  readonly transports: string[];
  counter: number;
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  private readonly options: Required<Omit<SoftAuthenticatorOptions, "aaguid" | "attachment" | "transports" | "counter">>;
  /** The user handle the options gave at registration (a discoverable credential keeps it). */
  userHandle?: string;

  constructor(options: SoftAuthenticatorOptions = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    this.privateKey = privateKey;
    this.publicKey = publicKey;
    this.credentialId = randomBytes(32);
    this.aaguid = options.aaguid ?? ZERO_AAGUID;
    this.attachment = options.attachment === undefined ? "platform" : options.attachment;
    this.transports = options.transports ?? (this.attachment === "platform" ? ["internal", "hybrid"] : ["usb"]);
    this.counter = options.counter ?? 0;
    this.options = {
      backupEligible: options.backupEligible ?? false,
      backedUp: options.backedUp ?? false,
      userVerified: options.userVerified ?? true,
      userPresent: options.userPresent ?? true,
      countsUses: options.countsUses ?? true,
    };
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  /** The credential public key as COSE_Key (EC2, P-256, ES256). */
  private coseKey(): Buffer {
    const jwk = this.publicKey.export({ format: "jwk" });
    return cbor(
      new Map<CborValue, CborValue>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
  }

  private authenticatorData(rpId: string, counter: number, attested: boolean): Buffer {
    let flags = 0;
    if (this.options.userPresent) flags |= FLAG_UP;
    if (this.options.userVerified) flags |= FLAG_UV;
    if (this.options.backupEligible) flags |= FLAG_BE;
    if (this.options.backedUp) flags |= FLAG_BS;
    if (attested) flags |= FLAG_AT;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts: Buffer[] = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.from(this.aaguid.replaceAll("-", ""), "hex"), idLength, this.credentialId, this.coseKey());
    }
    return Buffer.concat(parts);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), "utf8");
  }

  /** Answers PublicKeyCredentialCreationOptionsJSON: a RegistrationResponseJSON with attestation "none". */
  register(creation: { challenge: string; rp: { id?: string }; user: { id: string } }, ceremony: CeremonyOptions) {
    const rpId = ceremony.rpId ?? creation.rp.id!;
    this.userHandle = creation.user.id;
    const authData = this.authenticatorData(rpId, this.counter, true);
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const clientDataJSON = this.clientData("webauthn.create", ceremony.challenge ?? creation.challenge, ceremony.origin);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(attestationObject),
        authenticatorData: b64url(authData),
        transports: this.transports,
        publicKeyAlgorithm: -7,
        publicKey: b64url(this.publicKey.export({ format: "der", type: "spki" })),
      },
      ...(this.attachment !== null && { authenticatorAttachment: this.attachment }),
      clientExtensionResults: { credProps: { rk: true } },
    };
  }

  /**
   * Answers PublicKeyCredentialRequestOptionsJSON: an AuthenticationResponseJSON whose signature covers the
   * authenticator data and the hash of clientDataJSON. Each call raises the counter (unless it does not count).
   */
  authenticate(request: { challenge: string; rpId?: string }, ceremony: CeremonyOptions) {
    const rpId = ceremony.rpId ?? request.rpId!;
    if (this.options.countsUses && ceremony.counter === undefined) this.counter += 1;
    const authData = this.authenticatorData(rpId, ceremony.counter ?? this.counter, false);
    const clientDataJSON = this.clientData("webauthn.get", ceremony.challenge ?? request.challenge, ceremony.origin);
    const signature = sign("sha256", Buffer.concat([authData, sha256(clientDataJSON)]), this.privateKey);
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        ...(this.userHandle && { userHandle: this.userHandle }),
      },
      ...(this.attachment !== null && { authenticatorAttachment: this.attachment }),
      clientExtensionResults: {},
    };
  }

  /** The same credential (id, AAGUID) with another key: what an attacker who copied only the id would hold. */
  impostor(): SoftAuthenticator {
    const copy = new SoftAuthenticator({ aaguid: this.aaguid, attachment: this.attachment, transports: this.transports });
    (copy as { credentialId: Buffer<ArrayBuffer> }).credentialId = this.credentialId;
    copy.counter = this.counter;
    copy.userHandle = this.userHandle;
    return copy;
  }
}
