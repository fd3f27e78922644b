// Helpers for the HA tests on real brokers and a real database: a worker and a web runtime on the test database
// with the worker's services started as the worker starts them (the real scrape's tier A feeds the HA reconciler),
// a cluster saved the way registration saves it, a record of what each tier-A pass saw, and the cluster's stream
// signals.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { BrokerNode, Topology } from './artemis/index.ts';
import { createTestDatabase } from './database.ts';
import { readBrokerState } from '../../src/modules/platform/broker/management/broker-operations.ts';
import { ManagementClient } from '../../src/modules/platform/broker/management/management-client.ts';
import { installedModules } from '@/installation/modules.ts';
import type { ModuleDescriptor } from '@/modules/kernel/plugin/index.ts';
import { openRuntime, type Runtime } from '@/server/runtime/runtime.ts';
import { startWorkerServices } from '../../worker/services.ts';
import { sealPassword } from '../../src/modules/platform/clusters/server/credentials/password-cipher.ts';
import { processKeys } from '@/modules/platform/governance/index.ts';

export interface TestRuntimes {
  readonly worker: Runtime;
  readonly web: Runtime;
  close(): Promise<void>;
}

/** A 32-byte key for the process, so passwords can be sealed and opened (set before anything reads it). */
function setTestSecretKey(): void {
  process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');
}

/** `extraModules` are installed beside the real ones in the worker (a test's own extension-point contributions). */
export async function openTestRuntimes(
  databaseUrl: string,
  extraModules: readonly ModuleDescriptor[] = [],
  /** Another instance of Flotilla on the same database needs its own id. */
  instanceId = 'ha-test',
): Promise<TestRuntimes> {
  const source = { DATABASE_URL: databaseUrl, FLOTILLA_INSTANCE_ID: instanceId, FLOTILLA_DB_POOL_SIZE: '4' };
  const worker = await openRuntime('worker', source, [...installedModules, ...extraModules]);
  const web = await openRuntime('web', source);
  const services = await startWorkerServices(worker);
  // Idempotent: a test that closes them (a process "dies") and its afterAll may both call it.
  let closing: Promise<void> | undefined;
  return {
    worker,
    web,
    close() {
      closing ??= (async () => {
        await services.stop();
        await web.close();
        await worker.close();
      })();
      return closing;
    },
  };
}

export interface RegisteredNode {
  readonly id: string;
  readonly broker: BrokerNode;
}

/** Saves a cluster and its nodes (password sealed, NodeID and role as discovery finds them). */
export async function registerCluster(
  runtime: Runtime,
  name: string,
  brokers: readonly BrokerNode[],
): Promise<{ clusterId: string; nodes: RegisteredNode[] }> {
  const first = brokers[0];
  if (!first) throw new Error('a cluster needs a node');
  const clusterId = randomUUID();
  const sealed = sealPassword(processKeys(), { clusterId, password: first.password });
  const nodes: RegisteredNode[] = [];
  const nodeRows = [];
  for (const broker of brokers) {
    const management = new ManagementClient({
      url: broker.managementUrl,
      user: broker.user,
      password: broker.password,
    });
    const state = await readBrokerState(management).finally(() => management.close());
    const id = randomUUID();
    nodeRows.push({
      id,
      managementUrl: broker.managementUrl,
      amqpUrl: broker.amqpUrl,
      brokerName: state.name,
      brokerNodeId: state.nodeId,
      role: state.backup ? ('BACKUP' as const) : ('PRIMARY' as const),
    });
    nodes.push({ id, broker });
  }
  // The cluster and its nodes in one statement, as registration commits them: the worker's scrape lists clusters
  // every tier-A tick, and one caught between the rows would be scraped with the nodes it had then.
  await runtime.prisma.cluster.create({
    data: {
      id: clusterId,
      name,
      username: first.user,
      passwordCipher: sealed.cipher,
      passwordKeyId: sealed.keyId,
      nodes: { create: nodeRows },
    },
  });
  return { clusterId, nodes };
}

