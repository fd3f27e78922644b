// The pool's leases on real brokers: a lease's names carry its own prefix, its clean-up removes every address under
// that prefix (queues, consumers and messages with them) on every node and nothing of another lease's, and a leased
// node refuses to be stopped or killed.
import { afterAll, describe, expect, it } from 'vitest';
import { brokerMbean, jolokia } from '../jolokia.ts';
import { createAnycastQueue, sendManyMessages } from '../native-test-helpers.ts';
import { leaseCluster, leaseSingleNode, type LeasedTopology } from './lease.ts';

const addressNames = async (lease: LeasedTopology, index = 0) => {
  const node = lease.nodes[index];
  if (!node) throw new Error(`no node ${index}`);
  return (await jolokia(node, { type: 'read', mbean: brokerMbean(node.name), attribute: 'AddressNames' })) as string[];
};

const other = leaseSingleNode();
afterAll(() => other.stop());

describe('a lease on the broker pool', () => {
  it('removes what it made under its prefix, messages and all, and leaves another lease’s addresses', async () => {
    const mine = leaseSingleNode();
    const [node] = mine.nodes;
    if (!node) throw new Error('the pool has no single node');
    expect(mine.prefix).not.toBe(other.prefix);
    await createAnycastQueue(node, mine.name('orders'));
    await sendManyMessages(node, mine.name('orders'), 3);
    await createAnycastQueue(node, other.name('kept'));
    // A queue of the lease's on an address that is not (a tap on a shared address).
    await jolokia(node, {
      type: 'exec',
      mbean: brokerMbean(node.name),
      operation: 'createQueue(java.lang.String,java.lang.String,java.lang.String)',
      arguments: [other.name('tapped'), mine.name('tap'), 'MULTICAST'],
    });
    expect(await addressNames(mine)).toEqual(expect.arrayContaining([mine.name('orders'), other.name('kept')]));

    await mine.stop();

    const left = await addressNames(mine);
    expect(left).not.toContain(mine.name('orders'));
    const queuesLeft = (await jolokia(node, {
      type: 'read',
      mbean: brokerMbean(node.name),
      attribute: 'QueueNames',
    })) as string[];
    expect(queuesLeft).not.toContain(mine.name('tap'));
    expect(queuesLeft).toContain(other.name('kept'));
    expect(left).toContain(other.name('kept'));
  });

  it('removes the address settings of the wildcard matches it named', async () => {
    const mine = leaseSingleNode();
    const [node] = mine.nodes;
    if (!node) throw new Error('the pool has no single node');
    const match = mine.name('paged.#');
    const settingsOf = async () =>
      JSON.parse(
        (await jolokia(node, {
          type: 'exec',
          mbean: brokerMbean(node.name),
          operation: 'getAddressSettingsAsJSON(java.lang.String)',
          arguments: [mine.name('paged.orders')],
        })) as string,
      ) as { maxSizeBytes?: number | string };
    await jolokia(node, {
      type: 'exec',
      mbean: brokerMbean(node.name),
      operation: 'addAddressSettings(java.lang.String,java.lang.String)',
      arguments: [match, JSON.stringify({ maxSizeBytes: 20_480, pageSizeBytes: 4_096 })],
    });
    expect(Number((await settingsOf()).maxSizeBytes)).toBe(20_480);
    await mine.stop();
    expect(Number((await settingsOf()).maxSizeBytes)).not.toBe(20_480);
  });

  it('cleans every node of a leased cluster', async () => {
    const cluster = leaseCluster();
    expect(cluster.nodes).toHaveLength(2);
    for (const node of cluster.nodes) await createAnycastQueue(node, cluster.name('both'));
    await cluster.stop();
    for (const index of [0, 1]) expect(await addressNames(cluster, index)).not.toContain(cluster.name('both'));
  });

  it('refuses to stop, kill or restart a shared node', async () => {
    const [node] = other.nodes;
    await expect(node?.kill()).rejects.toThrow(/shared with other suites/);
    await expect(node?.stop()).rejects.toThrow(/shared/);
    await expect(node?.restart()).rejects.toThrow(/shared/);
  });
});
