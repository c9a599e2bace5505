import proxyAddr from '@fastify/proxy-addr';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** The address a socket is counted under: an IPv4 client reached over IPv6 counts as itself. */
const clientKey = (address: string): string => (address.startsWith('::ffff:') ? address.slice(7) : address);

/**
 * Caps the connections one peer address holds open at once; a connection over the cap is
 * closed as soon as it is accepted, before a byte is read. Without it one client opening
 * sockets by the thousand exhausts the process's file handles for everyone.
 *
 * The count is by the socket's peer, the only address known at this point (forwarded
 * headers come later, and may be forged). `exempt` names peers never capped: the proxies
 * in front, whose connections carry many clients; they must do this counting themselves.
 */
export function capConnectionsPerAddress(
  server: Server,
  max: number,
  exempt: (address: string) => boolean = () => false,
): void {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined || exempt(address)) return;
    const key = clientKey(address);
    const count = (open.get(key) ?? 0) + 1;
    if (count > max) {
      socket.destroy();
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left > 0) open.set(key, left);
      else open.delete(key);
    });
  });
}

/**
 * The peers exempt from the cap, from the proxies trusted for forwarded addresses: listed
 * proxies (addresses, CIDRs, `loopback`…) are exempt; a hop count or `true` means every
 * peer is a proxy, so nothing is capped (undefined); with no proxy (or 0 hops) every peer
 * is a client.
 */
export function exemptProxies(trustProxy: boolean | number | string[]): ((address: string) => boolean) | undefined {
  if (trustProxy === false || trustProxy === 0) return () => false;
  if (!Array.isArray(trustProxy)) return undefined;
  const trusted = proxyAddr.compile(trustProxy);
  return (address) => trusted(address, 0);
}
