// The client's address as the web server establishes it, so the sign-in throttle and audit cannot be fooled by a
// client writing its own X-Forwarded-For. The TCP peer is the client unless it is a trusted proxy
// (FLOTILLA_TRUSTED_PROXIES: addresses or CIDR blocks); then X-Forwarded-For is read from the right, skipping
// trusted proxies, and the first untrusted hop is the client. The result travels to the route handlers in
// CLIENT_ADDRESS_HEADER, which the server always overwrites (Next.js route handlers do not see the socket).
import { BlockList, isIP } from 'node:net';

export const CLIENT_ADDRESS_HEADER = 'x-flotilla-client-address';

/** `::ffff:127.0.0.1` → `127.0.0.1`, so IPv4 blocks match IPv4 peers on dual-stack sockets. */
function normalise(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

export function parseTrustedProxies(setting: string | undefined): BlockList {
  const list = new BlockList();
  for (const entry of (setting ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    if (family === 0) throw new Error(`FLOTILLA_TRUSTED_PROXIES: "${entry}" is not an IP address or CIDR block`);
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function isTrusted(trusted: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList,
): string | null {
  if (!peer) return null;
  let client = normalise(peer);
  const hops = (forwardedFor ?? '').split(',').map(normalise).filter(Boolean);
  while (isTrusted(trusted, client) && hops.length > 0) client = hops.pop() ?? client;
  return client;
}
