// The broker's MBean name is cached per management URL for the process. When another broker answers at that URL later
// (rebuilt under a new name, or a port used before by another broker), the call on the cached name fails once and the
// next one looks the name up again. Two real brokers of the pool, reached through one local TCP hop whose target the
// test moves from the first to the second.
import net from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { leaseCluster } from '@test/artemis/lease.ts';
import { readBrokerState } from './broker-operations.ts';
import { ManagementClient } from './management-client.ts';

const lease = leaseCluster();
const sockets = new Set<net.Socket>();
let targetPort = 0;
const hop = net.createServer((inbound) => {
  const outbound = net.connect(targetPort, '127.0.0.1');
  for (const socket of [inbound, outbound]) {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
  }
  inbound.pipe(outbound).pipe(inbound);
});
const clients: ManagementClient[] = [];
const clientOf = (url: string, node: { user: string; password: string }) => {
  const created = new ManagementClient({ url, user: node.user, password: node.password });
  clients.push(created);
  return created;
};

afterAll(async () => {
  for (const created of clients) created.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => hop.close(resolve));
  await lease.stop();
});

describe('the broker name cached per management URL', () => {
  it('is looked up again when another broker answers at the URL', async () => {
    const [first, second] = lease.nodes;
    if (!first || !second) throw new Error('the pool has no two-node cluster');
    expect(first.name).not.toBe(second.name);
    if (!hop.listening) await new Promise<void>((resolve) => hop.listen(0, '127.0.0.1', resolve));
    const address = hop.address() as net.AddressInfo;
    const url = new URL(first.managementUrl);
    url.port = String(address.port);
    targetPort = first.managementPort;
    const before = clientOf(url.toString(), first);
    expect((await readBrokerState(before)).name).toBe(first.name);
    before.close();

    // The same URL now reaches the other broker; a new client for it (as the worker makes them) starts from the name
    // cached for the URL, asks for a broker that is not there once, and finds the right one on the next call.
    targetPort = second.managementPort;
    const after = clientOf(url.toString(), second);
    await expect(readBrokerState(after)).rejects.toThrow(/InstanceNotFound/);
    expect((await readBrokerState(after)).name).toBe(second.name);
  });
});
