import ipaddr from 'ipaddr.js';

/** Loopback only: the machine itself (the console, an SSH tunnel). */
export const DEFAULT_TRUSTED_NETWORKS = ['127.0.0.1/32', '::1/128'];

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** An address as parsed, with `::ffff:1.2.3.4` (IPv4 through an IPv6 socket) read as the IPv4 it carries. */
function parse(ip: string | null | undefined): Address | undefined {
  if (!ip || !ipaddr.isValid(ip)) return undefined;
  const address = ipaddr.parse(ip);
  return address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress()
    ? (address as ipaddr.IPv6).toIPv4Address()
    : address;
}

/** Client addresses an administrator signs in from (TRUSTED_NETWORKS), matched by CIDR. */
export class TrustedNetworks {
  private readonly ranges: [Address, number][];

  /** Throws on a malformed entry, so a typo stops the start instead of trusting nobody (or everybody). */
  constructor(cidrs: readonly string[]) {
    this.ranges = cidrs.map((cidr) => {
      try {
        return cidr.includes('/')
          ? ipaddr.parseCIDR(cidr)
          : ipaddr.parseCIDR(`${cidr}/${cidr.includes(':') ? 128 : 32}`);
      } catch {
        throw new Error(`TRUSTED_NETWORKS: "${cidr}" is not an address or CIDR`);
      }
    });
  }

  has(ip: string | null | undefined): boolean {
    const address = parse(ip);
    return (
      address !== undefined &&
      this.ranges.some(([net, bits]) => net.kind() === address.kind() && address.match(net, bits))
    );
  }
}

/**
 * The key a client address is counted under for sign-in failures: an IPv4 address as it
 * is, an IPv6 address by its /64 network, since one subscriber gets a whole /64 and could
 * otherwise change address on every try.
 */
export function clientKey(ip: string | null | undefined): string {
  const address = parse(ip);
  if (!address) return ip ? ip.slice(0, 64) : 'unknown';
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((p) => p.toString(16));
  return `${parts.join(':')}::/64`;
}
