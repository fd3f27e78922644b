// The kit for tests of the worker on real brokers and a real database: the test secret key, runtime settings
// written to the database, a cluster saved as registration saves it, worker instances started exactly as
// worker/main.ts starts them (one per instance id, a web runtime beside it for the HA scenarios), a record of what
// each tier-A pass saw, and the cluster's stream signals.
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
import { loadKeyRing } from '@/modules/platform/governance/index.ts';
import { SETTINGS_CHANNEL } from '../../src/modules/kernel/settings/server/settings-store.ts';

/** The key of the test process (processKeys() reads it too); set on import, before anything reads it. */
export const TEST_SECRET_KEY = Buffer.alloc(32, 7).toString('base64');
process.env.FLOTILLA_SECRET_KEY = TEST_SECRET_KEY;

export async function withClient<T>(url: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/**
 * Runtime settings written straight to the database, as an operator's change leaves them; `announce` also tells every
 * running process, as the settings API does after its write (a scenario's runtimes already open).
 */
export async function storeSettings(
  url: string,
  values: Record<string, string | number>,
  options: { announce?: boolean } = {},
): Promise<void> {
  await withClient(url, async (client) => {
    for (const [key, value] of Object.entries(values)) {
      await client.query(
        `INSERT INTO flotilla_setting (key, value, scope) VALUES ($1, $2, 'RUNTIME')
         ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value`,
        [key, JSON.stringify(value)],
      );
      if (options.announce) await client.query('SELECT pg_notify($1, $2)', [SETTINGS_CHANNEL, key]);
    }
  });
}

export interface RegisteredNode {
  readonly id: string;
  readonly broker: BrokerNode;
}

export interface SavedCluster {
  readonly clusterId: string;
  /** In the order of the broker nodes given; `id` is the node's cluster_node id. */
  readonly nodes: readonly RegisteredNode[];
}

/** What a node's row says about the broker before the worker has scraped it. */
interface NodeIdentity {
  readonly brokerName: string | null;
  readonly brokerNodeId: string | null;
  readonly role: 'PRIMARY' | 'BACKUP';
}

async function readIdentity(broker: BrokerNode): Promise<NodeIdentity> {
  const management = new ManagementClient({ url: broker.managementUrl, user: broker.user, password: broker.password });
  const state = await readBrokerState(management).finally(() => management.close());
  return { brokerName: state.name, brokerNodeId: state.nodeId, role: state.backup ? 'BACKUP' : 'PRIMARY' };
}

/**
 * Saves a cluster and its nodes with the password sealed. `asDiscovered` reads each node's name, NodeID and role
 * over Jolokia first, as registration does: the HA scenarios need it (the reconciler pairs nodes by NodeID from the
 * first tier-A pass). Without it the nodes are saved bare, all PRIMARY, and the broker is not asked: the scrape
 * suites and the bench save nodes behind a black-holing proxy this way, and test that the scrape fills the rest in.
 */
export async function saveCluster(
  url: string,
  name: string,
  brokers: readonly BrokerNode[],
  { asDiscovered = false }: { asDiscovered?: boolean } = {},
): Promise<SavedCluster> {
  const [first] = brokers;
  if (!first) throw new Error('a cluster needs a node');
  const clusterId = randomUUID();
  const sealed = sealPassword(loadKeyRing({ FLOTILLA_SECRET_KEY: TEST_SECRET_KEY }), {
    clusterId,
    password: first.password,
  });
  const bare: NodeIdentity = { brokerName: null, brokerNodeId: null, role: 'PRIMARY' };
  const identities: NodeIdentity[] = [];
  for (const broker of brokers) identities.push(asDiscovered ? await readIdentity(broker) : bare);
  const nodes = brokers.map((broker) => ({ id: randomUUID(), broker }));
  // The cluster and its nodes in one transaction, as registration commits them: the worker's scrape lists clusters
  // every tier-A tick, and one caught between the rows would be scraped with the nodes it had then.
  await withClient(url, async (client) => {
    await client.query('BEGIN');
    await client.query(
      'INSERT INTO cluster (id, name, username, password_cipher, password_key_id) VALUES ($1, $2, $3, $4, $5)',
      [clusterId, name, first.user, sealed.cipher, sealed.keyId],
    );
    for (const [index, node] of nodes.entries()) {
      const identity = identities[index] ?? bare;
      await client.query(
        `INSERT INTO cluster_node (id, cluster_id, management_url, amqp_url, broker_name, broker_node_id, role)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          node.id,
          clusterId,
          node.broker.managementUrl,
          node.broker.amqpUrl,
          identity.brokerName,
          identity.brokerNodeId,
          identity.role,
        ],
      );
    }
    await client.query('COMMIT');
  });
  return { clusterId, nodes };
}

/** A shut-down that runs once: a test that stops something (a process "dies") and its afterAll may both call it. */
function once(work: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | undefined;
  return () => (running ??= work());
}

export interface WorkerInstance {
  readonly instanceId: string;
  readonly runtime: Runtime;
  /** Idempotent (see once). */
  stop(): Promise<void>;
}

function runtimeSource(url: string, instanceId: string): Record<string, string> {
  return {
    DATABASE_URL: url,
    FLOTILLA_INSTANCE_ID: instanceId,
    FLOTILLA_DB_POOL_SIZE: '4',
    FLOTILLA_SECRET_KEY: TEST_SECRET_KEY,
  };
}

/** `extraModules` are installed beside the real ones (a test's own extension-point contributions). */
export async function startWorker(
  url: string,
  instanceId: string,
  extraModules: readonly ModuleDescriptor[] = [],
): Promise<WorkerInstance> {
  const runtime = await openRuntime('worker', runtimeSource(url, instanceId), [...installedModules, ...extraModules]);
  const services = await startWorkerServices(runtime);
  return {
    instanceId,
    runtime,
    stop: once(async () => {
      await services.stop();
      await runtime.close();
    }),
  };
}

/** One Flotilla instance: a worker and a web runtime on the same database. */
export interface TestRuntimes {
  readonly worker: Runtime;
  readonly web: Runtime;
  /** Idempotent, like WorkerInstance.stop. */
  close(): Promise<void>;
}

export async function openTestRuntimes(
  databaseUrl: string,
  extraModules: readonly ModuleDescriptor[] = [],
  /** Another instance of Flotilla on the same database needs its own id. */
  instanceId = 'ha-test',
): Promise<TestRuntimes> {
  const worker = await startWorker(databaseUrl, instanceId, extraModules);
  const web = await openRuntime('web', runtimeSource(databaseUrl, instanceId));
  return {
    worker: worker.runtime,
    web,
    close: once(async () => {
      await worker.stop();
      await web.close();
    }),
  };
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
  // `settings`: any other runtime setting the scenario needs before its runtimes open (a job's cadence, …).
  queueTiers: { tierB: string; tierC: string; settings?: Record<string, string> } = { tierB: '10m', tierC: '1h' },
  extraModules: readonly ModuleDescriptor[] = [],
): Promise<HaScenario> {
  const database = await createTestDatabase();
  await storeSettings(database.url, {
    'scrape.tier-a-interval': `${tierAMs}ms`,
    'scrape.tier-b-interval': queueTiers.tierB,
    'scrape.tier-c-interval': queueTiers.tierC,
    ...queueTiers.settings,
  });
  const runtimes = await openTestRuntimes(database.url, extraModules);
  const { clusterId, nodes } = await saveCluster(database.url, name, brokers.nodes, { asDiscovered: true });
  const signals = recordSignals(runtimes.web, clusterId);
  const tierA = new TierARecorder(runtimes.worker, clusterId);
  await runtimes.worker.notifications.publish('ClusterRegistered', { clusterId, name, environmentId: null });
  return {
    runtimes,
    databaseUrl: database.url,
    tierA,
    clusterId,
    nodes,
    signals,
    stop: once(async () => {
      await runtimes.close();
      await brokers.stop();
      await database.drop();
    }),
  };
}
