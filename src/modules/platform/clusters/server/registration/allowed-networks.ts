// Where registration may send requests: a management URL given (or discovered) resolves to an address, and only
// addresses in clusters.allowed-networks are dialled, so registering a "cluster" cannot be used to make Flotilla
// call arbitrary hosts (SSRF). Checked by the transport when it connects, on the address it actually dials.
import type { BlockList } from 'node:net';
import { parseAddressList } from '@/base/address-list.ts';
import { stringSetting, type SettingsReader } from '@/modules/kernel/plugin/index.ts';

const KEY = 'clusters.allowed-networks';

export const allowedNetworksSetting = stringSetting({
  key: KEY,
  description:
    'The networks registration may reach brokers in, as addresses and CIDR blocks separated by commas (IPv4 and ' +
    'IPv6). Loopback and the private networks by default; add a public range only if your brokers live there.',
  defaultValue: '127.0.0.0/8, ::1/128, 10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, fc00::/7',
  pattern: /^[\s0-9a-fA-F:./,]*$/,
  patternInWords: 'IP addresses and CIDR blocks separated by commas',
});

export function allowedNetworksOf(settings: SettingsReader): BlockList {
  return parseAddressList(settings.string(allowedNetworksSetting), KEY);
}
