// What the HA reconciler reads and writes. Reads are one query each; the pass's writes are set-based statements in
// one short transaction per cluster (never around a broker call), each touching only rows that really changed,
// apart from the subscription rows' `checked_at`, which says the worker still stands behind them.
import { inTransaction } from '@/base/db/transaction.ts';
import type { Pool } from 'pg';
import type { PrismaClient } from '@/base/db/database.ts';
import type { NodeVerdict } from './ha-pass.ts';
import type { HaNode } from './ha-pass.ts';
import type { ClusterCredentials } from './native-endpoint-of.ts';
import type { CapabilityVerdict, StoredSubscription } from './subscription-verdict.ts';
import { recordCapabilities } from '../server/capabilities/capability-ledger.ts';

interface HaClusterNode extends HaNode {
  readonly amqpUrl: string | null;
  /** The broker's notification address as the last poll read it (null until then). */
  readonly notificationAddress: string | null;
  /** How the node is named in details and capability text. */
  readonly label: string;
}

export interface HaCluster extends ClusterCredentials {
  readonly name: string;
  readonly splitBrainSince: Date | null;
  readonly nodes: readonly HaClusterNode[];
}

export async function loadHaCluster(prisma: PrismaClient, clusterId: string): Promise<HaCluster | undefined> {
  const cluster = await prisma.cluster.findUnique({
    where: { id: clusterId },
    select: {
      id: true,
      name: true,
      username: true,
      passwordCipher: true,
      passwordKeyId: true,
      tls: true,
      splitBrainSince: true,
    },
  });
  if (!cluster) return undefined;
  const nodes = await prisma.clusterNode.findMany({
    where: { clusterId },
    orderBy: [{ createdAt: 'asc' }, { managementUrl: 'asc' }],
  });
  return {
    ...cluster,
    nodes: nodes.map((node) => ({
      id: node.id,
      brokerNodeId: node.brokerNodeId,
      active: node.active,
      lastSuccessAt: node.lastSuccessAt,
      lastFailureAt: node.lastFailureAt,
      serving: node.serving,
      splitBrainSince: node.splitBrainSince,
      amqpUrl: node.amqpUrl,
      notificationAddress: node.notificationAddress,
      label: node.brokerName ?? node.managementUrl,
    })),
  };
}

export async function loadStoredSubscriptions(
  prisma: PrismaClient,
  clusterId: string,
): Promise<Map<string, StoredSubscription>> {
  const rows = await prisma.clusterNodeSubscription.findMany({ where: { clusterId } });
  return new Map(
    rows.map((row) => [
      row.nodeId,
      {
        state: row.state as StoredSubscription['state'],
        reason: row.reason,
        cause: row.cause,
        snippet: row.snippet,
        since: row.since,
      },
    ]),
  );
}

export interface HaWrite {
  readonly clusterId: string;
  readonly instanceId: string;
  /** Nodes whose serving flag or split-brain verdict changed. */
  readonly nodeVerdicts: readonly NodeVerdict[];
  /** The cluster's earliest ongoing split-brain, or null; undefined leaves it as it is. */
  readonly splitBrainSince: Date | null | undefined;
  /** Every serving node's subscription; rows of other nodes of the cluster are removed. */
  readonly subscriptions: ReadonlyMap<string, StoredSubscription>;
  readonly notifications: CapabilityVerdict;
  readonly messageIo: CapabilityVerdict;
}

/** Persists one pass; answers whether the NOTIFICATIONS or MESSAGE_IO verdict changed. */
export async function persistHaPass(pool: Pool, write: HaWrite): Promise<{ capabilityChanged: boolean }> {
  const subscriptions = [...write.subscriptions];
  return inTransaction(pool, async (client) => {
    if (write.nodeVerdicts.length > 0) {
      await client.query(
        `UPDATE cluster_node AS n SET serving = v.serving, split_brain_since = v.since
           FROM unnest($1::uuid[], $2::boolean[], $3::timestamptz[]) AS v(id, serving, since)
          WHERE n.id = v.id AND n.cluster_id = $4`,
        [
          write.nodeVerdicts.map((verdict) => verdict.id),
          write.nodeVerdicts.map((verdict) => verdict.serving),
          write.nodeVerdicts.map((verdict) => verdict.splitBrainSince),
          write.clusterId,
        ],
      );
    }
    if (write.splitBrainSince !== undefined) {
      await client.query(
        `UPDATE cluster SET split_brain_since = $2 WHERE id = $1 AND split_brain_since IS DISTINCT FROM $2`,
        [write.clusterId, write.splitBrainSince],
      );
    }
    await client.query(
      `DELETE FROM cluster_node_subscription WHERE cluster_id = $1 AND NOT (node_id = ANY($2::uuid[]))`,
      [write.clusterId, subscriptions.map(([nodeId]) => nodeId)],
    );
    if (subscriptions.length > 0) {
      await client.query(
        `INSERT INTO cluster_node_subscription (node_id, cluster_id, state, reason, cause, snippet, since, instance_id, checked_at)
         SELECT v.node_id, $1, v.state, v.reason, v.cause, v.snippet, v.since, $2, now()
           FROM unnest($3::uuid[], $4::text[], $5::text[], $6::text[], $7::text[], $8::timestamptz[])
                AS v(node_id, state, reason, cause, snippet, since)
         ON CONFLICT (node_id) DO UPDATE SET
           state = EXCLUDED.state, reason = EXCLUDED.reason, cause = EXCLUDED.cause, snippet = EXCLUDED.snippet,
           since = CASE WHEN cluster_node_subscription.state = EXCLUDED.state
                        THEN COALESCE(cluster_node_subscription.since, EXCLUDED.since) ELSE EXCLUDED.since END,
           instance_id = EXCLUDED.instance_id, checked_at = now()`,
        [
          write.clusterId,
          write.instanceId,
          subscriptions.map(([nodeId]) => nodeId),
          subscriptions.map(([, row]) => row.state),
          subscriptions.map(([, row]) => row.reason),
          subscriptions.map(([, row]) => row.cause),
          subscriptions.map(([, row]) => row.snippet),
          subscriptions.map(([, row]) => row.since),
        ],
      );
    }
    const capabilityChanged = await recordCapabilities(client, write.clusterId, [
      { capability: 'NOTIFICATIONS', verdict: write.notifications, confirmedBy: 'subscription' },
      { capability: 'MESSAGE_IO', verdict: write.messageIo, confirmedBy: 'subscription' },
    ]);
    return { capabilityChanged };
  });
}
