// Where channels may send, decided on the addresses a host resolves to: a corpus of the usual SSRF spellings of
// loopback, metadata and private addresses, each refused by default and each naming the setting that would allow it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import {
  channelNetworksSetting,
  channelReachOf,
  pinnedLookup,
  resolveReachable,
  type ChannelReach,
} from './channel-reach.ts';

const reachWith = (value: string): ChannelReach => channelReachOf({ string: () => value } as never);
const byDefault = reachWith('');
const hostOf = (url: string) => new URL(url).hostname;

/** URLs a hostile operator could give a webhook: every one lands on a loopback, metadata or private address. */
const HOSTILE_URLS = [
  'http://127.0.0.1/',
  'http://2130706433/',
  'http://017700000001/',
  'http://0x7f.1/',
  'http://0x7f000001/',
  'http://127.1/',
  'http://127.0.0.1.:8161/',
  'http://good@127.0.0.1/',
  'http://good.example:pass@127.0.0.1:80/',
  'http://127.0.0.1#@good.example/',
  'http://localhost/',
  'http://localhost./',
  'http://LOCALHOST:8080/',
  'http://0/',
  'http://0.0.0.0/',
  'http://[::]/',
  'http://[::1]/',
  'http://[0:0:0:0:0:0:0:1]/',
  'http://[::ffff:127.0.0.1]/',
  'http://[::ffff:7f00:1]/',
  'http://[::ffff:0:7f00:1]/',
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::127.0.0.1]/',
  'http://[2002:7f00:1::]/',
  'http://169.254.169.254/latest/meta-data/',
  'http://[::ffff:169.254.169.254]/',
  'http://[fd00:ec2::254]/',
  'http://100.100.100.200/',
  'http://168.63.129.16/',
  'http://10.0.0.1/',
  'http://172.16.5.4/',
  'http://192.168.1.1/',
  'http://[::ffff:192.168.1.1]/',
  'http://[fc00::1]/',
  'http://[fe80::1]/',
  'http://100.64.0.1/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
];

describe('the reach of notification channels', () => {
  it.each(HOSTILE_URLS)('refuses %s by default, naming the setting', async (url) => {
    await expect(resolveReachable(byDefault, hostOf(url))).rejects.toThrow(
      /not a public address nor in alerting\.allowed-networks|does not resolve/,
    );
  });

  it('reaches public addresses by default', async () => {
    for (const address of ['93.184.215.14', '8.8.8.8', '[2606:4700:4700::1111]']) {
      await expect(resolveReachable(byDefault, address)).resolves.toHaveLength(1);
    }
  });

  it('reaches exactly what the setting lists: 127.0.0.1 opens neither ::1 nor another loopback address', async () => {
    const loopback = reachWith('127.0.0.1');
    expect(await resolveReachable(loopback, hostOf('http://2130706433/'))).toEqual([
      { address: '127.0.0.1', family: 4 },
    ]);
    await expect(resolveReachable(loopback, '[::ffff:7f00:1]')).resolves.toHaveLength(1);
    await expect(resolveReachable(loopback, '[::1]')).rejects.toThrow(/alerting\.allowed-networks/);
    await expect(resolveReachable(loopback, '127.0.0.2')).rejects.toThrow(/alerting\.allowed-networks/);
    await expect(resolveReachable(loopback, '169.254.169.254')).rejects.toThrow(/alerting\.allowed-networks/);
    await expect(resolveReachable(reachWith('10.0.0.0/8, fd00::/8'), '[fd00:ec2::254]')).resolves.toHaveLength(1);
  });

  it('checks every address a name resolves to', async () => {
    // localhost resolves to 127.0.0.1 (and ::1 where the hosts file says so): one address outside refuses the name.
    const named = await resolveReachable(reachWith('127.0.0.0/8, ::1'), 'localhost');
    expect(named.length).toBeGreaterThan(0);
    await expect(resolveReachable(reachWith('192.0.2.0/24'), 'localhost')).rejects.toThrow(
      /localhost resolves to .*, which is not a public address/,
    );
  });

  it('connects to the address checked, never asking DNS again (a rebinding answer is never dialled)', async () => {
    const server = http.createServer((_request, response) => response.writeHead(204).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      // .invalid never resolves (RFC 6761): the request can only reach the listener through the pinned address.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const request = http.request(
          `http://rebinding.invalid:${port}/`,
          { lookup: pinnedLookup([{ address: '127.0.0.1', family: 4 }]), agent: false },
          (response) => {
            response.resume();
            resolve(response.statusCode);
          },
        );
        request.on('error', reject);
        request.end();
      });
      expect(status).toBe(204);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('refuses a setting value that is not a list of addresses and CIDR blocks', () => {
    for (const good of ['', '127.0.0.1', '10.0.0.0/8, ::1/128, fc00::/7']) {
      expect(channelNetworksSetting.isValid(good), good).toBe(true);
    }
    for (const bad of ['localhost', '10.0.0.0/33', '999.1.1.1', '::1/129', 'every']) {
      expect(channelNetworksSetting.isValid(bad), bad).toBe(false);
    }
  });
});
