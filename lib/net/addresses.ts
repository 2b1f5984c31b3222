import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import type { OutboundPurpose, PrivateTargets } from "../config";

/*
 * Which addresses an outgoing call may reach (lib/net/client.ts): only public unicast addresses, unless the
 * operator allows more (ALLOW_PRIVATE_NETWORK_TARGETS: everything, a purpose, or address ranges).
 *
 * - Ranges come from ipaddr.js (IANA's special-purpose registries): anything it does not call `unicast` is refused,
 *   and so is IPv6 outside global unicast (2000::/3).
 * - IPv4-mapped (::ffff:a.b.c.d), IPv4-translated (::ffff:0:a.b.c.d) and NAT64 (64:ff9b::/96) addresses count as the
 *   IPv4 address they carry; 6to4 (2002::/16, deprecated by RFC 7526) and Teredo are refused whatever they carry.
 * - Before any resolution (`hostRefusal`): an IP literal outside public unicast, or a `localhost` name, is refused.
 *   The URL parser has already turned `http://2130706433`, `http://0x7f.1` and `http://0177.0.0.1` into 127.0.0.1.
 * - Every address a name resolves to must be allowed (`checkAddresses`): one private address among public ones is
 *   enough to refuse it (lib/net/lookup.ts then connects only to the addresses checked).
 */

/** Why an address is not public: the name of its range. */
export type AddressRange =
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "site-local"
  | "unique-local"
  | "shared (CGNAT)"
  | "multicast"
  | "broadcast"
  | "reserved";

const V4_NAMES: Record<string, AddressRange> = {
  unspecified: "unspecified",
  broadcast: "broadcast",
  multicast: "multicast",
  linkLocal: "link-local",
  loopback: "loopback",
  carrierGradeNat: "shared (CGNAT)",
  private: "private",
  reserved: "reserved",
};

const V6_NAMES: Record<string, AddressRange> = {
  unspecified: "unspecified",
  loopback: "loopback",
  linkLocal: "link-local",
  multicast: "multicast",
  uniqueLocal: "unique-local",
  deprecatedSiteLocal: "site-local",
};

/** The well-known NAT64 prefix 64:ff9b::/96 (RFC 6052) reaches the IPv4 address in its last 32 bits. */
const NAT64 = ipaddr.parseCIDR("64:ff9b::/96");
const GLOBAL_UNICAST = ipaddr.parseCIDR("2000::/3");

function classifyV4(address: ipaddr.IPv4): AddressRange | null {
  const range = address.range();
  if (range === "unicast" || range === "as112" || range === "amt") return null; // anycast services on the internet
  return V4_NAMES[range] ?? "reserved";
}

function embeddedV4(address: ipaddr.IPv6): ipaddr.IPv4 {
  const bytes = address.toByteArray();
  return new ipaddr.IPv4(bytes.slice(12, 16));
}

function classifyV6(address: ipaddr.IPv6): AddressRange | null {
  const range = address.range();
  if (range === "ipv4Mapped" || range === "rfc6145") return classifyV4(embeddedV4(address));
  if (range === "rfc6052") return address.match(NAT64) ? classifyV4(embeddedV4(address)) : "reserved";
  if (range === "6to4") {
    const bytes = address.toByteArray();
    return classifyV4(new ipaddr.IPv4(bytes.slice(2, 6))) ?? "reserved";
  }
  if (range === "unicast") return address.match(GLOBAL_UNICAST) ? null : "reserved";
  return V6_NAMES[range] ?? "reserved";
}

/** An IP address parsed (IPv4 in any form inet_aton takes, IPv6 with or without a zone); throws for anything else. */
function parseAddress(address: string): ipaddr.IPv4 | ipaddr.IPv6 {
  const text = address.split("%")[0]!;
  if (isIP(text) === 0 && !ipaddr.IPv4.isValid(text)) throw new Error(`Not an IP address: ${address}`);
  return ipaddr.parse(text);
}

/** The range an IP address belongs to when it is not a public unicast address; null when it is public. */
export function classifyAddress(address: string): AddressRange | null {
  const parsed = parseAddress(address);
  return parsed.kind() === "ipv4" ? classifyV4(parsed as ipaddr.IPv4) : classifyV6(parsed as ipaddr.IPv6);
}

