import { lookup } from "node:dns/promises";
import { isIP, type LookupFunction } from "node:net";
import { config } from "../config";

/*
 * Which addresses an outgoing call to a URL someone gave us may reach (webhook endpoints, push services, later the
 * connectors): only public unicast addresses, unless the operator sets ALLOW_PRIVATE_NETWORK_TARGETS (a caller may
 * pass its own `allowPrivate`). Each module keeps its own rules on top (schemes, credentials, redirects).
 *
 * - Before any resolution (`hostRefusal`): an IP literal outside public unicast, or a `localhost` name, is refused.
 *   The URL parser already turns `http://2130706433`, `http://0x7f.1` and `http://127.1` into 127.0.0.1.
 * - When connecting (`resolveTarget` then `pinnedLookup`, or `guardedLookup` as a socket's lookup): we resolve the
 *   host ourselves and every address it has must be public (a name with one private address among public ones is
 *   refused); the connection then goes to an address that was checked, never to a second resolution (no DNS
 *   rebinding).
 * - IPv4-mapped (::ffff:a.b.c.d), NAT64 (64:ff9b::/96) and 6to4 (2002::/16) addresses count as the IPv4 address
 *   they carry; 6to4 is refused in any case (deprecated, RFC 7526).
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
  // 6to4 (2002::/16) carries an IPv4 address in bytes 2-5: named after it when that one is special, refused anyway.
  if (bytes[0] === 0x20 && bytes[1] === 0x02) return classifyV4(bytes.slice(2, 6)) ?? "reserved";
  if (bytes[0] === 0xff) return "multicast";
  if ((bytes[0]! & 0xfe) === 0xfc) return "unique-local";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0x80) return "link-local";
  if (bytes[0] === 0xfe && (bytes[1]! & 0xc0) === 0xc0) return "private"; // site-local, deprecated
  if (bytes[0] === 0x20 && bytes[1] === 0x01 && bytes[2] === 0x0d && bytes[3] === 0xb8) return "documentation";
  // Everything else outside global unicast (2000::/3): IPv4-compatible ::a.b.c.d, discard-only 100::/64...
  if ((bytes[0]! & 0xe0) !== 0x20) return "reserved";
  return null;
}

/** The range of an IP address as the registry has it, without the test stand-ins. */
function rangeOf(address: string): AddressRange | null {
  const version = isIP(address.split("%")[0]!);
  if (version === 0) throw new Error(`Not an IP address: ${address}`);
  return version === 4 ? classifyV4(address.split(".").map(Number)) : classifyV6(v6Bytes(address));
}

const TEST = Symbol.for("spolu.net.testNetwork");
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
  const range = rangeOf(address);
  return range && testNetwork()?.publicAddresses?.includes(address) ? null : range;
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

const describeRange = (range: AddressRange) => `${/^[aeiu]/.test(range) ? "an" : "a"} ${range} address`;

/** The host of a URL without IPv6 brackets. */
export function bareHost(url: URL): string {
  return url.hostname.replace(/^\[(.*)\]$/, "$1");
}

/** `localhost` and its subdomains, which always name a loopback address (RFC 6761), with or without the final dot. */
function isLoopbackName(host: string): boolean {
  const name = host.replace(/\.$/, "");
  return name === "localhost" || name.endsWith(".localhost");
}

/** A `localhost` name or a loopback address written out (127.0.0.0/8, ::1). */
export function isLoopbackHost(host: string): boolean {
  if (isLoopbackName(host)) return true;
  const family = isIP(host);
  return family === 4 ? host.startsWith("127.") : family === 6 && host === "::1";
}

/**
 * Why the host of a URL may not be called, judged without resolving it: an IP address outside public unicast or a
 * `localhost` name; null when it may (and always when private targets are allowed). Other names are checked when
 * they are resolved, on every connection (`resolveTarget`, `guardedLookup`).
 */
export function hostRefusal(url: URL, allowPrivate = config().ALLOW_PRIVATE_NETWORK_TARGETS): string | null {
  if (allowPrivate) return null;
  const host = bareHost(url);
  if (isLoopbackName(host)) return `${host} is a loopback host name: only public addresses are allowed`;
  const range = isIP(host) ? classifyAddress(host) : null;
  return range && `${host} is ${describeRange(range)}: only public addresses are allowed`;
}

export interface ResolvedTarget {
  address: string;
  family: 4 | 6;
}

const toTarget = (address: string): ResolvedTarget => ({ address, family: isIP(address) === 6 ? 6 : 4 });

/** Every address of a host: the host itself when it is an IP address, else all the resolver answers. */
async function addressesOf(host: string): Promise<string[]> {
  if (isIP(host)) return [host];
  const stub = testNetwork()?.resolve;
  return stub ? stub(host) : (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);
}

/** Throws TargetRefused when the host has no address or (unless private targets are allowed) one is not public. */
function checkAddresses(host: string, addresses: readonly string[], allowPrivate: boolean): void {
  if (addresses.length === 0) throw new TargetRefused(`${host} has no address`);
  if (allowPrivate) return;
  for (const address of addresses) {
    const range = classifyAddress(address);
    if (range) {
      const what = address === host ? `${host} is` : `${host} resolves to ${address},`;
      throw new TargetRefused(`${what} ${describeRange(range)}: only public addresses are allowed`, address);
    }
  }
}

/**
 * Resolves a host (all its addresses) and checks them: every one must be public unless private targets are
 * allowed. Answers the address to connect to (with `pinnedLookup`); throws TargetRefused naming the host and the
 * offending address, or saying why the name did not resolve.
 */
export async function resolveTarget(
  host: string,
  allowPrivate = config().ALLOW_PRIVATE_NETWORK_TARGETS,
): Promise<ResolvedTarget> {
  let addresses: string[];
  try {
    addresses = await addressesOf(host);
  } catch (error) {
    throw new TargetRefused(`could not resolve ${host}: ${error instanceof Error ? error.message : String(error)}`);
  }
  checkAddresses(host, addresses, allowPrivate);
  return toTarget(addresses[0]!);
}

type LookupCallback = Parameters<LookupFunction>[2];

function answer(targets: readonly ResolvedTarget[], all: boolean | undefined, callback: LookupCallback): void {
  if (all) callback(null, [...targets]);
  else callback(null, targets[0]!.address, targets[0]!.family);
}

/** A socket's lookup answering the address `resolveTarget` checked, instead of resolving the name again. */
export function pinnedLookup(target: ResolvedTarget): LookupFunction {
  return (_hostname, options, callback) => answer([target], options.all, callback);
}

/**
 * A socket's lookup that resolves the name itself and answers the checked addresses (all of them, or the first),
 * so the connection goes only where the check passed. Refuses with TargetRefused (`address` naming the offending
 * one); a resolver's error is passed on as it is. IP literals never reach a lookup: check them with `hostRefusal`.
 */
export function guardedLookup(allowPrivate = config().ALLOW_PRIVATE_NETWORK_TARGETS): LookupFunction {
  return (hostname, options, callback) => {
    addressesOf(hostname).then(
      (addresses) => {
        try {
          checkAddresses(hostname, addresses, allowPrivate);
        } catch (error) {
          return callback(error as TargetRefused, "", 0);
        }
        answer(addresses.map(toTarget), options.all, callback);
      },
      (error: NodeJS.ErrnoException) => callback(error, "", 0),
    );
  };
}
