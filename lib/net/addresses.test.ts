import { describe, expect, test } from "vitest";
import { parseConfig } from "../config";
import {
  checkAddresses,
  classifyAddress,
  hostRefusal,
  isLoopbackHost,
  PUBLIC_ONLY,
  refusedRange,
  TargetRefused,
  targetPolicy,
} from "./addresses";

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
  ["192.0.2.10", "reserved"],
  ["192.88.99.1", "reserved"],
  ["192.168.1.1", "private"],
  ["198.18.0.1", "reserved"],
  ["198.51.100.7", "reserved"],
  ["203.0.113.200", "reserved"],
  ["224.0.0.251", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.254", "reserved"],
  ["255.255.255.255", "broadcast"],
  // IPv4 written the ways inet_aton takes: decimal, octal, hexadecimal, shortened
  ["2130706433", "loopback"],
  ["0177.0.0.1", "loopback"],
  ["0x7f.0.0.1", "loopback"],
  ["0x7f000001", "loopback"],
  ["127.1", "loopback"],
  ["012.0.0.1", "private"],
  ["3232235777", "private"],
  // IPv6
  ["::", "unspecified"],
  ["::1", "loopback"],
  ["0:0:0:0:0:0:0:1", "loopback"],
  ["fe80::1", "link-local"],
  ["fe80::1%eth0", "link-local"],
  ["febf::1", "link-local"],
  ["fec0::1", "site-local"],
  ["fc00::1", "unique-local"],
  ["fd12:3456:789a::1", "unique-local"],
  ["ff02::1", "multicast"],
  ["2001:db8::1", "reserved"],
  ["2001::1", "reserved"],
  ["100::1", "reserved"],
  ["::127.0.0.1", "loopback"], // IPv4-compatible, deprecated: named after what it carries
  ["64:ff9b:1::1", "reserved"],
  // IPv4-mapped, IPv4-translated, NAT64 and 6to4 forms of refused IPv4 addresses
  ["::ffff:127.0.0.1", "loopback"],
  ["::ffff:7f00:1", "loopback"],
  ["::ffff:10.0.0.1", "private"],
  ["::ffff:a9fe:a9fe", "link-local"],
  ["0:0:0:0:0:ffff:c0a8:0101", "private"],
  ["::ffff:0:127.0.0.1", "loopback"],
  ["64:ff9b::127.0.0.1", "loopback"],
  ["64:ff9b::a00:1", "private"],
  ["2002:7f00:1::1", "loopback"],
  ["2002:c0a8:101::", "private"],
  // 6to4 is refused whatever IPv4 address it carries (deprecated, RFC 7526)
  ["2002:808:808::1", "reserved"],
  ["2002::", "unspecified"],
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
  "134744072", // 8.8.8.8 as one decimal number
  "2606:4700:4700::1111",
  "2001:4860:4860::8888",
  "2003::1",
  "::ffff:8.8.8.8",
  "64:ff9b::808:808",
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
    expect(() => classifyAddress("1.2.3.4.5")).toThrow(/Not an IP address/);
  });
});

/** The policy ALLOW_PRIVATE_NETWORK_TARGETS gives a purpose, parsed as the server parses it. */
function policy(setting: string, purpose: "webhooks" | "connectors" | "ai" = "webhooks") {
  return targetPolicy(parseConfig({ ALLOW_PRIVATE_NETWORK_TARGETS: setting }).ALLOW_PRIVATE_NETWORK_TARGETS, purpose);
}

describe("ALLOW_PRIVATE_NETWORK_TARGETS", () => {
  test("false (the default) allows public addresses only; true allows anything", () => {
    expect(refusedRange("10.0.0.1", policy("false"))).toBe("private");
    expect(refusedRange("10.0.0.1", targetPolicy(parseConfig({}).ALLOW_PRIVATE_NETWORK_TARGETS, "webhooks"))).toBe("private");
    expect(refusedRange("10.0.0.1", policy("true"))).toBeNull();
    expect(refusedRange("::1", policy("yes"))).toBeNull();
  });

  test("a purpose listed may reach anything; the others may not", () => {
    expect(refusedRange("127.0.0.1", policy("ai,connectors", "ai"))).toBeNull();
    expect(refusedRange("192.168.0.9", policy("ai,connectors", "connectors"))).toBeNull();
    expect(refusedRange("127.0.0.1", policy("ai,connectors", "webhooks"))).toBe("loopback");
  });

  test("ranges listed are allowed to every purpose, nothing else is", () => {
    const lan = policy("10.0.5.0/24, 127.0.0.1 fd00::/8");
    expect(refusedRange("10.0.5.7", lan)).toBeNull();
    expect(refusedRange("::ffff:10.0.5.7", lan)).toBeNull();
    expect(refusedRange("10.0.6.1", lan)).toBe("private");
    expect(refusedRange("127.0.0.1", lan)).toBeNull();
    expect(refusedRange("127.0.0.2", lan)).toBe("loopback");
    expect(refusedRange("fd00::5", lan)).toBeNull();
    expect(refusedRange("fc00::5", lan)).toBe("unique-local");
    expect(refusedRange("8.8.8.8", lan)).toBeNull();
  });

  test("anything else is refused when the server starts, naming the entry", () => {
    expect(() => parseConfig({ ALLOW_PRIVATE_NETWORK_TARGETS: "10.0.0.0/33" })).toThrow(
      /ALLOW_PRIVATE_NETWORK_TARGETS: .*10\.0\.0\.0\/33 is none of these/,
    );
    expect(() => parseConfig({ ALLOW_PRIVATE_NETWORK_TARGETS: "webhook" })).toThrow(/webhook is none of these/);
    expect(() => parseConfig({ OUTBOUND_DNS_SERVERS: "dns.example.com" })).toThrow(/OUTBOUND_DNS_SERVERS: /);
    expect(parseConfig({ OUTBOUND_DNS_SERVERS: "127.0.0.1:5353, [::1]:53,9.9.9.9" }).OUTBOUND_DNS_SERVERS).toEqual([
      "127.0.0.1:5353",
      "[::1]:53",
      "9.9.9.9",
    ]);
  });

  test("CONNECTOR_ALLOW_PRIVATE_NETWORK still lets the connectors (only) reach anything", () => {
    const settings = parseConfig({ CONNECTOR_ALLOW_PRIVATE_NETWORK: "true" });
    expect(
      targetPolicy(settings.ALLOW_PRIVATE_NETWORK_TARGETS, "connectors", settings.CONNECTOR_ALLOW_PRIVATE_NETWORK).anything,
    ).toBe(true);
    expect(targetPolicy(settings.ALLOW_PRIVATE_NETWORK_TARGETS, "webhooks").anything).toBe(false);
  });
});

