// The per-run pool of shared brokers (issue 28, ADR 19): one standalone node and one two-node cluster, started once by
// the vitest process (broker-pool-global-setup.ts) and described to the test files, which lease them (lease.ts).
// The JVMs belong to the vitest process, so the harness's bookkeeping kills them when it exits, even on a crash.
import { startCluster, startSingleNode, type BrokerNode, type Topology } from './index.ts';

export type PoolTopologyKind = 'single' | 'cluster';

/** What a test file needs to reach a pooled node: plain data, handed over with vitest's provide/inject. */
export interface PooledNodeDescription {
  readonly name: string;
  readonly managementUrl: string;
  readonly amqpUrl: string;
  readonly amqpPort: number;
  readonly managementPort: number;
  readonly user: string;
  readonly password: string;
  readonly instanceDir: string;
}

export type BrokerPoolDescription = Record<PoolTopologyKind, readonly PooledNodeDescription[]>;

interface RunningPool {
  readonly description: BrokerPoolDescription;
  readonly topologies: readonly Topology[];
}

const describeNode = (node: BrokerNode): PooledNodeDescription => ({
  name: node.name,
  managementUrl: node.managementUrl,
  amqpUrl: node.amqpUrl,
  amqpPort: node.amqpPort,
  managementPort: node.managementPort,
  user: node.user,
  password: node.password,
  instanceDir: node.instanceDir,
});

async function startPool(): Promise<RunningPool> {
  const started = Date.now();
  // One after the other: two cores, and the cluster's two JVMs already start together.
  const single = await startSingleNode({ name: 'pooled' });
  const cluster = await startCluster().catch(async (error: unknown) => {
    await single.stop();
    throw error;
  });
  console.log(`[broker pool] a single node and a two-node cluster started in ${Date.now() - started} ms`);
  return {
    description: { single: single.nodes.map(describeNode), cluster: cluster.nodes.map(describeNode) },
    topologies: [single, cluster],
  };
}

// Several projects (brokers, browser) list the pool's global set-up, and vitest may load it once per project: the
// pool is kept on the vitest process's global object so it starts once, and stops with the last project's teardown.
interface PoolHolder {
  pool?: Promise<RunningPool>;
  users: number;
}
const holder = ((globalThis as { flotillaBrokerPool?: PoolHolder }).flotillaBrokerPool ??= { users: 0 });

export async function acquirePool(): Promise<BrokerPoolDescription> {
  holder.users += 1;
  holder.pool ??= startPool();
  return (await holder.pool).description;
}

export async function releasePool(): Promise<void> {
  holder.users -= 1;
  if (holder.users > 0 || !holder.pool) return;
  const pool = await holder.pool;
  holder.pool = undefined;
  await Promise.all(pool.topologies.map((topology) => topology.stop()));
}
