import { BlockList, isIP } from "node:net";

// Which addresses an outgoing webhook may reach. A merchant types the URL, so
// without this check the app's server could be made to post to itself, to
// the machine's private network or to a cloud metadata service (SSRF). Every
// address a host name resolves to is checked, at registration and again at
// each delivery (the connection then uses the checked address, so a DNS
// answer that changes in between cannot slip through).

const blocked = new BlockList();
const v4: [string, number][] = [
  ["0.0.0.0", 8], // "this network"
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata (169.254.169.254)
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
];
for (const [net, prefix] of v4) blocked.addSubnet(net, prefix, "ipv4");
const v6: [string, number][] = [
  ["::", 128],
  ["::1", 128],
  ["100::", 64], // discard
  ["2001:db8::", 32], // documentation
  ["fc00::", 7], // unique local (also fd00:ec2::254, a metadata address)
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
];
for (const [net, prefix] of v6) blocked.addSubnet(net, prefix, "ipv6");

/**
 * The eight 16-bit groups of an IPv6 address, or null. The WHATWG URL parser
 * (built in) does the parsing: it accepts every textual form, dotted tails
 * included, and writes the address back in one canonical hex form.
 */
function groupsOf(address: string): number[] | null {
  let host: string;
  try {
    host = new URL(`http://[${address}]/`).hostname.slice(1, -1);
  } catch {
    return null;
  }
  const [head, tail] = host.split("::") as [string, string | undefined];
  const hex = (part: string) => (part ? part.split(":").map((g) => parseInt(g, 16)) : []);
  const left = hex(head);
  const right = tail === undefined ? [] : hex(tail);
  const groups = [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 ? groups : null;
}

const v4Of = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;

/**
 * The IPv4 addresses an IPv6 address carries, by the transition forms that
 * route to them: IPv4-compatible ::a.b.c.d, mapped ::ffff:0:0/96, translated
 * ::ffff:0:0:0/96, NAT64 64:ff9b::/96, 6to4 2002::/16 and Teredo 2001::/32
 * (its server and its client, which Teredo stores inverted). `null` when the
 * address is in a range whose embedding is chosen by the local network
 * (NAT64 local use, 64:ff9b:1::/48: nothing outside can say where it goes)
 * or cannot be read (a zone id).
 */
function embeddedV4(address: string): string[] | null {
  const p = groupsOf(address);
  if (!p) return null;
  const zeros = (from: number, to: number) => p.slice(from, to).every((x) => x === 0);
  if (zeros(0, 6)) return [v4Of(p[6]!, p[7]!)];
  if (zeros(0, 5) && p[5] === 0xffff) return [v4Of(p[6]!, p[7]!)];
  if (zeros(0, 4) && p[4] === 0xffff && p[5] === 0) return [v4Of(p[6]!, p[7]!)];
  if (p[0] === 0x64 && p[1] === 0xff9b && zeros(2, 6)) return [v4Of(p[6]!, p[7]!)];
  if (p[0] === 0x64 && p[1] === 0xff9b && p[2] === 1) return null;
  if (p[0] === 0x2002) return [v4Of(p[1]!, p[2]!)];
  if (p[0] === 0x2001 && p[1] === 0) return [v4Of(p[2]!, p[3]!), v4Of(p[6]! ^ 0xffff, p[7]! ^ 0xffff)];
  return [];
}

/** True when an address is private, loopback, link-local, metadata or otherwise not on the public internet. */
export function isPrivateAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) {
    const inner = embeddedV4(address);
    if (inner === null) return true;
    if (inner.some((v4) => blocked.check(v4, "ipv4"))) return true;
    return blocked.check(address, "ipv6");
  }
  // Not an address at all: refuse rather than guess.
  return true;
}
