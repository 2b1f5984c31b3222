import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import {
  classifyAddress,
  guardedLookup,
  hostRefusal,
  isLoopbackHost,
  pinnedLookup,
  resolveTarget,
  setTestNetwork,
  TargetRefused,
} from "./outbound";

afterEach(() => setTestNetwork(null));

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
  ["192.88.99.1", "reserved"],
  ["192.168.1.1", "private"],
  ["198.18.0.1", "benchmarking"],
  ["198.51.100.7", "documentation"],
  ["203.0.113.200", "documentation"],
  ["224.0.0.251", "multicast"],
  ["239.255.255.250", "multicast"],
  ["240.0.0.1", "reserved"],
  ["255.255.255.254", "reserved"],
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
  ["64:ff9b:1::1", "reserved"],
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
  });

  test("test stand-ins count as public, in tests only", () => {
    setTestNetwork({ publicAddresses: ["127.0.0.1"] });
    expect(classifyAddress("127.0.0.1")).toBeNull();
    expect(classifyAddress("127.0.0.2")).toBe("loopback");
  });
});

describe("hostRefusal", () => {
  const refusal = (url: string) => hostRefusal(new URL(url), false);

  test.each([
    ["http://127.0.0.1/hook", /^127\.0\.0\.1 is a loopback address: only public addresses are allowed$/],
    ["http://[::1]:8080/", /^::1 is a loopback address/],
    ["http://0.0.0.0/", /unspecified/],
    ["http://169.254.169.254/latest/meta-data", /link-local/],
    ["http://10.0.0.1/", /private/],
    ["http://2130706433/", /127\.0\.0\.1 is a loopback/],
    ["http://0x7f.1/", /127\.0\.0\.1 is a loopback/],
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

  test("accepts anything when private targets are allowed", () => {
    expect(hostRefusal(new URL("http://127.0.0.1:4000/hook"), true)).toBeNull();
    expect(hostRefusal(new URL("https://localhost/"), true)).toBeNull();
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

describe("resolveTarget", () => {
  test("answers the first address of a name whose addresses are all public", async () => {
    setTestNetwork({ resolve: async () => ["2606:4700:4700::1111", "1.1.1.1"] });
    expect(await resolveTarget("hooks.example.com", false)).toEqual({ address: "2606:4700:4700::1111", family: 6 });
  });

  test("refuses a name with any non-public address, naming it", async () => {
    setTestNetwork({ resolve: async () => ["1.1.1.1", "10.1.2.3"] });
    const refused = await resolveTarget("hooks.example.com", false).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TargetRefused);
    expect(refused).toMatchObject({
      message: "hooks.example.com resolves to 10.1.2.3, a private address: only public addresses are allowed",
      address: "10.1.2.3",
    });
  });

  test("refuses a literal address, a name that does not resolve and one without addresses", async () => {
    await expect(resolveTarget("169.254.169.254", false)).rejects.toThrow(
      "169.254.169.254 is a link-local address: only public addresses are allowed",
    );
    setTestNetwork({
      resolve: async (host) => {
        if (host === "empty.example.com") return [];
        throw new Error(`getaddrinfo ENOTFOUND ${host}`);
      },
    });
    await expect(resolveTarget("nowhere.example.com", false)).rejects.toThrow(
      "could not resolve nowhere.example.com: getaddrinfo ENOTFOUND nowhere.example.com",
    );
    await expect(resolveTarget("empty.example.com", false)).rejects.toThrow("empty.example.com has no address");
  });

  test("allows private addresses when told to", async () => {
    setTestNetwork({ resolve: async () => ["127.0.0.1"] });
    expect(await resolveTarget("hooks.example.com", true)).toEqual({ address: "127.0.0.1", family: 4 });
  });
});

/** Calls a lookup as a socket does; answers the addresses it gave, or its error. */
function callLookup(lookup: LookupFunction, hostname: string, all: boolean): Promise<string | LookupAddress[]> {
  return new Promise((resolve, reject) => {
    lookup(hostname, { all }, (error, address) => (error ? reject(error) : resolve(address)));
  });
}

describe("pinnedLookup and guardedLookup", () => {
  test("a pinned lookup answers the checked address, never resolving again", async () => {
    const lookup = pinnedLookup({ address: "1.1.1.1", family: 4 });
    expect(await callLookup(lookup, "hooks.example.com", false)).toBe("1.1.1.1");
    expect(await callLookup(lookup, "hooks.example.com", true)).toEqual([{ address: "1.1.1.1", family: 4 }]);
  });

  test("a guarded lookup answers every checked address, or the first", async () => {
    const asked: string[] = [];
    setTestNetwork({
      resolve: async (host) => {
        asked.push(host);
        return ["2606:4700:4700::1111", "1.1.1.1"];
      },
    });
    const lookup = guardedLookup(false);
    expect(await callLookup(lookup, "push.example.com", true)).toEqual([
      { address: "2606:4700:4700::1111", family: 6 },
      { address: "1.1.1.1", family: 4 },
    ]);
    expect(await callLookup(lookup, "push.example.com", false)).toBe("2606:4700:4700::1111");
    expect(asked).toEqual(["push.example.com", "push.example.com"]);
  });

  test("a guarded lookup refuses a name with a non-public address and passes a resolver's error on", async () => {
    setTestNetwork({
      resolve: async (host) => {
        if (host === "inside.example.com") return ["1.1.1.1", "::ffff:192.168.0.1"];
        throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      },
    });
    const refused = await callLookup(guardedLookup(false), "inside.example.com", true).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TargetRefused);
    expect(refused).toMatchObject({ address: "::ffff:192.168.0.1", message: expect.stringMatching(/a private address/) });
    expect(await callLookup(guardedLookup(true), "inside.example.com", true)).toHaveLength(2);

    const failed = await callLookup(guardedLookup(false), "nowhere.example.com", true).catch((error: unknown) => error);
    expect(failed).not.toBeInstanceOf(TargetRefused);
    expect(failed).toMatchObject({ code: "ENOTFOUND" });
  });

  test("a guarded lookup resolves with the system's resolver outside the stub", async () => {
    const refused = await callLookup(guardedLookup(false), "localhost", true).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TargetRefused);
    expect((refused as Error).message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });
});
