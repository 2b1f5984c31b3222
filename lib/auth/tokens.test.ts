import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { SignJWT, UnsecuredJWT } from "jose";
import { beforeAll, describe, expect, test } from "vitest";
import { loadConfig } from "../config";
import { issueSessionToken, verifySessionToken } from "./tokens";

const SECRET = "unit-test-secret-".repeat(3);
const key = new TextEncoder().encode(SECRET);
const USER = "7d0c6a52-2f55-4c1e-9a53-0d0c7b5c8f11";
const SESSION = "0b9f3c1e-5a6d-4e2f-8c7b-1a2b3c4d5e6f";
const TTL_SECONDS = 3600;

beforeAll(() => {
  loadConfig({
    DATA_DIR: mkdtempSync(path.join(tmpdir(), "spolu-tokens-")),
    JWT_SECRET: SECRET,
    JWT_TTL_SECONDS: String(TTL_SECONDS),
  });
});

const now = () => Math.floor(Date.now() / 1000);
function forge(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  return new SignJWT({ ver: 0, sid: SESSION, ...claims })
    .setProtectedHeader({ alg: "HS256", ...header })
    .setSubject(USER)
    .setIssuer("spolu")
    .setAudience("spolu:session")
    .setIssuedAt()
    .setExpirationTime(now() + 60);
}

describe("session tokens", () => {
  test("a token we issued verifies to its user, version and session", async () => {
    const issuedAt = new Date();
    const token = await issueSessionToken({
      userId: USER,
      tokenVersion: 3,
      sessionId: SESSION,
      issuedAt,
      expiresAt: new Date(issuedAt.getTime() + TTL_SECONDS * 1000),
    });
    expect(await verifySessionToken(token)).toEqual({ kind: "session", sub: USER, ver: 3, sid: SESSION });
  });

  test("a correctly signed token that would live longer than JWT_TTL_SECONDS is refused", async () => {
    const issued = now() - 60;
    const longLived = await forge({})
      .setIssuedAt(issued)
      .setExpirationTime(issued + TTL_SECONDS + 1)
      .sign(key);
    expect(await verifySessionToken(longLived)).toBeNull();
    const justRight = await forge({})
      .setIssuedAt(issued)
      .setExpirationTime(issued + TTL_SECONDS)
      .sign(key);
    expect(await verifySessionToken(justRight)).toMatchObject({ sub: USER, sid: SESSION });
  });

  test("forged, expired, premature or foreign tokens are refused", async () => {
    const refused = [
      new UnsecuredJWT({ sub: USER, ver: 0 }).setIssuer("spolu").setAudience("spolu:session").encode(),
      await forge({}).sign(new TextEncoder().encode("another-secret-of-enough-length!!")),
      await forge({})
        .setExpirationTime(now() - 10)
        .sign(key),
      await forge({})
        .setNotBefore(now() + 3600)
        .sign(key),
      await forge({}).setIssuer("someone-else").sign(key),
      await forge({}).setAudience("spolu:invitation").sign(key),
      await forge({ ver: "0" }).sign(key),
      // A token from before sessions (no session id), or with one that is not a session id.
      await forge({ sid: undefined }).sign(key),
      await forge({ sid: "not-a-session" }).sign(key),
      await forge({}, { alg: "HS512" }).sign(key),
      "not-a-token",
    ];
    for (const token of refused) expect(await verifySessionToken(token), token).toBeNull();
  });
});
