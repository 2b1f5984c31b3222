/**
 * A local push service for tests: what Mozilla's or Google's push service does with a Web Push request, on
 * 127.0.0.1 over http. Each device (`service.device()`) is a browser's subscription: a P-256 key pair and an auth
 * secret made with node:crypto as a browser makes them, and an endpoint on this server. A request to an endpoint must
 * carry a valid VAPID token (RFC 8292: ES256, signed by the key in `k`, for this origin, not expired, with a subject),
 * `Content-Encoding: aes128gcm` and a TTL; its body is decrypted (RFC 8291 on RFC 8188) with the device's keys. The
 * device answers 201, or the status the test sets; a request that breaks a rule is answered 400 and kept in `rejected`.
 */
import { createECDH, createDecipheriv, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";
import { createServer, type IncomingMessage } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedPush {
  /** The VAPID public key the request was signed with (`k`, base64url). */
  vapidKey: string;
  /** The VAPID token's claims. */
  claims: { aud: string; exp: number; sub: string };
  ttl: number;
  urgency: string | undefined;
  /** The decrypted message, parsed as JSON. */
  message: unknown;
  /** What the device answered. */
  status: number;
}

export interface PushDevice {
  /** What `PushSubscription.toJSON()` gives in a browser. */
  subscription: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  /** The status the device answers with (201 unless a test sets another: 404, 410, 500...). */
  answer: number;
  received: ReceivedPush[];
}

export interface PushService {
  url: string;
  device(): PushDevice;
  /** Requests that broke the protocol, with the reason. */
  rejected: { path: string; reason: string }[];
  close(): Promise<void>;
}

interface DeviceKeys {
  device: PushDevice;
  ecdh: ECDH;
  publicKey: Buffer;
  auth: Buffer;
}

function readBody(request: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => resolve(Buffer.concat(chunks)));
    request.on("error", reject);
  });
}

class Rejection extends Error {}

function check(condition: unknown, reason: string): asserts condition {
  if (!condition) throw new Rejection(reason);
}

/** Checks `Authorization: vapid t=<JWT>, k=<public key>` (RFC 8292) and answers the key and claims. */
export function verifyVapid(header: string | undefined, origin: string): { vapidKey: string; claims: ReceivedPush["claims"] } {
  const match = header?.match(/^vapid t=([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+),\s*k=([A-Za-z0-9_-]+)$/);
  check(match, `Authorization is not "vapid t=<JWT>, k=<key>": ${header}`);
  const [, token, vapidKey] = match;
  const [headerPart, claimsPart, signaturePart] = token!.split(".") as [string, string, string];
  const jwtHeader = JSON.parse(Buffer.from(headerPart, "base64url").toString());
  check(jwtHeader.alg === "ES256", `JWT alg is ${jwtHeader.alg}, not ES256`);
  const point = Buffer.from(vapidKey!, "base64url");
  check(point.length === 65 && point[0] === 4, "k is not an uncompressed P-256 point");
  const key = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: point.subarray(1, 33).toString("base64url"), y: point.subarray(33).toString("base64url") },
    format: "jwk",
  });
  const signed = verify(
    "sha256",
    Buffer.from(`${headerPart}.${claimsPart}`),
    { key, dsaEncoding: "ieee-p1363" },
    Buffer.from(signaturePart, "base64url"),
  );
  check(signed, "the JWT signature does not verify with k");
  const claims = JSON.parse(Buffer.from(claimsPart, "base64url").toString());
  check(claims.aud === origin, `aud is ${claims.aud}, not the push service's origin ${origin}`);
  const nowSeconds = Date.now() / 1000;
  check(typeof claims.exp === "number" && claims.exp > nowSeconds, "the JWT has expired (or has no exp)");
  check(claims.exp <= nowSeconds + 24 * 3600, "exp is more than 24 hours ahead");
  check(
    typeof claims.sub === "string" && /^(mailto:|https:)/.test(claims.sub),
    `sub is not a mailto: or https: contact: ${claims.sub}`,
  );
  return { vapidKey: vapidKey!, claims };
}

