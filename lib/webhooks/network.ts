import { lookup } from "node:dns/promises";
import { isIP } from "node:net";
import { config } from "../config";

/*
 * Which addresses an outgoing webhook may reach. Only public unicast addresses, unless the operator sets
 * ALLOW_PRIVATE_NETWORK_TARGETS: a URL is checked when it is registered (an IP literal in a refused range is a
 * 400) and again on every attempt and every redirect, after resolving its host name ourselves. Every address the
 * name resolves to must be public (a name with one private address among public ones is refused), and the
 * connection then goes to the address that was checked, never to a second resolution (no DNS rebinding).
 */

/** Why an address is not public: the name of its range. */
export type AddressRange =
  | "unspecified"
  | "loopback"
  | "private"
  | "link-local"
  | "unique-local"
  | "shared (CGNAT)"
  | "multicast"
  | "broadcast"
  | "documentation"
  | "benchmarking"
  | "reserved";

interface Block {
  bytes: number[];
  prefix: number;
  range: AddressRange;
}

function v4Block(cidr: string, range: AddressRange): Block {
  const [address, prefix] = cidr.split("/");
  return { bytes: address!.split(".").map(Number), prefix: Number(prefix), range };
}

/** IPv4 ranges that are not public (IANA special-purpose registry), most specific first. */
const V4_BLOCKS: readonly Block[] = [
  v4Block("255.255.255.255/32", "broadcast"),
  v4Block("0.0.0.0/8", "unspecified"),
  v4Block("10.0.0.0/8", "private"),
  v4Block("100.64.0.0/10", "shared (CGNAT)"),
  v4Block("127.0.0.0/8", "loopback"),
  v4Block("169.254.0.0/16", "link-local"),
  v4Block("172.16.0.0/12", "private"),
  v4Block("192.0.0.0/24", "reserved"),
  v4Block("192.0.2.0/24", "documentation"),
  v4Block("192.88.99.0/24", "reserved"),
  v4Block("192.168.0.0/16", "private"),
  v4Block("198.18.0.0/15", "benchmarking"),
  v4Block("198.51.100.0/24", "documentation"),
  v4Block("203.0.113.0/24", "documentation"),
  v4Block("224.0.0.0/4", "multicast"),
  v4Block("240.0.0.0/4", "reserved"),
];

function matches(bytes: readonly number[], block: Block): boolean {
  let bits = block.prefix;
  for (let index = 0; bits > 0; index++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((bytes[index]! & mask) !== (block.bytes[index]! & mask)) return false;
  }
  return true;
}

function classifyV4(bytes: readonly number[]): AddressRange | null {
  return V4_BLOCKS.find((block) => matches(bytes, block))?.range ?? null;
}

