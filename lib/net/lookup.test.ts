import type { LookupAddress } from "node:dns";
import type { LookupFunction } from "node:net";
import { describe, expect, test } from "vitest";
import { PUBLIC_ONLY, TargetRefused } from "./addresses";
import { checkedLookup, systemResolve, type Resolve } from "./lookup";

/** Calls a lookup as a socket does; answers the addresses it gave, or its error. */
function callLookup(lookup: LookupFunction, hostname: string, options: { all: boolean; family?: number }) {
  return new Promise<string | LookupAddress[]>((resolve, reject) => {
    lookup(hostname, options, (error, address) => (error ? reject(error) : resolve(address)));
  });
}

/** A resolver answering from a table, counting what it was asked. */
function resolver(table: Record<string, string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  return Object.assign(
    async (host: string) => {
      asked.push(host);
      const addresses = table[host];
      if (!addresses) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
      return addresses;
    },
    { asked },
  );
}

describe("checkedLookup", () => {
  test("answers every checked address (or the first, or those of the family asked), resolving once per call", async () => {
    const resolve = resolver({ "push.example.com": ["2606:4700:4700::1111", "1.1.1.1"] });
    const lookup = checkedLookup(PUBLIC_ONLY, resolve);
    expect(await callLookup(lookup, "push.example.com", { all: true })).toEqual([
      { address: "2606:4700:4700::1111", family: 6 },
      { address: "1.1.1.1", family: 4 },
    ]);
    expect(await callLookup(lookup, "push.example.com", { all: false })).toBe("2606:4700:4700::1111");
    expect(await callLookup(lookup, "push.example.com", { all: false, family: 4 })).toBe("1.1.1.1");
    expect(resolve.asked).toEqual(["push.example.com", "push.example.com", "push.example.com"]);
  });

  test("refuses a name with one private address among public ones; the socket gets no address", async () => {
    const resolve = resolver({ "inside.example.com": ["1.1.1.1", "::ffff:192.168.0.1"] });
    const refused = await callLookup(checkedLookup(PUBLIC_ONLY, resolve), "inside.example.com", { all: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TargetRefused);
    expect(refused).toMatchObject({ address: "::ffff:192.168.0.1", message: expect.stringMatching(/a private address/) });
    const anything = checkedLookup({ anything: true, ranges: [] }, resolve);
    expect(await callLookup(anything, "inside.example.com", { all: true })).toHaveLength(2);
  });

  test("passes a resolver's error on as it is", async () => {
    const failed = await callLookup(checkedLookup(PUBLIC_ONLY, resolver({})), "nowhere.example.com", { all: true }).catch(
      (error: unknown) => error,
    );
    expect(failed).not.toBeInstanceOf(TargetRefused);
    expect(failed).toMatchObject({ code: "ENOTFOUND" });
  });

  test("with the system's resolver, localhost is refused as loopback", async () => {
    const refused = await callLookup(checkedLookup(PUBLIC_ONLY, systemResolve), "localhost", { all: true }).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(TargetRefused);
    expect((refused as Error).message).toMatch(/^localhost resolves to (127\.0\.0\.1|::1), a loopback address/);
  });
});
