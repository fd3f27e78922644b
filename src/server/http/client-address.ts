// The client's address as the web server establishes it, so the sign-in throttle and audit cannot be fooled by a
// client writing its own X-Forwarded-For. The TCP peer is the client unless it is a trusted proxy
// (FLOTILLA_TRUSTED_PROXIES: addresses or CIDR blocks); then X-Forwarded-For is read from the right, skipping
// trusted proxies, and the first untrusted hop is the client. The result travels to the route handlers in
// CLIENT_ADDRESS_HEADER, which the server always overwrites (Next.js route handlers do not see the socket).
import type { BlockList } from 'node:net';
import { isListed, normaliseAddress, parseAddressList } from '@/base/address-list.ts';

export const CLIENT_ADDRESS_HEADER = 'x-flotilla-client-address';

export function parseTrustedProxies(setting: string | undefined): BlockList {
  return parseAddressList(setting, 'FLOTILLA_TRUSTED_PROXIES');
}

/** Whether the TCP peer is one of the trusted proxies (whose X-Forwarded-For and X-Request-Id are believed). */
export function isTrustedPeer(peer: string | undefined, trusted: BlockList): boolean {
  return peer !== undefined && isListed(trusted, peer);
}

export function clientAddress(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trusted: BlockList,
): string | null {
  if (!peer) return null;
  let client = normaliseAddress(peer);
  const hops = (forwardedFor ?? '').split(',').map(normaliseAddress).filter(Boolean);
  while (isListed(trusted, client) && hops.length > 0) client = hops.pop() ?? client;
  return client;
}
