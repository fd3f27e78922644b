// The HA reconciler of the worker. At the end of every tier-A pass of a cluster (ScrapeTierCompleted, tier A) it
// recomputes the serving nodes and the split-brain ratchet, reconciles the notification subscriptions against that
// live topology (exactly one per serving node: a failover opens one on the survivor and closes the old one),
// persists what changed for the web process, and signals `topology` / `health` only on a real change. Between
// passes it watches the subscription cache, so an established or refused subscription reaches the database (and
// health) within a second rather than at the next pass. Work on one cluster is serialised.
import { INSTALLATION_SCOPE_ID } from '@/modules/kernel/stream/index.ts';
import type { Pool } from 'pg';
import {
  closeNativeConnection,
  dropNotificationSubscription,
  ensureNotificationSubscription,
  subscriptionState,
  type BrokerEventHandler,
} from '@/modules/platform/broker/index.ts';
import type { PrismaClient } from '@/base/db/database.ts';
import type { KeyRing } from '@/modules/platform/governance/index.ts';
import type { ClusterOwnership } from './cluster-ownership.ts';
import { runHaPass, type PairMemory, type SplitBrain } from './ha-pass.ts';
import { loadHaCluster, loadStoredSubscriptions, persistHaPass, type HaCluster } from './ha-store.ts';
import { EndpointUnavailable, nativeEndpointOf } from './native-endpoint-of.ts';
import {
  isSameSubscription,
  messageIoCapability,
  notificationsCapability,
  storedSubscriptionOf,
  type StoredSubscription,
} from './subscription-verdict.ts';
import { logger } from '@/base/log/log.ts';

const haLog = logger('clusters');

export interface HaReconcilerOptions {
  readonly instanceId: string;
  readonly prisma: PrismaClient;
  readonly pool: Pool;
  /** The process's cluster ownership (the scrape claims clusters; HA reconciles only those it owns). */
  readonly ownership: ClusterOwnership;
  readonly keys: () => KeyRing;
  readonly publishSignal: (topic: string, clusterId: string) => Promise<void>;
  /** Told after a pass that changed which member of a pair serves was persisted. */
  readonly servingChanged?: (clusterId: string) => Promise<void>;
  /** Where every notification of a subscribed node goes: the broker.event-consumers dispatcher. */
  readonly onBrokerEvent: BrokerEventHandler;
  readonly log?: (message: string) => void;
}

interface ClusterState {
  memory: Map<string, PairMemory>;
  /** Serving node id → the endpoint problem that keeps it unsubscribed, or null when subscribed. */
  subscribed: Map<string, string | null>;
  labels: Map<string, string>;
  /** What the database holds, to write and signal only on change. */
  stored: Map<string, StoredSubscription>;
}

export class HaReconciler {
  private readonly clusters = new Map<string, ClusterState>();
  private readonly chains = new Map<string, Promise<void>>();
  private readonly log: (message: string) => void;
  private readonly stopFollowing: (() => void)[];
  private isStopped = false;

  constructor(private readonly options: HaReconcilerOptions) {
    this.log = options.log ?? ((message) => haLog.warn(message));
    this.stopFollowing = [
      options.ownership.onLost((lost) => {
        this.log(`lost the ownership lock connection; letting go of ${lost.length} cluster(s)`);
        for (const clusterId of lost) void this.serially(clusterId, () => this.forget(clusterId));
      }),
      options.ownership.onRelease((clusterId) => void this.serially(clusterId, () => this.forget(clusterId))),
    ];
  }

  /** One tier-A pass of the cluster finished: reconcile HA state and subscriptions. */
  tierACompleted(clusterId: string): Promise<void> {
    return this.serially(clusterId, () => this.pass(clusterId, true));
  }

  /** The cluster was removed: close its subscriptions and forget it. */
  clusterRemoved(clusterId: string): Promise<void> {
    return this.serially(clusterId, () => this.forget(clusterId));
  }

  /** The cluster's nodes changed: a node no longer stored loses its subscription and connection now, not at the next pass. */
  clusterUpdated(clusterId: string): Promise<void> {
    return this.serially(clusterId, () => this.dropRemovedNodes(clusterId));
  }

