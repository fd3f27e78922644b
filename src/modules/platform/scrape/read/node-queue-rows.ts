// The per-node queue rows of queue_snapshot as the scrape's own API lists them, each with its node's staleness.
import type { PrismaClient } from '@/base/db/database.ts';
import type { QueueMetrics } from './queue-metrics.ts';
import { staleNodesOf } from './sweeps.ts';

export interface QueueRowView extends QueueMetrics {
  readonly nodeId: string;
  readonly address: string;
  readonly queueName: string;
  readonly routingType: string;
  readonly paused: boolean | null;
  readonly scrapedAt: string;
  readonly seenIn: string;
  /** The node's queue numbers are old: its last tier-B or tier-C sweep is more than two tier-B intervals ago. */
  readonly stale: boolean;
}

export type QueueSortField = 'queueName' | 'messageCount' | 'consumerCount' | 'scrapedAt';

export async function readQueueRows(
  prisma: PrismaClient,
  query: {
    clusterId: string;
    nodeId?: string;
    q?: string;
    sort: { field: QueueSortField; direction: 'asc' | 'desc' };
    page: number;
    pageSize: number;
  },
  now: Date = new Date(),
): Promise<{ items: QueueRowView[]; total: number }> {
  const where = {
    clusterId: query.clusterId,
    ...(query.nodeId ? { nodeId: query.nodeId } : {}),
    ...(query.q ? { queueName: { contains: query.q, mode: 'insensitive' as const } } : {}),
  };
  const [rows, total, stale] = await Promise.all([
    prisma.queueSnapshot.findMany({
      where,
      orderBy: [{ [query.sort.field]: query.sort.direction }, { queueName: 'asc' }, { nodeId: 'asc' }],
      skip: (query.page - 1) * query.pageSize,
      take: query.pageSize,
    }),
    prisma.queueSnapshot.count({ where }),
    staleNodesOf(prisma, query.clusterId, now),
  ]);
  return {
    total,
    items: rows.map((row) => ({
      nodeId: row.nodeId,
      address: row.address,
      queueName: row.queueName,
      routingType: row.routingType,
      messageCount: Number(row.messageCount),
      consumerCount: row.consumerCount,
      deliveringCount: Number(row.deliveringCount),
      messagesAdded: Number(row.messagesAdded),
      messagesAcked: Number(row.messagesAcked),
      messagesExpired: Number(row.messagesExpired),
      messagesKilled: Number(row.messagesKilled),
      paused: row.paused,
      scrapedAt: row.scrapedAt.toISOString(),
      seenIn: row.seenIn,
      stale: stale(row.nodeId),
    })),
  };
}
