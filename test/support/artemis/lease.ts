// A test file's lease on the run's shared brokers (pool.ts, ADR 19). A lease is for a suite that needs "a broker",
// not "a broker I can kill": its nodes refuse stop, kill and restart. Every lease has its own prefix; the suite names
// every address and queue it makes with `lease.name(...)`, and `stop()` (the Topology's, so a scenario's stop works
// unchanged) removes every address and queue under the prefix from every node, consumers with them, and the address
// settings of every wildcard match the suite named (`lease.name('paged.#')`, the only use of such a name). Other suites
// share the same broker at the same time, so a leased suite must not assert on what the whole broker holds.
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { brokerMbean, jolokia, jolokiaExec } from '../jolokia.ts';
import type { BrokerNode, Topology } from './index.ts';
import type { PoolTopologyKind, PooledNodeDescription } from './pool.ts';

export interface LeasedTopology extends Topology {
  /** The lease's own address prefix, `<random>.`; the clean-up removes everything under it. */
  readonly prefix: string;
  /** `prefix + base`: the name of an address or queue of this suite, or (with `#` or `*`) a match of its settings. */
  name(base: string): string;
}

function shared(operation: string): () => Promise<never> {
  return () =>
    Promise.reject(new Error(`a leased broker is shared with other suites and cannot ${operation}: start your own`));
}

function leasedNode(description: PooledNodeDescription): BrokerNode {
  return {
    ...description,
    start: shared('be started'),
    stop: shared('be stopped'),
    kill: shared('be killed'),
    restart: shared('be restarted'),
    isRunning: () => true,
    waitUntilActive: () => Promise.resolve(),
  };
}

/**
 * Deletes every queue under `prefix` on the node, whatever its address (a tap on another address too), and every
 * address under it, with their queues and consumers.
 */
async function removeUnderPrefix(node: BrokerNode, prefix: string): Promise<void> {
  const broker = brokerMbean(node.name);
  const queues = (await jolokia(node, { type: 'read', mbean: broker, attribute: 'QueueNames' })) as string[];
  for (const queue of queues.filter((name) => name.startsWith(prefix)))
    await jolokiaExec(node, broker, 'destroyQueue(java.lang.String,boolean,boolean)', [queue, true, true]);
  const addresses = (await jolokia(node, { type: 'read', mbean: broker, attribute: 'AddressNames' })) as string[];
  for (const address of addresses.filter((name) => name.startsWith(prefix))) {
    const left = (await jolokia(node, {
      type: 'read',
      mbean: `${broker},component=addresses,address="${address}"`,
      attribute: 'QueueNames',
    })) as string[];
    for (const queue of left)
      await jolokiaExec(node, broker, 'destroyQueue(java.lang.String,boolean,boolean)', [queue, true, true]);
    // destroyQueue's auto-delete may already have taken the address.
    await jolokiaExec(node, broker, 'deleteAddress(java.lang.String,boolean)', [address, true]).catch(() => undefined);
  }
}

function lease(kind: PoolTopologyKind): LeasedTopology {
  const descriptions = inject('brokerPool')[kind];
  const nodes = descriptions.map(leasedNode);
  // Starts with a letter: Artemis wildcards and the tests' globs treat the prefix as one plain word.
  const prefix = `l${randomBytes(4).toString('hex')}.`;
  const matches = new Set<string>();
  return {
    nodes,
    prefix,
    name: (base) => {
      const name = `${prefix}${base}`;
      if (/[#*]/.test(base)) matches.add(name);
      return name;
    },
    stop: async () => {
      for (const node of nodes) {
        await removeUnderPrefix(node, prefix);
        for (const match of matches)
          // A match that was a glob of the suite's own (an alert rule's pattern) has no settings to remove.
          await jolokiaExec(node, brokerMbean(node.name), 'removeAddressSettings(java.lang.String)', [match]).catch(
            () => undefined,
          );
      }
    },
  };
}

/** The pool's standalone node (admin/admin, role amq). */
export const leaseSingleNode = (): LeasedTopology => lease('single');

/** The pool's two clustered live nodes (static connectors, admin/admin). */
export const leaseCluster = (): LeasedTopology => lease('cluster');
