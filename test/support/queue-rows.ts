// Nodes, sweeps and queue_snapshot rows as the scrape worker leaves them, for tests of what is read from them (the
// queue grid, its screens). No broker is involved: the rows are the input under test.
import { randomUUID } from 'node:crypto';
import type { PrismaClient } from '@/base/db/database.ts';
import { refreshQueueTotals } from '@/modules/platform/scrape/index.ts';
import { insertClusterRow } from './cluster-rows.ts';

export interface NodeFixture {
  readonly clusterId: string;
  /** Artemis NodeID; a primary and its backup share one. */
  readonly brokerNodeId: string;
  readonly brokerName: string;
  readonly role?: 'PRIMARY' | 'BACKUP';
  readonly serving: boolean;
  /** When its sweeps last completed; more than two tier-B intervals (2 × 30 s here) ago is stale. */
  readonly sweptAt: Date;
}

let nextPort = 18_161;

export async function insertScrapedNode(prisma: PrismaClient, node: NodeFixture): Promise<string> {
  const id = randomUUID();
  await prisma.clusterNode.create({
    data: {
      id,
      clusterId: node.clusterId,
      managementUrl: `http://127.0.0.1:${nextPort++}/console/jolokia`,
      brokerName: node.brokerName,
      brokerNodeId: node.brokerNodeId,
      role: node.role ?? 'PRIMARY',
      serving: node.serving,
      active: node.serving,
      lastSuccessAt: node.sweptAt,
    },
  });
  for (const tier of ['A', 'B', 'C']) {
    await prisma.scrapeSweep.create({
      data: {
        nodeId: id,
        tier,
        clusterId: node.clusterId,
        instanceId: 'fixture',
        lastStartedAt: node.sweptAt,
        lastCompletedAt: node.sweptAt,
        intervalMs: 30_000,
      },
    });
  }
  return id;
}

export interface QueueFixture {
  readonly queueName: string;
  readonly address?: string;
  readonly messageCount: number;
  readonly consumerCount?: number;
  readonly paused?: boolean;
  /** The broker's internalQueue flag (store-and-forward queues). */
  readonly internal?: boolean;
}

export async function insertScrapedQueues(
  prisma: PrismaClient,
  target: { clusterId: string; nodeId: string; scrapedAt: Date },
  queues: readonly QueueFixture[],
): Promise<void> {
  await prisma.queueSnapshot.createMany({
    data: queues.map((queue) => ({
      clusterId: target.clusterId,
      nodeId: target.nodeId,
      address: queue.address ?? queue.queueName,
      queueName: queue.queueName,
      routingType: 'ANYCAST',
      messageCount: BigInt(queue.messageCount),
      consumerCount: queue.consumerCount ?? 0,
      deliveringCount: 0n,
      messagesAdded: BigInt(queue.messageCount),
      messagesAcked: 0n,
      messagesExpired: 0n,
      paused: queue.paused ?? false,
      internal: queue.internal ?? false,
      scrapedAt: target.scrapedAt,
      seenIn: 'C',
    })),
  });
  await recountTotals(prisma, target.clusterId);
}

/** What the scrape's persist step does after writing cells: the cluster's queue totals follow them. */
export async function recountTotals(prisma: PrismaClient, clusterId: string): Promise<void> {
  const viaPrisma = {
    // eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters -- Queryable's generic signature
    query: async <Row>(sql: string, params: unknown[]) => ({
      rows: await prisma.$queryRawUnsafe<Row[]>(sql, ...params),
    }),
  };
  await refreshQueueTotals(viaPrisma, clusterId);
}

/** A cluster with one serving node swept just now holding these queues: what a rule over queues is judged on. */
export async function insertOneNodeCluster(
  prisma: PrismaClient,
  name: string,
  queues: readonly QueueFixture[],
): Promise<{ clusterId: string; nodeId: string }> {
  const clusterId = await insertClusterRow(prisma, { name });
  const nodeId = await insertScrapedNode(prisma, {
    clusterId,
    brokerNodeId: 'node-a',
    brokerName: 'broker-a',
    serving: true,
    sweptAt: new Date(),
  });
  await insertScrapedQueues(prisma, { clusterId, nodeId, scrapedAt: new Date() }, queues);
  return { clusterId, nodeId };
}
