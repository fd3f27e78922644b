// Lists of addresses and CIDR blocks, IPv4 and IPv6, as settings and the environment write them
// ("127.0.0.1, 10.0.0.0/8, ::1"): the trusted proxies of the web server, the networks brokers may be registered in.
import { BlockList, isIP } from 'node:net';

/** `::ffff:127.0.0.1` → `127.0.0.1`, so IPv4 blocks match IPv4 peers on dual-stack sockets. */
export function normaliseAddress(address: string): string {
  const trimmed = address.trim();
  return trimmed.toLowerCase().startsWith('::ffff:') && isIP(trimmed.slice(7)) === 4 ? trimmed.slice(7) : trimmed;
}

/** Throws naming the first entry that is neither an address nor a CIDR block. */
export function parseAddressList(text: string | undefined, what: string): BlockList {
  const list = new BlockList();
  for (const entry of (text ?? '')
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean)) {
    const [address = '', prefix] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? undefined : Number(prefix);
    const maxBits = family === 4 ? 32 : 128;
    if (family === 0 || (bits !== undefined && (!Number.isInteger(bits) || bits < 0 || bits > maxBits))) {
      throw new Error(`${what}: "${entry}" is not an IP address or CIDR block`);
    }
    const type = family === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, bits, type);
  }
  return list;
}

export function isListed(list: BlockList, address: string): boolean {
  const normalised = normaliseAddress(address);
  const family = isIP(normalised);
  return family !== 0 && list.check(normalised, family === 4 ? 'ipv4' : 'ipv6');
}
