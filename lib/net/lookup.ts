import { lookup as systemLookup } from "node:dns/promises";
import { Resolver } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { checkAddresses, type TargetPolicy, TargetRefused } from "./addresses";

/*
 * Name resolution for outgoing calls, pinned: the socket's `lookup` resolves the name once, checks every address
 * it got (lib/net/addresses.ts) and hands the socket those addresses only, so the connection goes where the check
 * passed; nothing resolves the name a second time between the check and the connection (no DNS rebinding).
 */

/** Answers every address of a host name. */
export type Resolve = (hostname: string) => Promise<string[]>;

/** The system's resolver (getaddrinfo: /etc/hosts, then DNS), every address in the order it gives them. */
export const systemResolve: Resolve = async (hostname) =>
  (await systemLookup(hostname, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * A resolver asking the given DNS servers (OUTBOUND_DNS_SERVERS) for A and AAAA records; a name with neither is
 * ENOTFOUND. Asks once per family, never twice for one connection.
 */
export function dnsResolve(servers: readonly string[]): Resolve {
  const resolver = new Resolver({ timeout: 3000, tries: 2 });
  resolver.setServers([...servers]);
  const records = (ask: Promise<string[]>) =>
    ask.catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENODATA" || error.code === "ENOTFOUND") return [];
      throw error;
    });
  return async (hostname) => {
    const [v4, v6] = await Promise.all([records(resolver.resolve4(hostname)), records(resolver.resolve6(hostname))]);
    const addresses = [...v4, ...v6];
    if (addresses.length === 0) {
      throw Object.assign(new Error(`queryA ENOTFOUND ${hostname}`), { code: "ENOTFOUND", hostname });
    }
    return addresses;
  };
}

type LookupCallback = Parameters<LookupFunction>[2];

const family = (address: string): 4 | 6 => (isIP(address) === 6 ? 6 : 4);

/**
 * A socket's lookup that resolves the name with `resolve`, refuses it (TargetRefused naming the offending address)
 * unless every address is allowed by the policy, and answers the checked addresses (all of them, or the first). A
 * resolver's error is passed on as it is. IP literals never reach a lookup: check them with `hostRefusal`.
 */
export function checkedLookup(policy: TargetPolicy, resolve: Resolve): LookupFunction {
  return (hostname, options, callback: LookupCallback) => {
    resolve(hostname).then(
      (addresses) => {
        try {
          checkAddresses(hostname, addresses, policy);
        } catch (error) {
          return callback(error as TargetRefused | NodeJS.ErrnoException, "", 0);
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : null;
        const usable = wanted ? addresses.filter((address) => family(address) === wanted) : addresses;
        if (usable.length === 0) {
          return callback(Object.assign(new Error(`${hostname} has no IPv${wanted} address`), { code: "ENOTFOUND" }), "", 0);
        }
        if (options.all)
          callback(
            null,
            usable.map((address) => ({ address, family: family(address) })),
          );
        else callback(null, usable[0]!, family(usable[0]!));
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
