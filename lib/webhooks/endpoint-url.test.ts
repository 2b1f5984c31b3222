import { describe, expect, test } from "vitest";
import { PUBLIC_ONLY, TargetRefused } from "../net/addresses";
import { checkWebhookUrl } from "./endpoint-url";

// The address ranges themselves are tested with the rules, in lib/net/addresses.test.ts.

const ANYTHING = { anything: true, ranges: [] };

describe("checkWebhookUrl", () => {
  const refused = (url: string) => {
    try {
      checkWebhookUrl(url, PUBLIC_ONLY);
    } catch (error) {
      expect(error).toBeInstanceOf(TargetRefused);
      return (error as Error).message;
    }
    throw new Error(`${url} was accepted`);
  };

  test.each([
    ["http://127.0.0.1/hook", /127\.0\.0\.1 is a loopback address: only public addresses are allowed/],
    ["http://[::1]:8080/", /::1 is a loopback address/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://[fd00::5]/", /unique-local/],
    ["http://localhost:3000/", /localhost is a loopback host name: only public addresses are allowed/],
    ["file:///etc/passwd", /https \(or http\)/],
    ["gopher://example.com/", /https \(or http\)/],
    ["ftp://example.com/", /https \(or http\)/],
    ["https://user:pass@example.com/", /user name or password/],
    ["https://token@example.com/", /user name or password/],
    ["not a url", /absolute http/],
    ["/relative/path", /absolute http/],
  ])("refuses %s", (url, reason) => {
    expect(refused(url)).toMatch(reason);
  });

  test("accepts public addresses and host names (names are checked when resolved, at delivery)", () => {
    expect(checkWebhookUrl("https://example.com/hooks?x=1#fragment", PUBLIC_ONLY)).toBe("https://example.com/hooks?x=1");
    expect(checkWebhookUrl("http://8.8.8.8:8080/", PUBLIC_ONLY)).toBe("http://8.8.8.8:8080/");
    expect(checkWebhookUrl("https://[2606:4700:4700::1111]/", PUBLIC_ONLY)).toBe("https://[2606:4700:4700::1111]/");
  });

  test("accepts private addresses and localhost when the operator allows them", () => {
    expect(checkWebhookUrl("http://127.0.0.1:4000/hook", ANYTHING)).toBe("http://127.0.0.1:4000/hook");
    expect(checkWebhookUrl("http://[::1]/", ANYTHING)).toBe("http://[::1]/");
    expect(checkWebhookUrl("http://localhost:3000/", ANYTHING)).toBe("http://localhost:3000/");
    // ...but never another scheme or credentials.
    expect(() => checkWebhookUrl("file:///etc/passwd", ANYTHING)).toThrow(TargetRefused);
    expect(() => checkWebhookUrl("http://a:b@127.0.0.1/", ANYTHING)).toThrow(TargetRefused);
  });
});
