import { createHmac } from "node:crypto";
import { describe, expect, test } from "vitest";
import { generateMessageId, generateSecret, sign, signatureHeader } from "./sign";

/*
 * The Standard Webhooks reference vector (protocols.md gives none; this is the one the reference libraries test
 * with, e.g. svix-webhooks' PHP `testSignFunctionWorks`), recomputed independently with
 * `openssl dgst -sha256 -mac HMAC -macopt hexkey:<base64-decoded key> -binary | base64`.
 */
const VECTOR = {
  secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
  messageId: "msg_p5jXN8AQM9LWM0D4loKWxJek",
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
};

describe("sign", () => {
  test("reproduces the Standard Webhooks reference vector", () => {
    expect(sign(VECTOR.secret, VECTOR.messageId, VECTOR.timestamp, VECTOR.body)).toBe(VECTOR.signature);
  });

  test("keys the HMAC with the base64-decoded part of the secret, not its text", () => {
    const asText = createHmac("sha256", VECTOR.secret)
      .update(`${VECTOR.messageId}.${VECTOR.timestamp}.${VECTOR.body}`)
      .digest("base64");
    expect(sign(VECTOR.secret, VECTOR.messageId, VECTOR.timestamp, VECTOR.body)).not.toBe(`v1,${asText}`);
  });

  test("changes with any byte of the body, the id or the timestamp", () => {
    const signature = VECTOR.signature;
    expect(sign(VECTOR.secret, VECTOR.messageId, VECTOR.timestamp, '{"test": 2432232315}')).not.toBe(signature);
    expect(sign(VECTOR.secret, "msg_p5jXN8AQM9LWM0D4loKWxJeK", VECTOR.timestamp, VECTOR.body)).not.toBe(signature);
    expect(sign(VECTOR.secret, VECTOR.messageId, VECTOR.timestamp + 1, VECTOR.body)).not.toBe(signature);
  });

  test("the header lists one signature per secret, space-separated, the first secret's first", () => {
    const other = generateSecret();
    const header = signatureHeader([VECTOR.secret, other], VECTOR.messageId, VECTOR.timestamp, VECTOR.body);
    expect(header.split(" ")).toEqual([VECTOR.signature, sign(other, VECTOR.messageId, VECTOR.timestamp, VECTOR.body)]);
  });
});

describe("secrets and message ids", () => {
  test("a secret is whsec_ and the base64 of 32 random bytes, different every time", () => {
    const secret = generateSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]+={0,2}$/);
    expect(Buffer.from(secret.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(generateSecret()).not.toBe(secret);
  });

  test("a message id has no dot (it is part of the signed content) and is unique", () => {
    const ids = new Set(Array.from({ length: 100 }, generateMessageId));
    expect(ids.size).toBe(100);
    for (const id of ids) expect(id).toMatch(/^msg_[A-Za-z0-9_-]{20,}$/);
  });
});
