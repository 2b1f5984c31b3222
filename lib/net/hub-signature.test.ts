import { describe, expect, test } from "vitest";
import { hubSignature, hubSignatureMatches } from "./hub-signature";

describe("hubSignatureMatches", () => {
  const body = '{"ref":"refs/heads/main"}';

  test("accepts GitHub's documented example", () => {
    // https://docs.github.com/en/webhooks/using-webhooks/validating-webhook-deliveries#testing-the-webhook-payload-validation
    const header = "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17";
    expect(hubSignatureMatches("It's a Secret to Everybody", "Hello, World!", header)).toBe(true);
  });

  test("accepts its own signature, in either letter case", () => {
    expect(hubSignatureMatches("s3cret", body, hubSignature("s3cret", body))).toBe(true);
    expect(
      hubSignatureMatches("s3cret", Buffer.from(body), hubSignature("s3cret", body).toUpperCase().replace("SHA256", "sha256")),
    ).toBe(true);
  });

  test("refuses another secret, another body, a missing or malformed header", () => {
    expect(hubSignatureMatches("other", body, hubSignature("s3cret", body))).toBe(false);
    expect(hubSignatureMatches("s3cret", `${body} `, hubSignature("s3cret", body))).toBe(false);
    expect(hubSignatureMatches("s3cret", body, undefined)).toBe(false);
    expect(hubSignatureMatches("s3cret", body, hubSignature("s3cret", body).replace("sha256=", "sha1="))).toBe(false);
    expect(hubSignatureMatches("s3cret", body, `${hubSignature("s3cret", body)}00`)).toBe(false);
  });
});