  /** Persists subscription states that changed since the last write (called on a short timer). */
  async refreshSubscriptionStates(): Promise<void> {
    await Promise.all(
      [...this.clusters.keys()].map((clusterId) =>
        this.serially(clusterId, async () => {
          const state = this.clusters.get(clusterId);
          if (!state || !this.hasSubscriptionChange(state)) return;
          await this.pass(clusterId, false);
        }),
      ),
    );
  }

  /** Waits for running work, then closes every subscription this reconciler opened and lets go of the locks. */
  async stop(): Promise<void> {
    this.isStopped = true;
    await Promise.allSettled([...this.chains.values()]);
    await Promise.allSettled([...this.clusters.keys()].map((clusterId) => this.closeSubscriptions(clusterId)));
    this.clusters.clear();
    for (const stop of this.stopFollowing) stop();
  }

  private serially(clusterId: string, work: () => Promise<void>): Promise<void> {
    const previous = this.chains.get(clusterId) ?? Promise.resolve();
    const next = previous
      .then(() => (this.isStopped ? undefined : work()))
      .catch((error: unknown) =>
        this.log(`cluster ${clusterId}: ${error instanceof Error ? error.stack : String(error)}`),
      );
    this.chains.set(clusterId, next);
    void next.then(() => {
      if (this.chains.get(clusterId) === next) this.chains.delete(clusterId);
    });
    return next;
  }

  /**
   * A tier-A pass (`afterTierA`) recomputes serving nodes and advances the ratchet: only a completed tier counts
   * as a poll, because tier A persists each node in its own transaction and a half-written tick must never count.
   * Otherwise only the subscription rows and the capability follow the cache.
   */
  private async pass(clusterId: string, afterTierA: boolean): Promise<void> {
    if (!this.options.ownership.owns(clusterId)) return;
    const cluster = await loadHaCluster(this.options.prisma, clusterId);
    if (!cluster) {
      await this.forget(clusterId);
      return;
    }
    const state = this.clusters.get(clusterId) ?? (await this.resume(clusterId));
    this.clusters.set(clusterId, state);

    const result = afterTierA ? runHaPass(cluster.nodes, state.memory) : undefined;
    if (result) {
      state.memory = result.memory;
      await this.reconcileSubscriptions(cluster, state, result.servingIds);
    }

    const subscriptions = this.currentSubscriptions(state);
    const subscriptionsChanged =
      subscriptions.size !== state.stored.size ||
      [...subscriptions].some(([nodeId, row]) => {
        const before = state.stored.get(nodeId);
        return !before || !isSameSubscription(before, row);
      });
    const labelled = [...subscriptions].map(([nodeId, row]) => ({ ...row, node: state.labels.get(nodeId) ?? nodeId }));
    const notifications = notificationsCapability(labelled);
    const messageIo = messageIoCapability(labelled);
    const { capabilityChanged } = await persistHaPass(this.options.pool, {
      clusterId,
      instanceId: this.options.instanceId,
      nodeVerdicts: result?.changed ?? [],
      splitBrainSince: result ? earliestSplitBrain(result.splitBrains) : undefined,
      subscriptions,
      notifications,
      messageIo,
    });
    state.stored = subscriptions;

    if (result?.splitBrainChanged) {
      const pairs = result.splitBrains.map((split) => split.logicalNode);
      this.log(`cluster ${cluster.name}: split-brain ${pairs.length > 0 ? `in ${pairs.join(', ')}` : 'cleared'}`);
    }
    if (result?.servingChanged) await this.options.servingChanged?.(clusterId);
    if (result && (result.servingChanged || result.splitBrainChanged)) {
      await this.options.publishSignal('topology', clusterId);
    }
    if (result?.splitBrainChanged || subscriptionsChanged || capabilityChanged) {
      await this.options.publishSignal('health', clusterId);
      await this.options.publishSignal('health', INSTALLATION_SCOPE_ID); // the clusters list
    }
  }