/** The 16 bytes of a valid IPv6 address (a zone index such as `%eth0` is ignored). */
function v6Bytes(address: string): number[] {
  let text = address.split("%")[0]!;
  const tail: number[] = [];
  const dotted = text.match(/^(.*:)(\d+\.\d+\.\d+\.\d+)$/);
  if (dotted) {
    text = `${dotted[1]}0:0`;
    tail.push(...dotted[2]!.split(".").map(Number));
  }
  const [head, rest] = text.split("::") as [string, string | undefined];
  const groups = (part: string | undefined) => (part ? part.split(":").map((group) => parseInt(group, 16)) : []);
  const left = groups(head);
  const right = groups(rest);
  const words = rest === undefined ? left : [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
  const bytes = words.flatMap((word) => [word >> 8, word & 0xff]);
  if (tail.length) bytes.splice(12, 4, ...tail);
  return bytes;
}

const isZero = (bytes: readonly number[], from: number, to: number) => bytes.slice(from, to).every((byte) => byte === 0);

function classifyV6(bytes: readonly number[]): AddressRange | null {
  if (isZero(bytes, 0, 16)) return "unspecified";
  if (isZero(bytes, 0, 15) && bytes[15] === 1) return "loopback";
  // IPv4-mapped (::ffff:a.b.c.d) and the NAT64 well-known prefix (64:ff9b::/96) reach the embedded IPv4 address.
  if (isZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return classifyV4(bytes.slice(12));
  if (bytes[0] === 0x00 && bytes[1] === 0x64 && bytes[2] === 0xff && bytes[3] === 0x9b && isZero(bytes, 4, 12)) {
    return classifyV4(bytes.slice(12));
  }
  // 6to4 (2002::/16) carries an IPv4 address in bytes 2-5.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyV4(bytes.slice(2, 6));
  if (bytes[0] === 0xff) return "multicast";
  if ((bytes[0]! & 0xfe) === 0xfc) return "unique-local";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return "link-local";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return "private"; // site-local, deprecated
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return "documentation";
  // Everything else outside global unicast (2000::/3): IPv4-compatible ::a.b.c.d, discard-only 100::/64...
  if ((bytes[0]! & 0xe0) !== 0x20) return "reserved";
  return null;
}

const TEST = Symbol.for("spolu.webhooks.testNetwork");
type Holder = { [TEST]?: TestNetwork };

/** Stand-ins for tests, honoured only when NODE_ENV is `test`. */
export interface TestNetwork {
  /** A stub DNS resolver replacing the system's. */
  resolve?: (hostname: string) => Promise<string[]>;
  /** Addresses to count as public: a receiver on 127.0.0.1 standing in for a public host. */
  publicAddresses?: readonly string[];
}

/** Tests only (ignored unless NODE_ENV is `test`): a stub resolver and public stand-ins; null removes them. */
export function setTestNetwork(network: TestNetwork | null): void {
  (globalThis as Holder)[TEST] = network ?? undefined;
}

function testNetwork(): TestNetwork | undefined {
  const network = (globalThis as Holder)[TEST];
  return network && config().NODE_ENV === "test" ? network : undefined;
}

/** The range an IP address belongs to when it is not a public unicast address; null when it is public. */
export function classifyAddress(address: string): AddressRange | null {
  const version = isIP(address.split("%")[0]!);
  if (version === 0) throw new Error(`Not an IP address: ${address}`);
  if (testNetwork()?.publicAddresses?.includes(address)) return null;
  return version === 4 ? classifyV4(address.split(".").map(Number)) : classifyV6(v6Bytes(address));
}

/** A target refused: a non-public address, a name that does not resolve, a URL that is not http(s). */
export class TargetRefused extends Error {
  override name = "TargetRefused";
}

const describeRange = (range: AddressRange) => `${/^[aeiu]/.test(range) ? "an" : "a"} ${range} address`;

/** The host of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/**
 * Checks a webhook URL as it is registered; answers its normalised form or throws TargetRefused saying why.
 * http and https only, no user name or password, and (unless private targets are allowed) no IP literal outside
 * public unicast. A host name is only resolved when a delivery is attempted (see `resolveTarget`). The URL parser
 * already turns `http://2130706433`, `http://0x7f.1` and `http://127.1` into 127.0.0.1.
 */
export function checkWebhookUrl(raw: string, allowPrivate = config().ALLOW_PRIVATE_NETWORK_TARGETS): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new TargetRefused("must be an absolute http:// or https:// URL");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new TargetRefused("must use https (or http)");
  if (url.username || url.password) throw new TargetRefused("must not contain a user name or password");
  if (!url.hostname) throw new TargetRefused("must name a host");
  const host = bareHost(url);
  if (isIP(host) && !allowPrivate) {
    const range = classifyAddress(host);
    if (range) throw new TargetRefused(`${host} is ${describeRange(range)}: only public addresses are allowed`);
  }
  url.hash = "";
  return url.href;
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

/**
 * Resolves a host (all its addresses) and checks them: every one must be public unless private targets are
 * allowed. Answers the address to connect to; throws TargetRefused naming the host and the offending address.
 */
export async function resolveTarget(host: string, allowPrivate = config().ALLOW_PRIVATE_NETWORK_TARGETS): Promise<ResolvedTarget> {
  let addresses: string[];
  if (isIP(host)) {
    addresses = [host];
  } else {
    try {
      const stub = testNetwork()?.resolve;
      addresses = stub ? await stub(host) : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
    } catch (error) {
      throw new TargetRefused(`could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`);
    }
    if (addresses.length === 0) throw new TargetRefused(`${host} has no address`);
  }
  if (!allowPrivate) {
    for (const address of addresses) {
      const range = classifyAddress(address);
      if (range) {
        const what = address === host ? `${host} is` : `${host} resolves to ${address},`;
        throw new TargetRefused(`${what} ${describeRange(range)}: only public addresses are allowed`);
      }
    }
  }
  const address = addresses[0]!;
  return { address, family: isIP(address) === 6 ? 6 : 4 };
}
