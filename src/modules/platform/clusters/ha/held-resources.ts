// What one process holds for the stored nodes, ended when a node is no longer stored. Every process that talks to
// brokers (the worker's scrape, subscriptions and pools; the web process's browse and send connections and
// live-through clients) follows ClusterRegistered and ClusterChanged: after each, it reads the stored nodes and, for
// every node it knew that is gone (its cluster removed, or the node itself) or whose URL changed, it drops the
// notification subscription and closes the pooled native connection, and ends the management URL's clients, limiter
// and health state (unless another stored node still uses that URL). Only nodes that were stored are released, so a
// registration's probe, whose nodes are not stored yet, is never cut. A pooled connection of a known cluster whose node
// is not stored is closed too. After a lost bus connection (notifications missed) it reads again.
import type { DatabaseBus } from '@/base/db/bus.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import type { InternalNotifications } from '@/modules/kernel/core/index.ts';
import {
  closeNativeConnection,
  dropNotificationSubscription,
  pooledNativeEndpoints,
  releaseManagementNode,
} from '@/modules/platform/broker/index.ts';
import { logger } from '@/base/log/log.ts';

const log = logger('clusters');

interface StoredNode {
  readonly clusterId: string;
  readonly managementUrl: string;
  readonly amqpUrl: string | null;
}

interface HeldResourcesRuntime {
  readonly prisma: PrismaClient;
  readonly notifications: InternalNotifications;
  readonly bus: DatabaseBus;
}

export class HeldResources {
  private known = new Map<string, StoredNode>();
  private work: Promise<void> = Promise.resolve();

  constructor(private readonly prisma: PrismaClient) {}

  /** Reads the stored nodes and ends what is held for the ones gone or changed since the last read (serialised). */
  refresh(): Promise<void> {
    this.work = this.work
      .then(() => this.reconcile())
      .catch((error: unknown) => log.error({ err: error }, 'cannot release what removed nodes held'));
    return this.work;
  }

  private async reconcile(): Promise<void> {
    const rows = await this.prisma.clusterNode.findMany({
      select: { id: true, clusterId: true, managementUrl: true, amqpUrl: true },
    });
    const current = new Map<string, StoredNode>(rows.map(({ id, ...node }) => [id, node]));
    const storedUrls = new Set(rows.map((row) => row.managementUrl));
    const nativeGone = new Set<string>();
    for (const [nodeId, before] of this.known) {
      const now = current.get(nodeId);
      if (!now || now.amqpUrl !== before.amqpUrl) nativeGone.add(nodeId);
      if (!storedUrls.has(before.managementUrl)) releaseManagementNode(before.managementUrl);
    }
    // A connection this follower never saw stored (opened before its first read) still ends with its cluster.
    const knownClusters = new Set([...this.known.values()].map((node) => node.clusterId));
    for (const endpoint of pooledNativeEndpoints()) {
      if (knownClusters.has(endpoint.clusterKey) && current.get(endpoint.nodeKey)?.clusterId !== endpoint.clusterKey)
        nativeGone.add(endpoint.nodeKey);
    }
    // The subscription first, then its connection (the shutdown order of the native side).
    for (const nodeId of nativeGone) {
      await dropNotificationSubscription(nodeId);
      await closeNativeConnection(nodeId);
    }
    this.known = current;
  }
}

const followers = new WeakMap<InternalNotifications, HeldResources>();

/**
 * Makes this process end what it holds for removed nodes, once per runtime (idempotent), for the life of the runtime:
 * the web process from its start (the module's process-start hook). The worker's HA service wires its own follower,
 * which it orders after the reconciler and stops with the service.
 */
export function followNodeRemovals(runtime: HeldResourcesRuntime): void {
  if (followers.has(runtime.notifications)) return;
  const held = new HeldResources(runtime.prisma);
  followers.set(runtime.notifications, held);
  void held.refresh();
  runtime.notifications.subscribe('ClusterRegistered', () => held.refresh());
  runtime.notifications.subscribe('ClusterChanged', () => held.refresh());
  runtime.bus.onReconnect(() => void held.refresh());
}
