// The harness's clustered and replicated topologies as the management client sees them, and the fault proxy in
// front of a node: what later cluster and failover tests build on.
import { afterAll, describe, expect, it } from 'vitest';
import { startCluster, startHaPair, type Topology } from '@test/artemis/index.ts';
import { startFaultProxy } from '@test/artemis/fault-proxy.ts';
import { eventually } from '@test/eventually.ts';
import { listNetworkTopology, readBrokerState } from './broker-operations.ts';
import { ManagementClient } from './management-client.ts';
import { ManagementError } from './management-error.ts';

const topologies: Topology[] = [];
const clients: ManagementClient[] = [];

function clientOf(url: string, node: { user: string; password: string }, timeoutMs = 5_000): ManagementClient {
  const client = new ManagementClient(
    { url, user: node.user, password: node.password },
    { maxConcurrentCalls: 2, maxCallsPerSecond: 100, timeoutMs },
  );
  clients.push(client);
  return client;
}

afterAll(async () => {
  for (const client of clients) client.close();
  await Promise.all(topologies.map((topology) => topology.stop()));
});

describe('harness topologies', () => {
  it('two clustered live nodes see each other in the network topology', async () => {
    const cluster = await startCluster();
    topologies.push(cluster);
    const [first, second] = cluster.nodes;
    if (!first || !second) throw new Error('two nodes expected');
    const client = clientOf(first.managementUrl, first);
    const members = await eventually(
      'both nodes in the network topology',
      async () => {
        const found = await listNetworkTopology(client);
        return found.length === 2 ? found : undefined;
      },
      60_000,
      250,
    );
    expect(members.map((member) => member.primary).sort()).toEqual(
      [`127.0.0.1:${first.amqpPort}`, `127.0.0.1:${second.amqpPort}`].sort(),
    );
    await cluster.stop();
  });

  it('a replicated pair fails over when the primary is killed, and the proxy partitions a node on demand', async () => {
    const pair = await startHaPair();
    topologies.push(pair);
    const [primary, backup] = pair.nodes;
    if (!primary || !backup) throw new Error('two nodes expected');
    const backupClient = clientOf(backup.managementUrl, backup);
    expect(await readBrokerState(backupClient)).toMatchObject({ active: false, backup: true, replicaSync: true });

    const proxy = await startFaultProxy(primary.managementPort);
    const viaProxy = clientOf(proxy.url('http', '/console/jolokia'), primary, 1_500);
    expect((await readBrokerState(viaProxy)).active).toBe(true);
    proxy.setMode({ kind: 'cut' });
    const cut = await readBrokerState(viaProxy).catch((error: unknown) => error);
    expect(cut instanceof ManagementError && cut.kind).toBe('unreachable');
    proxy.setMode({ kind: 'pass' });
    await proxy.close();

    await primary.kill();
    expect(primary.isRunning()).toBe(false);
    await backup.waitUntilActive();
    expect(await readBrokerState(backupClient)).toMatchObject({ active: true, backup: false });
    await pair.stop();
  });
});