  private currentSubscriptions(state: ClusterState): Map<string, StoredSubscription> {
    const now = new Date();
    const subscriptions = new Map<string, StoredSubscription>();
    for (const [nodeId, problem] of state.subscribed) {
      subscriptions.set(
        nodeId,
        problem === null
          ? storedSubscriptionOf(subscriptionState(nodeId), now)
          : { state: 'refused', reason: problem, cause: 'configuration', snippet: null, since: now },
      );
    }
    return subscriptions;
  }

  /** After a restart (or a takeover) the subscription rows of the database are the starting point. */
  private async resume(clusterId: string): Promise<ClusterState> {
    return {
      memory: new Map(),
      subscribed: new Map(),
      labels: new Map(),
      stored: await loadStoredSubscriptions(this.options.prisma, clusterId),
    };
  }

  private async reconcileSubscriptions(cluster: HaCluster, state: ClusterState, servingIds: ReadonlySet<string>) {
    for (const node of cluster.nodes) state.labels.set(node.id, node.label);
    for (const nodeId of [...state.subscribed.keys()]) {
      if (servingIds.has(nodeId)) continue;
      state.subscribed.delete(nodeId);
      // A node that stopped serving (a passive backup, or a primary after failover) is of no use to the native
      // client: its acceptors are closed, so keeping the connection would only retry in vain.
      await dropNotificationSubscription(nodeId);
      await closeNativeConnection(nodeId);
    }
    for (const node of cluster.nodes.filter((candidate) => servingIds.has(candidate.id))) {
      try {
        ensureNotificationSubscription(
          nativeEndpointOf(cluster, node, this.options.keys()),
          this.options.onBrokerEvent,
          node.notificationAddress,
        );
        state.subscribed.set(node.id, null);
      } catch (error) {
        if (!(error instanceof EndpointUnavailable)) throw error;
        if (state.subscribed.get(node.id) === null) await dropNotificationSubscription(node.id);
        state.subscribed.set(node.id, error.message);
      }
    }
  }

  private hasSubscriptionChange(state: ClusterState): boolean {
    const now = new Date();
    for (const [nodeId, problem] of state.subscribed) {
      if (problem !== null) continue;
      const before = state.stored.get(nodeId);
      if (!before || !isSameSubscription(before, storedSubscriptionOf(subscriptionState(nodeId), now))) return true;
    }
    return false;
  }

  private async closeSubscriptions(clusterId: string): Promise<void> {
    const state = this.clusters.get(clusterId);
    if (!state) return;
    await Promise.allSettled([...state.subscribed.keys()].map((nodeId) => dropNotificationSubscription(nodeId)));
    state.subscribed.clear();
  }

  private async dropRemovedNodes(clusterId: string): Promise<void> {
    const state = this.clusters.get(clusterId);
    if (!state) return;
    const cluster = await loadHaCluster(this.options.prisma, clusterId);
    if (!cluster) {
      await this.forget(clusterId);
      return;
    }
    const stored = new Set(cluster.nodes.map((node) => node.id));
    for (const nodeId of [...state.subscribed.keys()]) {
      if (stored.has(nodeId)) continue;
      state.subscribed.delete(nodeId);
      await dropNotificationSubscription(nodeId);
      await closeNativeConnection(nodeId);
    }
    for (const nodeId of [...state.labels.keys()]) if (!stored.has(nodeId)) state.labels.delete(nodeId);
  }

  private async forget(clusterId: string): Promise<void> {
    const nodeIds = [...(this.clusters.get(clusterId)?.subscribed.keys() ?? [])];
    await this.closeSubscriptions(clusterId);
    // A removed (or given up) cluster keeps nothing open here: its pooled connection would otherwise stay, and
    // retry for ever once the broker is gone, as a node that stopped serving does not (reconcileSubscriptions).
    await Promise.allSettled(nodeIds.map((nodeId) => closeNativeConnection(nodeId)));
    this.clusters.delete(clusterId);
  }
}

function earliestSplitBrain(splitBrains: readonly SplitBrain[]): Date | null {
  return splitBrains.reduce<Date | null>(
    (earliest, split) => (earliest && earliest <= split.since ? earliest : split.since),
    null,
  );
}
