import dgram from "node:dgram";
import { isIP } from "node:net";
import dnsPacket from "dns-packet";

/*
 * A DNS server on 127.0.0.1 (UDP, RFC 1035 messages through dns-packet) for the tests of the outbound client: point
 * OUTBOUND_DNS_SERVERS at it, and names resolve to what a test says, each answer taken in turn (a name can resolve
 * to one address, then to another: DNS rebinding). Names it does not know are NXDOMAIN.
 */

export interface DnsServer {
  /** `127.0.0.1:<port>`, for OUTBOUND_DNS_SERVERS. */
  address: string;
  /** The answers for a name: each A/AAAA question pair takes the next one; the last one stays. */
  answer(name: string, ...answers: string[][]): void;
  /** The questions asked, as `<type> <name>`. */
  asked: string[];
  close(): Promise<void>;
}

export async function startDnsServer(): Promise<DnsServer> {
  const socket = dgram.createSocket("udp4");
  const table = new Map<string, string[][]>();
  const asked: string[] = [];
  // A and AAAA of one resolution come as two questions: the second takes the same answer as the first.
  const current = new Map<string, { addresses: string[]; served: Set<string> }>();

  const addressesFor = (name: string, type: string): string[] | null => {
    const answers = table.get(name);
    if (!answers) return null;
    let entry = current.get(name);
    if (!entry || entry.served.has(type)) {
      entry = { addresses: answers.length > 1 ? answers.shift()! : answers[0]!, served: new Set() };
      current.set(name, entry);
    }
    entry.served.add(type);
    return entry.addresses;
  };

  socket.on("message", (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase();
    asked.push(`${question.type} ${name}`);
    const addresses = question.type === "A" || question.type === "AAAA" ? addressesFor(name, question.type) : null;
    const family = question.type === "A" ? 4 : 6;
    const answers = (addresses ?? [])
      .filter((address) => isIP(address) === family)
      .map((address) => ({ type: question.type as "A", name: question.name, ttl: 0, class: "IN" as const, data: address }));
    const reply = dnsPacket.encode({
      id: query.id,
      type: "response",
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (addresses ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers,
    });
    socket.send(reply, remote.port, remote.address);
  });

  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    address: `127.0.0.1:${socket.address().port}`,
    asked,
    answer(name, ...answers) {
      table.set(name.toLowerCase(), answers);
      current.delete(name.toLowerCase());
    },
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}