describe("hostRefusal", () => {
  const refusal = (url: string) => hostRefusal(new URL(url), PUBLIC_ONLY);

  test.each([
    ["http://127.0.0.1/hook", /^127\.0\.0\.1 is a loopback address: only public addresses are allowed$/],
    ["http://[::1]:8080/", /^::1 is a loopback address/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
    ["http://10.0.0.1/", /private/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.1/", /127\.0\.0\.1 is a loopback/],
    ["http://0177.0.0.1/", /127\.0\.0\.1 is a loopback/],
    ["http://127.1/", /127\.0\.0\.1 is a loopback/],
    ["http://[::ffff:127.0.0.1]/", /loopback/],
    ["http://[fd00::5]/", /unique-local/],
    ["https://100.100.100.100/", /CGNAT/],
    ["https://[2002:808:808::1]/", /2002:808:808::1 is a reserved address/],
    ["https://localhost/push", /^localhost is a loopback host name: only public addresses are allowed$/],
    ["http://LOCALHOST:3000/", /^localhost is a loopback host name/],
    ["http://api.localhost/", /^api\.localhost is a loopback host name/],
    ["http://localhost./", /^localhost\. is a loopback host name/],
  ])("refuses %s", (url, reason) => {
    expect(refusal(url)).toMatch(reason);
  });

  test("accepts public addresses and other names (names are checked when resolved)", () => {
    for (const url of ["https://example.com/hooks", "http://8.8.8.8:8080/", "https://[2606:4700:4700::1111]/"]) {
      expect(refusal(url), url).toBeNull();
    }
    expect(refusal("https://localhost.example.com/")).toBeNull();
  });

  test("accepts what the operator allows, and a localhost name where loopback is allowed", () => {
    expect(hostRefusal(new URL("http://127.0.0.1:4000/hook"), policy("true"))).toBeNull();
    expect(hostRefusal(new URL("https://localhost/"), policy("true"))).toBeNull();
    expect(hostRefusal(new URL("http://localhost:4000/"), policy("127.0.0.0/8"))).toBeNull();
    expect(hostRefusal(new URL("http://localhost:4000/"), policy("10.0.0.0/8"))).toMatch(/loopback host name/);
    expect(hostRefusal(new URL("http://127.0.0.1:4000/"), policy("10.0.0.0/8"))).toMatch(/loopback address/);
  });
});

describe("isLoopbackHost", () => {
  test.each(["localhost", "push.localhost", "127.0.0.1", "127.9.9.9", "::1"])("%s is a loopback host", (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  test.each(["example.com", "10.0.0.1", "::ffff:127.0.0.1", "::2", "localhost.example.com"])("%s is not", (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });
});

describe("checkAddresses", () => {
  const refused = (host: string, addresses: string[], setting = "false") => {
    try {
      checkAddresses(host, addresses, policy(setting));
      return null;
    } catch (error) {
      return error as TargetRefused;
    }
  };

  test("a name whose every address is public passes", () => {
    expect(refused("hooks.example.com", ["2606:4700:4700::1111", "1.1.1.1"])).toBeNull();
  });

  test("one private address among public ones refuses the name, naming it, whatever its place", () => {
    for (const addresses of [
      ["1.1.1.1", "10.1.2.3"],
      ["10.1.2.3", "1.1.1.1"],
      ["2606:4700:4700::1111", "1.1.1.1", "::ffff:10.1.2.3"],
      ["1.1.1.1", "fe80::1"],
    ]) {
      const error = refused("hooks.example.com", addresses);
      const offending = addresses.find((address) => !["1.1.1.1", "2606:4700:4700::1111"].includes(address))!;
      expect(error, addresses.join()).toBeInstanceOf(TargetRefused);
      expect(error!.address).toBe(offending);
      expect(error!.message).toMatch(new RegExp(`^hooks\\.example\\.com resolves to ${offending.replace(/\./g, "\\.")}, an? `));
    }
  });

  test("a name without addresses does not resolve; allowed ranges pass", () => {
    expect(() => checkAddresses("empty.example.com", [], PUBLIC_ONLY)).toThrow("empty.example.com has no address");
    expect(refused("erp.lan", ["10.0.5.7", "1.1.1.1"], "10.0.5.0/24")).toBeNull();
    expect(refused("erp.lan", ["10.0.5.7", "10.0.9.9"], "10.0.5.0/24")?.address).toBe("10.0.9.9");
  });
});
