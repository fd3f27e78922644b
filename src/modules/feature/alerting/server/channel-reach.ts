// Where notification channels may send: a webhook URL or an SMTP host is an operator's input, and Flotilla sits
// inside the network, so a channel could otherwise be pointed at loopback services, the cloud metadata endpoint or
// private hosts (SSRF). Public addresses are reachable; every non-public one only when alerting.allowed-networks
// lists it. A host is resolved and EVERY address it resolves to is checked, at creation, at update and at every
// send; the send then connects to the checked address itself (pinnedLookup), so a DNS answer changed between the
// check and the connection (rebinding) is never dialled.
import dns from 'node:dns/promises';
import { isIP, type BlockList, type LookupFunction } from 'node:net';
import { isListed, parseAddressList } from '@/base/address-list.ts';
import { stringSetting, type SettingDeclaration, type SettingsReader } from '@/modules/kernel/plugin/index.ts';

const CHANNEL_NETWORKS_KEY = 'alerting.allowed-networks';

/**
 * Refused unless listed: unspecified, loopback, private (RFC 1918, unique local), shared (CGNAT 100.64/10, where
 * some clouds keep their metadata too), link-local (169.254.169.254), Azure's platform address, documentation,
 * benchmarking, multicast and reserved ranges, and the IPv6 forms that carry an IPv4 address (mapped, translated,
 * compatible, NAT64, 6to4, Teredo). fd00:ec2::254 (AWS metadata over IPv6) is inside fc00::/7. IPv4-mapped
 * addresses (::ffff:a.b.c.d) are checked by node's BlockList as their IPv4 address, against the IPv4 blocks.
 */
const NON_PUBLIC_NETWORKS = [
  '0.0.0.0/8, 10.0.0.0/8, 100.64.0.0/10, 127.0.0.0/8, 169.254.0.0/16, 172.16.0.0/12, 192.0.0.0/24, 192.0.2.0/24',
  '192.88.99.0/24, 192.168.0.0/16, 198.18.0.0/15, 198.51.100.0/24, 203.0.113.0/24, 224.0.0.0/4, 240.0.0.0/4',
  '168.63.129.16/32',
  '::/96, ::ffff:0:0:0/96, 64:ff9b::/96, 64:ff9b:1::/48, 100::/64, 2001::/32, 2001:db8::/32',
  '2002::/16, fc00::/7, fe80::/10, fec0::/10, ff00::/8',
].join(', ');

const nonPublic = parseAddressList(NON_PUBLIC_NETWORKS, 'NON_PUBLIC_NETWORKS');

const parses = (value: unknown) => {
  try {
    parseAddressList(String(value), CHANNEL_NETWORKS_KEY);
    return true;
  } catch {
    return false;
  }
};

const declared = stringSetting({
  key: CHANNEL_NETWORKS_KEY,
  description:
    'The non-public networks notification channels (webhooks, Slack, SMTP servers) may reach, as addresses and ' +
    'CIDR blocks separated by commas. Public addresses are always reachable; loopback, private, link-local, cloud ' +
    'metadata and the other special ranges only when listed here. Empty by default.',
  defaultValue: '',
  pattern: /^[\s0-9a-fA-F:./,]*$/,
  patternInWords: 'IP addresses and CIDR blocks separated by commas',
});

export const channelNetworksSetting: SettingDeclaration<'string'> = {
  ...declared,
  isValid: (value) => declared.isValid(value) && parses(value),
};

export interface ChannelReach {
  /** Whether a channel may connect to this address (IPv4 or IPv6, `::ffff:` forms as their IPv4 address). */
  readonly allows: (address: string) => boolean;
}

/** The reach the settings give now; a value that does not parse lists nothing (fails closed). */
export function channelReachOf(settings: SettingsReader): ChannelReach {
  let listed: BlockList | undefined;
  try {
    listed = parseAddressList(settings.string(channelNetworksSetting), CHANNEL_NETWORKS_KEY);
  } catch {
    listed = undefined;
  }
  return {
    allows: (address) =>
      isIP(address) !== 0 && ((listed !== undefined && isListed(listed, address)) || !isListed(nonPublic, address)),
  };
}

/** Why a channel may not send where it points: said as is to the operator (it names no remote answer). */
export class ReachRefused extends Error {}

export interface CheckedAddress {
  readonly address: string;
  readonly family: 4 | 6;
}

/** The host of a URL or an SMTP server, without IPv6 brackets or a trailing root dot. */
const bare = (host: string) => host.replace(/^\[|\]$/g, '');

/**
 * Every address `host` resolves to, each allowed; throws ReachRefused naming the first that is not (or when the name
 * does not resolve). An IP literal is its own one address.
 */
export async function resolveReachable(reach: ChannelReach, host: string): Promise<readonly CheckedAddress[]> {
  const name = bare(host);
  let addresses: CheckedAddress[];
  if (isIP(name) !== 0) {
    addresses = [{ address: name, family: isIP(name) as 4 | 6 }];
  } else {
    try {
      addresses = (await dns.lookup(name, { all: true, verbatim: true })).map((entry) => ({
        address: entry.address,
        family: entry.family === 6 ? 6 : 4,
      }));
    } catch (error) {
      const code = (error as { code?: unknown }).code;
      throw new ReachRefused(`${name} does not resolve${typeof code === 'string' ? ` (${code})` : ''}`);
    }
  }
  if (addresses.length === 0) throw new ReachRefused(`${name} does not resolve`);
  const outside = addresses.find((entry) => !reach.allows(entry.address));
  if (outside) {
    const said = outside.address === name ? name : `${name} resolves to ${outside.address}, which`;
    throw new ReachRefused(`${said} is not a public address nor in ${CHANNEL_NETWORKS_KEY}`);
  }
  return addresses;
}

/** A socket lookup that answers only the addresses already checked, whatever name it is asked (no second DNS). */
export function pinnedLookup(addresses: readonly CheckedAddress[]): LookupFunction {
  return (hostname, options, callback) => {
    const wanted = addresses.filter((entry) => !options.family || entry.family === options.family);
    const first = wanted[0];
    if (!first) {
      callback(
        Object.assign(new Error(`${hostname} has no checked IPv${options.family} address`), { code: 'ENOTFOUND' }),
        '',
        0,
      );
    } else if (options.all) {
      callback(
        null,
        wanted.map((entry) => ({ address: entry.address, family: entry.family })),
      );
    } else {
      callback(null, first.address, first.family);
    }
  };
}