async function storeRuntimeSettings(url: string, values: Record<string, string>): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const [key, value] of Object.entries(values)) {
      await client.query(
        `INSERT INTO flotilla_setting (key, value, scope) VALUES ($1, $2, 'RUNTIME')
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [key, JSON.stringify(value)],
      );
    }
  } finally {
    await client.end();
  }
}

/** What one tier-A tick saw per node (by broker name): A (Active), P (answered, passive) or X (no answer). */
export type TickRecord = Record<string, 'A' | 'P' | 'X'>;

/**
 * Records what every completed tier-A pass of the cluster left in `cluster_node`. It subscribes after the worker's
 * services, so it runs after the HA reconciler has handled the same pass.
 */
export class TierARecorder {
  readonly ticks: TickRecord[] = [];
  /** Per tick: whether the cluster's split-brain verdict stood once the reconciler had handled that pass. */
  readonly splitBrainAfter: boolean[] = [];

  constructor(runtime: Runtime, clusterId: string) {
    runtime.notifications.subscribe('ScrapeTierCompleted', async (completed) => {
      if (completed.tier !== 'A' || completed.clusterId !== clusterId) return;
      const [nodes, cluster] = await Promise.all([
        runtime.prisma.clusterNode.findMany({ where: { clusterId } }),
        runtime.prisma.cluster.findUnique({ where: { id: clusterId }, select: { splitBrainSince: true } }),
      ]);
      const record: TickRecord = {};
      for (const node of nodes) {
        const reachable =
          node.lastSuccessAt !== null && (node.lastFailureAt === null || node.lastFailureAt <= node.lastSuccessAt);
        record[node.brokerName ?? node.id] = !reachable ? 'X' : node.active ? 'A' : 'P';
      }
      this.ticks.push(record);
      this.splitBrainAfter.push(cluster?.splitBrainSince != null);
    });
  }
}

// The stream's bus channel (kernel/stream's STREAM_CHANNEL), read here as any web process reads it; named rather
// than imported because the clusters module itself only publishes through the worker context.
const STREAM_CHANNEL = 'flotilla_stream';

/** Every stream signal of the cluster published from now on, as `topic` strings in order. */
function recordSignals(runtime: Runtime, clusterId: string): string[] {
  const topics: string[] = [];
  runtime.bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = JSON.parse(payload) as { topic: string; clusterId: string };
    if (signal.clusterId === clusterId) topics.push(signal.topic);
  });
  return topics;
}

export interface HaScenario {
  readonly runtimes: TestRuntimes;
  /** The scenario's database, for a test that opens a web runtime with its REST edge on it. */
  readonly databaseUrl: string;
  readonly tierA: TierARecorder;
  readonly clusterId: string;
  readonly nodes: readonly RegisteredNode[];
  /** Stream signals of the cluster, as the web process receives them. */
  readonly signals: string[];
  stop(): Promise<void>;
}

/**
 * A fresh database with a short tier-A interval (tiers B and C slowed down unless a test reads queues), the
 * worker's services (the real scrape among them) and a web runtime, and the brokers registered as one cluster.
 */
export async function startHaScenario(
  name: string,
  brokers: Topology,
  tierAMs: number,
  queueTiers: { tierB: string; tierC: string } = { tierB: '10m', tierC: '1h' },
  extraModules: readonly ModuleDescriptor[] = [],
): Promise<HaScenario> {
  setTestSecretKey();
  const database = await createTestDatabase();
  await storeRuntimeSettings(database.url, {
    'scrape.tier-a-interval': `${tierAMs}ms`,
    'scrape.tier-b-interval': queueTiers.tierB,
    'scrape.tier-c-interval': queueTiers.tierC,
  });
  const runtimes = await openTestRuntimes(database.url, extraModules);
  const { clusterId, nodes } = await registerCluster(runtimes.worker, name, brokers.nodes);
  const signals = recordSignals(runtimes.web, clusterId);
  const tierA = new TierARecorder(runtimes.worker, clusterId);
  await runtimes.worker.notifications.publish('ClusterRegistered', { clusterId, name, environmentId: null });
  let stopping: Promise<void> | undefined;
  return {
    runtimes,
    databaseUrl: database.url,
    tierA,
    clusterId,
    nodes,
    signals,
    stop() {
      stopping ??= (async () => {
        await runtimes.close();
        await brokers.stop();
        await database.drop();
      })();
      return stopping;
    },
  };
}
