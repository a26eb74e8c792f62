import dgram from "node:dgram";
import type { AddressInfo } from "node:net";
import dnsPacket from "dns-packet";

// A DNS server on 127.0.0.1 (UDP) that answers TXT questions from a table the
// test fills in, and NXDOMAIN for every other name: the app asks it through
// node's own resolver (DNS_SERVERS), over the real protocol, with no internet.
export interface FakeDns {
  /** "127.0.0.1:port", the value for DNS_SERVERS. */
  address: string;
  /** TXT records by name (lower-case, no trailing dot); each entry is one record. */
  txt: Map<string, string[]>;
  /** Names asked for, in order. */
  asked: string[];
  close(): Promise<void>;
}

export async function startFakeDns(): Promise<FakeDns> {
  const socket = dgram.createSocket("udp4");
  const txt = new Map<string, string[]>();
  const asked: string[] = [];
  socket.on("message", (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    const name = question.name.toLowerCase().replace(/\.$/, "");
    asked.push(name);
    const records = question.type === "TXT" ? txt.get(name) : undefined;
    const reply = dnsPacket.encode({
      id: query.id,
      type: "response",
      // Recursion desired and available, and NXDOMAIN (rcode 3) for names we do not know.
      flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (records ? 0 : 3),
      questions: [question],
      answers: (records ?? []).map((data) => ({ type: "TXT" as const, name: question.name, ttl: 60, data })),
    });
    socket.send(reply, remote.port, remote.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    txt,
    asked,
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
}
