// Helpers for the HA tests on real brokers and a real database: a worker and a web runtime on the test database
// with the worker's services started as the worker starts them, a cluster saved the way registration saves it,
// a tier-A stand-in and the stream signals of a cluster.
//
// The tier-A stand-in does what the scrape's tier A does each tick: one management read per node of the broker's
// real HA attributes, written to the node's HA columns (or its failure recorded), then ScrapeTierCompleted. It
// stands in until the scrape scheduler is on this branch; the reconciler under test cannot tell the difference.
import { randomUUID } from 'node:crypto';
import type { BrokerNode, Topology } from '../../../../../test/support/artemis/index.ts';
import { createTestDatabase } from '../../../../../test/support/database.ts';
import { readBrokerState } from '../../broker/management/broker-operations.ts';
import { ManagementClient } from '../../broker/management/management-client.ts';
import { openRuntime, type Runtime } from '@/server/runtime/runtime.ts';
import { startWorkerServices } from '../../../../../worker/services.ts';
import { sealPassword } from '../server/credentials/password-cipher.ts';
import { processKeys } from '../server/credentials/secret-key.ts';

export interface TestRuntimes {
  readonly worker: Runtime;
  readonly web: Runtime;
  close(): Promise<void>;
}

/** A 32-byte key for the process, so passwords can be sealed and opened (set before anything reads it). */
export function setTestSecretKey(): void {
  process.env.FLOTILLA_SECRET_KEY ??= Buffer.alloc(32, 7).toString('base64');
}

export async function openTestRuntimes(databaseUrl: string): Promise<TestRuntimes> {
  const source = { DATABASE_URL: databaseUrl, FLOTILLA_INSTANCE_ID: 'ha-test', FLOTILLA_DB_POOL_SIZE: '4' };
  const worker = await openRuntime('worker', source);
  const web = await openRuntime('web', source);
  const services = await startWorkerServices(worker);
  return {
    worker,
    web,
    async close() {
      await services.stop();
      await web.close();
      await worker.close();
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
  const sealed = sealPassword(processKeys(), first.password);
  const clusterId = randomUUID();
  await runtime.prisma.cluster.create({
    data: { id: clusterId, name, username: first.user, passwordCipher: sealed.cipher, passwordKeyId: sealed.keyId },
  });
  const nodes: RegisteredNode[] = [];
  for (const broker of brokers) {
    const state = await readBrokerState(managementClientOf(broker));
    const id = randomUUID();
    await runtime.prisma.clusterNode.create({
      data: {
        id,
        clusterId,
        managementUrl: broker.managementUrl,
        amqpUrl: broker.amqpUrl,
        brokerName: state.name,
        brokerNodeId: state.nodeId,
        role: state.backup ? 'BACKUP' : 'PRIMARY',
      },
    });
    nodes.push({ id, broker });
  }
  return { clusterId, nodes };
}

const clients = new Map<string, ManagementClient>();

function managementClientOf(broker: BrokerNode): ManagementClient {
  let client = clients.get(broker.managementUrl);
  if (!client) {
    client = new ManagementClient({ url: broker.managementUrl, user: broker.user, password: broker.password });
    clients.set(broker.managementUrl, client);
  }
  return client;
}

/** What one tier-A tick saw per node: A (Active), P (answered, passive) or X (no answer). */
export type TickRecord = Record<string, 'A' | 'P' | 'X'>;

export class TierAStandIn {
  readonly ticks: TickRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly runtime: Runtime,
    private readonly clusterId: string,
    private readonly nodes: readonly RegisteredNode[],
    readonly intervalMs: number,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.tick());
    }, this.intervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.running;
  }

  /** One tick: read every node concurrently, persist each result, then announce the completed tier. */
  async tick(): Promise<void> {
    const startedAt = new Date().toISOString();
    const record: TickRecord = {};
    await Promise.all(
      this.nodes.map(async ({ id, broker }) => {
        try {
          const state = await readBrokerState(managementClientOf(broker));
          await this.runtime.prisma.clusterNode.update({
            where: { id },
            data: {
              brokerNodeId: state.nodeId,
              active: state.active,
              started: state.started,
              backup: state.backup,
              replicaSync: state.replicaSync,
              haPolledAt: new Date(),
              lastSuccessAt: new Date(),
            },
          });
          record[broker.name] = state.active ? 'A' : 'P';
        } catch (error) {
          await this.runtime.prisma.clusterNode.update({
            where: { id },
            data: { lastFailureAt: new Date(), lastError: error instanceof Error ? error.message : String(error) },
          });
          record[broker.name] = 'X';
        }
      }),
    );
    this.ticks.push(record);
    const failed = Object.values(record).filter((seen) => seen === 'X').length;
    await this.runtime.notifications.publish('ScrapeTierCompleted', {
      clusterId: this.clusterId,
      tier: 'A',
      startedAt,
      completedAt: new Date().toISOString(),
      nodesScraped: this.nodes.length - failed,
      nodesFailed: failed,
    });
  }
}

// The stream's bus channel (kernel/stream's STREAM_CHANNEL), read here as any web process reads it; named rather
// than imported because the clusters module itself only publishes through the worker context.
const STREAM_CHANNEL = 'flotilla_stream';

/** Every stream signal of the cluster published from now on, as `topic` strings in order. */
export function recordSignals(runtime: Runtime, clusterId: string): string[] {
  const topics: string[] = [];
  runtime.bus.listen(STREAM_CHANNEL, (payload) => {
    const signal = JSON.parse(payload) as { topic: string; clusterId: string };
    if (signal.clusterId === clusterId) topics.push(signal.topic);
  });
  return topics;
}

export interface HaScenario {
  readonly runtimes: TestRuntimes;
  readonly tierA: TierAStandIn;
  readonly clusterId: string;
  readonly nodes: readonly RegisteredNode[];
  /** Stream signals of the cluster, as the web process receives them. */
  readonly signals: string[];
  stop(): Promise<void>;
}

/** A fresh database, worker and web runtimes, the brokers registered as one cluster and tier A ticking. */
export async function startHaScenario(name: string, brokers: Topology, tierAMs: number): Promise<HaScenario> {
  setTestSecretKey();
  const database = await createTestDatabase();
  const runtimes = await openTestRuntimes(database.url);
  const { clusterId, nodes } = await registerCluster(runtimes.worker, name, brokers.nodes);
  const signals = recordSignals(runtimes.web, clusterId);
  const tierA = new TierAStandIn(runtimes.worker, clusterId, nodes, tierAMs);
  tierA.start();
  return {
    runtimes,
    tierA,
    clusterId,
    nodes,
    signals,
    async stop() {
      await tierA.stop();
      await runtimes.close();
      await brokers.stop();
      await database.drop();
    },
  };
}
