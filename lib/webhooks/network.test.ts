import { describe, expect, test } from "vitest";
import { checkWebhookUrl, classifyAddress, TargetRefused } from "./network";

const REFUSED: [string, string][] = [
  // IPv4
  ["0.0.0.0", "unspecified"],
  ["0.1.2.3", "unspecified"],
  ["10.0.0.1", "private"],
  ["10.255.255.255", "private"],
  ["100.64.0.1", "shared (CGNAT)"],
  ["100.127.255.254", "shared (CGNAT)"],
  ["127.0.0.1", "loopback"],
  ["127.255.0.9", "loopback"],
  ["169.254.169.254", "link-local"],
  ["172.16.0.1", "private"],
  ["172.31.255.255", "private"],
  ["192.0.0.8", "reserved"],
  ["192.0.2.10", "documentation"],
  ["192.168.1.1", "private"],
  ["198.18.0.1", "benchmarking"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.200", "documentation"],
  ["224.0.0.251", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.255", "broadcast"],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  ["fec0::1", "private"],
  ["fc00::1", "unique-local"],
  ["fd12:3456:789a::1", "unique-local"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "documentation"],
  ["100::1", "reserved"],
  ["::127.0.0.1", "reserved"],
  // IPv4-mapped, NAT64 and 6to4 forms of refused IPv4 addresses
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:a9fe:a9fe", "link-local"],
  ["0:0:0:0:0:ffff:c0a8:0101", "private"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a00:1", "private"],
  ["2002:7f00:1::1", "loopback"],
  ["2002:c0a8:101::", "private"],
];

const PUBLIC = [
  "1.1.1.1",
  "8.8.8.8",
  "9.255.255.255",
  "11.0.0.1",
  "100.63.255.255",
  "100.128.0.0",
  "126.255.255.255",
  "128.0.0.1",
  "169.253.255.255",
  "172.15.255.255",
  "172.32.0.0",
  "192.167.255.255",
  "192.169.0.0",
  "198.20.0.1",
  "223.255.255.255",
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
  "2002:808:808::1",
];

describe("classifyAddress", () => {
  test.each(REFUSED)("%s is %s", (address, range) => {
    expect(classifyAddress(address)).toBe(range);
  });

  test.each(PUBLIC)("%s is public", (address) => {
    expect(classifyAddress(address)).toBeNull();
  });

  test("throws for something that is not an IP address", () => {
    expect(() => classifyAddress("localhost")).toThrow(/Not an IP address/);
  });
});

describe("checkWebhookUrl", () => {
  const refused = (url: string) => {
    try {
      checkWebhookUrl(url, false);
    } catch (error) {
      expect(error).toBeInstanceOf(TargetRefused);
      return (error as Error).message;
    }
    throw new Error(`${url} was accepted`);
  };

  test.each([
    ["http://127.0.0.1/hook", /127\.0\.0\.1 is a loopback address/],
    ["http://[::1]:8080/", /::1 is a loopback address/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
    ["http://10.0.0.1/", /private/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.1/", /127\.0\.0\.1 is a loopback/],
    ["http://127.1/", /127\.0\.0\.1 is a loopback/],
    ["http://[::ffff:127.0.0.1]/", /loopback/],
    ["http://[fd00::5]/", /unique-local/],
    ["https://100.100.100.100/", /CGNAT/],
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
    expect(checkWebhookUrl("https://example.com/hooks?x=1#fragment", false)).toBe("https://example.com/hooks?x=1");
    expect(checkWebhookUrl("http://8.8.8.8:8080/", false)).toBe("http://8.8.8.8:8080/");
    expect(checkWebhookUrl("https://[2606:4700:4700::1111]/", false)).toBe("https://[2606:4700:4700::1111]/");
    expect(checkWebhookUrl("http://localhost:3000/", false)).toBe("http://localhost:3000/");
  });

  test("accepts private addresses when the operator allows them", () => {
    expect(checkWebhookUrl("http://127.0.0.1:4000/hook", true)).toBe("http://127.0.0.1:4000/hook");
    expect(checkWebhookUrl("http://[::1]/", true)).toBe("http://[::1]/");
    // ...but never another scheme or credentials.
    expect(() => checkWebhookUrl("file:///etc/passwd", true)).toThrow(TargetRefused);
    expect(() => checkWebhookUrl("http://a:b@127.0.0.1/", true)).toThrow(TargetRefused);
  });
});