/** Decrypts an aes128gcm body (RFC 8188) whose key comes from the device's keys (RFC 8291). */
export function decryptPush(body: Buffer, keys: Pick<DeviceKeys, "ecdh" | "publicKey" | "auth">): Buffer {
  check(body.length > 21, "the body is shorter than an aes128gcm header");
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20]!;
  const senderKey = body.subarray(21, 21 + idLength);
  check(idLength === 65 && senderKey[0] === 4, "keyid is not the sender's P-256 public key");
  check(recordSize >= 18, `record size ${recordSize} is too small`);
  const ciphertext = body.subarray(21 + idLength);

  // RFC 8291 section 3.4: the input key from the ECDH secret and the auth secret, bound to both public keys.
  const ecdhSecret = keys.ecdh.computeSecret(senderKey);
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), keys.publicKey, senderKey]);
  const ikm = Buffer.from(hkdfSync("sha256", ecdhSecret, keys.auth, keyInfo, 32));
  // RFC 8188 section 2.2 and 2.3: the content encryption key and nonce from the salt.
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const baseNonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));

  const plain: Buffer[] = [];
  const records = Math.ceil(ciphertext.length / recordSize);
  check(records >= 1, "no records");
  for (let index = 0; index < records; index++) {
    const record = ciphertext.subarray(index * recordSize, (index + 1) * recordSize);
    check(record.length > 16, "a record shorter than its tag");
    // The record's nonce: the base nonce XOR its sequence number (a 96-bit big-endian integer).
    const nonce = Buffer.from(baseNonce);
    for (let byte = 0, rest = index; rest > 0; byte++, rest = Math.floor(rest / 256)) nonce[11 - byte]! ^= rest % 256;
    const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
    decipher.setAuthTag(record.subarray(record.length - 16));
    let data: Buffer;
    try {
      data = Buffer.concat([decipher.update(record.subarray(0, record.length - 16)), decipher.final()]);
    } catch {
      throw new Rejection(`record ${index} does not decrypt (wrong keys or a corrupt body)`);
    }
    // Padding: the data, a delimiter (2 in the last record, 1 in the others), then zeros.
    let end = data.length - 1;
    while (end >= 0 && data[end] === 0) end--;
    const last = index === records - 1;
    check(data[end] === (last ? 2 : 1), `record ${index} has no ${last ? "last" : ""} record delimiter`);
    plain.push(data.subarray(0, end));
  }
  return Buffer.concat(plain);
}

export async function startPushService(): Promise<PushService> {
  const devices = new Map<string, DeviceKeys>();
  const rejected: PushService["rejected"] = [];
  let origin = "";

  const server = createServer(async (request, response) => {
    const path = request.url ?? "/";
    try {
      const body = await readBody(request);
      const keys = devices.get(path);
      if (!keys) {
        response.writeHead(404).end();
        return;
      }
      check(request.method === "POST", `method ${request.method}, not POST`);
      // The token's audience is the origin the sender addressed (by IP address or by name).
      const { vapidKey, claims } = verifyVapid(request.headers.authorization, `http://${request.headers.host}`);
      check(request.headers["content-encoding"] === "aes128gcm", `Content-Encoding is ${request.headers["content-encoding"]}`);
      const ttl = Number(request.headers.ttl);
      check(request.headers.ttl !== undefined && Number.isInteger(ttl) && ttl >= 0, `TTL is ${request.headers.ttl}`);
      const text = decryptPush(body, keys).toString("utf8");
      const status = keys.device.answer;
      keys.device.received.push({
        vapidKey,
        claims,
        ttl,
        urgency: request.headers.urgency as string | undefined,
        message: JSON.parse(text),
        status,
      });
      response
        .writeHead(status, status === 201 ? { Location: `${origin}/messages/${randomBytes(8).toString("hex")}` } : {})
        .end();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      rejected.push({ path, reason });
      response.writeHead(400, { "Content-Type": "text/plain" }).end(reason);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    url: origin,
    rejected,
    device() {
      const ecdh = createECDH("prime256v1");
      const publicKey = ecdh.generateKeys();
      const auth = randomBytes(16);
      const path = `/wpush/v2/${randomBytes(12).toString("base64url")}`;
      const device: PushDevice = {
        subscription: {
          endpoint: origin + path,
          expirationTime: null,
          keys: { p256dh: publicKey.toString("base64url"), auth: auth.toString("base64url") },
        },
        answer: 201,
        received: [],
      };
      devices.set(path, { device, ecdh, publicKey, auth });
      return device;
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
