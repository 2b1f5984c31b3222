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

beforeAll(() => {
  loadConfig({ DATA_DIR: mkdtempSync(path.join(tmpdir(), "spolu-tokens-")), JWT_SECRET: SECRET });
});

const now = () => Math.floor(Date.now() / 1000);
function forge(claims: Record<string, unknown>, header: Record<string, unknown> = {}) {
  return new SignJWT({ ver: 0, ...claims })
    .setProtectedHeader({ alg: "HS256", ...header })
    .setSubject(USER)
    .setIssuer("spolu")
    .setAudience("spolu:session")
    .setIssuedAt()
    .setExpirationTime(now() + 60);
}

describe("session tokens", () => {
  test("a token we issued verifies to its user and version", async () => {
    expect(await verifySessionToken(await issueSessionToken(USER, 3))).toEqual({ sub: USER, ver: 3 });
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
      await forge({}, { alg: "HS512" }).sign(key),
      "not-a-token",
    ];
    for (const token of refused) expect(await verifySessionToken(token), token).toBeNull();
  });
});