/** What one purpose may reach, from ALLOW_PRIVATE_NETWORK_TARGETS (and CONNECTOR_ALLOW_PRIVATE_NETWORK). */
export interface TargetPolicy {
  /** Any address is allowed. */
  anything: boolean;
  /** Besides public addresses, these ranges are allowed. */
  ranges: readonly [ipaddr.IPv4 | ipaddr.IPv6, number][];
}

export const PUBLIC_ONLY: TargetPolicy = { anything: false, ranges: [] };

/** The policy of a purpose under the given settings. */
export function targetPolicy(targets: PrivateTargets, purpose: OutboundPurpose, alsoAnything = false): TargetPolicy {
  const anything = alsoAnything || targets.all || targets.purposes.includes(purpose);
  return { anything, ranges: anything ? [] : targets.ranges.map((range) => ipaddr.parseCIDR(range)) };
}

function inRanges(address: ipaddr.IPv4 | ipaddr.IPv6, ranges: TargetPolicy["ranges"]): boolean {
  const forms = [address];
  if (address.kind() === "ipv6" && (address as ipaddr.IPv6).isIPv4MappedAddress()) {
    forms.push((address as ipaddr.IPv6).toIPv4Address());
  }
  return ranges.some(([base, bits]) => forms.some((form) => form.kind() === base.kind() && form.match(base, bits)));
}

/** Why the policy refuses an address (its range), or null when it is allowed. */
export function refusedRange(address: string, policy: TargetPolicy): AddressRange | null {
  if (policy.anything) return null;
  const range = classifyAddress(address);
  return range && !inRanges(parseAddress(address), policy.ranges) ? range : null;
}

/** A target refused: a non-public address (named in `address`), a name that does not resolve or has no address. */
export class TargetRefused extends Error {
  override name = "TargetRefused";

  constructor(
    message: string,
    readonly address?: string,
  ) {
    super(message);
  }
}

export const describeRange = (range: AddressRange) => `${/^[aeiu]/.test(range) ? "an" : "a"} ${range} address`;

/** The host of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** `localhost` and its subdomains, which always name a loopback address (RFC 6761), with or without the final dot. */
function isLoopbackName(host: string): boolean {
  const name = host.replace(/\.$/, "").toLowerCase();
  return name === "localhost" || name.endsWith(".localhost");
}

/** A `localhost` name or a loopback address written out (127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  if (isLoopbackName(host)) return true;
  return isIP(host) !== 0 && classifyAddress(host) === "loopback" && !host.includes(":ffff:");
}

/**
 * Why the host of a URL may not be called, judged without resolving it: an IP address the policy refuses, or a
 * `localhost` name (unless anything is allowed); null when it may. Other names are checked when they are resolved,
 * on every connection (lib/net/lookup.ts).
 */
export function hostRefusal(url: URL, policy: TargetPolicy): string | null {
  if (policy.anything) return null;
  const host = bareHost(url);
  if (isIP(host)) {
    const range = refusedRange(host, policy);
    return range && `${host} is ${describeRange(range)}: only public addresses are allowed`;
  }
  if (isLoopbackName(host)) {
    const loopbackAllowed = inRanges(ipaddr.parse("127.0.0.1"), policy.ranges);
    return loopbackAllowed ? null : `${host} is a loopback host name: only public addresses are allowed`;
  }
  return null;
}

/** Throws TargetRefused when one of the host's addresses is refused by the policy (ENOTFOUND when it has none). */
export function checkAddresses(host: string, addresses: readonly string[], policy: TargetPolicy): void {
  if (addresses.length === 0) throw Object.assign(new Error(`${host} has no address`), { code: "ENOTFOUND" });
  for (const address of addresses) {
    const range = refusedRange(address, policy);
    if (range) {
      const what = address === host ? `${host} is` : `${host} resolves to ${address},`;
      throw new TargetRefused(`${what} ${describeRange(range)}: only public addresses are allowed`, address);
    }
  }
}
