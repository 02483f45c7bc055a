import { BlockList, isIP } from "node:net";

// Special-use and private ranges (RFC 6890 and the IANA special-purpose registries): a fetch to an
// address someone else chose (a Client ID Metadata Document, a webhook endpoint) must never make the
// server talk to its own network.
const blocked = new BlockList();
for (const [net, prefix] of [
  ["0.0.0.0", 8],
  ["10.0.0.0", 8],
  ["100.64.0.0", 10],
  ["127.0.0.0", 8],
  ["169.254.0.0", 16],
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.0.2.0", 24],
  ["192.31.196.0", 24],
  ["192.52.193.0", 24],
  ["192.88.99.0", 24],
  ["192.168.0.0", 16],
  ["192.175.48.0", 24],
  ["198.18.0.0", 15],
  ["198.51.100.0", 24],
  ["203.0.113.0", 24],
  ["224.0.0.0", 4],
  ["240.0.0.0", 4],
] as const) {
  blocked.addSubnet(net, prefix, "ipv4");
}
for (const [net, prefix] of [
  // ::/96 covers :: and ::1 and the deprecated IPv4-compatible addresses (::a.b.c.d, RFC 4291
  // §2.5.5.1), which some stacks still route to the embedded IPv4 address (e.g. ::127.0.0.1).
  ["::", 96],
  ["64:ff9b::", 96],
  ["64:ff9b:1::", 48],
  ["100::", 64],
  ["2001::", 23],
  ["2001:db8::", 32],
  ["2002::", 16],
  ["3fff::", 20],
  ["5f00::", 16],
  ["fc00::", 7],
  ["fe80::", 10],
  ["fec0::", 10],
  ["ff00::", 8],
] as const) {
  blocked.addSubnet(net, prefix, "ipv6");
}

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet("127.0.0.0", 8, "ipv4");
LOOPBACK.addAddress("::1", "ipv6");

function v4Mapped(address: string): string | null {
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : null;
}

/** True for an address a server-side fetch must refuse (private, loopback, link-local, reserved…). */
export function isSpecialUseAddress(address: string): boolean {
  const mapped = v4Mapped(address);
  if (mapped) return isSpecialUseAddress(mapped);
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6") || /^::ffff:/i.test(address);
  return true;
}

export function isLoopbackAddress(address: string): boolean {
  const mapped = v4Mapped(address);
  if (mapped) return isLoopbackAddress(mapped);
  const family = isIP(address);
  return family === 4 ? LOOPBACK.check(address, "ipv4") : family === 6 ? LOOPBACK.check(address, "ipv6") : false;
}
